import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { BOUND_SLACK, descendDual } from './allPoolsBound.js'
import { getCurve } from './curves.js'
import { type Edge, type RouteGraph, SOURCE } from './types.js'
import { solveFlow } from './splitSolver.js'
import type { Plan } from './types.js'

/** Coordinate-descent rounds after the Newton solve of the candidate bound. */
const DESCENT_ROUNDS = 1

/**
 * An upper bound on the output any route over the candidate pairs can reach
 * for `amountIn`, gas ignored: the dual of the convex routing problem (every
 * pool of every token pair the candidate paths step through, traded in that
 * direction, any split, flows through intermediate tokens conserved):
 * ν_in·amountIn + Σ over those pools of its largest arbitrage value
 * max_t ν_out·f(t) − ν_in·t at token prices ν (raw output units per raw unit,
 * the output token at 1). Any positive prices give a valid bound (weak
 * duality); the prices are re-optimised over this relaxation, starting from
 * `prices` (the solution's), so the bound is as tight as it allows. Covers
 * the pools the optimiser pruned as shallow. Also returns the pools covered
 * and the solver iterations.
 *
 * @example
 * const { bound } = upperBound(graph, flow.prices, 1e18) // ≥ any plan's amountOut
 */
export function upperBound(graph: RouteGraph, prices: Float64Array, amountIn: number): { bound: number; pools: number; iterations: number } {
  const index = new Map(graph.tokens.map((t, i) => [t, i]))
  const tokenCount = graph.tokens.length
  // The token pairs the paths step through (i·tokenCount + j), and the graph's curves by pool direction.
  const pairs = new Set<number>()
  for (const path of graph.tokenPaths) for (let k = 0; k + 1 < path.length; k++) pairs.add(path[k]! * tokenCount + path[k + 1]!)
  const covered = new Set<string>()
  const known = new Map<Pool, Edge[]>()
  for (const edge of graph.edges) {
    const list = known.get(edge.hop.pool)
    if (list) list.push(edge)
    else known.set(edge.hop.pool, [edge])
  }
  const curveOf = (pool: Pool, a: Address, b: Address) => known.get(pool)?.find((edge) => edge.hop.tokenIn === a && edge.hop.tokenOut === b)?.curve
  const edges: Edge[] = []
  for (const pool of graph.pools)
    for (const a of pool.tokens)
      for (const b of pool.tokens) {
        const i = index.get(a)
        const j = index.get(b)
        if (a === b || i === undefined || j === undefined || !pairs.has(i * tokenCount + j)) continue
        covered.add(pool.key)
        const scale = (amountIn * prices[SOURCE]!) / prices[i]!
        const curve = curveOf(pool, a, b) ?? getCurve(pool, a, b, scale)
        if (curve.rate0 > 0) edges.push({ from: i, to: j, hop: { pool, tokenIn: a, tokenOut: b }, curve })
      }
  const relaxation: RouteGraph = { ...graph, edges }
  const flow = solveFlow(relaxation, edges.map(() => true), amountIn, prices)
  // Newton may stop short (a token whose pools only take is left where they trade): a pass of
  // coordinate descent from its prices, and the lower of the two duals (both valid bounds).
  const descended = descendDual(edges, graph.tokens.length, amountIn, Float64Array.from(flow.prices), DESCENT_ROUNDS)
  const dual = Number.isFinite(descended) && descended > 0 ? Math.min(flow.dual, descended) : flow.dual
  return { bound: dual * (1 + BOUND_SLACK), pools: covered.size, iterations: flow.iterations }
}

/**
 * The candidate graph widened to name every token path the plan takes (a
 * single path through a token beyond the candidates, chosen as the floor), so
 * the certificate's bound covers the plan it certifies: new tokens priced from
 * `fallback` (else 1), their pools taken from `pools`. The graph itself when
 * the plan stays within it (`fallback` is then never called).
 *
 * @example
 * const widened = coverPlan(graph, plan, pools, flow.prices, () => allPools.prices)
 * upperBound(widened.graph, widened.prices, 1e18)
 */
export function coverPlan(
  graph: RouteGraph,
  plan: Plan,
  pools: readonly Pool[],
  prices: Float64Array,
  fallback: () => ReadonlyMap<Address, number>,
): { graph: RouteGraph; prices: Float64Array } {
  const tokens = [...graph.tokens]
  const index = new Map(tokens.map((t, i) => [t, i]))
  const named = new Set(graph.tokenPaths.map((p) => p.join()))
  const tokenPaths = [...graph.tokenPaths]
  for (const { path } of plan.paths) {
    const indices = [path[0]!.tokenIn, ...path.map((h) => h.tokenOut)].map((t) => {
      let i = index.get(t)
      if (i === undefined) index.set(t, (i = tokens.push(t) - 1))
      return i
    })
    if (named.has(indices.join())) continue
    named.add(indices.join())
    tokenPaths.push(indices)
  }
  if (tokenPaths.length === graph.tokenPaths.length) return { graph, prices }
  const widened = new Float64Array(tokens.length)
  widened.set(prices)
  const spot = [...graph.spot]
  for (let i = graph.tokens.length; i < tokens.length; i++) {
    const p = fallback().get(tokens[i]!)
    widened[i] = p !== undefined && p > 0 && Number.isFinite(p) ? p : 1
    spot.push(widened[i]!)
  }
  const graphPools = tokens.length > graph.tokens.length ? pools.filter((pool) => pool.tokens.filter((t) => index.has(t)).length >= 2) : graph.pools
  return { graph: { ...graph, tokens, tokenPaths, pools: graphPools, spot }, prices: widened }
}
