import type { Address } from 'viem'
import { type ModelRoute, decompose } from './decompose.js'
import { type LayeredGraph, layerGraph, unlayerPath, unlayerRoute } from './layerGraph.js'
import { layeredRoute } from './layeredRoute.js'
import { shareLayers } from './shareLayers.js'
import { type FlowSolution, solveFlow } from './splitSolver.js'
import type { RouteGraph } from './types.js'

/** Pools held to one layer are shared instead when the held model loses more than this share against the free layered solve (0.01 bp). */
const SHARING_LOSS = 1e-6
/** Re-solves that switch off edges only paths longer than maxHops can use. */
const HOP_REPAIRS = 6

/**
 * A gas-free solve the gas search can start from: the graph it was solved on
 * (the candidate graph, or that graph layered by hop count), the edges of each
 * of its token pairs (`from>to`), and its flow, model and active edges.
 */
export type GasSearchStart = {
  graph: RouteGraph
  pairEdges: ReadonlyMap<string, number[]>
  flow: FlowSolution
  model: ModelRoute
  active: readonly boolean[]
  /** Set when `graph` is layered: a model searched on it is mapped back to the candidate graph's edges through these layers. */
  layers?: LayeredGraph
}

/**
 * The gas-free models of one amount that a route weighs on exact simulation,
 * every model over the candidate graph's edges. Most amounts fit maxHops as
 * solved: then the lead is the candidate graph's model and nothing else is
 * weighed. When edges had to be switched off to fit maxHops, the split is also
 * solved on the graph layered by hop count (each pool held to one layer, and
 * when holding costs something, the layers sharing it): the best of those
 * models leads, and the others are weighed beside it.
 */
export type ModelsToWeigh = {
  /** The candidate graph's flow (edges cut to fit maxHops): its prices feed the certificate; its dual is what the lead is measured against. */
  candidateFlow: FlowSolution
  /** The best model, where the gas search starts (undefined when no flow decomposes into paths). */
  lead: ModelRoute | undefined
  /** The flow the lead was decomposed from: its dual is the gas-free optimum of the amount. */
  leadFlow: FlowSolution
  /** The lead's solve, for the gas search (undefined when there is no lead). */
  leadSolve: GasSearchStart | undefined
  /** Other models whose splits are made exact and weighed against the lead's. */
  alternatives: ModelRoute[]
  /** Solves the gas search also starts from when gas is priced; each model it finds is weighed as an alternative. */
  alternativeSolves: GasSearchStart[]
  /** Edges were switched off to fit maxHops: the flow did not become paths as solved, so a greedy split on exact simulation is tried too. */
  repaired: boolean
  /** The paths (candidate graph edges) that greedy split weighs, most promising first. */
  greedyPaths: number[][]
  /** Solver iterations spent. */
  iterations: number
  /** The solve of every edge of the graph at the amount (the hop-limited solve's first; see EveryEdgeSolve). */
  everyEdgeFlow: FlowSolution
  /**
   * The layered flow with every copy of a pool holding its whole depth, as paths with each copy a
   * pool of its own (executed path by path, a pool traded from several layers or both ways trades
   * on the state the last trade left): its output is the free dual, above what it executes, so it
   * is weighed apart from the alternatives (set only when pools were held to one layer). Made when
   * first asked for: the router weighs it beyond the default hop limit only.
   */
  freeLayered?: () => ModelRoute | undefined
}

/**
 * A solve of every edge of a candidate graph at `amount`, from the zero-size prices (`solveFlow`
 * with no start, at its default iterations): the first solve of that amount's models.
 */
export type EveryEdgeSolve = { amount: number; flow: FlowSolution }

/**
 * Prepares the gas-free solves of a candidate graph: for an amount, the
 * models a route weighs (see `ModelsToWeigh`). The graph layered by hop count
 * is built on the first amount that needs it and kept for the next.
 * `pairEdges` lists the graph's edges of each token pair (`from>to`);
 * `everyEdgeSolve`, a solve of every edge the caller already made (solveFlow
 * is deterministic: the same solve again gives the same flow).
 *
 * @example
 * const modelsToWeigh = prepareModelsToWeigh(graph, pairEdges)
 * const { lead, alternatives } = modelsToWeigh(1e18)
 */
