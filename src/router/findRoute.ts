import type { Address } from 'viem'
import { type AllPoolsBound, allPoolsBound } from './allPoolsBound.js'
import { AllPoolsFigure, certifyRoute } from './allPoolsFigure.js'
import { bestSinglePaths } from './bestSinglePaths.js'
import { coverPlan, upperBound } from './certificate.js'
import { exactSplit, repairSplit } from './exactSplit.js'
import { findPaths } from './findPaths.js'
import { dropThinnest } from './dropThinnest.js'
import { findSinglePaths } from './findSinglePaths.js'
import { flowableSplit } from './flowableSplit.js'
import { getBestSpotRate } from './getBestSpotRate.js'
import { localSearch } from './localSearch.js'
import { unlayerRoute } from './layerGraph.js'
import type { ModelRoute } from './decompose.js'
import { type EveryEdgeSolve, type GasSearchStart, type ModelsToWeigh, prepareModelsToWeigh } from './modelsToWeigh.js'
import { greedySplit } from './greedySplit.js'
import { prunePaths } from './prunePaths.js'
import { polishSplit } from './polishSplit.js'
import { priceColumns } from './priceColumns.js'
import { retreatCrossings } from './retreatCrossings.js'
import { searchGas } from './gasSearch.js'
import { buildRouteGraph } from './routeGraph.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import { spendRounding } from './spendRounding.js'
import { createSwapMemo } from './swapMemo.js'
import { type FlowSolution, solveFlow } from './splitSolver.js'
import type { Pool } from '../protocols/types.js'
import { DEFAULT_MAX_HOPS, type Hop, type Path, type Plan, type RouteGraph, type RouteParameters, SOURCE } from './types.js'
import { distinctPaths } from './pathKey.js'
import { addPricedPaths } from './pricedPaths.js'

/**
 * The all-pools relaxation must promise more than this share above the candidates' for the graph to
 * grow (0.001 bp): rivals route through tokens worth less than 0.01 bp (hard bench 100:62 H0->H3 1%
 * at 6 hops: Tines' third path, through H9 and H10, 0.0019 bp above weft's candidates, the
 * relaxation over every pool 0.0028 bp above them; 100:304 H11->H14 0.01% at 4 hops: Tines' 1%
 * through H30 -> DAI, 0.006 bp above weft's candidates, the relaxation 0.0066 bp). Up to the
 * default hop limit it was 0.01 bp for its latency budget; the quotes of the latency universes
 * between the two (4 in 100 at 100 pools, none in 25 at 1,000) cost a growth round each, as the
 * many above 0.01 bp do.
 */
const EXPAND_SHARE = 1e-7
/** Tokens the all-pools relaxation trades through that may join the candidates, per round. */
const MAX_EXPANSION = 12
/**
 * Rounds of growing the candidates (each at the grown graph's prices, while the relaxation promises
 * more): one up to the default hop limit, two beyond it, where a route holds more intermediates
 * than one round may bring in (a second round costs about half a 1,000-pool quote at 4 hops, more
 * than the default limit's latency budget allows; at 6 hops it closed 1.7 bp on the hard bench).
 */
const expansionRounds = (maxHops: number) => (maxHops > DEFAULT_MAX_HOPS ? 2 : 1)
/** Rounds of column generation after the growing rounds (each re-prices the grown graph). */
const COLUMN_ROUNDS = 2
/** A decomposition whose model output is this share below the relaxation's also gets a greedy split (0.1 bp). */
const DECOMPOSITION_LOSS = 1e-5
/**
 * With gas priced, the greedy split over the best single paths alone is weighed for a plan of at
 * most this many paths (the gas search and the pruning can settle on one or two paths where others
 * of the single paths pay their gas better; see uncertified).
 */
const GREEDY_SINGLES_PATHS = 2
/** Paths a plan may have for the local search to run from it within the default hop limit (see uncertified). */
const LOCAL_SEARCH_PATHS = 5
/** The share of a plan's value its gas must be worth for the local search to run on more paths (see uncertified). */
const LOCAL_SEARCH_GAS_SHARE = 1e-4
/**
 * The surplus, as a share of the trade's value, that the pool directions the all-pools relaxation
 * trades and the graph left out must promise for the graph to be rebuilt at the relaxation's margin
 * (0.001 bp, as EXPAND_SHARE).
 */
const MARGIN_SHARE = 1e-7
/** A prepared router: the candidate graph for one pair and size, reusable across amounts of that order. */
export type PreparedRoute = {
  graph: RouteGraph
  /** The gas-aware exact plan for `amountIn` (undefined when nothing can fill it). */
  route(amountIn: bigint): Plan | undefined
  /**
   * The plan `route` returns, without its certificate: for searches that weigh many amounts and
   * keep one plan (an exact output's input, up to 13 routes on a refusal), which its caller
   * certifies: the certificate is a solve of its own over the candidates, and a pass over every
   * pool when its all-pools figure is read.
   */
  search(amountIn: bigint): Plan | undefined
  /** The gas-free model optimum for `amountIn`: output and the input token's price (d output / d input). */
  optimum(amountIn: number): { output: number; inputPrice: number } | undefined
}

/**
 * Builds the candidate graph for a pair at the size `scale` (raw input units,
 * or an output in raw output units): `findRoute` in two steps, so exact-output
 * searches can reuse it.
 *
 * @example
 * const router = prepareRoute(parameters, 1e18)
 * const plan = router.route(10n ** 18n)
 */
export function prepareRoute(parameters: RouteParameters, scale: number | { amountOut: number }): PreparedRoute {
  return prepareCertifiable(parameters, scale)
}

/**
 * A prepared router that also routes without certifying: the route at one hop more weighs its
 * plans and certifies the one it keeps over its own candidates.
 */
