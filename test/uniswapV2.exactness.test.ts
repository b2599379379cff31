// Uniswap V2 exactness: getAmountOut and getAmountIn against the real
// UniswapV2Pair bytecode (v2-core 1.0.1 on anvil), with the pair as the judge.
// Each case pays the pair and calls its swap in one call (V2SwapProbe): the
// pair must take exactly what the adapter quotes, and refuse with its own
// `UniswapV2: K` one wei more output (exact in) or one wei less input (exact
// out). The accepted swap is then sent, so the cases walk through many
// reserve states; each is read at the current block with readUniswapV2Pools.
import { type Address, type Hex, type PublicClient, decodeAbiParameters, encodeFunctionData, parseAbi, parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DexConfig } from '../src/chains/types.js'
import type { PoolContext } from '../src/protocols/types.js'
import { uniswapV2Family } from '../src/protocols/uniswapV2/family.js'
import { getAmountIn, getAmountOut } from '../src/protocols/uniswapV2/math.js'
import { UniswapV2Pool } from '../src/protocols/uniswapV2/pool.js'
import { readUniswapV2Pools } from '../src/protocols/uniswapV2/readPools.js'
import {
  type Anvil,
  DEVNET_POOLS,
  type Devnet,
  type DevnetPool,
  callBatchSettled,
  compileTestContracts,
  deployDevnet,
  rpc,
  sendDevnetTransaction,
  startAnvil,
  uniswapV2PairAbi,
  weth9Abi,
} from './devnet/index.js'
import { createRandom } from './support/random.js'

const SEED = 0x2b17_e5a3
// Sizes as fractions of the reserve the amount is drawn from (input reserve for
// exact in, output reserve for exact out): 1 wei, dust, small, mid, 30%.
const SIZES = [0, 1e-12, 1e-7, 1e-3, 0.3] as const

const v2SwapProbeAbi = parseAbi([
  'function swap(address pair, address tokenIn, uint256 amountIn, uint256 amount0Out, uint256 amount1Out, address to)',
  'error TransferFromFailed(address token, address from, address to, uint256 amount)',
])

type Kind = 'exactIn' | 'exactOut'

/** What the pair answered to a probe: taken, or refused with its revert reason. */
type Verdict = { ok: true } | { ok: false; reason: string }

type Mismatch = {
  pair: string
  case: string
  check: string
  block: bigint
  reserves: { reserveIn: bigint; reserveOut: bigint }
  expected: unknown
  actual: unknown
}

let anvil: Anvil
let devnet: Devnet
let probe: Address
let v2Dex: DexConfig
let context: PoolContext
const mismatches: Mismatch[] = []
const stats = { cases: 0, exactIn: 0, exactOut: 0, swapsSent: 0, kRefusals: 0, zeroOutputs: 0, exactDivisions: 0 }
let started = 0

const random = createRandom(SEED)

const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)

/** A size drawn from a reserve: 1 wei for fraction 0, else the fraction jittered (the top size stays at or under 30%). */
function drawAmount(reserve: bigint, fraction: number): bigint {
  if (fraction === 0) return 1n
  const jittered = fraction >= 0.3 ? fraction * (0.7 + 0.3 * random()) : fraction * (0.5 + random())
  const amount = (reserve * BigInt(Math.round(jittered * 1e18))) / 10n ** 18n
  return amount > 0n ? amount : 1n
}

