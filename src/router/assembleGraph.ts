import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import type { Curve } from './curves.js'
import { findTokenPaths } from './findPaths.js'
import { type Assembled, type Market, type Trade, depth, poolsAmong, poolsOf } from './market.js'
import type { Edge, Hop } from './types.js'

/** A pool whose 1%-impact depth is below this share of the trade's value cannot move the optimum (≪ 0.01 bp). */
const NEGLIGIBLE_SHARE = 1e-7

/**
 * The graph of every token path up to `maxHops` whose intermediates are among
 * `connectors` (in their order): token values from the pools' mid prices, the
 * trade's input (an exact output turned into input at the best zero-size
 * rate), and a curve per pool direction on those paths (pools too shallow to
 * move the optimum for this size left out; the certificate still covers them).
 *
 * @example
 * const { graph, amountIn, tradeValue } = assembleGraph(createMarket(pools), trade, [weth, usdc])
 */
export function assembleGraph(market: Market, trade: Trade, connectors: readonly Address[]): Assembled {
  const { pairs, curveOf } = market
  const { pools, tokenIn, tokenOut, maxHops, size, margins } = trade
  // Every path through the connectors, bounded past MAX_TOKEN_PATHS (the widest first, see findTokenPaths).
  const addressPaths = findTokenPaths(market, { tokenIn, tokenOut, connectors, maxHops, size })

  // Zero-size token values from the pools' mid prices, best chain to the output token.
  const value = new Map<Address, number>([[tokenOut, 1]])
  // The best mid price of each pair, asked once per pair (the rounds below ask it again and again).
  const spots = new Map<Address, Map<Address, number>>()
  const spotOf = (a: Address, b: Address) => {
    let row = spots.get(a)
    if (!row) spots.set(a, (row = new Map()))
    let best = row.get(b)
    if (best !== undefined) return best
    best = 0
    for (const pool of poolsOf(pairs, a, b)) {
      const s = pool.spotPrice(a, b)
      if (Number.isFinite(s) && s > best) best = s
    }
    row.set(b, best)
    return best
  }
  // Rounds of relaxation along the paths; a round that raises no value leaves the next ones nothing to do.
  for (let round = 0, changed = true; round < maxHops + 1 && changed; round++) {
    changed = false
    for (const path of addressPaths)
      for (let k = path.length - 2; k >= 0; k--) {
        const b = value.get(path[k + 1]!)
        if (b === undefined) continue
        const v = spotOf(path[k]!, path[k + 1]!) * b
        if (v > (value.get(path[k]!) ?? 0)) {
          value.set(path[k]!, v)
          changed = true
        }
      }
  }
  const inValue = value.get(tokenIn) ?? 0
  // An exact-output size is turned into input at the best zero-size rate.
  const amountIn = typeof size === 'number' ? size : inValue > 0 ? size.amountOut / inValue : size.amountOut
  const tradeValue = amountIn * inValue
  // The trade's value at the margin's prices, which the input a pool takes down to the margin is weighed against.
  const marginValue = amountIn * (margins?.get(tokenIn) ?? 0)

  // Curves for every pair a path uses; shallow pools dropped.
  // By token, then the token it trades with (paths ask a pair again and again).
  const curves = new Map<Address, Map<Address, { pool: Pool; curve: Curve }[]>>()
  const shallow: Hop[] = []
  const pairEdges = (a: Address, b: Address) => {
    let row = curves.get(a)
    if (!row) curves.set(a, (row = new Map()))
    let list = row.get(b)
    if (list) return list
    list = []
    const va = value.get(a) ?? 0
    const scale = va > 0 && inValue > 0 ? (amountIn * inValue) / va : amountIn
    for (const pool of poolsOf(pairs, a, b)) {
      const curve = curveOf(pool, a, b, scale, true)
      if (!(curve.rate0 > 0)) continue
      if (va > 0 && tradeValue > 0 && depth(curve) * va < NEGLIGIBLE_SHARE * tradeValue && !(margins && atMargin(curve, a, b, margins) >= NEGLIGIBLE_SHARE * marginValue)) {
        shallow.push({ pool, tokenIn: a, tokenOut: b })
        continue
      }
      list.push({ pool, curve })
    }
    row.set(b, list)
    return list
  }
  const kept = addressPaths.filter((path) => {
    for (let k = 0; k + 1 < path.length; k++) if (pairEdges(path[k]!, path[k + 1]!).length === 0) return false
    return true
  })

  const tokens: Address[] = [tokenOut, tokenIn]
  const indexOf = new Map<Address, number>([
    [tokenOut, 0],
    [tokenIn, 1],
  ])
  const tokenPaths: number[][] = []
  const edges: Edge[] = []
  const seenPairs = new Set<string>()
  for (const path of kept) {
    const indices = path.map((token) => {
      let i = indexOf.get(token)
      if (i === undefined) {
        i = tokens.length
        tokens.push(token)
        indexOf.set(token, i)
      }
      return i
    })
    tokenPaths.push(indices)
    for (let k = 0; k + 1 < path.length; k++) {
      const key = `${path[k]}>${path[k + 1]}`
      if (seenPairs.has(key)) continue
      seenPairs.add(key)
      for (const { pool, curve } of pairEdges(path[k]!, path[k + 1]!))
        edges.push({ from: indices[k]!, to: indices[k + 1]!, hop: { pool, tokenIn: path[k]!, tokenOut: path[k + 1]! }, curve })
    }
  }
  const graphPools = poolsAmong(market, tokens)
  return { graph: { tokens, edges, tokenPaths, pools: graphPools, spot: tokens.map((t) => value.get(t) ?? 0), maxHops, shallow }, amountIn, tradeValue }
}

/**
 * The value, at the margin's prices, of the input a pool direction takes until its rate falls to
 * the margin's (the input's price over the output's): what it trades at that optimum. A large trade
 * pushes its routes' rates far below their mid prices, so a pool shallow at 1% impact whose rate
 * starts above the margin takes far more than its 1% depth (hard bench 100:421 H7->H11 30% at 4
 * hops: a DAI->H11 pool of 1%-impact depth 5e-8 of the trade's value carried the optimum's fifth
 * path, 0.125 bp). 0 when either price is unknown or the pool starts below the margin.
 */
function atMargin(curve: Curve, a: Address, b: Address, margins: ReadonlyMap<Address, number>): number {
  const priceIn = margins.get(a)
  const priceOut = margins.get(b)
  if (!(priceIn! > 0) || !(priceOut! > 0)) return 0
  const rate = priceIn! / priceOut!
  if (!(curve.rate0 > rate)) return 0
  return curve.atRate(rate, { input: 0, output: 0, slope: 0 }).input * priceIn!
}
