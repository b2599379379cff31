// Balancer V2 exactness: the weighted-pool adapter against the real Vault (20210418-vault) and
// WeightedPool (20230206-weighted-pool-v3 bytecode, the pool the live v4 factory deploys) on anvil,
// with the Vault as the judge. Seven pools: 2 and 3 tokens, 50/50, 80/20, 60/40, 98/2, 50/30/20 and
// thirds, tokens of 6, 8 and 18 decimals, swap fees from the minimum (0.0001%) to the maximum (10%),
// and a 50/50 pool whose LINK carries a rate provider (its rate changes between rounds: weighted pools
// use rates only for yield protocol fees, never in a swap, and getScalingFactors reports decimals only).
// Each round reads one pool with readBalancerV2Pools at the current block and asks the Vault, by
// eth_call of Vault.swap from a funded trader, about every direction:
// - exact in (GIVEN_IN): sizes from 1 wei to the max-in ratio, the largest accepted input and one
//   wei past it; the output must equal quoteExactIn's, and where the adapter refuses the Vault must
//   revert with the code the adapter's math threw (BAL#304 past the ratio) or pay nothing;
// - exact out: the adapter's GIVEN_OUT math (calcInGivenOut plus the fee) against the Vault's
//   GIVEN_OUT, and quoteExactOut's input as the least GIVEN_IN input the Vault accepts for the
//   output (that input pays at least the output, one wei less pays less).
// Then one real swap is sent and its received amount checked, so the rounds walk through many states.
import { type Address, type Hex, decodeAbiParameters, decodeFunctionResult, encodeFunctionData, maxUint256, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DexConfig } from '../src/chains/types.js'
import type { PoolContext } from '../src/protocols/types.js'
import { balancerV2Family } from '../src/protocols/balancerV2/family.js'
import { BalancerV2WeightedPool } from '../src/protocols/balancerV2/pool.js'
import { readBalancerV2Pools } from '../src/protocols/balancerV2/readPools.js'
import { BalancerV2RevertError } from '../src/protocols/balancerV2/revertError.js'
import type { BalancerV2PoolState } from '../src/protocols/balancerV2/state.js'
import { swapGivenIn, swapGivenOut } from '../src/protocols/balancerV2/weightedMath.js'
import {
  type BalancerV2Deployment,
  type BalancerV2DevnetPool,
  balancerVaultAbi,
  createBalancerV2WeightedPool,
  deployBalancerV2,
  getBalancerV2DexConfig,
} from './devnet/balancerV2.js'
import { type Anvil, type Devnet, callBatchSettled, compileTestContracts, deployDevnet, sendDevnetTransaction, startAnvil } from './devnet/index.js'
import { createRandom } from './support/random.js'

const SEED = 0xba1a_2c3d
const ROUNDS = 60
const E18 = 10n ** 18n
const pct = (n: number) => (BigInt(Math.round(n * 1e6)) * E18) / 1_000_000n

let anvil: Anvil
let devnet: Devnet
let balancer: BalancerV2Deployment
let dex: DexConfig
let context: PoolContext
let trader: Address
let rateProvider: Address
const rateProviderAbi = parseAbi(['function setRate(uint256 rate)'])
const setRate = (rate: bigint) =>
  sendDevnetTransaction(anvil.rpcUrl, { label: 'set rate', from: devnet.accounts.deployer, to: rateProvider, data: encodeFunctionData({ abi: rateProviderAbi, functionName: 'setRate', args: [rate] }), gas: 100_000n })
const pools: { name: string; pool: BalancerV2DevnetPool }[] = []
const random = createRandom(SEED)

type Mismatch = { pool: string; check: string; detail: Record<string, unknown> }
const mismatches: Mismatch[] = []
const stats = {
  rounds: 0,
  exactIn: 0,
  exactInRefused: 0,
  maxInRatioReverts: 0,
  exactOutGivenOut: 0,
  givenOutReverts: 0,
  exactOutLeast: 0,
  exactOutBeyondGivenOut: 0,
  swapsSent: 0,
  logExpDirections: 0,
  rateProviderRounds: 0,
}
let started = 0