type CertifiableRoute = PreparedRoute & {
  /** The plan `route` returns, before its certificate; with the candidate flow whose prices the certificate starts from (none when the graph has no edge) and the solver iterations spent. */
  uncertified(amountIn: bigint): { plan: Plan; candidateFlow?: FlowSolution; iterations: number } | undefined
}

/**
 * prepareRoute's router, with its uncertified routes (see CertifiableRoute). `nested`: the route at
 * one hop fewer that a looser limit weighs (it skips the steps that limit runs on whatever plan it keeps).
 */
function prepareCertifiable(parameters: RouteParameters, scale: number | { amountOut: number }, nested = false): CertifiableRoute {
  const { pools, tokenIn, tokenOut, connectors, maxHops = DEFAULT_MAX_HOPS } = parameters
  const gasCost = Number.isFinite(parameters.gasCostInOutput) && parameters.gasCostInOutput > 0 ? parameters.gasCostInOutput : 0
  // The tokens of the best single paths through any token are candidates too (whole-graph
  // routing: a token beyond the connectors that carries the best path is always in the graph).
  const probe = typeof scale === 'number' ? scale : inputFor(parameters, scale.amountOut, maxHops)
  const floorPaths = findSinglePaths(pools, tokenIn, tokenOut, probe, maxHops, gasCost)
  const floorTokens = floorPaths.flatMap((path) => path.slice(0, -1).map((hop) => hop.tokenOut))
  let candidates = floorTokens.length > 0 ? [...new Set([...connectors, ...floorTokens])] : connectors
  // Prices at the all-pools relaxation's margin, once its pools were weighed at them (see below):
  // every graph built after that keeps the pools shallow at 1% impact that trade at that margin.
  let margins: ReadonlyMap<Address, number> | undefined
  const build = (tokens: readonly Address[]) => buildRouteGraph({ pools, tokenIn, tokenOut, connectors: tokens, maxHops, ...(margins ? { margins } : {}) }, scale)
  let graph = build(candidates)
  // Whole-graph routing: the relaxation over every pool within maxHops, at the candidates' prices,
  // names the tokens it trades through; when it promises visibly more than the candidates, the
  // ones not tried yet join it (the first it ranks first), in expansionRounds rounds at most.
  let expansion: AllPoolsBound | undefined
  // The last solve of every edge of the final graph at the probe: the hop-limited solve of that
  // amount starts with the same solve (see prepareModelsToWeigh).
  let everyEdgeSolve: EveryEdgeSolve | undefined
  // Whether the relaxation over every pool promised visibly more than the candidates last time.
  let gapShown = false
  // Tokens a graph held beyond the candidates (chosen by gain for its set of candidates, see
  // buildRouteGraph) that the relaxation traded through, before a round grew the candidates.
  const heldBefore = new Set<Address>()
  for (let round = 0; round < expansionRounds(maxHops) && graph.edges.length > 0 && probe > 0 && Number.isFinite(probe); round++) {
    const flow = solveFlow(graph, graph.edges.map(() => true), probe)
    everyEdgeSolve = { amount: probe, flow }
    try {
      expansion = allPoolsBound(pools, tokenIn, tokenOut, probe, maxHops, new Map(graph.tokens.map((t, i) => [t, flow.prices[i]!])))
    } catch {
      expansion = undefined
    }
    // Tokens tried before stay out of the next round's pick: a token that joined the candidates
    // but lies on no path through them (its route needs a token still missing) is not taken again.
    const present = new Set([...graph.tokens, ...candidates])
    gapShown = expansion !== undefined && (expansion.relaxedBound ?? expansion.bound) > flow.dual * (1 + EXPAND_SHARE)
    const extra = gapShown ? expansion!.trading.filter((t) => !present.has(t)).slice(0, MAX_EXPANSION) : []
    if (extra.length === 0) break
    for (const t of graph.tokens) if (!candidates.includes(t) && expansion!.trading.includes(t)) heldBefore.add(t)
    candidates = [...candidates, ...extra]
    graph = build(candidates)
    everyEdgeSolve = undefined
  }
  // Column generation, while the relaxation shows a gap: the tokens ranked by the relaxation's
  // trades can miss a chain of several tokens none of which gains alone (the relaxation's prices
  // there are far from the candidates'). Priced at the candidate optimum's own dual prices, a chain
  // of pools through tokens the candidate flow does not trade that sells dearer than it buys would
  // raise the optimum (see priceColumns): its tokens join the candidates (hard bench 1000:2
  // H9->H14 1% at 6 hops: H9 -> H202 -> H186 -> H210 -> USDT, 0.03 bp). A grown graph is kept only
  // when the exact split of its lead model at the probe beats the current graph's: more tokens
  // always raise the relaxation, but the hop-limited split over more paths can execute worse (see
  // leadExactOutput).
  let weighed: WeighedGraph | undefined
  // The models of the kept graph at the probe, when column generation computed them.
  let atProbe: ModelsToWeigh | undefined
  // Hop-limited growth: the growing rounds above compare relaxations that chain any number of
  // pools, and the candidates' can match the one over every pool while only longer routes reach
  // its tokens: then no token joined. When the layered relaxation over every pool (routes of at
  // most maxHops) is the tighter bound and still promises more than the candidates' hop-limited
  // lead, the tokens it trades through join them, kept as column generation keeps a grown graph:
  // when the lead's exact split at the probe executes higher (hard bench 100:119 H11->H14 30% at 4
  // hops: the layered optimum's H11 -> H10 -> H9 -> USDC -> H14, 4.7 bp above weft's candidates,
  // whose own relaxation matched every pool's through routes of up to 12 hops). Only when the
  // rounds above took none: when they grew the graph, the same ranking already offered its tokens
  // (on the hard bench's 1,000-pool markets a second offer tried 2 quotes in 5 and gained 0.002 bp).
  // The candidates grown by `extra`, kept when the lead's exact split at the probe executes higher
  // than the current graph's (`current`: its models at the probe); whether they were kept.
  const keepGrown = (extra: readonly Address[], current: ModelsToWeigh): boolean => keepGraph([...candidates, ...extra], build([...candidates, ...extra]), current)
  // A graph built over `grownCandidates`, kept as keepGrown keeps one; whether it was kept.
  const keepGraph = (grownCandidates: typeof candidates, grownGraph: RouteGraph, current: ModelsToWeigh): boolean => {
    const grown = weighGraph(grownGraph)
    const grownModels = grown.modelsToWeigh(probe)
    if (!(leadExactOutput(grown.graph, grownModels, probe) > leadExactOutput(graph, current, probe))) return false
    candidates = grownCandidates
    graph = grown.graph
    weighed = grown
    atProbe = grownModels
    everyEdgeSolve = { amount: probe, flow: grownModels.everyEdgeFlow }
    return true
  }
  // Pools at the relaxation's margin: the graph leaves out pools shallow at 1% impact (see
  // assembleGraph), but a large trade pushes its routes' rates far below their mid prices, and a
  // pool whose rate starts above that margin then trades far deeper than its 1% depth. When the
  // relaxation over every pool still promised visibly more than the candidates, and the pools it
  // trades that the graph left out as shallow add more than MARGIN_SHARE of the trade at its
  // prices, the graph is rebuilt keeping every pool that takes a share of the trade down to those
  // prices, kept as a grown graph is (hard bench 100:421 H7->H11 30% at 4 hops: a DAI->H11 pool of
  // 1%-impact depth 5e-8 of the trade's value, left out, carried the optimum's fifth path, 0.125
  // bp; 100:278 H13->H15 30% at 6 hops: pools H13->H10 and H13->H2 of 1e-7, 0.45 bp).
  if (gapShown && expansion && graph.edges.length > 0 && probe > 0 && Number.isFinite(probe)) {
    const missed = missedSurplus(graph, expansion.tradingHops ?? [])
    const tradeValue = probe * (expansion.prices.get(tokenIn) ?? 0)
    if (missed > MARGIN_SHARE * tradeValue) {
      const before = margins
      margins = expansion.prices
      const atMargin = build(candidates)
      if (atMargin.edges.length > graph.edges.length) {
        weighed ??= weighGraph(graph, everyEdgeSolve)
        const current = (atProbe ??= weighed.modelsToWeigh(probe))
        if (!keepGraph(candidates, atMargin, current)) margins = before
      } else margins = before
    }
  }
  // Growth is weighed the same way when the candidates' own solve ended above the relaxation over
  // every pool: that relaxation covers every candidate edge, so a converged candidate dual lies
  // at or below it, and one above it has stalled (Newton zigzagging on kinks) and measures no gap
  // (hard bench 100:254 H11->H14 30% at 6 hops: the candidates' dual 6.634e15 against every
  // pool's 6.581e15 and a lead of 6.574e15, so no token joined, and the routes through H16-H19
  // were missed: 8.7 bp below Tines).
  const stalled = expansion !== undefined && everyEdgeSolve !== undefined && everyEdgeSolve.flow.dual > (expansion.relaxedBound ?? expansion.bound) * (1 + EXPAND_SHARE)
  const hopBound = expansion !== undefined && (stalled || (expansion.relaxedBound !== undefined && expansion.bound < expansion.relaxedBound)) ? expansion.bound : undefined
  if (!gapShown && hopBound !== undefined && graph.edges.length > 0 && probe > 0 && Number.isFinite(probe)) {
    const present = new Set([...graph.tokens, ...candidates])
    const extra = expansion!.trading.filter((t) => !present.has(t)).slice(0, MAX_EXPANSION)
    if (extra.length > 0) {
      weighed ??= weighGraph(graph, everyEdgeSolve)
      const current = (atProbe ??= weighed.modelsToWeigh(probe))
      const promised = current.lead && !current.lead.short ? current.lead.output : 0
      if (hopBound > promised * (1 + EXPAND_SHARE)) keepGrown(extra, current)
    }
  }
  // A token the relaxation traded through that the graph held by gain alone can leave it when a
  // round grows the candidates (the graph rebuilt over more candidates chooses again), and being
  // in the graph it was never offered: when the hop-limited relaxation still promises more than the
  // lead, the dropped tokens are offered, kept as above (hard bench 100:283 H0->H4 0.1% at 4 hops:
  // H31, of the layered optimum's H0 -> H31 -> WBTC -> H3 -> H4, left the graph when the round
  // added H20, H23 and H34: 0.32 bp below that optimum).
  const dropped = [...heldBefore].filter((t) => !graph.tokens.includes(t) && !candidates.includes(t)).slice(0, MAX_EXPANSION)
  if (dropped.length > 0 && hopBound !== undefined && graph.edges.length > 0 && probe > 0 && Number.isFinite(probe)) {
    if (weighed?.graph !== graph) weighed = weighGraph(graph, everyEdgeSolve)
    const current = (atProbe ??= weighed.modelsToWeigh(probe))
    const promised = current.lead && !current.lead.short ? current.lead.output : 0
    if (hopBound > promised * (1 + EXPAND_SHARE)) keepGrown(dropped, current)
  }
  for (let round = 0; gapShown && round < COLUMN_ROUNDS && graph.edges.length > 0; round++) {
    const flow = everyEdgeSolve?.flow ?? solveFlow(graph, graph.edges.map(() => true), probe)
    everyEdgeSolve = { amount: probe, flow }
    if (weighed?.graph !== graph) weighed = weighGraph(graph, everyEdgeSolve)
    const inGraph = new Set(graph.tokens)
    const extra: Address[] = []
    for (const column of priceColumns(pools, graph, flow, probe)) {
      // A chain through graph tokens alone needs pools the graph left out, not tokens.
      if (column.tokens.every((t) => inGraph.has(t))) continue
      for (const t of column.tokens) if (!candidates.includes(t) && !extra.includes(t)) extra.push(t)
      if (extra.length >= MAX_EXPANSION) break
    }
    if (extra.length === 0) break
    const current = atProbe ?? weighed.modelsToWeigh(probe)
    atProbe = current
    if (!keepGrown(extra, current)) break
  }
  const { pairEdges, modelsToWeigh } = weighed ?? weighGraph(graph, everyEdgeSolve)

  const optimum = (amountIn: number) => {
    if (graph.edges.length === 0 || !(amountIn > 0)) return undefined
    const { lead, leadFlow } = modelsToWeigh(amountIn)
    // The dual value is the relaxation's optimum (smooth in the amount); undefined past the pools'
    // capacity or when the flow does not decompose into paths of at most maxHops.
    return lead && !lead.short ? { output: leadFlow.dual, inputPrice: leadFlow.prices[SOURCE]! } : undefined
  }

  // The best single paths through any token of the source (the floor every route is held to).
  const singlesAnywhere = (amountIn: bigint, memo = createSwapMemo()) =>
    (Number(amountIn) === scale ? floorPaths : findSinglePaths(pools, tokenIn, tokenOut, Number(amountIn), maxHops, gasCost)).map((path) =>
      simulatePlan([{ path, amountIn }], { gasCostInOutput: gasCost, memo }),
    )
  const value = (plan: Plan) => getNetOutput(plan, gasCost)
  // The gas search from a solve, its model mapped back to the candidate graph when the solve was layered.
  const searchGasFrom = (start: GasSearchStart, amount: number) => {
    const searched = searchGas(start.graph, start.pairEdges, start, amount, gasCost)
    const unlayer = (model: ModelRoute) => (start.layers ? unlayerRoute(start.layers, model) : model)
    return { model: unlayer(searched.model), iterations: searched.iterations, settled: searched.settled && unlayer(searched.settled) }
  }

  // The router at maxHops - 1, prepared when a route first needs it (beyond the default limit only).
  let tighter: CertifiableRoute | undefined
  // The chosen plan, with no certificate (`certify` adds it): the one-hop-fewer route weighs it.
  const uncertified: CertifiableRoute['uncertified'] = (amountIn) => {
    if (amountIn <= 0n) return undefined
    const amount = Number(amountIn)
    if (!Number.isFinite(amount)) return undefined
    // The exact plans below (splits, their repairs, single paths, the floor) share many swaps.
    const memo = createSwapMemo()
    if (graph.edges.length === 0) {
      // No candidate path: the best single path through any token, if one fills, and the route at
      // one hop fewer (see below: a looser limit never gives less; its own single-path search can
      // find a path this one's missed).
      let single: Plan | undefined
      const weigh = (plan: Plan | undefined) => {
        if (plan && plan.amountIn === amountIn && plan.amountOut > 0n && (!single || value(plan) > value(single))) single = plan
      }
      for (const plan of singlesAnywhere(amountIn, memo)) weigh(plan)
      if (maxHops > DEFAULT_MAX_HOPS) {
        tighter ??= prepareCertifiable({ ...parameters, maxHops: maxHops - 1 }, scale, true)
        weigh(tighter.uncertified(amountIn)?.plan)
      }
      return single && { plan: single, iterations: 0 }
    }
    let iterations = 0
    const models = atProbe && amount === probe ? atProbe : modelsToWeigh(amount)
    const { candidateFlow, lead } = models
    iterations += models.iterations

    // Gas: a local search over which pools trade, from the gas-free lead (see searchGas); the
    // alternatives' solves are searched too, and what they find weighed with the alternatives. A
    // search taken further by an add between traded tokens is weighed where it had stopped too:
    // a better model net of gas can still execute worse (hard bench 100:75 H2->H4 10% at 0.01 gwei, 6 hops: 9.2 bp).
    let best = lead
    const alternatives = [...models.alternatives]
    if (gasCost > 0 && models.leadSolve) {
      const searched = searchGasFrom(models.leadSolve, amount)
      best = searched.model
      iterations += searched.iterations
      if (searched.settled) alternatives.push(searched.settled)
      for (const start of models.alternativeSolves) {
        const alternative = searchGasFrom(start, amount)
        alternatives.push(alternative.model)
        if (alternative.settled) alternatives.push(alternative.settled)
        iterations += alternative.iterations
      }
    }

    // Exact plans: the split, and the best single paths (the floor the split can never fall below).
    let chosen: Plan | undefined
    let chosenValue = -Infinity
    const consider = (plan: Plan | undefined) => {
      if (!plan || plan.amountIn !== amountIn || plan.amountOut <= 0n) return
      const v = value(plan)
      if (v > chosenValue || (v === chosenValue && chosen !== undefined && plan.paths.length < chosen.paths.length)) {
        chosen = plan
        chosenValue = v
      }
    }
    // The gas-searched split (the gas-free one when that does not execute exactly) and the best
    // single paths, on exact gas; the split repaired on simulation when flagged and still the best.
    let split = best && best.paths.length > 0 ? exactSplit(graph, best, amountIn, value, gasCost, memo) : undefined
    // The model the split was made from (its value net of gas, in the model, is what it promised).
    let splitModel = split ? best : undefined
    if (!split && lead && lead !== best) {
      split = exactSplit(graph, lead, amountIn, value, gasCost, memo)
      splitModel = lead
    }
    for (const model of alternatives) {
      const other = exactSplit(graph, model, amountIn, value, gasCost, memo)
      if (other && (!split || value(other.plan) > value(split.plan))) {
        split = other
        splitModel = model
      }
    }
    if (split) consider(split.plan)
    const singles = bestSinglePaths(graph, pairEdges, amount, gasCost)
    // The floor (paths through any token, found at the probe) when this amount is the graph's scale.
    const floorHere = amount === scale ? floorPaths : []
    for (const single of singles) consider(simulatePlan([{ path: single, amountIn }], { gasCostInOutput: gasCost, memo }))
    // A greedy split on exact simulation over the paths the models gave (unless `singlesOnly`) and
    // the best single paths (candidate and through any token); whether it gave a plan.
    const greedy = (singlesOnly: boolean): boolean => {
      const { paths, offer } = distinctPaths(maxHops)
      // Whether a best single path or a floor path is among them (weighed alone above and below).
      let weighedAlone = false
      const add = (path: Path, alone: boolean) => {
        if (offer(path)) weighedAlone ||= alone
      }
      if (!singlesOnly) for (const edges of models.greedyPaths) add(edges.map((e) => graph.edges[e]!.hop), false)
      for (const single of singles) add(single, true)
      for (const single of floorHere) add(single, true)
      // One path, and it is a best single path or a floor path: the greedy split could only give it
      // all of the input, the very plan `singles` weighed above (or the floor weighs below), or
      // nothing. Skipped: the gas-collapse check asks it so in most small quotes, where its twenty
      // parts were a third of the quote's allocation.
      if (paths.length === 1 && weighedAlone) return false
      const plan = greedySplit(paths, amountIn, gasCost, memo)
      consider(plan)
      return plan !== undefined
    }
    // The flow did not become paths of at most maxHops as solved (edges were switched off, its paths
    // fall short, or they lose visibly against the relaxation: cycles cut, holdings pushed past a
    // pool's end).
    // When its parts find no room (the models' paths took the pools the others share, and no path
    // takes the next part), over the best single paths alone (hard bench 100:515 H14->H19 10%
    // gas-free at 4 hops: the lead fell short, the greedy split over its 16 paths stuck at 65% of
    // the input, and weft kept a single path of 11,162,989,620,158, 2,285 bp below the 5% grid's
    // 14,468,937,575,738; over the single paths, balanced, 29,393,685,208,326).
    if (!lead || lead.short || models.repaired || lead.output < candidateFlow.dual * (1 - DECOMPOSITION_LOSS)) {
      if (!greedy(false)) greedy(true)
    }
    if (split?.repair && chosen === split.plan) consider(repairSplit(split, amountIn, value, gasCost, memo))
    // A split pruned with its moves past a path at a drained pool (prunePaths' pastFullPools),
    // weighed after the plain pruning and balanced, when a move met such a pool: there one path
    // at a pool's end blocked every move to the others (hard bench 1000:64 H0->H5 0.01% gas-free:
    // the model's 11 paths, five through WBTC, one raw unit worth ~13 of H5, executed 39 raw units
    // below it; no path could go and weft kept the best single path, 3 units below Tines).
    const pruneAgain = (plan: Plan) => {
      const pastFull = prunePaths(plan, gasCost, memo, true)
      if (pastFull === plan) return
      consider(pastFull)
      consider(polishSplit(pastFull, gasCost, memo))
    }
    // Paths of the chosen split whose gas or rounding outweighs what they add, taken out on exact
    // simulation (gas-free too: a low-decimals token's few raw units spread over many paths).
    const current = chosen as Plan | undefined
    // Whether the split leads the plans weighed so far: then the steps below balance it.
    const splitLeads = split !== undefined && current === split.plan
    if (current) consider(prunePaths(current, gasCost, memo))
    // The chosen split's amounts balanced between its paths on exact simulation (the float
    // model's balance is a hair off the exact pools' and their integer rounding).
    const pruned = chosen as Plan | undefined
    if (pruned) consider(polishSplit(pruned, gasCost, memo))
    // Pruned again past the paths at a drained pool, then balanced, when a move met one (see
    // pruneAgain above).
    if (current) pruneAgain(current)
    // The split, when it executed below a plan its model promised more than (a single path, most
    // often): its exact balance, off by the pools' integer rounding, may have lost what the model
    // gained, and only the chosen plan was balanced above. Balanced too before it is given up (hard
    // bench 100:62 H9->H14 0.01%: model 223,857,308, split 223,856,531, single path 223,856,920,
    // Tines 223,857,088; the split balanced 223,857,102). Pruned too, then balanced: only the chosen
    // plan was pruned above, and a sliver path of the model's that rounds its input away can hold
    // the split below the single path it would beat without it (hard bench 1000:11 H3->H6 0.1%,
    // gas-free: the model's three WETH->USDC pools and a 4-hop path of 3e6 raw units of 1.3e12
    // executed 4,923,790,838e12, the single path 4,923,797,503e12, Tines 4,923,797,511e12; the
    // split without the sliver 4,923,797,518e12).
    const promised = splitModel ? splitModel.output - splitModel.gas * gasCost : -Infinity
    if (split && !splitLeads && split.plan.paths.length > 1 && promised > chosenValue) {
      consider(polishSplit(split.plan, gasCost, memo))
      const prunedSplit = prunePaths(split.plan, gasCost, memo)
      if (prunedSplit !== split.plan) {
        consider(prunedSplit)
        consider(polishSplit(prunedSplit, gasCost, memo))
      }
      pruneAgain(split.plan)
    }
    // A single path that pays for its hops' rounding (a token of few decimals on the way): that
    // input spent on a second path, the split then balanced (see spendRounding).
    const alone = chosen as Plan | undefined
    if (alone?.paths.length === 1) consider(spendRounding(alone, [...singles, ...floorHere], gasCost, memo))
    // With gas priced in, a path pulled back below a tick its last sliver paid too much gas to cross
    // (the balance above weighs output alone; see retreatCrossings), then balanced again.
    const polished = chosen as Plan | undefined
    if (gasCost > 0 && polished && polished.paths.length > 1) {
      const retreated = retreatCrossings(polished, gasCost, memo)
      if (retreated !== polished) {
        consider(retreated)
        consider(polishSplit(retreated, gasCost, memo))
      }
    }
    // With gas priced in, the float gas search drops one pool at a time from the gas-free split, and
    // the pruning one path at a time: they can end on one path where two of the best single paths
    // together pay their gas (hard bench 100:7 H4->H8 1% at 20 gwei: 24 bp). The greedy split over
    // those single paths alone (each the best net of its own gas; the model's paths spread the parts
    // over pools the gas-free flow shares, and its whole-path merges then end on one) weighs them.
    // Two paths too: the search keeps the pools the gas-free flow trades most, and a pool beside one
    // (same tokens) that costs less gas can pay more net (hard bench 1000:30 H5->H8 1% at 20 gwei:
    // the split kept H5 -> WETH -> USDC -> H8 through a WETH -> USDC pool of more gas than another,
    // 0.44 bp net below the 5% grid and 0.25 bp below Tines, which held the cheaper one).
    // Only when a split could pay: the input at the single paths' best mid rate, less the gas of two
    // swaps (a split holds two paths at least), must come above the plan's value.
    const collapsed = chosen as Plan | undefined
    if (gasCost > 0 && collapsed && collapsed.paths.length <= GREEDY_SINGLES_PATHS) {
      const swapGas = collapsed.paths[0]!.hops.reduce((least, hop) => (hop.gas < least ? hop.gas : least), collapsed.gas)
      const room = amount * getBestSpotRate([...singles, ...floorHere]) - 2 * Number(swapGas) * gasCost
      if (room > value(collapsed)) {
        greedy(true)
        // A split the greedy parts found, balanced (only when it led: the parts are 5% apart).
        const regrown = chosen as Plan | undefined
        if (regrown && regrown !== collapsed && regrown.paths.length > 1) consider(polishSplit(regrown, gasCost, memo))
      }
    }
    // With gas priced in, the thinnest path of the plan dropped, its amount to the one other path
    // that pays most for it, then balanced when that pays: the pruning gives a removed path's amount
    // to the paths sharing its first pools or to all in proportion, so a path through a pool beside
    // another path's stays in (hard bench 100:217 H17->H19 0.01% at 0.01 gwei, 4 hops: a third path
    // through a pool beside the second's first, 0.04 bp net below the 5% grid's two paths; without
    // it, balanced, 0.05 bp more). Only when its gas is worth enough to matter (see dropThinnest).
    const thick = chosen as Plan | undefined
    if (gasCost > 0 && thick && thick.paths.length > 1) {
      const thinner = dropThinnest(thick, gasCost, memo)
      if (thinner && value(thinner) > value(thick)) {
        consider(thinner)
        consider(polishSplit(thinner, gasCost, memo))
      }
    }
    // The route at one hop fewer (beyond the default limit; it weighs the one below it in turn):
    // its paths are all within maxHops, so a looser limit never gives less than a tighter one. The
    // layered models are heuristics on a graph layered by hop count, and more layers can settle
    // worse (hard bench 100:12 H4->H8 1%: 1.6 bp more at 5 hops than at 6, below Tines at 6). Weighed
    // uncertified: the certificate is made below over this limit's candidates.
    if (maxHops > DEFAULT_MAX_HOPS) {
      tighter ??= prepareCertifiable({ ...parameters, maxHops: maxHops - 1 }, scale, true)
      consider(tighter.uncertified(amountIn)?.plan)
    }
    // With gas priced, the gas-free lead's split pruned on exact simulation, path by path, and
    // balanced: the float gas search drops pools one at a time and can settle on paths the pruning
    // would not keep (hard bench 100:115 H9->H13 1% at 20 gwei, 4 hops: the search kept
    // H9 -> USDT -> USDC -> H13 beside the DAI path, 0.89 bp below Tines' pair of two of the lead's
    // own paths, which the pruning finds). Weighed last: no step above depends on what it gives.
    if (gasCost > 0 && lead && lead !== best && lead.paths.length > 1) {
      const gasFree = exactSplit(graph, lead, amountIn, value, gasCost, memo)
      if (gasFree) {
        const pruned = prunePaths(gasFree.plan, gasCost, memo)
        consider(pruned)
        if (pruned.paths.length > 1) consider(polishSplit(pruned, gasCost, memo))
      }
    }
    // With gas priced in, one exact local search from the chosen plan (see localSearch): drop a
    // path, add one of the paths the models, the single-path searches or the gas-free lead gave, or
    // swap a pool for the one beside it, each then balanced, while a move raises the value net of
    // gas. The float gas search drops one pool at a time and the pruning one path at a time, with
    // their amounts unbalanced, so they settle where one such move, balanced, pays. It replaced
    // two steps made each for one such case: the greedy split over the plan's paths and those
    // beside them (hard bench 100:236 H7->H11 0.1% at 20 gwei) and the gas-free lead pruned to one
    // path paired with each other (100:132 H9->H14 1% at 20 gwei). Weighed after the other steps
    // (but the free layered flow, the flowable split and the floor), it also weighs what the tighter
    // limit's route and the gas-free lead's gave.
    // Within the default hop limit, on plans of at most LOCAL_SEARCH_PATHS paths or whose gas is
    // worth LOCAL_SEARCH_GAS_SHARE of their value only: its drops and balances grow with the paths,
    // and on the many-path plans of large trades at 1,000 pools, where gas is a sliver of the value,
    // they cost a third of the quote's p99 (bench:latency 1000:1 at 4 hops: 30 -> 42 ms wall, over
    // the 25 ms budget). A many-path plan whose gas matters is searched still (hard bench 1000:64
    // H6->H7 1% at 20 gwei, 4 hops: 7 paths, gas 12 bp of the value; 0.19 bp below Tines unsearched).
    const searchedFrom = chosen as Plan | undefined
    const gasWorth = (plan: Plan) => gasCost * Number(plan.gas) >= LOCAL_SEARCH_GAS_SHARE * value(plan)
    if (gasCost > 0 && searchedFrom && (searchedFrom.paths.length <= LOCAL_SEARCH_PATHS || maxHops > DEFAULT_MAX_HOPS || gasWorth(searchedFrom))) {
      const { paths: candidates, offer } = distinctPaths(maxHops)
      for (const path of singles) offer(path)
      for (const path of floorHere) offer(path)
      for (const model of [lead, best]) for (const { edges } of model?.paths ?? []) offer(edges.map((edge) => graph.edges[edge]!.hop))
      for (const edges of models.greedyPaths) offer(edges.map((edge) => graph.edges[edge]!.hop))
      consider(localSearch(searchedFrom, { candidates, beside: (plan) => besidePaths(graph, pairEdges, plan), gasCostInOutput: gasCost, memo }))
    }
    // The free layered flow's paths (see ModelsToWeigh.freeLayered), balanced when they lead: the
    // independent optimum executes that flow, each pool traded on the state the last trade left
    // (hard bench 100:237 H0->H3 10% at 6 hops: the held and shared models 46 bp under the free
    // dual, weft 1.53 bp below the optimum's plan; these paths, balanced, 2.8 bp above it). Weighed
    // after every step above (only the floor after it): its model promises more than it executes,
    // and a split chosen earlier would change where they go, so no result falls. Beyond the default
    // hop limit only: its split and balance cost a 1,000-pool quote at 4 hops 1.3 ms at p50 and
    // 3-6 ms at p99 (bench:latency 1000:1), over that limit's latency budget, and the default
    // limit's models met the bench's optimum on every fresh seed without it.
    const freeLayered = maxHops > DEFAULT_MAX_HOPS ? models.freeLayered?.() : undefined
    if (freeLayered) {
      const free = exactSplit(graph, freeLayered, amountIn, value, gasCost, memo)
      if (free && value(free.plan) > chosenValue) {
        consider(free.plan)
        if (free.plan.paths.length > 1) consider(polishSplit(free.plan, gasCost, memo))
      }
    }
    // With gas priced, a model whose split cannot run as one flow (its paths cross tokens both ways,
    // as the layered models do), without the paths that keep it from one, then pruned and balanced:
    // path by path, each path pays every pool's gas, which the model and its gas search count once
    // per pool (see flowableSplit). Weighed after every step above, so no result falls.
    if (gasCost > 0) {
      let flowable: Plan | undefined
      for (const model of [best, ...alternatives]) {
        const made = model && flowableSplit(graph, model, amountIn, gasCost, memo)
        if (made && (!flowable || value(made) > value(flowable))) flowable = made
      }
      if (flowable) {
        consider(flowable)
        const pruned = prunePaths(flowable, gasCost, memo)
        consider(pruned)
        consider(polishSplit(pruned, gasCost, memo))
      }
    }
    // Beyond the default hop limit, the chosen plan grown by the paths its exact margins say it
    // lacks, each kept when it raises the value net of gas (see addPricedPaths): the hop-limited
    // models spread the candidates' flow over paths of their own and can leave out a path that pays
    // more at the plan's margin than any of its paths (hard bench 100:293 H5->H10 1% at 6 hops,
    // gas-free: 0.21 bp below Tines, now 0.18 bp above it). Weighed after every step above (only the
    // floor after it), so no result falls; not within the default limit, whose latency budget it
    // would spend, nor in a nested route at one hop fewer: the looser limit grows the plan it keeps,
    // that one's included, over a graph of its own paths and more (a 6-hop quote ran it at 5 hops
    // too, 1.5-2x the quote's time).
    const unpriced = chosen as Plan | undefined
    if (maxHops > DEFAULT_MAX_HOPS && !nested && unpriced) consider(addPricedPaths(unpriced, graph, gasCost, memo))
    // The floor, checked before returning: never below the best single path through any token.
    const floor = singlesAnywhere(amountIn, memo)
    for (const single of floor) consider(single)
    if (!chosen) return undefined
    // `consider` keeps the best by value; checked again here so no later change can break the promise.
    for (const single of floor) if (single && single.amountIn === amountIn && single.amountOut > 0n && value(single) > value(chosen)) chosen = single

    return { plan: chosen, candidateFlow, iterations }
  }

  // The chosen plan with its certificate: a bound over this limit's candidates (and the plan's own
  // token paths) and the figure over every pool within the limit.
  const route = (amountIn: bigint): Plan | undefined => {
    const routed = uncertified(amountIn)
    if (!routed?.candidateFlow) return routed?.plan
    const { plan, candidateFlow } = routed
    const amount = Number(amountIn)
    let iterations = routed.iterations
    // The all-pools figure costs a pass over every pool: computed when first read (the candidate
    // search already made it at the probe amount).
    const figure = new AllPoolsFigure({ pools, tokenIn, tokenOut, amountIn: amount, maxHops, tokens: graph.tokens, prices: candidateFlow.prices }, amount === probe ? expansion : undefined)
    // The candidates named: the graph's, and any token path of the plan beyond them.
    const covering = coverPlan(graph, plan, pools, candidateFlow.prices, () => figure.get().prices)
    const certified = upperBound(covering.graph, covering.prices, amount)
    iterations += certified.iterations
    const bound = certified.bound
    if (Number.isFinite(bound) && bound > 0) {
      const candidate = {
        upperBound: BigInt(Math.ceil(bound)),
        gapBps: ((bound - Number(plan.amountOut)) / bound) * 10_000,
        candidatePools: certified.pools,
        candidateEdges: graph.edges.length,
        candidatePaths: covering.graph.tokenPaths.length,
        pathsUsed: plan.paths.length,
        iterations,
      }
      plan.certificate = certifyRoute(candidate, figure, plan.amountOut)
    }
    return plan
  }

  const search = (amountIn: bigint) => uncertified(amountIn)?.plan
  return { graph, route, search, optimum, uncertified }
}

