import { type ModelRoute, decompose } from './decompose.js'
import type { LayeredGraph } from './layerGraph.js'
import { type FlowSolution, solveFlow } from './splitSolver.js'
import { SINK, SOURCE } from './types.js'

/** Re-solves that move a pool traded in several layers to one layer. */
const SHARING_ROUNDS = 4
/**
 * Copies of a pool whose traded values differ by less than this share trade the same: each took
 * the pool to its end (the free solve gives every copy the pool's whole depth).
 */
const SAME_TRADE = 1e-9
/** Most paths taken from the first solve's support. */
const MAX_SUPPORT_PATHS = 32
/** Edges carrying less than this share of the trade's value are left out of the support's paths. */
const SUPPORT_SHARE = 1e-6
/**
 * The gas-free split of `amount` on a layered graph (every path at most
 * maxHops), each pool held to one layer: the layer copies are separate edges
 * to the solver, so a pool the flow trades from several input nodes (which
 * would count its depth once per copy) keeps only the copies leaving the node
 * where it trades most (where copies trade the same, all at the pool's end,
 * the node where it gains most at the flow's prices), and the flow is
 * re-solved warm, a few times at most.
 * The decomposition keeps one input node per pool in any case, so the model's
 * output is that of a flow the pools can execute. Also returns the paths of
 * the first solve's support (each pool's copies free, so the paths every layer
 * wanted; each at most maxHops), for a split on exact simulation, and that
 * first solve itself (see `shareLayers`). Undefined when nothing decomposes.
 *
 * @example
 * const solved = layeredRoute(layerGraph(graph)!, 1e18)
 * solved?.model.paths // every path at most graph.maxHops hops
 */
export function layeredRoute(
  layered: LayeredGraph,
  amount: number,
): { flow: FlowSolution; model: ModelRoute; active: boolean[]; iterations: number; supportPaths: number[][]; free: FlowSolution; held: boolean } | undefined {
  const { edges } = layered.graph
  const active = edges.map(() => true)
  let start: Float64Array | undefined
  let iterations = 0
  let supportPaths: number[][] = []
  let free: FlowSolution | undefined
  for (let round = 0; ; round++) {
    const flow = solveFlow(layered.graph, active, amount, start)
    if (round === 0) {
      supportPaths = pathsOfSupport(layered, flow, amount)
      free = flow
    }
    iterations += flow.iterations
    // Per pool: the input node it trades most from, and whether it trades from more than one. Copies
    // that each trade the pool to its end trade the same: the one gaining most at the flow's prices
    // keeps it (its input token the cheapest against its output; hard bench 100:42 H9->H14 10%:
    // DAI -> H14, too shallow for the DAI bought directly and the DAI bought through USDC, went to
    // the first, which had H34 -> H13 to go to, and left the USDC route no exit: 0.86 bp).
    const busiest = new Map<string, { from: number; input: number; gain: number; shared: boolean }>()
    const inputAt = new Map<string, number>()
    const gainAt = new Map<string, number>()
    edges.forEach((edge, e) => {
      if (!(flow.inputs[e]! > 0)) return
      const key = `${edge.hop.pool.key}@${edge.from}`
      inputAt.set(key, (inputAt.get(key) ?? 0) + flow.inputs[e]! * layered.graph.spot[edge.from]!)
      gainAt.set(key, (gainAt.get(key) ?? 0) + flow.outputs[e]! * flow.prices[edge.to]! - flow.inputs[e]! * flow.prices[edge.from]!)
    })
    edges.forEach((edge, e) => {
      if (!(flow.inputs[e]! > 0)) return
      const key = `${edge.hop.pool.key}@${edge.from}`
      const value = inputAt.get(key)!
      const gain = gainAt.get(key)!
      const seen = busiest.get(edge.hop.pool.key)
      if (!seen) busiest.set(edge.hop.pool.key, { from: edge.from, input: value, gain, shared: false })
      else if (seen.from !== edge.from) {
        const tie = Math.abs(value - seen.input) <= SAME_TRADE * Math.max(value, seen.input)
        const wins = tie ? gain > seen.gain : value > seen.input
        busiest.set(edge.hop.pool.key, wins ? { from: edge.from, input: value, gain, shared: true } : { ...seen, shared: true })
      }
    })
    const shared = [...busiest.values()].some((pool) => pool.shared)
    if (!shared || round >= SHARING_ROUNDS) {
      const model = decompose(layered.graph, flow, amount)
      return model ? { flow, model, active, iterations, supportPaths, free: free!, held: round > 0 } : undefined
    }
    edges.forEach((edge, e) => {
      const pool = busiest.get(edge.hop.pool.key)
      if (pool?.shared && edge.from !== pool.from) active[e] = false
    })
    start = flow.prices
  }
}


/**
 * The source-sink paths over the edges a layered flow trades (edges worth less
 * than SUPPORT_SHARE of the trade left out), the edges carrying most tried
 * first, at most MAX_SUPPORT_PATHS. The layered graph is acyclic, so the walk
 * ends.
 */
function pathsOfSupport(layered: LayeredGraph, flow: FlowSolution, amount: number): number[][] {
  const { edges, tokens, spot } = layered.graph
  const floor = SUPPORT_SHARE * amount * flow.prices[SOURCE]!
  const leaving: number[][] = tokens.map(() => [])
  edges.forEach((edge, e) => {
    if (flow.inputs[e]! * flow.prices[edge.from]! > floor) leaving[edge.from]!.push(e)
  })
  for (const list of leaving) list.sort((a, b) => flow.inputs[b]! * spot[edges[b]!.from]! - flow.inputs[a]! * spot[edges[a]!.from]! || a - b)
  // Whether each node reaches the sink over these edges (-1: not known yet): the walk below steps
  // only onto nodes that do, since a walk into any other finds no path (the same paths, in the
  // same order, without the dead ends' combinations).
  const reaches = new Int8Array(tokens.length).fill(-1)
  reaches[SINK] = 1
  const reachesSink = (node: number): boolean => {
    if (reaches[node] === -1) {
      reaches[node] = 0
      for (const e of leaving[node]!) if (reachesSink(edges[e]!.to)) reaches[node] = 1
    }
    return reaches[node] === 1
  }
  const paths: number[][] = []
  const trail: number[] = []
  const walk = (node: number) => {
    if (paths.length >= MAX_SUPPORT_PATHS) return
    if (node === SINK) {
      paths.push([...trail])
      return
    }
    for (const e of leaving[node]!) {
      if (!reachesSink(edges[e]!.to)) continue
      trail.push(e)
      walk(edges[e]!.to)
      trail.pop()
    }
  }
  walk(SOURCE)
  return paths
}
