import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type Market, depth, poolsOf } from './market.js'
import type { Hop, Path } from './types.js'

/**
 * Every simple path of at most `maxHops` pools from `tokenIn` to `tokenOut`
 * whose intermediate tokens are all connectors. Deterministic order (by the
 * pools' order in `pools`).
 *
 * @example
 * findPaths(pools, weth, link, { connectors: chain.majorTokens, maxHops: 3 })
 */
export function findPaths(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  { connectors, maxHops }: { connectors: readonly Address[]; maxHops: number },
): Path[] {
  const connectorSet = new Set(connectors)
  const byToken = new Map<Address, Pool[]>()
  for (const pool of pools) {
    for (const token of pool.tokens) {
      let list = byToken.get(token)
      if (!list) byToken.set(token, (list = []))
      list.push(pool)
    }
  }
  const paths: Path[] = []
  const visited = new Set<Address>([tokenIn])
  const hops: Hop[] = []
  const walk = (token: Address) => {
    for (const pool of byToken.get(token) ?? []) {
      if (hops.some((h) => h.pool === pool)) continue
      for (const next of pool.tokens) {
        if (next === token || visited.has(next)) continue
        if (next === tokenOut) {
          paths.push([...hops, { pool, tokenIn: token, tokenOut: next }])
          continue
        }
        if (hops.length + 1 >= maxHops || !connectorSet.has(next)) continue
        visited.add(next)
        hops.push({ pool, tokenIn: token, tokenOut: next })
        walk(next)
        hops.pop()
        visited.delete(next)
      }
    }
  }
  walk(tokenIn)
  return paths
}

/**
 * Token paths kept for a route graph at most: beyond it a dense set of
 * candidates (a clique of 30 tokens has ~10⁷ paths of 6 hops) would cost more
 * than the route. The bench's universes stay under 800 at 6 hops and 10,000 pools.
 */
export const MAX_TOKEN_PATHS = 2048

/** The trade a route graph's token paths are searched for. */
export type TokenPathSearch = {
  tokenIn: Address
  tokenOut: Address
  /** Intermediates allowed, in the order the paths list them. */
  connectors: readonly Address[]
  maxHops: number
  /** The trade's size: raw input units, or an exact output in raw output units (the scale of sampled curves). */
  size: number | { amountOut: number }
}

/**
 * Every token path of at most `maxHops` hops from `tokenIn` to `tokenOut`
 * through distinct connectors, in depth-first order (connectors in their
 * order), as long as they number at most `limit`. Past it the search is
 * bounded instead: hop count by hop count, the shorter paths first, and within
 * one hop count the partial paths with the widest bottleneck (the least
 * `width` of their pairs) first, so the longer paths the graph keeps are the
 * ones deep enough to carry the trade. The depth-first walk stops as soon as
 * it passes the limit, so a dense market costs at most `limit` steps before the
 * bounded search.
 *
 * @example
 * const paths = findTokenPaths(createMarket(pools), { tokenIn: weth, tokenOut: link, connectors, maxHops: 6, size: 1e18 })
 */
export function findTokenPaths(market: Market, search: TokenPathSearch, limit = MAX_TOKEN_PATHS): Address[][] {
  const { tokenIn, tokenOut, connectors, maxHops } = search
  const linked = (a: Address, b: Address) => market.pairs.get(a)?.has(b) === true
  // A walk steps onto a connector only when the output is still within the hops left from it: the
  // walks into dead ends (a connector whose pools lead nowhere near the output) find no path, and
  // in a market where most connectors are such, they used up the step budget and cut the search
  // over to the bounded one while the paths were still few (hard bench 1000:7 H9->H14 at 6 hops:
  // 729 paths, cut to 382, the 6-hop path H9 -> H10 -> H11 -> DAI -> USDC -> H13 -> H14 lost).
  const toOutput = hopsToOutput(connectors, tokenOut, linked)
  const reaches = (token: Address, hopsUsed: number) => hopsUsed + toOutput.get(token)! <= maxHops
  const paths: Address[][] = []
  let steps = 0
  const walk = (path: Address[]): boolean => {
    const last = path[path.length - 1]!
    if (++steps > limit) return false
    if (linked(last, tokenOut)) {
      paths.push([...path, tokenOut])
      if (paths.length > limit) return false
    }
    if (path.length >= maxHops) return true
    for (const c of connectors) if (!path.includes(c) && linked(last, c) && reaches(c, path.length) && !walk([...path, c])) return false
    return true
  }
  if (walk([tokenIn])) return paths
  return widestTokenPaths(search, limit, linked, reaches, pairWidths(market, search))
}

