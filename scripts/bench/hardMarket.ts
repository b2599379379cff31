// Hard markets for the router: random Uniswap V2 + V3 universes whose V3 pools
// are concentrated ranges with gaps between positions, pools whose price sits in
// an empty range (no active liquidity, liquidity above and below), pools drained
// to their last initialized tick, single narrow ranges, thin V2 pairs, states
// known over the full tick range or only over a window of bitmap words. Each
// planned trade has a deep route of 1 to 5 hops through ordinary (non-major)
// tokens, parallel pools on some hops and shallow detours through the majors.
// Every pool sits at the tokens' USD prices (drained pools on the side that
// leaves no arbitrage), so the optimum is a routing problem, not an arbitrage.
// Seeded: the same seed gives the same universe.
import type { Address } from 'viem'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, getSqrtRatioAtTick, getTickAtSqrtRatio } from '../../src/protocols/uniswapV3/tickMath.js'
import { createRandom } from '../../test/support/random.js'
import { BENCH_V2_DEXES, BENCH_V3_DEXES, type BenchToken, type Market, type StateDraft, createMarketFromStates, majorTokens, tokenAddress } from './market.js'

/** How a pool's liquidity is laid out. */
export const POOL_SHAPES = ['v2', 'v2Thin', 'bands', 'gapped', 'emptyTick', 'drainedDown', 'drainedUp', 'narrow'] as const
export type PoolShape = (typeof POOL_SHAPES)[number]

/** A trade the universe was planned around: its deep route has `hops` pools. */
export type HardTrade = {
  tokenIn: BenchToken
  tokenOut: BenchToken
  /** Hops of the planted deep route (the optimum may still split onto detours). */
  hops: number
  /** The relevant depth in raw tokenIn units: the deep route's thinnest hop plus the detour's first pool, half their USD depth. */
  depthIn: bigint
  label: string
}

/** A generated universe: the market, its planned trades, and how many pools of each shape it holds. */
export type HardUniverse = { market: Market; trades: HardTrade[]; seed: number; poolCount: number; shapes: Record<PoolShape, number>; label: string }

const LN_TICK = Math.log(1.0001)
const MAX_LIQUIDITY = (1n << 120n) - 1n

/** Raw units of token1 per raw unit of token0 at the tokens' USD prices. */
const rawPrice = (t0: BenchToken, t1: BenchToken) => (t0.priceUsd / t1.priceUsd) * 10 ** (t1.decimals - t0.decimals)

/** Pool addresses: unique per seed and index, prefixed so they never collide with other bench markets. */
const poolAddress = (seed: number, index: number): Address => `0xba${(seed * 1_000_000 + index).toString(16).padStart(38, '0')}` as Address

/** A position of a V3 layout: ticks and its share of the pool's value. */
type Position = { lower: number; upper: number; weight: number }

/**
 * Value of one unit of liquidity on [lower, upper] at sqrt price `sqrtPrice`, in raw token1
 * (token0 valued at `price`).
 */
function unitValue(lower: number, upper: number, sqrtPrice: number, price: number): number {
  const sqrtLower = Math.sqrt(1.0001 ** lower)
  const sqrtUpper = Math.sqrt(1.0001 ** upper)
  if (sqrtPrice <= sqrtLower) return (1 / sqrtLower - 1 / sqrtUpper) * price
  if (sqrtPrice >= sqrtUpper) return sqrtUpper - sqrtLower
  return (1 / sqrtPrice - 1 / sqrtUpper) * price + (sqrtPrice - sqrtLower)
}

/** What the V3 builder needs to know about a pool. */
type V3Draft = { dex: string; fee: number; spacing: number; t0: BenchToken; t1: BenchToken; depthUsd: number; shape: PoolShape; fullWindow: boolean; address: Address }

