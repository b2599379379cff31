// Uniswap V4 exactness: the adapter's integer math against the real PoolManager bytecode
// (v4-core 1.0.2 on anvil), by execution. A seeded random walk of raw swaps (V4 signs: a negative
// amount is an exact input) runs on pools of every shape the family prices: native ETH and ERC-20
// currencies, the standard fee / spacing pairs and odd ones, protocol fees in one or both
// directions (composed with the LP fee), a 0 LP fee (the whole fee is the protocol's) and a 100%
// fee. Before each swap the pool is read through readUniswapV4Pools (the lens, via extsload) at the
// current block; the swap is predicted off-chain, sent through a test router, and the prediction
// must equal the PoolManager's own Swap event to the wei: both deltas, the price, the tick, the
// liquidity and the fee charged. The ticks the state "knows to the end" come from the positions
// this test created, not from the lens, so lens and math are checked against an independent truth.
import type { PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../src/chains/types.js'
import type { PoolContext } from '../src/protocols/types.js'
import { MAX_INT128 } from '../src/protocols/uniswapV3/constants.js'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, getSqrtRatioAtTick } from '../src/protocols/uniswapV3/tickMath.js'
import { getSwapFee } from '../src/protocols/uniswapV4/fees.js'
import { UniswapV4Pool } from '../src/protocols/uniswapV4/pool.js'
import { readUniswapV4Pools } from '../src/protocols/uniswapV4/readPools.js'
import { UniswapV4RevertError } from '../src/protocols/uniswapV4/revertError.js'
import type { UniswapV4PoolState, UniswapV4Tick } from '../src/protocols/uniswapV4/state.js'
import { type SimulateSwapReturnType, simulateSwap } from '../src/protocols/uniswapV4/swap.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from './devnet/index.js'
import { type UniswapV4Deployment, type UniswapV4DevnetPool, type UniswapV4PoolSpec, deployUniswapV4, withUniswapV4 } from './devnet/uniswapV4.js'
import { createRandom } from './support/random.js'

const SEED = 0x4e4f_0a17
const SWAPS_PER_POOL = 40
const EXTRA_POSITIONS = 5
// Loop iterations a swap may take (each a bitmap word or a tick): longer swaps get a price limit.
const MAX_STEPS = 100
// What the deployer can pay, in USD of the input token, per swap.
const BUDGET_USD = 40_000_000

const POOLS: readonly (UniswapV4PoolSpec & { label: string })[] = [
  { label: 'ETH/USDC 500/10', pair: ['ETH', 'USDC'], fee: 500, tickSpacing: 10, positions: [{ range: 'full', usd: 2_000_000 }, { range: [0.9, 1.1], usd: 3_000_000 }] },
  {
    label: 'WETH/USDC 3000/60, protocol fee both ways',
    pair: ['WETH', 'USDC'],
    fee: 3000,
    tickSpacing: 60,
    positions: [{ range: 'full', usd: 1_000_000 }, { range: [0.7, 1.4], usd: 800_000 }],
    protocolFee: (1000 << 12) | 400,
  },
  { label: 'USDC/USDT 100/1', pair: ['USDC', 'USDT'], fee: 100, tickSpacing: 1, positions: [{ range: [0.995, 1.005], usd: 2_000_000 }, { range: 'full', usd: 50_000 }] },
  {
    label: 'ETH/LINK 10000/200, gaps',
    pair: ['ETH', 'LINK'],
    fee: 10000,
    tickSpacing: 200,
    positions: [{ range: [0.9, 1.1], usd: 300_000 }, { range: [0.5, 0.8], usd: 150_000 }, { range: [1.25, 2], usd: 150_000 }],
  },
  {
    label: 'DAI/USDC 0/1, protocol fee only',
    pair: ['DAI', 'USDC'],
    fee: 0,
    tickSpacing: 1,
    positions: [{ range: [0.99, 1.01], usd: 1_000_000 }],
    protocolFee: (500 << 12) | 700,
  },
  {
    label: 'WBTC/WETH 7777/7, oneForZero protocol fee',
    pair: ['WBTC', 'WETH'],
    fee: 7777,
    tickSpacing: 7,
    positions: [{ range: 'full', usd: 800_000 }, { range: [0.8, 1.25], usd: 1_000_000 }],
    protocolFee: 999 << 12,
  },
  { label: 'ETH/PEPE 3000/60', pair: ['ETH', 'PEPE'], fee: 3000, tickSpacing: 60, positions: [{ range: 'full', usd: 500_000 }, { range: [0.5, 2], usd: 500_000 }] },
  { label: 'LINK/USDC 1000000/60 (100% fee)', pair: ['LINK', 'USDC'], fee: 1_000_000, tickSpacing: 60, positions: [{ range: 'full', usd: 100_000 }] },
]

