// Aerodrome V2 exactness: the aerodromeV2 family against the real Pool and PoolFactory (compiled
// from sphere-mezo-solidity-files with solc 0.8.20, test/devnet/aerodrome.ts) on anvil, with the
// pool as the judge. For each random case the pool is read with readAerodromeV2Pools at the current
// block, and then, in one JSON-RPC batch of eth_calls:
// - the pool's own getAmountOut must equal the model's (or both refuse: overflow, Newton's "!y");
// - the pool, paid and swapped in one call (V2SwapProbe), must take or refuse each offer exactly as
//   the model's getAerodromeSwapRefusal says: the quoted output, one wei more, a few more, its whole
//   reserve (InsufficientLiquidity), and for exact out the quoted input and one wei less (K);
// Accepted swaps up to 30% of a reserve are then sent, and the Swap and Sync events must match the
// quote and its next state, so the cases walk through many reserve states. Pools cover 6/8/18
// decimals both ways, the factory's default fees (30 volatile, 5 stable) and custom fees (1, 7, 100,
// 300 and the zero-fee marker 420); sizes run from 1 wei to a million times the reserve.
import { type Address, type Hex, decodeAbiParameters, encodeFunctionData, parseAbi, parseEventLogs, toFunctionSelector } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../src/chains/types.js'
import { aerodromeV2Family } from '../src/protocols/aerodromeV2/family.js'
import { getAerodromeAmountOut, getAerodromeSwapRefusal } from '../src/protocols/aerodromeV2/math.js'
import { AerodromeV2Pool } from '../src/protocols/aerodromeV2/pool.js'
import { readAerodromeV2Pools } from '../src/protocols/aerodromeV2/readPools.js'
import { type AerodromeDeployment, type AerodromeDevnetPool, type AerodromePoolSpec, aerodromePoolAbi, aerodromePoolFactoryAbi, deployAerodrome, withAerodrome } from './devnet/aerodrome.js'
import { type Anvil, type Devnet, callBatchSettled, compileTestContracts, deployDevnet, rpc, sendDevnetTransaction, startAnvil, testTokenAbi } from './devnet/index.js'
import { createRandom } from './support/random.js'

const random = createRandom(0xae_20d2)
const CASES_PER_POOL = 84

/** Pools over TestTokens only (the deployer holds 1e15 whole units of each, enough for huge inputs). */
const POOLS: readonly AerodromePoolSpec[] = [
  { pair: ['WBTC', 'USDC'], stable: false, usdPerSide: 1_000_000 },
  { pair: ['LINK', 'DAI'], stable: false, usdPerSide: 300_000, customFee: 420 },
  { pair: ['PEPE', 'USDT'], stable: false, usdPerSide: 200_000, customFee: 300 },
  { pair: ['DAI', 'WBTC'], stable: false, usdPerSide: 500_000, customFee: 7 },
  { pair: ['USDC', 'USDT'], stable: true, usdPerSide: 2_000_000 },
  { pair: ['USDC', 'DAI'], stable: true, usdPerSide: 1_000_000, customFee: 1 },
  { pair: ['WBTC', 'LINK'], stable: true, usdPerSide: 0, wholePerSide: 5_000 },
  { pair: ['DAI', 'PEPE'], stable: true, usdPerSide: 0, wholePerSide: 40_000, customFee: 100 },
]

// Exact-in sizes as fractions of the input reserve (0: 1 wei), and exact-out targets as fractions of the output reserve.
const IN_SIZES = [0, 1e-15, 1e-9, 1e-5, 1e-3, 0.05, 0.3, 4, 1e3, 1e6] as const
const OUT_SIZES = [0, 1e-12, 1e-6, 1e-3, 0.1, 0.3, 0.9, 0.9999] as const
/** Largest exact-in fraction whose swap is sent (larger ones only ask the pool, so pools stay usable). */
const SEND_UP_TO = 0.3
/** Minted to the deployer of every TestToken, so any input the pools' math takes can be paid. */
const HUGE_BALANCE = 10n ** 55n

const probeAbi = parseAbi(['function swap(address pair, address tokenIn, uint256 amountIn, uint256 amount0Out, uint256 amount1Out, address to)'])

/** A revert, named as the model names refusals. */
const REVERTS: Record<string, string> = Object.fromEntries(
  ['K', 'InsufficientLiquidity', 'InsufficientOutputAmount', 'InsufficientInputAmount', 'IsPaused'].map((name) => [toFunctionSelector(`${name}()`), name]),
)
const PANIC = '0x4e487b71'
const ERROR_STRING = '0x08c379a0'

type Answer = { ok: true; value: Hex } | { ok: false; reason: string }