function buildV3(draft: V3Draft, random: () => number): UniswapV3PoolState {
  const { spacing, t0, t1, shape } = draft
  const price = rawPrice(t0, t1)
  const minUsable = Math.ceil(MIN_TICK / spacing) * spacing
  const maxUsable = Math.floor(MAX_TICK / spacing) * spacing
  const clampTick = (t: number) => Math.min(maxUsable, Math.max(minUsable, t))
  const marketTick = Math.max(MIN_TICK + 1, Math.min(MAX_TICK - 1, Math.floor(Math.log(price) / LN_TICK)))
  const floorAligned = clampTick(Math.floor(marketTick / spacing) * spacing)
  const ceilAligned = clampTick(Math.ceil((marketTick + 1) / spacing) * spacing)
  /** A width in whole spacings, log-uniform from one spacing to about 40% of price. */
  const spacings = (maxTicks = 4000) => Math.max(1, Math.round(Math.exp(random() * Math.log(Math.max(2, maxTicks / spacing)))))
  /** Runs of positions with gaps, away from `start` in direction `side`. */
  const run = (start: number, side: 1 | -1, count: number): Position[] => {
    const out: Position[] = []
    let edge = start
    for (let i = 0; i < count; i++) {
      if (i > 0) edge += side * spacing * spacings(600)
      const far = edge + side * spacing * spacings()
      const [lower, upper] = side > 0 ? [edge, far] : [far, edge]
      if (clampTick(lower) < clampTick(upper)) out.push({ lower: clampTick(lower), upper: clampTick(upper), weight: 0.3 + random() })
      edge = far
    }
    return out
  }
  const count = () => 1 + Math.floor(random() * 3)

  let positions: Position[] = []
  // Where the pool's price sits: the market's, or the edge a drained pool stopped at.
  let sqrtPriceX96 = BigInt(Math.floor(Math.sqrt(price) * 2 ** 96))
  let tick: number | undefined
  switch (shape) {
    case 'bands': {
      for (let i = 0; i < count(); i++) positions.push({ lower: clampTick(floorAligned - spacing * (spacings() - 1)), upper: clampTick(ceilAligned + spacing * (spacings() - 1)), weight: 1 / (0.5 + i) })
      if (random() < 0.4) positions.push({ lower: minUsable, upper: maxUsable, weight: 0.15 })
      break
    }
    case 'gapped': {
      // One range around the price, then ranges with gaps above and below it.
      const lower = clampTick(floorAligned - spacing * (spacings(400) - 1))
      const upper = clampTick(ceilAligned + spacing * (spacings(400) - 1))
      positions.push({ lower, upper, weight: 1 })
      positions.push(...run(upper + spacing * spacings(600), 1, count()), ...run(lower - spacing * spacings(600), -1, count()))
      break
    }
    case 'emptyTick': {
      // The price in a gap: ranges start at least one spacing above and end below it.
      positions.push(...run(ceilAligned + spacing * (spacings(300) - 1), 1, count()), ...run(floorAligned - spacing * (spacings(300) - 1), -1, count()))
      break
    }
    case 'drainedDown': {
      // Sold down through its last range: the price sits on the lowest initialized tick (at or above
      // the market, so nothing is bought below it), crossed, with no liquidity left under it.
      positions.push(...run(ceilAligned, 1, count()))
      sqrtPriceX96 = getSqrtRatioAtTick(ceilAligned)
      tick = ceilAligned - 1
      break
    }
    case 'drainedUp': {
      // Bought up through its last range: the price on the highest initialized tick (at or below the market).
      positions.push(...run(floorAligned, -1, count()))
      sqrtPriceX96 = getSqrtRatioAtTick(floorAligned)
      tick = floorAligned
      break
    }
    default: {
      // narrow: one range one or two spacings wide around the price.
      positions.push({ lower: floorAligned, upper: Math.min(maxUsable, floorAligned + spacing * (1 + Math.floor(random() * 2))), weight: 1 })
    }
  }
  if (sqrtPriceX96 < MIN_SQRT_RATIO) sqrtPriceX96 = MIN_SQRT_RATIO
  if (sqrtPriceX96 >= MAX_SQRT_RATIO) sqrtPriceX96 = MAX_SQRT_RATIO - 1n
  const stateTick = tick ?? getTickAtSqrtRatio(sqrtPriceX96)
  positions = positions.filter((p) => p.lower < p.upper)

  // Liquidity: each position's share of the pool's value, valued at the market price.
  const depth1 = (draft.depthUsd / t1.priceUsd) * 10 ** t1.decimals
  const totalWeight = positions.reduce((a, p) => a + p.weight, 0)
  const net = new Map<number, bigint>()
  let active = 0n
  for (const position of positions) {
    const value = unitValue(position.lower, position.upper, Math.sqrt(price), price)
    let liquidity = BigInt(Math.max(1, Math.floor(((position.weight / totalWeight) * depth1) / value)))
    if (liquidity > MAX_LIQUIDITY) liquidity = MAX_LIQUIDITY
    net.set(position.lower, (net.get(position.lower) ?? 0n) + liquidity)
    net.set(position.upper, (net.get(position.upper) ?? 0n) - liquidity)
    if (position.lower <= stateTick && stateTick < position.upper) active += liquidity
  }
  // Known ticks: the whole range, or about ±45% of price in whole bitmap words (what a lens reads).
  const words = Math.max(1, Math.ceil(6000 / (256 * spacing)))
  const word = Math.floor(Math.floor(stateTick / spacing) / 256)
  const tickLower = draft.fullWindow ? MIN_TICK : Math.max(MIN_TICK, (word - words) * 256 * spacing)
  const tickUpper = draft.fullWindow ? MAX_TICK : Math.min(MAX_TICK, ((word + words) * 256 + 255) * spacing)
  const ticks = [...net.entries()]
    .filter(([index, liquidityNet]) => liquidityNet !== 0n && index >= tickLower && index <= tickUpper)
    .sort((a, b) => a[0] - b[0])
    .map(([index, liquidityNet]) => ({ index, liquidityNet: liquidityNet.toString() }))
  return {
    family: 'uniswapV3',
    dex: draft.dex,
    address: draft.address,
    token0: t0.address,
    token1: t1.address,
    fee: draft.fee,
    tickSpacing: spacing,
    sqrtPriceX96: sqrtPriceX96.toString(),
    tick: stateTick,
    liquidity: active.toString(),
    ticks,
    tickLower,
    tickUpper,
  }
}