function decodeRevert(error: { message: string; data?: unknown }): string {
  const data = typeof error.data === 'string' ? (error.data as Hex) : undefined
  // Error(string): what the pair's `require`s revert with.
  if (data?.startsWith('0x08c379a0')) return decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`)[0]
  return data ?? error.message
}

/**
 * Asks the pair, in one JSON-RPC batch of `eth_call`s from the deployer,
 * whether it takes each (input, output): the probe pays it and calls swap.
 */
async function askPair(
  pool: DevnetPool,
  tokenIn: Address,
  offers: readonly { amountIn: bigint; amountOut: bigint }[],
): Promise<Verdict[]> {
  const zeroForOne = tokenIn === pool.tokens[0]
  const answers = await callBatchSettled(
    anvil.rpcUrl,
    offers.map((offer) => ({
      from: devnet.accounts.deployer,
      to: probe,
      gas: '0x7a120',
      data: buildProbeCall(pool, tokenIn, offer.amountIn, zeroForOne ? 0n : offer.amountOut, zeroForOne ? offer.amountOut : 0n),
    })),
  )
  return answers.map((answer) => ('error' in answer ? { ok: false, reason: decodeRevert(answer.error) } : { ok: true }))
}

function buildProbeCall(pool: DevnetPool, tokenIn: Address, amountIn: bigint, amount0Out: bigint, amount1Out: bigint): Hex {
  return encodeFunctionData({
    abi: v2SwapProbeAbi,
    functionName: 'swap',
    args: [pool.address, tokenIn, amountIn, amount0Out, amount1Out, devnet.accounts.deployer],
  })
}

async function readPair(pool: DevnetPool): Promise<{ block: bigint; pair: UniswapV2Pool }> {
  const block = BigInt(await rpc<Hex>(anvil.rpcUrl, 'eth_blockNumber', []))
  const states = await readUniswapV2Pools({
    client: anvil.publicClient as PublicClient,
    chain: devnet.chain,
    blockNumber: block,
    tokens: [...pool.tokens],
    dexes: [v2Dex],
  })
  const state = states.find((s) => s.address === pool.address)
  if (!state) throw new Error(`readUniswapV2Pools did not return ${pool.address} at block ${block}`)
  const pair = uniswapV2Family.fromState(state, context)
  if (!(pair instanceof UniswapV2Pool)) throw new Error('uniswapV2Family.fromState did not build a UniswapV2Pool')
  return { block, pair }
}

beforeAll(async () => {
  started = performance.now()
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  const dexIndex = devnet.chain.dexes.findIndex((dex) => dex.family === 'uniswapV2')
  v2Dex = devnet.chain.dexes[dexIndex] as DexConfig
  context = { chain: devnet.chain, dex: v2Dex, dexIndex }
  const { V2SwapProbe } = await compileTestContracts({ files: ['test/contracts/V2SwapProbe.sol'] })
  if (!V2SwapProbe) throw new Error('V2SwapProbe did not compile')
  const receipt = await sendDevnetTransaction(anvil.rpcUrl, {
    label: 'deploy V2SwapProbe',
    from: devnet.accounts.deployer,
    data: V2SwapProbe.bytecode,
    gas: 1_000_000n,
  })
  probe = receipt.contractAddress?.toLowerCase() as Address
  for (const token of Object.values(devnet.tokens)) await devnet.approve(token.symbol, devnet.accounts.deployer, probe)
})

afterAll(async () => {
  console.log(
    `V2 exactness: ${stats.cases} cases (${stats.exactIn} exact in, ${stats.exactOut} exact out), ${stats.swapsSent} swaps sent, ` +
      `${stats.kRefusals} K refusals, ${stats.zeroOutputs} inputs too small for any output, ` +
      `${stats.exactDivisions} exact divisions, mismatches: ${mismatches.length}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  await anvil?.stop()
})

/**
 * One case: read the pair, quote, ask the pair about the quote and its
 * one-wei neighbour, then send the quoted swap and check what moved.
 */