const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)

/** What the Vault answered to one eth_call of swap: the amount it computed, or its revert reason. */
type VaultAnswer = { ok: true; amount: bigint } | { ok: false; reason: string }

function decodeReason(data: unknown, message: string): string {
  // Error(string): Balancer's `BAL#xyz`.
  if (typeof data === 'string' && data.startsWith('0x08c379a0')) return decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`)[0]
  return typeof data === 'string' ? data : message
}

/** Asks the Vault, in one JSON-RPC batch of eth_calls of `swap` from the trader, what each swap does. */
async function askVault(
  poolId: Hex,
  requests: readonly { kind: 0 | 1; tokenIn: Address; tokenOut: Address; amount: bigint }[],
): Promise<VaultAnswer[]> {
  if (requests.length === 0) return []
  const answers = await callBatchSettled(
    anvil.rpcUrl,
    requests.map((r) => ({
      from: trader,
      to: balancer.vault,
      gas: '0x2dc6c0',
      data: encodeFunctionData({
        abi: balancerVaultAbi,
        functionName: 'swap',
        args: [
          { poolId, kind: r.kind, assetIn: r.tokenIn, assetOut: r.tokenOut, amount: r.amount, userData: '0x' },
          { sender: trader, fromInternalBalance: false, recipient: trader, toInternalBalance: false },
          r.kind === 0 ? 0n : maxUint256,
          maxUint256,
        ],
      }),
    })),
  )
  return answers.map((answer) => {
    if ('error' in answer) return { ok: false, reason: decodeReason(answer.error.data, answer.error.message) }
    return { ok: true, amount: decodeFunctionResult({ abi: balancerVaultAbi, functionName: 'swap', data: answer.result }) }
  })
}

/** The code our math throws for a swap, or its result. */
function ours(run: () => bigint): { ok: true; amount: bigint } | { ok: false; reason: string } {
  try {
    return { ok: true, amount: run() }
  } catch (error) {
    if (error instanceof BalancerV2RevertError) return { ok: false, reason: `BAL#${String(error.balCode).padStart(3, '0')}` }
    throw error
  }
}

async function readState(poolId: Hex): Promise<BalancerV2PoolState> {
  const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
  const tokens = Object.values(devnet.tokens).map((t) => t.address)
  const { pools: states, skipped } = await readBalancerV2Pools({ client: anvil.publicClient, chain: context.chain, blockNumber, tokens, dexes: [dex] })
  if (skipped.length > 0) throw new Error(`pools skipped: ${toJson(skipped)}`)
  const state = states.find((s) => s.poolId === poolId)
  if (!state) throw new Error(`pool ${poolId} was not read`)
  return state
}

function buildPool(state: BalancerV2PoolState): BalancerV2WeightedPool {
  const pool = balancerV2Family.fromState(state, context)
  if (!(pool instanceof BalancerV2WeightedPool)) throw new Error('fromState did not build a BalancerV2WeightedPool')
  return pool
}

/** A fraction of `whole`, jittered (fraction 0: 1 wei). */
function portion(whole: bigint, fraction: number): bigint {
  if (fraction === 0) return 1n
  const amount = (whole * BigInt(Math.round(fraction * (0.6 + 0.4 * random()) * 1e15))) / 10n ** 15n
  return amount > 0n ? amount : 1n
}