type Outcome = { amount0: bigint; amount1: bigint; sqrtPriceX96: bigint; tick: number; liquidity: bigint }
type SwapInput = { zeroForOne: boolean; amountSpecified: bigint; sqrtPriceLimitX96: bigint | undefined; mode: 'dust' | 'sized' | 'limited' }
type Mismatch = { pool: string; swap: number; check: string; input: SwapInput; expected: unknown; actual: unknown }
type Coverage = 'inside' | 'beyond' | 'edge'

let anvil: Anvil
let devnet: Devnet
let v4: UniswapV4Deployment
let chain: ChainConfig
let context: PoolContext
const mismatches: Mismatch[] = []
const stats = {
  swaps: 0,
  exactIn: 0,
  exactOut: 0,
  limited: 0,
  dust: 0,
  partialFills: 0,
  reverts: 0,
  nativeIn: 0,
  nativeOut: 0,
  withProtocolFee: 0,
  quotesChecked: 0,
  ticksCrossed: 0,
  swapsCrossingTicks: 0,
  emptyEnds: 0,
  lensChecked: 0,
  lensRefused: 0,
}
const perPool = new Map<string, { swaps: number; ticksCrossed: number }>()
let started = 0
const random = createRandom(SEED)

const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)

function randomBelow(bound: bigint): bigint {
  if (bound <= 0n) return 0n
  let value = 0n
  for (let bits = 0; bits < bound.toString(2).length + 32; bits += 32) value = (value << 32n) | BigInt(Math.floor(random() * 2 ** 32))
  return value % bound
}

