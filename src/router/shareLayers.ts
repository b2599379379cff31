import type { Address } from 'viem'
import { type ModelRoute, decompose } from './decompose.js'
import type { LayeredGraph } from './layerGraph.js'
import { shareCurve } from './shareCurve.js'
import { type FlowSolution, solveFlow } from './splitSolver.js'
import { DEFAULT_MAX_HOPS, type RouteGraph } from './types.js'

/**
 * Re-solves that settle how the layer copies of a pool share it: six at the default hop limit (its
 * latency budget), more beyond it, where more copies share more pools and each round closes only
 * about a seventh of what is left (100 pools seed 9 H0->H5 30% at 6 hops: 3.5 bp under the bound
 * after six rounds, 0.1 bp after twenty-four).
 */
const sharingRounds = (maxHops: number) => (maxHops > DEFAULT_MAX_HOPS ? 24 : 6)
/** The copies' parts have settled when none moves by more than this (of the pool's liquidity). */
const SHARING_SETTLED = 1e-3
/**
 * Solver iterations of a sharing round: its model is a feasible flow's output whether or not the
 * solve converged (a capped round may only gain less).
 */
const SHARING_ITERATIONS = 30
/** A round gaining less than this share of the output ends the sharing (0.001 bp). */
const SHARING_GAIN = 1e-7

/**
 * The gas-free split of `amount` on a layered graph with the layer copies of
 * each pool sharing it, from `free` (the layered solve with every copy holding
 * the pool's whole depth, which counts a pool traded from several layers once
 * per copy). Copies that trade a pool in one direction split its liquidity
 * (`shareCurve`): first in proportion to what they trade, then each part
 * scaled by how much harder than the others its copy uses it (its input per
 * unit of part), re-solved warm each time: copies into the output token (one
 * price) settle at once, and a copy whose price ratio is better takes a
 * growing part (squared rather than plain proportions: these settle several
 * times faster and stay stable). A pool traded in two directions keeps only
 * the copies of one: the direction `directions` names for it (pool key to
 * input token: the hop-free flow's, whose one price per token trades a pool
 * one way), else the direction worth more in `free` (whose copies each hold
 * the pool's whole depth, so it may trade a pool both ways in different layers
 * and weigh the wrong way the more). Every model never claims more than
 * the pools give its flow executed (exactly that once the parts match the
 * inputs); the best over the rounds is returned, with the graph (copies'
 * curves shared), flow and active edges it was solved on. Where `layeredRoute` holds a
 * pool to one layer, this lets a route reach the pool from several hop counts
 * (a token's pool into the output taken after 1, 2 and 3 hops). Undefined when
 * nothing decomposes.
 *
 * @example
 * const { free } = layeredRoute(layered, 1e18)!
 * const shared = shareLayers(layered, 1e18, free)
 * shared?.model.output // a model the pools can execute, pools used from several layers
 */
export function shareLayers(
  layered: LayeredGraph,
  amount: number,
  free: FlowSolution,
  directions?: ReadonlyMap<string, Address>,
): { graph: RouteGraph; flow: FlowSolution; model: ModelRoute; active: boolean[]; iterations: number } | undefined {
  const { edges } = layered.graph
  const active = edges.map(() => true)
  let flow = free
  let iterations = 0
  let best: { graph: RouteGraph; flow: FlowSolution; model: ModelRoute; active: boolean[] } | undefined
  // Per edge: its part of the pool's liquidity (1: all of it).
  const shares = new Float64Array(edges.length).fill(1)
  // Each edge's copy group (its pool and direction), named once: every round looks them up for every edge.
  const groups = edges.map((edge) => `${edge.hop.pool.key}:${edge.hop.tokenIn}:${edge.hop.tokenOut}`)
  for (let round = 0; round < sharingRounds(layered.graph.maxHops); round++) {
    // Per pool: the value each direction (input token) trades; per copy group, the copies' weights.
    const byDirection = new Map<string, Map<unknown, number>>()
    const weights = new Float64Array(edges.length)
    const sums = new Map<string, number>()
    edges.forEach((edge, e) => {
      if (!active[e] || !(flow.inputs[e]! > 0)) return
      const { pool, tokenIn } = edge.hop
      let values = byDirection.get(pool.key)
      if (!values) byDirection.set(pool.key, (values = new Map()))
      values.set(tokenIn, (values.get(tokenIn) ?? 0) + flow.inputs[e]! * layered.graph.spot[edge.from]!)
      // Input times input per part (the whole pool's copies, first: plain input).
      weights[e] = shares[e]! < 1 ? (flow.inputs[e]! * flow.inputs[e]!) / shares[e]! : flow.inputs[e]!
      sums.set(groups[e]!, (sums.get(groups[e]!) ?? 0) + weights[e]!)
    })
    // A pool traded in two directions keeps the copies of one: the direction the hop-free flow
    // trades it in when it names one (see `directions`), else the one worth more.
    edges.forEach((edge, e) => {
      const values = byDirection.get(edge.hop.pool.key)
      if (!active[e] || !values || values.size < 2) return
      const named = directions?.get(edge.hop.pool.key)
      let kept: unknown = named !== undefined && values.has(named) ? named : undefined
      if (kept === undefined) for (const [token, value] of values) if (kept === undefined || value > values.get(kept)!) kept = token
      if (edge.hop.tokenIn !== kept) active[e] = false
    })
    let moved = false
    edges.forEach((_, e) => {
      const sum = sums.get(groups[e]!)
      if (sum === undefined || !active[e]) return
      const next = weights[e]! / sum
      if (Math.abs(next - shares[e]!) > SHARING_SETTLED) moved = true
      shares[e] = next
    })
    if (round > 0 && !moved) break
    const graph: RouteGraph = { ...layered.graph, edges: edges.map((edge, e) => (shares[e]! < 1 ? { ...edge, curve: shareCurve(edge.curve, shares[e]!) } : edge)) }
    flow = solveFlow(graph, active, amount, flow.prices, SHARING_ITERATIONS)
    iterations += flow.iterations
    const model = decompose(graph, flow, amount)
    if (!model || model.short) continue
    // A round that gains under SHARING_GAIN of the output ends the search.
    const gain = best ? model.output - best.model.output : Infinity
    if (gain > 0) best = { graph, flow, model, active: [...active] }
    if (gain <= SHARING_GAIN * model.output) break
  }
  return best ? { ...best, iterations } : undefined
}