/**
 * The plan's paths, each with one of its pools swapped for another pool of the graph between the
 * same two tokens (each hop in turn, each such pool): a path beside one of the plan's, sharing its
 * other pools.
 */
function besidePaths(graph: RouteGraph, pairEdges: Map<string, number[]>, plan: Plan): Path[] {
  const index = new Map(graph.tokens.map((token, i) => [token, i]))
  const beside: Path[] = []
  for (const { path } of plan.paths)
    path.forEach((hop, k) => {
      for (const e of pairEdges.get(`${index.get(hop.tokenIn)}>${index.get(hop.tokenOut)}`) ?? []) {
        const other = graph.edges[e]!.hop
        if (other.pool.key !== hop.pool.key) beside.push(path.map((h, at) => (at === k ? other : h)))
      }
    })
  return beside
}

/** A candidate graph with its edges by token pair (`from>to`) and its hop-limited models by amount. */
type WeighedGraph = { graph: RouteGraph; pairEdges: Map<string, number[]>; modelsToWeigh: (amount: number) => ModelsToWeigh }

/** A graph ready to weigh (see prepareModelsToWeigh; `everyEdgeSolve`, a solve of every edge already made). */
function weighGraph(graph: RouteGraph, everyEdgeSolve?: EveryEdgeSolve): WeighedGraph {
  const pairEdges = new Map<string, number[]>()
  graph.edges.forEach((edge, e) => {
    const key = `${edge.from}>${edge.to}`
    const list = pairEdges.get(key)
    if (list) list.push(e)
    else pairEdges.set(key, [e])
  })
  return { graph, pairEdges, modelsToWeigh: prepareModelsToWeigh(graph, pairEdges, everyEdgeSolve) }
}