export function prepareModelsToWeigh(graph: RouteGraph, pairEdges: ReadonlyMap<string, number[]>, everyEdgeSolve?: EveryEdgeSolve): (amount: number) => ModelsToWeigh {
  const everyEdge = graph.edges.map(() => true)
  // null: not built yet; undefined: no path of at most maxHops exists.
  let layers: LayeredGraph | undefined | null = null
  return (amount) => {
    const cut = solveWithinHops(graph, everyEdge, amount, everyEdgeSolve?.amount === amount ? everyEdgeSolve.flow : undefined)
    const cutSolve: GasSearchStart | undefined = cut.model && { graph, pairEdges, flow: cut.flow, model: cut.model, active: cut.active }
    const cutLeads = (iterations: number, alternatives: ModelRoute[], morePaths: number[][]): ModelsToWeigh => ({
      candidateFlow: cut.flow,
      lead: cut.model,
      leadFlow: cut.flow,
      leadSolve: cutSolve,
      alternatives,
      alternativeSolves: [],
      repaired: cut.repaired,
      greedyPaths: [...pathEdges(cut.model), ...morePaths],
      iterations,
      everyEdgeFlow: cut.first,
    })
    if (!cut.repaired) return cutLeads(cut.iterations, [], [])
    // Switching edges off was needed: the layered graph has every path within maxHops by
    // construction (see layeredRoute).
    if (layers === null) layers = layerGraph(graph)
    const layered = layers
    const held = layered && layeredRoute(layered, amount)
    // A held model short of the amount (holding a pool to one layer stranded what reached a token
    // whose other exits it held elsewhere) is still solved on: the copies sharing the pools may carry
    // the whole amount, and its own paths, scaled up to it, are weighed on exact simulation (hard
    // bench 100:109 H11->H14 30% at 4 hops: H12 bought after one hop had H12 -> WBTC -> USDC left
    // only in the layer WBTC took after one hop; dropping every layered model left the cut model's
    // paths, 630 bp under the bench's layered plan).
    if (!layered || !held) return cutLeads(cut.iterations, [], [])
    // layeredRoute holds each pool to one layer; a pool may be wanted from several (a pool into the
    // output reached after 1, 2 and 3 hops). When holding cost something against the free layered
    // solve, the layer copies share each pool instead (shareLayers; a pool they trade both ways
    // keeps the direction the candidate flow, one price per token, trades it in).
    const shared = held.held && held.model.output < held.free.dual * (1 - SHARING_LOSS) ? shareLayers(layered, amount, held.free, poolDirections(graph, cut.flow)) : undefined
    const iterations = cut.iterations + held.iterations + (shared?.iterations ?? 0)
    const heldSolve: GasSearchStart = { graph: layered.graph, pairEdges: layered.pairEdges, flow: held.flow, model: held.model, active: held.active, layers: layered }
    const sharedSolve: GasSearchStart | undefined = shared && { ...shared, pairEdges: layered.pairEdges, layers: layered }
    const heldModel = unlayerRoute(layered, held.model)
    const sharedModel = shared && unlayerRoute(layered, shared.model)
    // The better of the held and shared models leads the layered ones (the shared one, whole, over a
    // short held one); the other's split is made exact and weighed too.
    const sharedLeads = sharedSolve !== undefined && (held.model.short === true || sharedSolve.model.output > held.model.output)
    const layeredSolve = sharedLeads ? sharedSolve : heldSolve
    const layeredModel = sharedLeads ? sharedModel! : heldModel
    const otherLayered = sharedLeads ? heldModel : sharedModel
    const alternatives = otherLayered ? [otherLayered] : []
    // The free layered flow (every copy its pool's whole depth) split into paths with each copy a
    // pool of its own: executed path by path, a pool wanted from several layers, or both ways, is
    // traded once per copy on the state the last trade left, as the flow wanted it. The held and
    // shared models keep one direction per pool and split its depth over the copies, and can end
    // far under that (hard bench 100:237 H0->H3 10% at 6 hops: shared 46 bp under the free dual).
    const freeLayered = held.held
      ? () => {
          const freeModel = decompose(layered.graph, held.free, amount, undefined, true)
          return !freeModel || freeModel.short ? undefined : unlayerRoute(layered, freeModel)
        }
      : undefined
    // The paths of the layered flow with each pool free in every layer, and of the models that do
    // not lead, join the greedy split on exact simulation, which prices shared pools exactly. The
    // held model's paths, not the shared one's: the shared split is already made exact, and its
    // many paths would make the greedy split several times slower.
    const supportPaths = held.supportPaths.map((path) => unlayerPath(layered, path))
    // A whole cut model leads over a short layered one, which is weighed beside it.
    if (cut.model && !cut.model.short && (layeredSolve.model.short || cut.model.output >= layeredSolve.model.output))
      return { ...cutLeads(iterations, layeredSolve.model.short ? [layeredModel, ...alternatives] : alternatives, [...supportPaths, ...pathEdges(heldModel)]), freeLayered }
    // The cut model's split is weighed on exact simulation too: short of the amount as solved, its
    // paths scaled up to it can still beat a layered model that holds or shares pools badly (a
    // dense graph where every copy of an exit's pool is wanted).
    if (cut.model) alternatives.push(cut.model)
    return {
      candidateFlow: cut.flow,
      lead: layeredModel,
      leadFlow: layeredSolve.flow,
      leadSolve: layeredSolve,
      alternatives,
      // With gas, the held model is searched too when the shared one leads: a shared pool's copy
      // dropped leaves the other copies their parts only, so the search from the shared model
      // consolidates less.
      alternativeSolves: sharedLeads ? [heldSolve] : [],
      repaired: cut.repaired,
      greedyPaths: [...pathEdges(heldModel), ...supportPaths, ...pathEdges(cut.model)],
      iterations,
      everyEdgeFlow: cut.first,
      freeLayered,
    }
  }
}