async function runCase(pool: DevnetPool, kind: Kind, zeroForOne: boolean, fraction: number): Promise<void> {
  const name = pool.symbols.join('/')
  const [tokenIn, tokenOut] = zeroForOne ? [pool.tokens[0], pool.tokens[1]] : [pool.tokens[1], pool.tokens[0]]
  const { block, pair } = await readPair(pool)
  const [reserveIn, reserveOut] = zeroForOne ? [pair.reserve0, pair.reserve1] : [pair.reserve1, pair.reserve0]
  const size = fraction === 0 ? '1 wei' : `~${fraction} of the reserve`
  const label = `${kind} ${zeroForOne ? pool.symbols[0] : pool.symbols[1]}->${zeroForOne ? pool.symbols[1] : pool.symbols[0]}, ${size}`
  const record = (check: string, expected: unknown, actual: unknown) =>
    mismatches.push({ pair: name, case: label, check, block, reserves: { reserveIn, reserveOut }, expected, actual })
  const expectVerdict = (check: string, verdict: Verdict | undefined, expected: Verdict) => {
    if (toJson(verdict) !== toJson(expected)) record(check, expected, verdict)
    else if (!expected.ok && expected.reason === 'UniswapV2: K') stats.kRefusals++
  }
  stats.cases++

  let amountIn: bigint
  let amountOut: bigint
  if (kind === 'exactIn') {
    stats.exactIn++
    amountIn = drawAmount(reserveIn, fraction)
    amountOut = getAmountOut(amountIn, reserveIn, reserveOut, v2Dex.feeBps ?? 30)
    const quote = pair.quoteExactIn(tokenIn, tokenOut, amountIn)
    const [more, exact] = await askPair(pool, tokenIn, [
      { amountIn, amountOut: amountOut + 1n },
      { amountIn, amountOut },
    ])
    expectVerdict(`pair refuses getAmountOut + 1 = ${amountOut + 1n}`, more, { ok: false, reason: 'UniswapV2: K' })
    if (amountOut === 0n) {
      // Nothing to take: the pair refuses a zero output, and the adapter must not quote one.
      stats.zeroOutputs++
      expectVerdict('pair refuses a zero output', exact, { ok: false, reason: 'UniswapV2: INSUFFICIENT_OUTPUT_AMOUNT' })
      if (quote !== undefined) record('quoteExactIn must refuse a zero output', undefined, quote.amountOut)
      return
    }
    expectVerdict(`pair takes getAmountOut = ${amountOut}`, exact, { ok: true })
    if (quote?.amountOut !== amountOut || quote.amountIn !== amountIn) {
      record('quoteExactIn', { amountIn, amountOut }, quote && { amountIn: quote.amountIn, amountOut: quote.amountOut })
    }
  } else {
    stats.exactOut++
    amountOut = drawAmount(reserveOut, fraction)
    const quoted = getAmountIn(amountOut, reserveIn, reserveOut, v2Dex.feeBps ?? 30)
    if (quoted === undefined) {
      record('getAmountIn', 'an input', undefined)
      return
    }
    amountIn = quoted
    const quote = pair.quoteExactOut(tokenIn, tokenOut, amountOut)
    if (quote?.amountIn !== amountIn || quote.amountOut !== amountOut) {
      record('quoteExactOut', { amountIn, amountOut }, quote && { amountIn: quote.amountIn, amountOut: quote.amountOut })
    }
    // The pair's K check (0.3% of the input withheld) holds iff
    // 997 * in * (reserveOut - out) >= 1000 * reserveIn * out: the least input is that quotient
    // rounded up, which is what getAmountIn returns (UniswapV2Library's floor + 1 would ask one wei
    // more when the division is exact).
    const exactDivision = (1000n * reserveIn * amountOut) % (997n * (reserveOut - amountOut)) === 0n
    if (exactDivision) stats.exactDivisions++
    const [less, exact] = await askPair(pool, tokenIn, [
      { amountIn: amountIn - 1n, amountOut },
      { amountIn, amountOut },
    ])
    const lessVerdict: Verdict = { ok: false, reason: amountIn - 1n === 0n ? 'UniswapV2: INSUFFICIENT_INPUT_AMOUNT' : 'UniswapV2: K' }
    expectVerdict(`pair ${lessVerdict.ok ? 'takes' : 'refuses'} getAmountIn - 1 = ${amountIn - 1n}`, less, lessVerdict)
    expectVerdict(`pair takes getAmountIn = ${amountIn}`, exact, { ok: true })
  }

  // Send the quoted swap: the pair pays exactly the quoted output and keeps the input.
  const receipt = await sendDevnetTransaction(anvil.rpcUrl, {
    label: `${name} ${label}`,
    from: devnet.accounts.deployer,
    to: probe,
    data: buildProbeCall(pool, tokenIn, amountIn, zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n),
    gas: 300_000n,
  })
  stats.swapsSent++
  const [swap] = parseEventLogs({ abi: uniswapV2PairAbi, eventName: 'Swap', logs: receipt.logs })
  const [sync] = parseEventLogs({ abi: uniswapV2PairAbi, eventName: 'Sync', logs: receipt.logs })
  const moved = swap && {
    amountIn: zeroForOne ? swap.args.amount0In : swap.args.amount1In,
    amountOut: zeroForOne ? swap.args.amount1Out : swap.args.amount0Out,
  }
  if (toJson(moved) !== toJson({ amountIn, amountOut })) record('the Swap event', { amountIn, amountOut }, moved)
  const next = (kind === 'exactIn' ? pair.quoteExactIn(tokenIn, tokenOut, amountIn) : pair.quoteExactOut(tokenIn, tokenOut, amountOut))
    ?.next as UniswapV2Pool | undefined
  const reserves = sync && { reserve0: sync.args.reserve0, reserve1: sync.args.reserve1 }
  if (toJson(reserves) !== toJson(next && { reserve0: next.reserve0, reserve1: next.reserve1 })) {
    record("the quote's next reserves vs the Sync event", next && { reserve0: next.reserve0, reserve1: next.reserve1 }, reserves)
  }
}