/**
 * The exact gas-free output of the split a graph's lead model makes of `amount` (-Infinity when it
 * has no lead, or the split does not execute): what a grown graph must beat to be kept. The
 * model's own output is no such measure: it counts each pool once with the total its paths send,
 * which the paths may not execute (hard bench 1000:2 H4->H8 30% at 6 hops: a lead 9 bp above the
 * graph's before it executed 137 bp below).
 */
function leadExactOutput(graph: RouteGraph, models: ModelsToWeigh, amount: number): number {
  const amountIn = BigInt(Math.floor(amount))
  const lead = models.lead && !models.lead.short ? exactSplit(graph, models.lead, amountIn, (plan) => Number(plan.amountOut), 0) : undefined
  return lead ? Number(lead.plan.amountOut) : -Infinity
}

/** A probe input for the best zero-size rate of an exact-output search (raw units; small, well above rounding). */
const PROBE_INPUT = 1e6

/**
 * The input an exact output of `amountOut` needs at the best mid-price rate of
 * the best single paths through any token (0 when no path has a rate): the
 * size the floor's single paths are searched at before the exact search.
 */
function inputFor(parameters: RouteParameters, amountOut: number, maxHops: number): number {
  // Paths for their mid rates, not for what the probe's whole units fill (18-decimal dust through a
  // 6-decimal token rounds to nothing, its rate does not).
  const rate = getBestSpotRate(findSinglePaths(parameters.pools, parameters.tokenIn, parameters.tokenOut, PROBE_INPUT, maxHops, 0, { wholeUnits: false }))
  return rate > 0 && Number.isFinite(amountOut / rate) ? amountOut / rate : 0
}