/** A model's paths as lists of edges (none without a model). */
const pathEdges = (model: ModelRoute | undefined): number[][] => model?.paths.map((path) => path.edges) ?? []

/**
 * The gas-free solve, made to fit maxHops: the relaxation's flow may chain edges of short token
 * paths into a longer one; edges of its support that lie on no path of at most maxHops through
 * the support are switched off and the flow re-solved (warm), HOP_REPAIRS times at most. The
 * model is undefined when nothing decomposes; `repaired` says edges were switched off (or the
 * model is the best short one, or none); `first`, the first solve. `known`: the first solve
 * (`active` at `amount`, no start), when already made.
 */
function solveWithinHops(graph: RouteGraph, active: readonly boolean[], amount: number, known?: FlowSolution) {
  let trial = active
  let start: Float64Array | undefined
  let iterations = 0
  // The best short decomposition so far (paths scaled up to the amount), when none is whole.
  let fallback: { flow: FlowSolution; model: ModelRoute; active: readonly boolean[] } | undefined
  let first: FlowSolution | undefined
  for (let attempt = 0; ; attempt++) {
    // The first solve (every edge given, no start) may be known already.
    const flow = attempt === 0 && known ? known : solveFlow(graph, trial, amount, start)
    first ??= flow
    iterations += flow.iterations
    const tooLong: number[] = []
    const model = decompose(graph, flow, amount, tooLong)
    if (model?.short && (!fallback || model.output > fallback.model.output)) fallback = { flow, model, active: trial }
    if ((model && !model.short) || tooLong.length === 0 || attempt >= HOP_REPAIRS) {
      if (model && !model.short) return { flow, model, iterations, active: trial, repaired: attempt > 0, first }
      return fallback ? { ...fallback, iterations, repaired: true, first } : { flow, model: undefined, iterations, active: trial, repaired: true, first }
    }
    const next = [...trial]
    for (const e of tooLong) next[e] = false
    trial = next
    start = flow.prices
  }
}

/**
 * The direction a flow trades each pool in (pool key to input token; the one worth more, at spot,
 * should it trade a pool both ways).
 */
function poolDirections(graph: RouteGraph, flow: FlowSolution): Map<string, Address> {
  const directions = new Map<string, Address>()
  const worth = new Map<string, number>()
  graph.edges.forEach((edge, e) => {
    const value = flow.inputs[e]! * graph.spot[edge.from]!
    if (!(value > 0) || value <= (worth.get(edge.hop.pool.key) ?? 0)) return
    worth.set(edge.hop.pool.key, value)
    directions.set(edge.hop.pool.key, edge.hop.tokenIn)
  })
  return directions
}