beforeAll(async () => {
  started = performance.now()
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  balancer = await deployBalancerV2(devnet)
  const specs: { name: string; swapFee: bigint; tokens: { token: 'WETH' | 'USDC' | 'USDT' | 'DAI' | 'WBTC' | 'LINK' | 'PEPE'; weight: bigint; amount: bigint; rateProvider?: Address }[] }[] = [
    { name: 'WETH/USDC 50/50', swapFee: pct(0.003), tokens: [{ token: 'WETH', weight: pct(0.5), amount: 400n * E18 }, { token: 'USDC', weight: pct(0.5), amount: 1_200_000n * 10n ** 6n }] },
    { name: 'WBTC/WETH 80/20', swapFee: pct(0.001), tokens: [{ token: 'WBTC', weight: pct(0.8), amount: 40n * 10n ** 8n }, { token: 'WETH', weight: pct(0.2), amount: 200n * E18 }] },
    {
      name: 'DAI/USDC/WETH 50/30/20',
      swapFee: pct(0.01),
      tokens: [
        { token: 'DAI', weight: pct(0.5), amount: 500_000n * E18 },
        { token: 'USDC', weight: pct(0.3), amount: 300_000n * 10n ** 6n },
        { token: 'WETH', weight: pct(0.2), amount: 66n * E18 },
      ],
    },
    { name: 'LINK/USDT 60/40', swapFee: 10n ** 12n, tokens: [{ token: 'LINK', weight: pct(0.6), amount: 40_000n * E18 }, { token: 'USDT', weight: pct(0.4), amount: 400_000n * 10n ** 6n }] },
    {
      name: 'WBTC/PEPE/USDC thirds',
      swapFee: pct(0.1),
      tokens: [
        { token: 'WBTC', weight: 333_333_333_333_333_333n, amount: 5n * 10n ** 8n },
        { token: 'PEPE', weight: 333_333_333_333_333_333n, amount: 30_000_000_000n * E18 },
        { token: 'USDC', weight: 333_333_333_333_333_334n, amount: 300_000n * 10n ** 6n },
      ],
    },
    { name: 'WETH/LINK 98/2', swapFee: pct(0.0025), tokens: [{ token: 'WETH', weight: pct(0.98), amount: 980n * E18 }, { token: 'LINK', weight: pct(0.02), amount: 4_000n * E18 }] },
  ]
  const { BalancerRateProvider } = await compileTestContracts({ files: ['test/contracts/BalancerRateProvider.sol'] })
  const deployed = await sendDevnetTransaction(anvil.rpcUrl, { label: 'deploy rate provider', from: devnet.accounts.deployer, data: BalancerRateProvider!.bytecode, gas: 500_000n })
  rateProvider = deployed.contractAddress!.toLowerCase() as Address
  await setRate(1_123_456_789_012_345_678n)
  specs.push({ name: 'LINK(rate)/WETH 50/50', swapFee: pct(0.002), tokens: [{ token: 'LINK', weight: pct(0.5), amount: 20_000n * E18, rateProvider }, { token: 'WETH', weight: pct(0.5), amount: 100n * E18 }] })
  for (const spec of specs) {
    pools.push({ name: spec.name, pool: await createBalancerV2WeightedPool(devnet, balancer, spec.tokens, { swapFee: spec.swapFee, name: spec.name.replace(/ .*/, '') }) })
  }
  dex = getBalancerV2DexConfig(balancer, pools.map((p) => p.pool.poolId))
  const chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, dex] }
  context = { chain, dex, dexIndex: chain.dexes.length - 1 }
  trader = devnet.accounts.traders[0]!
  // The trader can pay any input the rounds try: far more than any pool holds.
  for (const token of Object.values(devnet.tokens)) {
    await devnet.mint(token.address, trader, token.symbol === 'WETH' ? 10n ** 24n : 10n ** 40n)
    await devnet.approve(token.address, trader, balancer.vault)
  }
}, 120_000)