/**
 * The fewest hops from each connector to `tokenOut` over pools among the connectors (a connector
 * with no way there: more hops than any path may take).
 */
function hopsToOutput(connectors: readonly Address[], tokenOut: Address, linked: (a: Address, b: Address) => boolean): Map<Address, number> {
  const unreachable = connectors.length + 1
  const hops = new Map<Address, number>(connectors.map((c) => [c, unreachable]))
  let frontier = connectors.filter((c) => linked(c, tokenOut))
  for (const c of frontier) hops.set(c, 1)
  for (let distance = 2; frontier.length > 0; distance++) {
    const next: Address[] = []
    for (const c of connectors)
      if (hops.get(c) === unreachable && frontier.some((f) => linked(c, f))) {
        hops.set(c, distance)
        next.push(c)
      }
    frontier = next
  }
  return hops
}

/**
 * A pair's width: the summed 1%-impact depth of its pools (see `depth`),
 * valued in the output token at the best chain of mid prices from the token to
 * the output through the connectors (0 when it has none).
 */
function pairWidths(market: Market, { tokenIn, tokenOut, connectors, maxHops, size }: TokenPathSearch): (a: Address, b: Address) => number {
  const value = new Map<Address, number>([[tokenOut, 1]])
  const tokens = [tokenIn, ...connectors]
  for (let round = 0; round < maxHops; round++)
    for (const a of tokens)
      for (const [b, pools] of market.pairs.get(a) ?? []) {
        const vb = value.get(b)
        if (vb === undefined) continue
        for (const pool of pools) {
          const v = pool.spotPrice(a, b) * vb
          if (Number.isFinite(v) && v > (value.get(a) ?? 0)) value.set(a, v)
        }
      }
  const tradeValue = typeof size === 'number' ? size * (value.get(tokenIn) ?? 0) : size.amountOut
  return (a, b) => {
    const va = value.get(a) ?? 0
    if (!(va > 0)) return 0
    let width = 0
    for (const pool of poolsOf(market.pairs, a, b)) {
      const d = depth(market.curveOf(pool, a, b, tradeValue > 0 ? tradeValue / va : 1 / va))
      if (Number.isFinite(d) && d > 0) width += d * va
    }
    return width
  }
}

/** A partial path of the bounded search: its tokens and its narrowest pair so far. */
type Prefix = { tokens: Address[]; bottleneck: number }

/** The bounded search of {@link findTokenPaths}: shorter paths first, the widest bottleneck first within a hop count, `limit` paths at most. */
function widestTokenPaths(
  { tokenIn, tokenOut, connectors, maxHops }: TokenPathSearch,
  limit: number,
  linked: (a: Address, b: Address) => boolean,
  reaches: (token: Address, hopsUsed: number) => boolean,
  width: (a: Address, b: Address) => number,
): Address[][] {
  const widths = new Map<string, number>()
  const widthOf = (a: Address, b: Address) => {
    const key = `${a}>${b}`
    let w = widths.get(key)
    if (w === undefined) widths.set(key, (w = width(a, b)))
    return w
  }
  const paths: Address[][] = []
  let prefixes: Prefix[] = [{ tokens: [tokenIn], bottleneck: Infinity }]
  for (let hops = 1; hops <= maxHops && prefixes.length > 0 && paths.length < limit; hops++) {
    // The paths that end here, widest first, as many as the budget still holds.
    const ending = prefixes
      .filter((p) => linked(p.tokens[p.tokens.length - 1]!, tokenOut))
      .map((p) => ({ tokens: [...p.tokens, tokenOut], bottleneck: Math.min(p.bottleneck, widthOf(p.tokens[p.tokens.length - 1]!, tokenOut)) }))
      .sort((a, b) => b.bottleneck - a.bottleneck)
    for (const p of ending.slice(0, limit - paths.length)) paths.push(p.tokens)
    if (hops === maxHops) break
    // The partial paths one hop longer: the widest `limit` go on (no more can end in the budget).
    const longer: Prefix[] = []
    for (const p of prefixes) {
      const last = p.tokens[p.tokens.length - 1]!
      for (const c of connectors)
        if (!p.tokens.includes(c) && linked(last, c) && reaches(c, hops)) longer.push({ tokens: [...p.tokens, c], bottleneck: Math.min(p.bottleneck, widthOf(last, c)) })
    }
    prefixes = longer.sort((a, b) => b.bottleneck - a.bottleneck).slice(0, limit)
  }
  return paths
}
