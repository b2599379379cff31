import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type Curve, getCurve } from './curves.js'
import type { Hop } from './types.js'

/** One pool traded in one direction, between two of the graph's tokens. */
export type Edge = {
  /** Token indices (0 is the output token, 1 the input token). */
  from: number
  to: number
  hop: Hop
  curve: Curve
}

/**
 * What the split optimiser works on: the tokens a route may pass through, the
 * pool directions between them, and every token path they form.
 */
export type RouteGraph = {
  /** Index 0: the output token; 1: the input token; then intermediates. */
  tokens: Address[]
  edges: Edge[]
  /** Token-index sequences from the input to the output token, at most `maxHops` long. */
  tokenPaths: number[][]
  /** Pools considered, in the order given (the certificate's relaxation covers them in both directions). */
  pools: Pool[]
  /** Zero-size value of each token in raw output units (products of fee-free mid prices). */
  spot: number[]
}

/** A token with pools to both ends is an intermediate when each side's depth is this share of the trade's value. */
const DEEP_SHARE = 1e-3
/** A pool whose 1%-impact depth is below this share of the trade's value cannot move the optimum (≪ 0.01 bp). */
const NEGLIGIBLE_SHARE = 1e-7

/**
 * Builds the route graph for a trade of `size` (raw input units, or an exact
 * output in raw output units): intermediates are
 * the connectors plus any token with deep pools to both ends (two-hop paths
 * only); pools too shallow to matter for this size are left out of the
 * optimisation (the certificate still covers them).
 *
 * @example
 * const graph = buildRouteGraph({ pools, tokenIn: weth, tokenOut: usdc, connectors, maxHops: 3 }, 1e18)
 * const forOutput = buildRouteGraph({ pools, tokenIn: weth, tokenOut: usdc, connectors, maxHops: 3 }, { amountOut: 3e9 })
 */
export function buildRouteGraph(
  parameters: { pools: readonly Pool[]; tokenIn: Address; tokenOut: Address; connectors: readonly Address[]; maxHops: number },
  size: number | { amountOut: number },
): RouteGraph {
  const { pools, tokenIn, tokenOut, maxHops } = parameters
  const pairPools = new Map<string, Pool[]>()
  const neighbours = new Map<Address, Set<Address>>()
  for (const pool of pools) {
    const tokens = pool.tokens
    for (let i = 0; i < tokens.length; i++)
      for (let j = 0; j < tokens.length; j++) {
        if (i === j) continue
        const key = `${tokens[i]}>${tokens[j]}`
        let list = pairPools.get(key)
        if (!list) pairPools.set(key, (list = []))
        list.push(pool)
        let set = neighbours.get(tokens[i]!)
        if (!set) neighbours.set(tokens[i]!, (set = new Set()))
        set.add(tokens[j]!)
      }
  }
  const connectorSet = new Set(parameters.connectors.filter((c) => c !== tokenIn && c !== tokenOut))
  const fromIn = neighbours.get(tokenIn) ?? new Set<Address>()
  const toOut = neighbours.get(tokenOut) ?? new Set<Address>()
  // Two-hop candidates through non-connectors: tokens pooled with both ends.
  const bridges: Address[] = []
  if (maxHops >= 2) for (const token of fromIn) if (token !== tokenOut && !connectorSet.has(token) && toOut.has(token)) bridges.push(token)
  bridges.sort()

  // Token paths over addresses (connectors in their given order, for determinism).
  const connectors = [...connectorSet]
  const addressPaths: Address[][] = []
  const walk = (path: Address[]) => {
    const last = path[path.length - 1]!
    const next = neighbours.get(last)
    if (!next) return
    if (next.has(tokenOut)) addressPaths.push([...path, tokenOut])
    if (path.length >= maxHops) return
    for (const c of connectors) if (next.has(c) && !path.includes(c)) walk([...path, c])
  }
  walk([tokenIn])
  for (const bridge of bridges) addressPaths.push([tokenIn, bridge, tokenOut])

  // Zero-size token values from the pools' mid prices, best chain to the output token.
  const value = new Map<Address, number>([[tokenOut, 1]])
  const spotOf = (a: Address, b: Address) => {
    let best = 0
    for (const pool of pairPools.get(`${a}>${b}`) ?? []) {
      const s = pool.spotPrice(a, b)
      if (Number.isFinite(s) && s > best) best = s
    }
    return best
  }
  for (let round = 0; round < maxHops + 1; round++)
    for (const path of addressPaths)
      for (let k = path.length - 2; k >= 0; k--) {
        const b = value.get(path[k + 1]!)
        if (b === undefined) continue
        const v = spotOf(path[k]!, path[k + 1]!) * b
        if (v > (value.get(path[k]!) ?? 0)) value.set(path[k]!, v)
      }
  const inValue = value.get(tokenIn) ?? 0
  // An exact-output size is turned into input at the best zero-size rate.
  const amountIn = typeof size === 'number' ? size : inValue > 0 ? size.amountOut / inValue : size.amountOut
  const tradeValue = amountIn * inValue

  // Curves for every pair a path uses; shallow pools dropped.
  const curves = new Map<string, { pool: Pool; curve: Curve }[]>()
  const pairEdges = (a: Address, b: Address) => {
    const key = `${a}>${b}`
    let list = curves.get(key)
    if (list) return list
    list = []
    const va = value.get(a) ?? 0
    const scale = va > 0 && inValue > 0 ? (amountIn * inValue) / va : amountIn
    for (const pool of pairPools.get(key) ?? []) {
      const curve = getCurve(pool, a, b, scale)
      if (!(curve.rate0 > 0)) continue
      if (va > 0 && tradeValue > 0 && depth(curve) * va < NEGLIGIBLE_SHARE * tradeValue) continue
      list.push({ pool, curve })
    }
    curves.set(key, list)
    return list
  }
  const depthValue = (a: Address, b: Address) => pairEdges(a, b).reduce((sum, e) => sum + depth(e.curve) * (value.get(a) ?? 0), 0)
  const kept = addressPaths.filter((path) => {
    for (let k = 0; k + 1 < path.length; k++) if (pairEdges(path[k]!, path[k + 1]!).length === 0) return false
    // A bridge must be deep on both sides.
    if (path.length === 3 && !connectorSet.has(path[1]!))
      return depthValue(path[0]!, path[1]!) >= DEEP_SHARE * tradeValue && depthValue(path[1]!, path[2]!) >= DEEP_SHARE * tradeValue
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
  const tokenSet = new Set(tokens)
  const graphPools = pools.filter((pool) => pool.tokens.filter((t) => tokenSet.has(t)).length >= 2)
  return { tokens, edges, tokenPaths, pools: graphPools, spot: tokens.map((t) => value.get(t) ?? 0) }
}

/** Input that lowers a curve's marginal rate by 1%: its depth at the current price. */
export function depth(curve: Curve): number {
  return curve.atRate(curve.rate0 * 0.99, { input: 0, output: 0, slope: 0 }).input
}
