import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type Curve, getCurve } from './curves.js'
import type { RouteGraph } from './types.js'

/** The pools by token and the token they trade it with (the inner keys: a token's neighbours), and curves by pool direction. */
export type Market = {
  pairs: ReadonlyMap<Address, ReadonlyMap<Address, readonly Pool[]>>
  /** Each pool's place in the list the market was built from. */
  place: ReadonlyMap<Pool, number>
  /** The pools by place. */
  listed: readonly Pool[]
  /** The curve of a pool direction (cached; `exact`: sampled again when sampled around another input). */
  curveOf: (pool: Pool, a: Address, b: Address, scale: number, exact?: boolean) => Curve
}

/** What a route graph is built for. */
export type Trade = {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  maxHops: number
  size: number | { amountOut: number }
  /**
   * Token prices at an optimum's margin (raw output units per raw unit, e.g. the all-pools
   * relaxation's): a pool shallow at 1% impact is kept when what it takes down to that margin is not
   * negligible (see assembleGraph).
   */
  margins?: ReadonlyMap<Address, number>
}

/** A graph with the input and the trade's value it was built for. */
export type Assembled = { graph: RouteGraph; amountIn: number; tradeValue: number }

/**
 * The pools of a trade by token pair (indexed once per pool list), and their curves built once per pool
 * direction (a sampled curve built for screening is sampled again, once,
 * around the graph's own expected input when asked `exact`).
 *
 * @example
 * const market = createMarket(pools)
 * market.curveOf(pool, weth, usdc, 1e18)
 */
export function createMarket(pools: readonly Pool[]): Market {
  const { pools: listed, pairs, place, models } = pairsOf(pools)
  // Sampled curves by pool, then input and output token; `resampled`: sampled again around the
  // graph's own expected input (not a screening guess). Model curves are kept with the pool list.
  const curveCache = new Map<Pool, Map<Address, Map<Address, { curve: Curve; resampled: boolean }>>>()
  return {
    pairs,
    place,
    listed,
    curveOf: (pool, a, b, scale, exact = false) => {
      const model = models.get(pool)?.get(a)?.get(b)
      if (model) return model
      let byInput = curveCache.get(pool)
      if (!byInput) curveCache.set(pool, (byInput = new Map()))
      let byOutput = byInput.get(a)
      if (!byOutput) byInput.set(a, (byOutput = new Map()))
      let known = byOutput.get(b)
      if (!known || (exact && known.curve.sampled && !known.resampled)) {
        known = { curve: getCurve(pool, a, b, scale), resampled: exact || (known?.resampled ?? false) }
        if (!known.curve.sampled) {
          // A model depends on the pool's state alone: every market on this list shares it.
          let modelsOut = models.get(pool)?.get(a)
          if (!modelsOut) {
            let modelsIn = models.get(pool)
            if (!modelsIn) models.set(pool, (modelsIn = new Map()))
            modelsIn.set(a, (modelsOut = new Map()))
          }
          modelsOut.set(b, known.curve)
          return known.curve
        }
        byOutput.set(b, known)
      }
      return known.curve
    },
  }
}

/** A pool list's pairs, each pool's place in it and its pool directions' model curves, with the pools they were indexed from. */
type IndexedPairs = { pools: readonly Pool[]; pairs: Market['pairs']; place: Market['place']; models: Map<Pool, Map<Address, Map<Address, Curve>>> }

/**
 * The last pairs index per pool list: getQuote hands the router the same list for every quote on
 * the same liquidity (see buildPools), and a route builds its market twice or more.
 */
const indexed = new WeakMap<readonly Pool[], IndexedPairs>()

/** The pools by token and the token they trade it with, and each pool's place, built once while the list holds the same pools. */
function pairsOf(pools: readonly Pool[]): IndexedPairs {
  const known = indexed.get(pools)
  if (known && known.pools.length === pools.length && known.pools.every((pool, i) => pool === pools[i])) return known
  const pairs = new Map<Address, Map<Address, Pool[]>>()
  for (const pool of pools) {
    const tokens = pool.tokens
    for (let i = 0; i < tokens.length; i++) {
      let row = pairs.get(tokens[i]!)
      if (!row) pairs.set(tokens[i]!, (row = new Map()))
      for (let j = 0; j < tokens.length; j++) {
        if (i === j) continue
        let list = row.get(tokens[j]!)
        if (!list) row.set(tokens[j]!, (list = []))
        list.push(pool)
      }
    }
  }
  const built: IndexedPairs = { pools: [...pools], pairs, place: new Map(pools.map((pool, i) => [pool, i])), models: new Map() }
  indexed.set(pools, built)
  return built
}

/**
 * The pools of the market's list holding two or more of `tokens`, in list order (as filtering
 * the list would give them): gathered from the pairs of those tokens rather than by looking at
 * every pool.
 *
 * @example
 * poolsAmong(createMarket(pools), [weth, usdc, dai]) // every pool trading two of them
 */
export function poolsAmong(market: Market, tokens: readonly Address[]): Pool[] {
  const found = new Set<Pool>()
  for (const a of tokens) {
    const row = market.pairs.get(a)
    if (!row) continue
    for (const b of tokens) if (b !== a) for (const pool of row.get(b) ?? NO_POOLS) found.add(pool)
  }
  // In list order: the places sorted as numbers (no map lookups inside a comparator).
  const places = new Int32Array(found.size)
  let count = 0
  for (const pool of found) places[count++] = market.place.get(pool)!
  places.sort()
  const inOrder: Pool[] = []
  for (const at of places) inOrder.push(market.listed[at]!)
  return inOrder
}

const NO_POOLS: readonly Pool[] = []
/**
 * The pools trading `a` for `b`.
 *
 * @example
 * poolsOf(market.pairs, weth, usdc) // every pool trading WETH for USDC
 */
export const poolsOf = (pairs: Market['pairs'], a: Address, b: Address): readonly Pool[] => pairs.get(a)?.get(b) ?? NO_POOLS

/**
 * Input that lowers a curve's marginal rate by 1%: its depth at the current price.
 *
 * @example
 * depth(getCurve(pool, weth, usdc, 1e18)) // about 0.5% of the pool's WETH for a V2 pair
 */
export function depth(curve: Curve): number {
  return curve.atRate(curve.rate0 * 0.99, { input: 0, output: 0, slope: 0 }).input
}
