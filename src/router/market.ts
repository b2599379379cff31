import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type Curve, getCurve } from './curves.js'
import type { RouteGraph } from './types.js'

/** The pools by token and the token they trade it with (the inner keys: a token's neighbours), and curves by pool direction. */
export type Market = {
  pairs: ReadonlyMap<Address, ReadonlyMap<Address, readonly Pool[]>>
  /** The curve of a pool direction (cached; `exact`: sampled again when sampled around another input). */
  curveOf: (pool: Pool, a: Address, b: Address, scale: number, exact?: boolean) => Curve
}

/** What a route graph is built for. */
export type Trade = { pools: readonly Pool[]; tokenIn: Address; tokenOut: Address; maxHops: number; size: number | { amountOut: number } }

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
  const pairs = pairsOf(pools)
  const curveCache = new Map<string, Curve>()
  // Sampled curves built around the graph's own expected input (not a screening guess).
  const resampled = new Set<string>()
  return {
    pairs,
    curveOf: (pool, a, b, scale, exact = false) => {
      const key = `${pool.key}:${a}>${b}`
      let curve = curveCache.get(key)
      if (!curve || (exact && curve.sampled && !resampled.has(key))) {
        curveCache.set(key, (curve = getCurve(pool, a, b, scale)))
        if (exact) resampled.add(key)
      }
      return curve
    },
  }
}

/** A pool list's pairs, with the pools they were indexed from. */
type IndexedPairs = { pools: readonly Pool[]; pairs: Market['pairs'] }

/**
 * The last pairs index per pool list: getQuote hands the router the same list for every quote on
 * the same liquidity (see buildPools), and a route builds its market twice or more.
 */
const indexed = new WeakMap<readonly Pool[], IndexedPairs>()

/** The pools by token and the token they trade it with, built once while the list holds the same pools. */
function pairsOf(pools: readonly Pool[]): Market['pairs'] {
  const known = indexed.get(pools)
  if (known && known.pools.length === pools.length && known.pools.every((pool, i) => pool === pools[i])) return known.pairs
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
  indexed.set(pools, { pools: [...pools], pairs })
  return pairs
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