function scale(amount: bigint, fraction: number): bigint {
  return (amount * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n
}

/** Every initialized tick of a pool, from the positions this test created: liquidityNet summed per tick. */
function positionTicks(pool: UniswapV4DevnetPool): UniswapV4Tick[] {
  const nets = new Map<number, bigint>()
  for (const { tickLower, tickUpper, liquidity } of pool.positions) {
    nets.set(tickLower, (nets.get(tickLower) ?? 0n) + liquidity)
    nets.set(tickUpper, (nets.get(tickUpper) ?? 0n) - liquidity)
  }
  return [...nets]
    .filter(([, net]) => net !== 0n)
    .sort((a, b) => a[0] - b[0])
    .map(([index, net]) => ({ index, liquidityNet: net.toString() }))
}

/** Positions whose both ends cancel at one tick leave it initialized with liquidityNet 0: keep such ticks too. */
function positionTickIndexes(pool: UniswapV4DevnetPool): Set<number> {
  return new Set(pool.positions.flatMap((p) => [p.tickLower, p.tickUpper]))
}

function budget(pool: UniswapV4DevnetPool, zeroForOne: boolean): bigint {
  const symbol = pool.symbols[zeroForOne ? 0 : 1]
  const token = symbol === 'ETH' ? devnet.tokens.WETH : devnet.tokens[symbol]
  return BigInt(Math.floor(BUDGET_USD / token.priceUsd)) * 10n ** BigInt(token.decimals)
}

/**
 * Whether a state knowing [tickLower, tickUpper] covers every word a swap that ended at
 * `finalSqrtPriceX96` searched: a zeroForOne swap leaves the lowest known word only by pushing the
 * price below its first tick; a oneForZero swap needs the next word once the price reaches the
 * last tick of the highest known one.
 */
function judgeCoverage(zeroForOne: boolean, finalSqrtPriceX96: bigint, tickSpacing: number, tickLower: number, tickUpper: number): Coverage {
  const word = 256 * tickSpacing
  if (zeroForOne) {
    if (tickLower <= MIN_TICK) return 'inside'
    const boundary = getSqrtRatioAtTick(Math.ceil(tickLower / word) * word)
    return finalSqrtPriceX96 > boundary ? 'inside' : finalSqrtPriceX96 < boundary ? 'beyond' : 'edge'
  }
  if (tickUpper >= MAX_TICK) return 'inside'
  const top = (Math.floor((Math.floor(tickUpper / tickSpacing) - 255) / 256) * 256 + 255) * tickSpacing
  const boundary = getSqrtRatioAtTick(top)
  return finalSqrtPriceX96 < boundary ? 'inside' : finalSqrtPriceX96 > boundary ? 'beyond' : 'edge'
}

function trySimulate(pool: UniswapV4Pool, input: SwapInput): SimulateSwapReturnType | undefined | 'reverts' {
  try {
    const fee = getSwapFee(pool.protocolFee, pool.fee, input.zeroForOne)
    return simulateSwap(pool, input.zeroForOne, input.amountSpecified, fee, input.sqrtPriceLimitX96)
  } catch (error) {
    if (error instanceof UniswapV4RevertError) return 'reverts'
    throw error
  }
}

const pick = (r: Outcome): Outcome => ({ amount0: r.amount0, amount1: r.amount1, sqrtPriceX96: r.sqrtPriceX96, tick: r.tick, liquidity: r.liquidity })

/**
 * The next swap: the direction drifts back toward the pool's first tick; exact in or out; dust,
 * a size that moves the price to a target tick (log-uniform distance, scaled 0.3..1.2), or a
 * large amount stopped by a price limit anywhere inside a target tick; limited when the sized
 * swap would take too many loop iterations. Within the budget.
 */
function chooseSwap(full: UniswapV4Pool, read: UniswapV4PoolState, spec: UniswapV4DevnetPool, home: number): SwapInput {
  const span = spec.tickSpacing <= 10 ? 3 * 256 * spec.tickSpacing : 12_000
  const offset = full.tick - home
  let zeroForOne = Math.abs(offset) > span ? offset > 0 : random() < (offset > 0 ? 0.65 : 0.35)
  if (full.sqrtPriceX96 <= MIN_SQRT_RATIO + 1n) zeroForOne = false
  if (full.sqrtPriceX96 >= MAX_SQRT_RATIO - 2n) zeroForOne = true
  // A 100% fee refuses exact outputs (InvalidFeeForExactOut): asked now and then, to see both revert.
  const exactIn = random() < 0.5 || (full.fee === 1_000_000 && random() < 0.75)
  const signed = (amount: bigint) => (exactIn ? -amount : amount)
  const cap = budget(spec, zeroForOne)
  const roll = random()
  const distance = Math.max(1, Math.round(Math.exp(Math.sqrt(random()) * Math.log(span))))
  // Now and then the target lies past the words the lens read, which that state must refuse.
  const escaping = roll >= 0.92
  const beyond = 1 + Math.floor(random() * 256 * spec.tickSpacing)
  let targetTick = escaping ? (zeroForOne ? read.tickLower - beyond : read.tickUpper + beyond) : full.tick + (zeroForOne ? -distance : distance)
  if (zeroForOne ? targetTick >= full.tick : targetTick <= full.tick) targetTick = full.tick + (zeroForOne ? -1 : 1)
  targetTick = Math.min(MAX_TICK - 1, Math.max(MIN_TICK + 1, targetTick))
  const targetPrice = getSqrtRatioAtTick(targetTick)
  const limitPrice = targetPrice + randomBelow(getSqrtRatioAtTick(targetTick + 1) - targetPrice)
  const reach = trySimulate(full, { zeroForOne, amountSpecified: -MAX_INT128, sqrtPriceLimitX96: limitPrice, mode: 'limited' })
  if (reach === undefined || reach === 'reverts') throw new Error('the full state must reach any price')
  const [paid, received] = zeroForOne ? [-reach.amount0, reach.amount1] : [-reach.amount1, reach.amount0]
  const reachAmount = exactIn ? paid : received
  let input: SwapInput
  if (roll < 0.12) {
    input = { zeroForOne, amountSpecified: signed(1n + BigInt(Math.floor(random() ** 3 * 1000))), sqrtPriceLimitX96: undefined, mode: 'dust' }
  } else if (roll < 0.35 || escaping) {
    const amount = random() < 0.5 ? reachAmount * 3n + 1n : 1n + scale(reachAmount, 0.5 + random() * 0.5)
    input = { zeroForOne, amountSpecified: signed(amount), sqrtPriceLimitX96: limitPrice, mode: 'limited' }
  } else {
    input = { zeroForOne, amountSpecified: signed(1n + scale(reachAmount, 0.3 + random() * 0.9)), sqrtPriceLimitX96: undefined, mode: 'sized' }
  }
  const predicted = trySimulate(full, input)
  const tooLong = typeof predicted === 'object' && predicted.stepsTaken > MAX_STEPS
  if (tooLong) input = { ...input, sqrtPriceLimitX96: limitPrice }
  // Within what the deployer holds: exact inputs are capped, exact outputs whose input is too large shrink.
  if (exactIn && -input.amountSpecified > cap) input = { ...input, amountSpecified: -cap }
  if (!exactIn) {
    const check = trySimulate(full, input)
    const owed = typeof check === 'object' ? -(zeroForOne ? check.amount0 : check.amount1) : 0n
    if (owed > cap) input = { ...input, amountSpecified: 1n + scale(input.amountSpecified, 0.001) }
  }
  return input
}

beforeAll(async () => {
  started = performance.now()
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil, { pools: [] })
  v4 = await deployUniswapV4(devnet, { pools: POOLS })
  chain = withUniswapV4(devnet.chain, v4)
  context = { chain, dex: v4.dex, dexIndex: chain.dexes.length - 1 }
  // More initialized ticks to cross, some shared by two positions, in both directions.
  for (const pool of v4.pools) {
    const spacing = pool.tickSpacing
    const center = pool.positions[0] as { tickLower: number; tickUpper: number; liquidity: bigint }
    const mid = Math.round((Math.max(center.tickLower, MIN_TICK / 2) + Math.min(center.tickUpper, MAX_TICK / 2)) / 2)
    const span = spacing <= 10 ? 3 * 256 * spacing : 12_000
    let shared: number | undefined
    for (let i = 0; i < EXTRA_POSITIONS; i++) {
      const start = shared ?? Math.floor((mid + (random() * 2 - 1) * span) / spacing) * spacing
      const width = spacing * (1 + Math.floor(random() * (span / spacing / 2)))
      const lowest = Math.ceil(MIN_TICK / spacing) * spacing
      const highest = Math.floor(MAX_TICK / spacing) * spacing
      const tickLower = Math.max(lowest, Math.min(highest - spacing, start))
      const tickUpper = Math.min(highest, tickLower + width)
      const liquidity = 1n + scale(center.liquidity, 0.05 + random() * 0.5)
      await v4.addLiquidity(pool, tickLower, tickUpper, liquidity)
      pool.positions.push({ tickLower, tickUpper, liquidity })
      shared = i === 1 ? tickLower : undefined
    }
  }
})

