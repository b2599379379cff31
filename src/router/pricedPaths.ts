import { edgeOf, edgeRates, pathRate } from './edgeRates.js'
import { polishSplit } from './polishSplit.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import { type SwapMemo, quoteMemoized } from './swapMemo.js'
import { type Edge, type Path, type Plan, type RouteGraph, SINK, SOURCE } from './types.js'
import { pathKey } from './pathKey.js'

/** Paths added at most (one per round, each round then balanced). */
const MAX_ADDED = 3
/** The probe the plan's exact rates are taken at, as a part of its thinnest path's input (2^-6, as polishSplit's first). */
const PROBE_SHIFT = 6n
/** A path is added only when its rate beats the plan's best by more than this share (float noise on exact rates). */
const RATE_EDGE = 1e-9
/** Balances run on the grown plan after the adds, at most (each from where the last ended). */
const MAX_REBALANCES = 4
/** A balance must raise the value by this share for another to follow (0.001 bp). */
const REBALANCE_GAIN = 1e-7
/** The added path's first amounts tried, as parts of an even share of the input (2^-8 .. 2^-0), the best kept. */
const START_SHIFTS = [8n, 6n, 4n, 2n, 0n]

/**
 * The plan grown by exact column generation: at the plan's exact state, each pool the plan trades
 * priced by its exact rate just past the total it trades there (see edgeRates), each other pool of
 * the graph by its exact rate for a small part of the input's worth, the best path of at most the
 * graph's hops by the product of those rates. When it beats the best rate of the plan's own paths,
 * the plan is not at its gas-free optimum over the graph: that path joins with a part of the input
 * taken from every path in proportion (the best of START_SHIFTS, net of gas at
 * `gasCostInOutput` raw output units per gas) and the split is balanced (polishSplit). Up to
 * MAX_ADDED rounds, each kept when it raises the value net of gas; the plan is then balanced again
 * while that gains (MAX_REBALANCES at most). The float models pick the
 * paths and the exact split keeps them; a path the models left out (their hop-limited
 * decomposition spreads a flow over paths of their own) is found here on the pools the calldata
 * executes. Returns the better plan, or `plan`.
 *
 * @example
 * const grown = addPricedPaths(plan, graph, 0, memo) // the plan, with the paths its margins say it lacks
 */
export function addPricedPaths(plan: Plan, graph: RouteGraph, gasCostInOutput: number, memo?: SwapMemo): Plan {
  const value = (candidate: Plan) => getNetOutput(candidate, gasCostInOutput)
  let best = plan
  for (let round = 0; round < MAX_ADDED; round++) {
    const thinnest = best.paths.reduce((least, path) => (path.amountIn < least ? path.amountIn : least), best.amountIn)
    const probe = thinnest >> PROBE_SHIFT
    if (probe < 1n) break
    const { rates } = edgeRates(best, probe, memo)
    let planRate = 0
    for (const path of best.paths) planRate = Math.max(planRate, pathRate(path.hops, rates, 'forward'))
    // An edge's rate at the plan's state: its exact forward rate when the plan trades it; when it
    // does not, its exact rate for the probe's worth of its input token (a zero-size rate overstates
    // a pool whose active range is thin).
    const probeValue = Number(probe) * (graph.spot[SOURCE] ?? 0)
    const rateOf = (edge: Edge) => {
      const traded = edgeOf(rates, { ...edge.hop, amountIn: 0n, amountOut: 0n, gas: 0n })
      if (traded) return traded.forward
      const worth = graph.spot[edge.from] ?? 0
      if (!(worth > 0) || !(probeValue > 0)) return 0
      const size = BigInt(Math.max(1, Math.round(probeValue / worth)))
      const out = quoteMemoized(edge.hop.pool, edge.hop.tokenIn, edge.hop.tokenOut, size, memo)?.amountOut ?? 0n
      return Number(out) / Number(size)
    }
    const found = bestPath(graph, rateOf)
    if (!found || !(found.rate > planRate * (1 + RATE_EDGE))) break
    const own = new Set(best.paths.map((path) => pathKey(path.path)))
    if (own.has(pathKey(found.path))) break
    // The start taken from every path in proportion to what it carries (their margins rise alike),
    // at a few sizes, the best kept: the share the path takes once balanced is unknown, a balance
    // of many paths moves little per round, and a part too small rounds away at a hop into a token
    // of few decimals.
    const even = best.amountIn / BigInt(best.paths.length + 1)
    let grown: Plan | undefined
    for (const shift of START_SHIFTS) {
      const moved = even >> shift
      if (moved < 1n) continue
      const allocations = takeShare(best, moved)
      const trial = simulatePlan([...allocations, { path: found.path, amountIn: moved }], { gasCostInOutput, memo })
      if (trial && trial.amountIn === plan.amountIn && (!grown || value(trial) > value(grown))) grown = trial
    }
    if (!grown) break
    const balanced = polishSplit(grown, gasCostInOutput, memo)
    if (!(value(balanced) > value(best))) break
    best = balanced
  }
  // Balanced again while a balance gains: one balance of many paths runs few rounds, and a round
  // earns another only for a large gain (see polishSplit), so a plan of many paths, or one just
  // grown, stops short of its top (hard bench 100:249 H0->H5 10% at 6 hops: 11 paths, 0.17 bp
  // more over four more balances).
  for (let again = 0; again < MAX_REBALANCES && best.paths.length > 1; again++) {
    const more = polishSplit(best, gasCostInOutput, memo)
    if (!(value(more) > value(best) * (1 + REBALANCE_GAIN))) break
    best = more
  }
  return best
}

/**
 * The path of at most the graph's hops from its input to its output token with the highest
 * product of `rateOf` over its edges, through each token at most once; undefined when none.
 */
function bestPath(graph: RouteGraph, rateOf: (edge: Edge) => number): { path: Path; rate: number } | undefined {
  const rates = graph.edges.map(rateOf)
  // reached[k][token]: the best rate into the token in exactly k hops, and the edge it came by.
  let reached = new Map<number, { rate: number; edges: number[] }>([[SOURCE, { rate: 1, edges: [] }]])
  let best: { rate: number; edges: number[] } | undefined
  for (let hops = 1; hops <= graph.maxHops; hops++) {
    const next = new Map<number, { rate: number; edges: number[] }>()
    graph.edges.forEach((edge, e) => {
      const from = reached.get(edge.from)
      if (!from || !(rates[e]! > 0) || edge.to === SOURCE) return
      // Each token at most once on a path.
      if (from.edges.some((seen) => graph.edges[seen]!.from === edge.to)) return
      const rate = from.rate * rates[e]!
      const known = next.get(edge.to)
      if (!known || rate > known.rate) next.set(edge.to, { rate, edges: [...from.edges, e] })
    })
    const atOutput = next.get(SINK)
    if (atOutput && (!best || atOutput.rate > best.rate)) best = atOutput
    next.delete(SINK)
    reached = next
  }
  return best && { path: best.edges.map((e) => graph.edges[e]!.hop), rate: best.rate }
}

/** The plan's allocations with `share` of its input taken from its paths in proportion to what each carries (the rounding from the largest). */
function takeShare(plan: Plan, share: bigint): { path: Path; amountIn: bigint }[] {
  const total = plan.amountIn
  const taken = plan.paths.map((path) => ({ path: path.path, amountIn: path.amountIn - (path.amountIn * share) / total }))
  const left = total - share - taken.reduce((sum, allocation) => sum + allocation.amountIn, 0n)
  const largest = taken.reduce((most, allocation) => (allocation.amountIn > most.amountIn ? allocation : most))
  largest.amountIn += left
  return taken
}
