import { type Curve, getCurve } from './curves.js'
import type { Edge, RouteGraph } from './routeGraph.js'
import { solveFlow } from './splitSolver.js'

/** Relative slack for float rounding in the curve models (far below any gap worth reporting). */
const FLOAT_SLACK = 1e-12

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
  const pairs = new Set<string>()
  for (const path of graph.tokenPaths) for (let k = 0; k + 1 < path.length; k++) pairs.add(`${path[k]}>${path[k + 1]}`)
  const covered = new Set<string>()
  const known = new Map<string, Curve>()
  for (const edge of graph.edges) known.set(`${edge.hop.pool.key}:${edge.hop.tokenIn}>${edge.hop.tokenOut}`, edge.curve)
  const edges: Edge[] = []
  for (const pool of graph.pools)
    for (const a of pool.tokens)
      for (const b of pool.tokens) {
        const i = index.get(a)
        const j = index.get(b)
        if (a === b || i === undefined || j === undefined || !pairs.has(`${i}>${j}`)) continue
        covered.add(pool.key)
        const scale = (amountIn * prices[1]!) / prices[i]!
        const curve = known.get(`${pool.key}:${a}>${b}`) ?? getCurve(pool, a, b, scale)
        if (curve.rate0 > 0) edges.push({ from: i, to: j, hop: { pool, tokenIn: a, tokenOut: b }, curve })
      }
  const relaxation: RouteGraph = { ...graph, edges }
  const flow = solveFlow(relaxation, edges.map(() => true), amountIn, prices)
  return { bound: flow.dual * (1 + FLOAT_SLACK), pools: covered.size, iterations: flow.iterations }
}