/**
 * A V2 pair at the market price. Both reserves are kept at 10^8 raw units or more (a deeper pool
 * than asked for, if need be): integer reserves of a few units would put the pair's price far from
 * the market's, an arbitrage the optimum would take.
 */
function buildV2(dex: string, address: Address, t0: BenchToken, t1: BenchToken, depthUsd: number): StateDraft {
  const reserve0 = (depthUsd / 2 / t0.priceUsd) * 10 ** t0.decimals
  const reserve1 = reserve0 * rawPrice(t0, t1)
  const scale = Math.max(1, 1e8 / Math.min(reserve0, reserve1))
  const state: UniswapV2PoolState = {
    family: 'uniswapV2',
    dex,
    address,
    token0: t0.address,
    token1: t1.address,
    reserve0: BigInt(Math.floor(reserve0 * scale)).toString(),
    reserve1: BigInt(Math.floor(reserve1 * scale)).toString(),
  }
  return { state, depthUsd: depthUsd * scale }
}

/** Trades planned per pool count (the 10,000-pool class is slow to route, so fewer). */
const TRADES_PER_UNIVERSE: Record<number, number> = { 10: 2, 100: 5, 1000: 5, 10000: 3 }

/**
 * A hard universe of `poolCount` pools for `seed`: deep routes of 1-5 hops for its planned trades,
 * then a background of majors and ordinary tokens (a sixth of the background pools between majors,
 * every ordinary token paired with a major, the rest at random).
 *
 * @example
 * const universe = createHardUniverse(1000, 7)
 */