/**
 * The exact-in route: the optimal split of `amountIn` across candidate paths
 * up to `maxHops` (through the connectors and the tokens beyond them whose
 * pools add most toward both ends, see `buildRouteGraph`), solved in floats on
 * each pool's curve (the marginal rates of used paths equalised through the
 * dual of the convex routing problem), the pools that trade then searched for
 * the best output net of gas, the split made integer and repaired on exact
 * simulation. Never worse, net of gas, than the best single candidate path
 * (every pool combination of every candidate token path is weighed); carries
 * a certificate bounding its distance to the gas-free optimum. Undefined when
 * nothing can fill the amount.
 *
 * @example
 * const plan = findRoute({ pools, tokenIn: weth, tokenOut: usdc, connectors, gasCostInOutput: 0 }, 10n ** 18n)
 * plan?.certificate?.gapBps // e.g. 0.0001
 */
export function findRoute(parameters: RouteParameters, amountIn: bigint): Plan | undefined {
  if (amountIn <= 0n) return undefined
  return prepareRoute(parameters, Number(amountIn)).route(amountIn)
}

/** Candidate paths, exported for callers that want to inspect the search. */
export { findPaths }

/**
 * The surplus (raw output units) of the pool directions the all-pools relaxation trades that the
 * graph left out as shallow at 1% impact (see RouteGraph.shallow): what its margin says they add.
 */
function missedSurplus(graph: RouteGraph, tradingHops: readonly { hop: Hop; surplus: number }[]): number {
  if (!graph.shallow?.length) return 0
  const shallow = new Map<Pool, Address[]>()
  for (const hop of graph.shallow) {
    const inputs = shallow.get(hop.pool)
    if (inputs) inputs.push(hop.tokenIn)
    else shallow.set(hop.pool, [hop.tokenIn])
  }
  let missed = 0
  for (const { hop, surplus } of tradingHops) if (surplus > 0 && shallow.get(hop.pool)?.includes(hop.tokenIn)) missed += surplus
  return missed
}