describe('Uniswap V2 adapter vs the real pair bytecode', () => {
  const specs = DEVNET_POOLS.filter((spec) => spec.family === 'uniswapV2')
  for (const spec of specs) {
    it(`${spec.pair.join('/')}: takes exactly the quoted amounts, refuses one wei past them`, async () => {
      const pool = devnet.getPool(spec.pair[0], spec.pair[1], 'uniswapV2')
      const before = mismatches.length
      // Sizes grow and directions alternate, so the reserves wander but stay near their start.
      for (const fraction of SIZES) {
        for (const kind of ['exactIn', 'exactOut'] as const) {
          await runCase(pool, kind, true, fraction)
          await runCase(pool, kind, false, fraction)
        }
      }
      const found = mismatches.slice(before)
      if (found.length > 0) console.error(`mismatches on ${spec.pair.join('/')}:\n${toJson(found)}`)
      expect(found).toEqual([])
    })
  }

  it('quotes the least input even when the division is exact (where UniswapV2Library asks one wei more)', async () => {
    // Reserves where 1000 * reserveIn * out is a multiple of 997 * (reserveOut - out):
    // donate WETH to the WETH/USDC pair up to the next multiple of 997 * (reserveOut - out), then sync.
    const pool = devnet.getPool('WETH', 'USDC', 'uniswapV2')
    const weth = devnet.tokens.WETH.address
    const zeroForOne = weth === pool.tokens[0]
    const { pair } = await readPair(pool)
    const [reserveIn, reserveOut] = zeroForOne ? [pair.reserve0, pair.reserve1] : [pair.reserve1, pair.reserve0]
    const amountOut = reserveOut / 10n
    const unit = 997n * (reserveOut - amountOut)
    const donation = ((reserveIn + unit - 1n) / unit) * unit - reserveIn
    const deployer = devnet.accounts.deployer
    await sendDevnetTransaction(anvil.rpcUrl, {
      label: 'donate WETH to the pair',
      from: deployer,
      to: weth,
      data: encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [pool.address, donation] }),
      gas: 100_000n,
    })
    await sendDevnetTransaction(anvil.rpcUrl, {
      label: 'sync the pair',
      from: deployer,
      to: pool.address,
      data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'sync' }),
      gas: 100_000n,
    })

    const { pair: synced } = await readPair(pool)
    const [syncedIn, syncedOut] = zeroForOne ? [synced.reserve0, synced.reserve1] : [synced.reserve1, synced.reserve0]
    expect([syncedIn % unit, syncedOut]).toEqual([0n, reserveOut])
    const least = (1000n * syncedIn * amountOut) / unit
    const [tokenIn, tokenOut] = zeroForOne ? [pool.tokens[0], pool.tokens[1]] : [pool.tokens[1], pool.tokens[0]]
    expect(getAmountIn(amountOut, syncedIn, syncedOut, 30)).toBe(least)
    expect(synced.quoteExactOut(tokenIn, tokenOut, amountOut)?.amountIn).toBe(least)
    // The exact-in side is tight here too: the least input buys exactly that output.
    expect(getAmountOut(least, syncedIn, syncedOut, 30)).toBe(amountOut)
    const verdicts = await askPair(pool, tokenIn, [
      { amountIn: least - 1n, amountOut },
      { amountIn: least, amountOut },
      { amountIn: least + 1n, amountOut },
    ])
    expect(verdicts).toEqual([{ ok: false, reason: 'UniswapV2: K' }, { ok: true }, { ok: true }])
  })

  it('covered what it set out to cover', () => {
    expect(stats.cases).toBeGreaterThanOrEqual(60)
    expect(stats.exactIn).toBeGreaterThanOrEqual(30)
    expect(stats.exactOut).toBeGreaterThanOrEqual(30)
    expect(stats.kRefusals).toBeGreaterThanOrEqual(60)
    expect(mismatches).toEqual([])
  })
})