afterAll(async () => {
  console.log(
    `V4 exactness: ${stats.swaps} swaps (${stats.exactIn} exact in, ${stats.exactOut} exact out, ${stats.limited} with a price limit, ` +
      `${stats.dust} dust, ${stats.partialFills} partial fills, ${stats.reverts} predicted reverts, ${stats.nativeIn} native in, ` +
      `${stats.nativeOut} native out, ${stats.withProtocolFee} with a protocol fee), ${stats.ticksCrossed} initialized ticks crossed ` +
      `in ${stats.swapsCrossingTicks} swaps, ${stats.emptyEnds} ending without liquidity, lens states: ${stats.lensChecked} predicted, ` +
      `${stats.lensRefused} refused (beyond the words read), ${stats.quotesChecked} pool quotes checked, mismatches: ${mismatches.length}, ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  await anvil?.stop()
})

async function runWalk(spec: UniswapV4DevnetPool, label: string): Promise<void> {
  const client = anvil.publicClient as PublicClient
  const ticks = positionTicks(spec)
  const indexes = positionTickIndexes(spec)
  let home: number | undefined
  let previous: Outcome | undefined
  const tally = { swaps: 0, ticksCrossed: 0 }
  perPool.set(label, tally)

  for (let k = 0; k < SWAPS_PER_POOL; k++) {
    const block = await client.getBlockNumber({ cacheTime: 0 })
    const dex: DexConfig = { ...v4.dex, feeTiers: {}, poolKeys: [spec.key] }
    const { pools } = await readUniswapV4Pools({ client, chain, blockNumber: block, tokens: [...spec.tokens], dexes: [dex] })
    const read = pools.find((state) => state.id === spec.id) as UniswapV4PoolState
    const record = (check: string, expected: unknown, actual: unknown) =>
      mismatches.push({ pool: label, swap: k, check, input, expected, actual })
    let input: SwapInput = { zeroForOne: true, amountSpecified: 0n, sqrtPriceLimitX96: undefined, mode: 'dust' }
    if (!read) {
      record('readUniswapV4Pools returns the pool', spec.id, undefined)
      return
    }
    home ??= read.tick
    // The lens's ticks are the positions' (every initialized tick in the words it read).
    const expectedTicks = ticks.filter((t) => t.index >= read.tickLower && t.index <= read.tickUpper)
    const lensTicks = read.ticks.filter((t) => t.liquidityNet !== '0' || !indexes.has(t.index))
    if (toJson(lensTicks) !== toJson(expectedTicks)) record('lens ticks vs the positions', expectedTicks, read.ticks)
    if (read.protocolFee !== spec.protocolFee || read.lpFee !== spec.fee) record('lens fees', [spec.protocolFee, spec.fee], [read.protocolFee, read.lpFee])
    if (previous && !(BigInt(read.sqrtPriceX96) === previous.sqrtPriceX96 && read.tick === previous.tick && BigInt(read.liquidity) === previous.liquidity)) {
      record('lens state vs the last Swap event', previous, { sqrtPriceX96: read.sqrtPriceX96, tick: read.tick, liquidity: read.liquidity })
    }

    // fromState checks the full state's liquidity against the ticks' liquidityNet.
    const full = UniswapV4Pool.fromState({ ...read, ticks, tickLower: MIN_TICK, tickUpper: MAX_TICK }, context)
    const lens = UniswapV4Pool.fromState(read, context)
    input = chooseSwap(full, read, spec, home)
    const fullPrediction = trySimulate(full, input)
    const lensPrediction = trySimulate(lens, input)

    const nativeIn = spec.native && input.zeroForOne
    let value = 0n
    if (nativeIn) {
      value = typeof fullPrediction === 'object' ? -fullPrediction.amount0 : 0n
      if (input.amountSpecified < 0n && input.sqrtPriceLimitX96 === undefined) value = -input.amountSpecified
    }
    stats.swaps++
    tally.swaps++
    if (input.amountSpecified < 0n) stats.exactIn++
    else stats.exactOut++
    if (input.sqrtPriceLimitX96 !== undefined) stats.limited++
    if (input.mode === 'dust') stats.dust++
    if (spec.protocolFee !== 0) stats.withProtocolFee++
    if (nativeIn) stats.nativeIn++
    if (spec.native && !input.zeroForOne) stats.nativeOut++

    if (fullPrediction === 'reverts') {
      stats.reverts++
      const reverted = await v4
        .swap(spec, input.zeroForOne, input.amountSpecified, { sqrtPriceLimitX96: input.sqrtPriceLimitX96 ?? 0n, value })
        .then(() => false, () => true)
      if (!reverted) record('a swap the math says reverts', 'revert', 'success')
      if (lensPrediction !== 'reverts') record('the read state agrees it reverts', 'reverts', lensPrediction)
      continue
    }
    const event = await v4
      .swap(spec, input.zeroForOne, input.amountSpecified, { sqrtPriceLimitX96: input.sqrtPriceLimitX96 ?? 0n, ...(nativeIn ? { value } : {}) })
      .catch((error: unknown) => {
        throw new Error(`swap ${k} on ${label} failed: ${toJson({ input, predicted: fullPrediction })}`, { cause: error })
      })
    const actual = pick(event)
    previous = actual
    const expectedFee = getSwapFee(spec.protocolFee, spec.fee, input.zeroForOne)
    if (event.fee !== expectedFee) record('swap fee charged', expectedFee, event.fee)
    const specifiedSide = input.zeroForOne === input.amountSpecified < 0n ? actual.amount0 : actual.amount1
    const fullyFilled = specifiedSide === input.amountSpecified
    if (!fullyFilled) stats.partialFills++
    if (actual.liquidity === 0n) stats.emptyEnds++

    // 1. The full state predicts every swap.
    if (fullPrediction === undefined) record('simulateSwap on the full state', actual, undefined)
    else {
      if (toJson(pick(fullPrediction)) !== toJson(actual)) record('simulateSwap on the full state', actual, pick(fullPrediction))
      stats.ticksCrossed += fullPrediction.initializedTicksCrossed
      tally.ticksCrossed += fullPrediction.initializedTicksCrossed
      if (fullPrediction.initializedTicksCrossed > 0) stats.swapsCrossingTicks++
    }

    // 2. The state as read predicts it when it knows every word searched, and refuses otherwise.
    const coverage = judgeCoverage(input.zeroForOne, actual.sqrtPriceX96, spec.tickSpacing, read.tickLower, read.tickUpper)
    if (coverage === 'beyond' || lensPrediction === undefined) {
      stats.lensRefused++
      if (lensPrediction !== undefined) record('simulateSwap on the read state (must refuse)', undefined, lensPrediction)
      if (lensPrediction === undefined && coverage === 'inside') record('simulateSwap on the read state', actual, undefined)
    } else {
      stats.lensChecked++
      if (lensPrediction === 'reverts' || toJson(pick(lensPrediction)) !== toJson(actual)) record('simulateSwap on the read state', actual, lensPrediction)
    }

    // 3. The family's pool quotes swaps without a limit, exactly when filled in full within the read words.
    if (input.sqrtPriceLimitX96 === undefined) {
      stats.quotesChecked++
      const [tokenIn, tokenOut] = input.zeroForOne ? [lens.token0, lens.token1] : [lens.token1, lens.token0]
      const quote =
        input.amountSpecified < 0n ? lens.quoteExactIn(tokenIn, tokenOut, -input.amountSpecified) : lens.quoteExactOut(tokenIn, tokenOut, input.amountSpecified)
      const [paid, received] = input.zeroForOne ? [-actual.amount0, actual.amount1] : [-actual.amount1, actual.amount0]
      if (!fullyFilled || coverage === 'beyond') {
        if (quote !== undefined) record('UniswapV4Pool quote (must refuse)', undefined, { amountIn: quote.amountIn, amountOut: quote.amountOut })
      } else if (quote === undefined) {
        if (coverage === 'inside') record('UniswapV4Pool quote', { paid, received }, undefined)
      } else {
        const next = quote.next as UniswapV4Pool
        const got = { amountIn: quote.amountIn, amountOut: quote.amountOut, sqrtPriceX96: next.sqrtPriceX96, tick: next.tick, liquidity: next.liquidity }
        const expected = { amountIn: paid, amountOut: received, sqrtPriceX96: actual.sqrtPriceX96, tick: actual.tick, liquidity: actual.liquidity }
        if (toJson(got) !== toJson(expected)) record('UniswapV4Pool quote', expected, got)
      }
    }
  }
}

describe('Uniswap V4 adapter vs the real PoolManager bytecode', () => {
  for (const [i, spec] of POOLS.entries()) {
    it(`matches ${SWAPS_PER_POOL} random swaps on ${spec.label} to the wei`, async () => {
      const pool = v4.pools[i] as UniswapV4DevnetPool
      const before = mismatches.length
      await runWalk(pool, spec.label)
      const found = mismatches.slice(before)
      if (found.length > 0) console.error(`mismatches on ${spec.label}:\n${toJson(found.slice(0, 5))}`)
      expect(found).toEqual([])
    })
  }

  it('covered what it set out to cover', () => {
    expect(stats.swaps).toBeGreaterThanOrEqual(300)
    expect(stats.exactIn).toBeGreaterThan(60)
    expect(stats.exactOut).toBeGreaterThan(40)
    expect(stats.limited).toBeGreaterThan(20)
    expect(stats.dust).toBeGreaterThan(10)
    expect(stats.partialFills).toBeGreaterThan(5)
    expect(stats.nativeIn).toBeGreaterThan(10)
    expect(stats.nativeOut).toBeGreaterThan(10)
    expect(stats.withProtocolFee).toBeGreaterThan(40)
    expect(stats.swapsCrossingTicks).toBeGreaterThan(20)
    expect(stats.lensChecked).toBeGreaterThan(100)
    expect(stats.lensRefused).toBeGreaterThan(5)
    expect(stats.reverts).toBeGreaterThan(0)
    expect(stats.quotesChecked).toBeGreaterThan(60)
    for (const [name, tally] of perPool) if (!name.includes('100% fee')) expect(tally.ticksCrossed, name).toBeGreaterThan(0)
    expect(mismatches).toEqual([])
  })
})