export function createHardUniverse(poolCount: number, seed: number): HardUniverse {
  const random = createRandom(seed * 7919 + poolCount)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const logUniform = (lo: number, hi: number) => lo * (hi / lo) ** random()
  const majors = majorTokens()
  const tokens: BenchToken[] = [...majors]
  const newToken = (): BenchToken => {
    const index = tokens.length - majors.length
    const token: BenchToken = {
      address: tokenAddress(1_000_000 + (seed % 4000) * 20_000 + index),
      symbol: `H${index}`,
      decimals: pick([6, 8, 18, 18]),
      priceUsd: 10 ** (-4 + random() * 7),
    }
    tokens.push(token)
    return token
  }
  const drafts: StateDraft[] = []
  const shapes = Object.fromEntries(POOL_SHAPES.map((s) => [s, 0])) as Record<PoolShape, number>
  const addPool = (a: BenchToken, b: BenchToken, depthUsd: number, shape?: PoolShape) => {
    const [t0, t1] = a.address < b.address ? [a, b] : [b, a]
    const address = poolAddress(seed, drafts.length + 1)
    const chosen: PoolShape = shape ?? (random() < 0.3 ? (random() < 0.85 ? 'v2' : 'v2Thin') : pick(['bands', 'bands', 'gapped', 'gapped', 'emptyTick', 'drainedDown', 'drainedUp', 'narrow'] as const))
    shapes[chosen]++
    if (chosen === 'v2' || chosen === 'v2Thin') {
      drafts.push(buildV2(pick(BENCH_V2_DEXES).id, address, t0, t1, chosen === 'v2Thin' ? depthUsd / 1000 : depthUsd))
      return
    }
    const dex = pick(BENCH_V3_DEXES)
    const fee = Number(pick(Object.keys(dex.tiers)))
    const state = buildV3({ dex: dex.id, fee, spacing: dex.tiers[fee]!, t0, t1, depthUsd, shape: chosen, fullWindow: random() < 0.5, address }, random)
    drafts.push({ state, depthUsd })
  }

  // The planned trades: a deep route through fresh tokens, parallel pools on some hops, and
  // shallow detours from both ends through a major.
  const tradeCount = TRADES_PER_UNIVERSE[poolCount] ?? Math.max(1, Math.round(poolCount / 200))
  const trades: HardTrade[] = []
  for (let i = 0; i < tradeCount; i++) {
    const budget = poolCount - drafts.length
    const hops = Math.min(1 + ((seed + i) % 5), Math.max(1, budget - 2))
    const route = [newToken()]
    for (let h = 0; h < hops; h++) route.push(newToken())
    let bottleneckUsd = Infinity
    for (let h = 0; h < hops; h++) {
      const parallel = poolCount >= 100 ? Math.floor(random() * 3) : 0
      let hopUsd = 0
      for (let p = 0; p <= parallel; p++) {
        const depthUsd = logUniform(5e5, 2e7)
        addPool(route[h]!, route[h + 1]!, depthUsd)
        hopUsd += depthUsd / 2
      }
      bottleneckUsd = Math.min(bottleneckUsd, hopUsd)
    }
    const tokenIn = route[0]!
    const tokenOut = route[hops]!
    const detourUsd = logUniform(2e4, 5e5)
    if (poolCount - drafts.length >= 2) {
      addPool(tokenIn, pick(majors), detourUsd)
      addPool(tokenOut, pick(majors), logUniform(2e4, 5e5))
    }
    const depthUsd = bottleneckUsd + detourUsd / 2
    trades.push({
      tokenIn,
      tokenOut,
      hops,
      depthIn: BigInt(Math.floor((depthUsd / tokenIn.priceUsd) * 10 ** tokenIn.decimals)),
      label: `${tokenIn.symbol}->${tokenOut.symbol} (${hops} hop${hops > 1 ? 's' : ''})`,
    })
  }

  // Background: majors with each other, every other token with a major, the rest at random.
  const background = poolCount - drafts.length
  const others: BenchToken[] = []
  for (let i = 0; i < Math.max(2, Math.round(background / 4)); i++) others.push(newToken())
  for (let i = 0; i < Math.round(background / 6) && drafts.length < poolCount; i++) {
    const a = pick(majors)
    let b = pick(majors)
    while (b === a) b = pick(majors)
    addPool(a, b, logUniform(1e6, 5e7))
  }
  for (const token of others) if (drafts.length < poolCount) addPool(token, pick(majors), logUniform(5e4, 5e6))
  const everyToken = tokens.filter((t) => !majors.includes(t))
  while (drafts.length < poolCount) {
    const a = pick(everyToken)
    const b = random() < 0.6 ? pick(majors) : pick(everyToken)
    if (a !== b) addPool(a, b, logUniform(2e4, 3e6))
  }
  const label = `${poolCount} pools, ${tokens.length} tokens, seed ${seed}`
  return { market: createMarketFromStates(tokens, drafts, `bench: hard market, ${label}`), trades, seed, poolCount, shapes, label }
}