afterAll(async () => {
  console.log(
    `Balancer V2 exactness: ${stats.rounds} rounds, ${stats.exactIn} exact-in checks (${stats.exactInRefused} refused alike, ` +
      `${stats.maxInRatioReverts} BAL#304 at the max-in ratio), ${stats.exactOutGivenOut} GIVEN_OUT checks ` +
      `(${stats.givenOutReverts} reverts alike), ${stats.exactOutLeast} least-input checks ` +
      `(${stats.exactOutBeyondGivenOut} past the Vault's 30% GIVEN_OUT limit), ${stats.logExpDirections} directions through ` +
      `LogExpMath.pow, ${stats.rateProviderRounds} rounds on the pool with a moving rate provider, ${stats.swapsSent} swaps sent, mismatches: ${mismatches.length}, ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  await anvil?.stop()
})

describe('Balancer V2 weighted pools against the real Vault and WeightedPool', () => {
  it('matches the Vault on every exact-in and exact-out swap of a random walk', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { name, pool: created } = pools[round % pools.length]!
      // The rate provider's token is worth a little more each time its pool comes round.
      if (name.includes('rate')) await setRate(1_123_456_789_012_345_678n + BigInt(round) * 7_777_777_777_777n)
      const state = await readState(created.poolId)
      const pool = buildPool(state)
      if (name.includes('rate')) stats.rateProviderRounds++
      const tokens = pool.tokens
      const record = (check: string, detail: Record<string, unknown>) => mismatches.push({ pool: name, check, detail: { round, ...detail } })

      type Probe = { kind: 0 | 1; tokenIn: Address; tokenOut: Address; amount: bigint; check: (answer: VaultAnswer) => void }
      const probes: Probe[] = []
      // Least-input checks need the GIVEN_IN answers at x and x - 1: a second batch.
      const leastChecks: { tokenIn: Address; tokenOut: Address; amountOut: bigint; amountIn: bigint }[] = []

      for (let i = 0; i < tokens.length; i++) {
        for (let o = 0; o < tokens.length; o++) {
          if (i === o) continue
          const tokenIn = tokens[i]!
          const tokenOut = tokens[o]!
          const { maxIn, maxOut } = pool.limits(tokenIn, tokenOut)
          const weights = pool.parameters.weights
          const ratio = (weights[i]! * E18) / weights[o]!
          if (ratio !== E18 && ratio !== 2n * E18 && ratio !== 4n * E18) stats.logExpDirections++
          const side = {
            balanceIn: pool.balances[i]!,
            balanceOut: pool.balances[o]!,
            weightIn: weights[i]!,
            weightOut: weights[o]!,
            scalingIn: pool.parameters.scalingFactors[i]!,
            scalingOut: pool.parameters.scalingFactors[o]!,
            swapFee: pool.parameters.swapFee,
          }

          // Exact in: 1 wei, dust, small, mid, large, the max-in ratio, and one wei past it.
          const sizes = [1n, ...[1e-12, 1e-6, 1e-3, 0.05, 0.4, 0.95].map((f) => portion(maxIn, f)), maxIn, maxIn + 1n, maxIn + 1000n]
          for (const amount of sizes) {
            const mine = ours(() => swapGivenIn(side, amount))
            const quoted = pool.quoteExactIn(tokenIn, tokenOut, amount)
            probes.push({
              kind: 0,
              tokenIn,
              tokenOut,
              amount,
              check(answer) {
                stats.exactIn++
                if (answer.ok && answer.amount > 0n) {
                  if (quoted?.amountOut !== answer.amount) record('exact in', { tokenIn, tokenOut, amount, quoted: quoted?.amountOut, vault: answer.amount })
                  return
                }
                // The Vault refused or paid nothing: the adapter must not quote it.
                if (quoted !== undefined) record('exact in refused by the Vault', { tokenIn, tokenOut, amount, quoted: quoted.amountOut, vault: answer })
                else stats.exactInRefused++
                if (!answer.ok) {
                  if (mine.ok || mine.reason !== answer.reason) record('revert reason', { tokenIn, tokenOut, amount, ours: mine, vault: answer.reason })
                  if (answer.reason === 'BAL#304') stats.maxInRatioReverts++
                }
              },
            })
          }

          // Exact out: 1 wei up to 30% of the output balance, and past it where the weights allow.
          const balanceOut = pool.balances[o]!
          const targets = [1n, ...[1e-9, 1e-4, 0.01, 0.12, 0.29].map((f) => portion(balanceOut, f)), (balanceOut * 3n) / 10n, maxOut > 0n ? portion(maxOut, 0.99) : 1n]
          for (const amountOut of targets) {
            const mine = ours(() => swapGivenOut(side, amountOut))
            probes.push({
              kind: 1,
              tokenIn,
              tokenOut,
              amount: amountOut,
              check(answer) {
                stats.exactOutGivenOut++
                const same = answer.ok ? mine.ok && mine.amount === answer.amount : !mine.ok && mine.reason === answer.reason
                if (!same) record('GIVEN_OUT', { tokenIn, tokenOut, amountOut, ours: mine, vault: answer })
                else if (!answer.ok) stats.givenOutReverts++
                if (!answer.ok && answer.reason === 'BAL#305') stats.exactOutBeyondGivenOut++
              },
            })
            const least = pool.quoteExactOut(tokenIn, tokenOut, amountOut)
            if (least) {
              if (least.amountOut < amountOut) record('quoteExactOut pays short', { tokenIn, tokenOut, amountOut, least })
              leastChecks.push({ tokenIn, tokenOut, amountOut, amountIn: least.amountIn })
            } else if (maxOut >= amountOut) {
              record('quoteExactOut refused a reachable output', { tokenIn, tokenOut, amountOut, maxOut })
            }
          }
        }
      }

      const answers = await askVault(created.poolId, probes)
      probes.forEach((probe, k) => probe.check(answers[k]!))

      const leastAnswers = await askVault(
        created.poolId,
        leastChecks.flatMap((c) => [
          { kind: 0 as const, tokenIn: c.tokenIn, tokenOut: c.tokenOut, amount: c.amountIn },
          { kind: 0 as const, tokenIn: c.tokenIn, tokenOut: c.tokenOut, amount: c.amountIn - 1n },
        ]),
      )
      leastChecks.forEach((c, k) => {
        stats.exactOutLeast++
        const at = leastAnswers[2 * k]!
        const below = leastAnswers[2 * k + 1]!
        const enough = at.ok && at.amount >= c.amountOut
        const short = c.amountIn === 1n || !below.ok || below.amount < c.amountOut
        if (!enough || !short) record('least input', { ...c, at, below })
      })

      // One real swap moves the pool: a random direction and size, checked against the quote.
      const i = Math.floor(random() * tokens.length)
      const o = (i + 1 + Math.floor(random() * (tokens.length - 1))) % tokens.length
      const tokenIn = tokens[i]!
      const tokenOut = tokens[o]!
      const amountIn = portion(pool.limits(tokenIn, tokenOut).maxIn, random() < 0.3 ? 0.9 : 0.2)
      const quote = pool.quoteExactIn(tokenIn, tokenOut, amountIn)
      if (quote) {
        const before = await devnet.balanceOf(tokenOut, trader)
        await sendDevnetTransaction(anvil.rpcUrl, {
          label: `swap on ${name}`,
          from: trader,
          to: balancer.vault,
          data: encodeFunctionData({
            abi: balancerVaultAbi,
            functionName: 'swap',
            args: [
              { poolId: created.poolId, kind: 0, assetIn: tokenIn, assetOut: tokenOut, amount: amountIn, userData: '0x' },
              { sender: trader, fromInternalBalance: false, recipient: trader, toInternalBalance: false },
              0n,
              maxUint256,
            ],
          }),
          gas: 1_000_000n,
        })
        const received = (await devnet.balanceOf(tokenOut, trader)) - before
        stats.swapsSent++
        if (received !== quote.amountOut) record('sent swap', { tokenIn, tokenOut, amountIn, quoted: quote.amountOut, received })
        const next = buildPool(await readState(created.poolId))
        if (toJson(next.balances) !== toJson((quote.next as BalancerV2WeightedPool).balances)) {
          record('next state', { ours: (quote.next as BalancerV2WeightedPool).balances, vault: next.balances })
        }
      }
      stats.rounds++
    }
    if (mismatches.length > 0) console.log(toJson(mismatches.slice(0, 10)))
    expect(mismatches).toEqual([])
    expect(stats.exactIn).toBeGreaterThan(1_000)
    expect(stats.maxInRatioReverts).toBeGreaterThan(50)
    expect(stats.exactOutLeast).toBeGreaterThan(500)
    expect(stats.exactOutBeyondGivenOut).toBeGreaterThan(0)
    expect(stats.logExpDirections).toBeGreaterThan(50)
    expect(stats.rateProviderRounds).toBeGreaterThan(5)
  }, 600_000)
})