let anvil: Anvil
let devnet: Devnet
let aerodrome: AerodromeDeployment
let chain: ChainConfig
let probe: Address
const stats = {
  volatile: { cases: 0, exactIn: 0, exactOut: 0, zeroForOne: 0, oneForZero: 0, offers: 0, sent: 0 },
  stable: { cases: 0, exactIn: 0, exactOut: 0, zeroForOne: 0, oneForZero: 0, offers: 0, sent: 0 },
  refusals: {} as Record<string, number>,
  mismatches: [] as unknown[],
}

const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))

function nameRevert(data: unknown, message: string): string {
  if (typeof data !== 'string') return message
  const selector = data.slice(0, 10)
  if (REVERTS[selector]) return REVERTS[selector]
  if (selector === PANIC) return BigInt(`0x${data.slice(10)}`) === 0x11n ? 'overflow' : `panic ${data}`
  if (selector === ERROR_STRING) return decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`)[0]
  return data
}

/** Several eth_calls in one JSON-RPC batch, each answered or refused with its named revert. */
async function ask(calls: readonly { to: Address; data: Hex }[]): Promise<Answer[]> {
  const answers = await callBatchSettled(anvil.rpcUrl, calls.map((call) => ({ from: devnet.accounts.deployer, gas: '0x1c9c380', ...call })))
  return answers.map((answer) => ('error' in answer ? { ok: false, reason: nameRevert(answer.error.data, answer.error.message) } : { ok: true, value: answer.result }))
}

const probeCall = (pool: AerodromeDevnetPool, zeroForOne: boolean, amountIn: bigint, amountOut: bigint) => ({
  to: probe,
  data: encodeFunctionData({
    abi: probeAbi,
    functionName: 'swap',
    args: [pool.address, pool.tokens[zeroForOne ? 0 : 1], amountIn, zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, devnet.accounts.deployer],
  }),
})

async function readPool(pool: AerodromeDevnetPool): Promise<{ block: bigint; model: AerodromeV2Pool }> {
  const block = BigInt(await rpc<Hex>(anvil.rpcUrl, 'eth_blockNumber', []))
  const { pools, skipped } = await readAerodromeV2Pools({ client: anvil.publicClient, chain, blockNumber: block, tokens: [...pool.tokens], dexes: [aerodrome.dex] })
  expect(skipped).toEqual([])
  const state = pools.find((p) => p.address === pool.address)
  if (!state) throw new Error(`readAerodromeV2Pools did not return ${pool.address} at block ${block}`)
  const model = aerodromeV2Family.fromState(state, { chain, dex: aerodrome.dex, dexIndex: chain.dexes.length - 1 })
  if (!(model instanceof AerodromeV2Pool)) throw new Error('aerodromeV2Family.fromState did not build an AerodromeV2Pool')
  return { block, model }
}

function drawAmount(reserve: bigint, fraction: number, cap: bigint): bigint {
  if (fraction === 0) return 1n
  const jittered = fraction * (0.5 + random())
  let amount: bigint
  if (jittered >= 1) amount = reserve * BigInt(Math.round(jittered))
  else amount = (reserve * BigInt(Math.round(jittered * 1e15))) / 10n ** 15n
  if (amount > cap) amount = cap
  return amount > 0n ? amount : 1n
}

/** One random case: exact in or out, a direction, a size; every offer's verdict compared with the model's. */
async function runCase(pool: AerodromeDevnetPool, balances: Record<string, bigint>): Promise<void> {
  const kindStats = pool.stable ? stats.stable : stats.volatile
  const { block, model } = await readPool(pool)
  const zeroForOne = random() < 0.5
  const exactOut = random() < 0.35
  const fee = BigInt(model.feeBps)
  const [reserveIn, reserveOut] = zeroForOne ? [model.reserve0, model.reserve1] : [model.reserve1, model.reserve0]
  const [tokenIn, tokenOut] = zeroForOne ? [model.token0, model.token1] : [model.token1, model.token0]
  const verdictOf = (amountIn: bigint, amountOut: bigint) =>
    getAerodromeSwapRefusal(model.curve, zeroForOne, amountIn, amountOut, model.reserve0, model.reserve1, fee) ?? 'ok'
  kindStats.cases++
  kindStats[zeroForOne ? 'zeroForOne' : 'oneForZero']++
  kindStats[exactOut ? 'exactOut' : 'exactIn']++
  const label = `${pool.stable ? 'stable' : 'volatile'} ${pool.symbols.join('/')} fee ${fee} ${exactOut ? 'exactOut' : 'exactIn'} ${zeroForOne ? '0->1' : '1->0'} at block ${block}`
  const record = (check: string, expected: unknown, actual: unknown) => stats.mismatches.push({ case: label, check, reserves: [model.reserve0, model.reserve1], expected, actual })

  let amountIn: bigint
  let fraction: number
  if (!exactOut) {
    fraction = IN_SIZES[Math.floor(random() * IN_SIZES.length)]!
    amountIn = drawAmount(reserveIn, fraction, balances[tokenIn]!)
  } else {
    fraction = OUT_SIZES[Math.floor(random() * OUT_SIZES.length)]!
    const target = drawAmount(reserveOut, fraction, reserveOut - 1n)
    const quote = model.quoteExactOut(tokenIn, tokenOut, target)
    if (!quote) {
      // No input reaches the target within the pool's math: asking for it refuses at any input the deployer holds.
      const [answer] = await ask([probeCall(pool, zeroForOne, balances[tokenIn]!, target)])
      if (answer?.ok) record(`quoteExactOut refused ${target}, the pool takes it for ${balances[tokenIn]}`, 'refusal', answer)
      return
    }
    if (quote.amountOut < target) record('quoteExactOut below its target', target, quote.amountOut)
    amountIn = quote.amountIn
    fraction = Number(amountIn) / Number(reserveIn)
    if (amountIn > 1n) {
      const below = getAerodromeAmountOut(model.curve, zeroForOne, amountIn - 1n, model.reserve0, model.reserve1, fee)
      if (below !== undefined && below >= target && verdictOf(amountIn - 1n, below) === 'ok') record('quoteExactOut is not the least input', amountIn - 1n, amountIn)
    }
  }
  const expectedOut = getAerodromeAmountOut(model.curve, zeroForOne, amountIn, model.reserve0, model.reserve1, fee)
  const quote = model.quoteExactIn(tokenIn, tokenOut, amountIn)
  const offers: bigint[] = expectedOut === undefined ? [1n, reserveOut / 2n] : [expectedOut, expectedOut + 1n, expectedOut + 2n, expectedOut + 1000n, reserveOut]
  const answers = await ask([
    { to: pool.address, data: encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'getAmountOut', args: [amountIn, tokenIn] }) },
    ...offers.map((out) => probeCall(pool, zeroForOne, amountIn, out)),
    ...(amountIn > 1n && expectedOut !== undefined ? [probeCall(pool, zeroForOne, amountIn - 1n, expectedOut)] : []),
  ])
  const [onChain, ...verdicts] = answers
  const onChainOut = onChain?.ok ? decodeAbiParameters([{ type: 'uint256' }], onChain.value)[0] : undefined
  if (onChainOut !== expectedOut) record('Pool.getAmountOut', expectedOut, onChain)
  const offered = [...offers.map((out) => [amountIn, out] as const), ...(verdicts.length > offers.length ? [[amountIn - 1n, expectedOut as bigint] as const] : [])]
  offered.forEach(([inOffer, outOffer], i) => {
    const expected = verdictOf(inOffer, outOffer)
    const answer = verdicts[i]!
    const actual = answer.ok ? 'ok' : answer.reason
    kindStats.offers++
    if (actual !== 'ok') stats.refusals[actual] = (stats.refusals[actual] ?? 0) + 1
    if (expected !== actual) record(`swap(${inOffer} in, ${outOffer} out)`, expected, actual)
  })
  // The family's quote: the pool's output where swap takes it, nothing where it refuses.
  const takes = expectedOut !== undefined && verdictOf(amountIn, expectedOut) === 'ok'
  if (toJson(quote?.amountOut) !== toJson(takes ? expectedOut : undefined)) record('quoteExactIn', takes ? expectedOut : undefined, quote?.amountOut)

  if (quote && fraction <= SEND_UP_TO) {
    const receipt = await sendDevnetTransaction(anvil.rpcUrl, { label: label, from: devnet.accounts.deployer, ...probeCall(pool, zeroForOne, amountIn, quote.amountOut), gas: 1_000_000n })
    kindStats.sent++
    balances[tokenIn] = balances[tokenIn]! - amountIn
    balances[tokenOut] = balances[tokenOut]! + quote.amountOut
    const [swap] = parseEventLogs({ abi: aerodromePoolAbi, eventName: 'Swap', logs: receipt.logs })
    const [sync] = parseEventLogs({ abi: aerodromePoolAbi, eventName: 'Sync', logs: receipt.logs })
    const moved = swap && [zeroForOne ? swap.args.amount0In : swap.args.amount1In, zeroForOne ? swap.args.amount1Out : swap.args.amount0Out]
    if (toJson(moved) !== toJson([amountIn, quote.amountOut])) record('the Swap event', [amountIn, quote.amountOut], moved)
    const next = quote.next as AerodromeV2Pool
    if (toJson(sync && [sync.args.reserve0, sync.args.reserve1]) !== toJson([next.reserve0, next.reserve1])) {
      record("the quote's next reserves vs the Sync event", [next.reserve0, next.reserve1], sync?.args)
    }
  }
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  aerodrome = await deployAerodrome(devnet, { pools: POOLS })
  chain = withAerodrome(devnet.chain, aerodrome)
  const { V2SwapProbe } = await compileTestContracts({ files: ['test/contracts/V2SwapProbe.sol'] })
  if (!V2SwapProbe) throw new Error('V2SwapProbe did not compile')
  const receipt = await sendDevnetTransaction(anvil.rpcUrl, { label: 'deploy V2SwapProbe', from: devnet.accounts.deployer, data: V2SwapProbe.bytecode, gas: 1_000_000n })
  probe = receipt.contractAddress?.toLowerCase() as Address
  for (const token of Object.values(devnet.tokens)) await devnet.approve(token.symbol, devnet.accounts.deployer, probe)
}, 120_000)

afterAll(async () => {
  console.log(
    `Aerodrome V2 exactness (Pool.sol, solc ${aerodrome?.solcVersion}): volatile ${toJson(stats.volatile)}, stable ${toJson(stats.stable)}, ` +
      `pool refusals ${toJson(stats.refusals)}, mismatches ${stats.mismatches.length}`,
  )
  await anvil?.stop()
})

describe('the aerodromeV2 family vs the real Aerodrome Pool', () => {
  it('reads every pool at its derived address with the fee the factory reports', async () => {
    const block = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    const tokens = Object.values(devnet.tokens).map((t) => t.address)
    const { pools, skipped } = await readAerodromeV2Pools({ client: anvil.publicClient, chain, blockNumber: block, tokens, dexes: [aerodrome.dex] })
    expect(skipped).toEqual([])
    expect(pools.map((p) => p.address).sort()).toEqual(aerodrome.pools.map((p) => p.address).sort())
    for (const [i, spec] of POOLS.entries()) {
      const state = pools.find((p) => p.address === aerodrome.pools[i]!.address)!
      const expectedFee = spec.customFee === 420 ? 0 : (spec.customFee ?? (spec.stable ? 5 : 30))
      expect([state.stable, state.feeBps]).toEqual([spec.stable, expectedFee])
      const onChain = await anvil.publicClient.readContract({ address: aerodrome.factory, abi: aerodromePoolFactoryAbi, functionName: 'getPool', args: [state.token0, state.token1, spec.stable] })
      expect(onChain.toLowerCase()).toBe(state.address)
    }
  })

  it(`takes and refuses exactly what the model says (${CASES_PER_POOL} random cases per pool)`, async () => {
    const balances: Record<string, bigint> = {}
    for (const token of Object.values(devnet.tokens)) {
      // Exact-out targets near a reserve need inputs far beyond the deployer's 1e15 whole tokens.
      if (token.symbol !== 'WETH') await devnet.mint(token.symbol, devnet.accounts.deployer, HUGE_BALANCE)
      balances[token.address] = await anvil.publicClient.readContract({ address: token.address, abi: testTokenAbi, functionName: 'balanceOf', args: [devnet.accounts.deployer] })
    }
    for (let round = 0; round < CASES_PER_POOL; round++) {
      for (const pool of aerodrome.pools) await runCase(pool, balances)
    }
    if (stats.mismatches.length > 0) console.error(toJson(stats.mismatches.slice(0, 20)))
    expect(stats.mismatches).toEqual([])
    for (const kind of [stats.volatile, stats.stable]) {
      expect(kind.cases).toBeGreaterThanOrEqual(300)
      expect(Math.min(kind.zeroForOne, kind.oneForZero, kind.exactOut)).toBeGreaterThan(50)
    }
    // The pool's own refusals were met, not only its acceptances.
    expect(stats.refusals.K).toBeGreaterThan(50)
    expect(stats.refusals.InsufficientLiquidity).toBeGreaterThan(50)
  }, 600_000)

  it('a paused factory: the reader skips its pools, and the pool refuses to swap', async () => {
    const checkpoint = await anvil.checkpoint()
    try {
      await sendDevnetTransaction(anvil.rpcUrl, {
        label: 'pause the factory',
        from: devnet.accounts.deployer,
        to: aerodrome.factory,
        data: encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'setPauseState', args: [true] }),
        gas: 100_000n,
      })
      const block = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
      const pool = aerodrome.pools[0]!
      const { pools, skipped } = await readAerodromeV2Pools({ client: anvil.publicClient, chain, blockNumber: block, tokens: [...pool.tokens], dexes: [aerodrome.dex] })
      expect(pools).toEqual([])
      expect(skipped.map((s) => s.address)).toEqual([pool.address])
      const [answer] = await ask([probeCall(pool, true, 10n ** 6n, 1n)])
      expect(answer).toEqual({ ok: false, reason: 'IsPaused' })
    } finally {
      await checkpoint.restore()
    }
  })
})
