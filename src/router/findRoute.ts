import { allPoolsBound } from './allPoolsBound.js'
import { coverPlan, upperBound } from './certificate.js'
import type { RatePoint } from './curves.js'
import { findPaths } from './findPaths.js'
import { findSinglePaths } from './findSinglePaths.js'
import { DEFAULT_MAX_HOPS, type RouteGraph, SINK, SOURCE, buildRouteGraph } from './routeGraph.js'
import { simulatePlan } from './simulatePlan.js'
import { type FlowSolution, solveFlow } from './splitSolver.js'
import type { Path, Plan, RouteParameters } from './types.js'

/** A route in the float model: paths (as edge indices) with their shares of the input. */
type ModelRoute = {
  paths: { edges: number[]; share: number }[]
  /** Output of the route executed as a flow (each pool traded once with its total). */
  output: number
  /** Gas units of the pools it trades. */
  gas: number
  /** Edges it trades. */
  used: number[]
}

/** Paths carrying less than this share of the input are dropped from a split (their amount goes to the others). */
const MIN_SHARE = 1e-9
/** A decomposition whose paths fall short of the input by more than this share is infeasible. */
const SHORT_SHARE = 1e-6
/** Single drops tried per step of the gas search before the other moves. */
const DROPS_PER_STEP = 3
/** Re-solves the gas search may spend. */
const MAX_GAS_SOLVES = 24
/**
 * Solver iterations of a gas-search trial: a trial's model is a feasible flow's output whether or not
 * the solve converged, so a capped trial never passes for better than it is (it may only miss a move).
 */
const TRIAL_ITERATIONS = 30
/** Re-solves that switch off edges only paths longer than maxHops can use. */
const HOP_REPAIRS = 3
/** Exact simulations the integer repair may spend. */
const REPAIR_BUDGET = 10

/** A prepared router: the candidate graph for one pair and size, reusable across amounts of that order. */
export type PreparedRoute = {
  graph: RouteGraph
  /** The gas-aware exact plan for `amountIn` (undefined when nothing can fill it). */
  route(amountIn: bigint): Plan | undefined
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
  const { pools, tokenIn, tokenOut, connectors, maxHops = DEFAULT_MAX_HOPS } = parameters
  const gasCost = Number.isFinite(parameters.gasCostInOutput) && parameters.gasCostInOutput > 0 ? parameters.gasCostInOutput : 0
  // The tokens of the best single paths through any token are candidates too (whole-graph
  // routing: a token beyond the connectors that carries the best path is always in the graph).
  const floorPaths = typeof scale === 'number' ? findSinglePaths(pools, tokenIn, tokenOut, scale, maxHops) : []
  const floorTokens = floorPaths.flatMap((path) => path.slice(0, -1).map((hop) => hop.tokenOut))
  const candidates = floorTokens.length > 0 ? [...new Set([...connectors, ...floorTokens])] : connectors
  const graph = buildRouteGraph({ pools, tokenIn, tokenOut, connectors: candidates, maxHops }, scale)
  const all = graph.edges.map(() => true)
  const pairEdges = new Map<string, number[]>()
  graph.edges.forEach((edge, e) => {
    const key = `${edge.from}>${edge.to}`
    const list = pairEdges.get(key)
    if (list) list.push(e)
    else pairEdges.set(key, [e])
  })

  // The gas-free solve, made to fit maxHops: the relaxation's flow may chain edges of short token
  // paths into a longer one; edges of its support that lie on no path of at most maxHops through
  // the support are switched off and the flow re-solved (warm), a few times at most.
  const solveWithinHops = (active: readonly boolean[], amount: number) => {
    let trial = active
    let start: Float64Array | undefined
    let iterations = 0
    for (let attempt = 0; ; attempt++) {
      const flow = solveFlow(graph, trial, amount, start)
      iterations += flow.iterations
      const tooLong: number[] = []
      const model = decompose(graph, flow, amount, tooLong)
      if (model || tooLong.length === 0 || attempt >= HOP_REPAIRS) return { flow, model, iterations, active: trial }
      const next = [...trial]
      for (const e of tooLong) next[e] = false
      trial = next
      start = flow.prices
    }
  }

  const optimum = (amountIn: number) => {
    if (graph.edges.length === 0 || !(amountIn > 0)) return undefined
    const { flow, model } = solveWithinHops(all, amountIn)
    // The dual value is the relaxation's optimum (smooth in the amount); undefined past the pools' capacity.
    return model ? { output: flow.dual, inputPrice: flow.prices[SOURCE]! } : undefined
  }

  // The best single paths through any token of the source (the floor every route is held to).
  const singlesAnywhere = (amountIn: bigint) =>
    (Number(amountIn) === scale ? floorPaths : findSinglePaths(pools, tokenIn, tokenOut, Number(amountIn), maxHops)).map((path) =>
      simulatePlan([{ path, amountIn }], { gasCostInOutput: gasCost }),
    )
  const value = (plan: Plan) => Number(plan.amountOut) - Number(plan.gas) * gasCost

  const route = (amountIn: bigint): Plan | undefined => {
    if (amountIn <= 0n) return undefined
    const amount = Number(amountIn)
    if (!Number.isFinite(amount)) return undefined
    if (graph.edges.length === 0) {
      // No candidate path: the best single path through any token, if one fills.
      let single: Plan | undefined
      for (const plan of singlesAnywhere(amountIn)) if (plan && plan.amountOut > 0n && (!single || value(plan) > value(single))) single = plan
      return single
    }
    let iterations = 0
    const solved = solveWithinHops(all, amount)
    const full = solved.flow
    iterations += solved.iterations
    const fullRoute = solved.model

    // Gas: a local search over which pools trade, from the gas-free optimum. Moves, in order: drop
    // pools whose arbitrage value at the solution's prices (a lower bound on what dropping them
    // loses) is below their gas (all of them, the worse half, or the worst few one at a time); add
    // back a dropped pool whose arbitrage value exceeds its gas; swap a used pool for one of its
    // pair that carries nothing when, at the same input, that one's output less its gas is worth
    // more. Each move is re-solved and kept only if the net output improves.
    let best = fullRoute
    let bestNet = best ? best.output - gasCost * best.gas : -Infinity
    if (gasCost > 0 && best) {
      const active = [...solved.active]
      let flow = full
      // A drop that fails (of a group, or of one pool) is not tried again: it rarely succeeds later,
      // and the solves it would take go to other moves.
      const failedGroup = [false, false]
      const failedDrop = new Set<number>()
      const point: RatePoint = { input: 0, output: 0, slope: 0 }
      for (let solves = 0; solves < MAX_GAS_SOLVES; ) {
        const used = new Set(best.used)
        const moves: { off: number[]; on: number[]; group: number }[] = []
        const drops = best.used
          .map((e) => ({ e, surplus: arbitrage(graph, flow, e) - gasCost * graph.edges[e]!.curve.gas(flow.inputs[e]!) }))
          .filter((c) => c.surplus < 0)
          .sort((a, b) => a.surplus - b.surplus || a.e - b.e)
        if (drops.length > 1 && !failedGroup[0]) moves.push({ off: drops.map((c) => c.e), on: [], group: 0 })
        if (drops.length > 3 && !failedGroup[1]) moves.push({ off: drops.slice(0, drops.length >> 1).map((c) => c.e), on: [], group: 1 })
        for (const { e } of drops.filter((c) => !failedDrop.has(c.e)).slice(0, DROPS_PER_STEP)) moves.push({ off: [e], on: [], group: -1 })
        // The dropped pool that would add the most.
        let add = -1
        let addSurplus = 0
        graph.edges.forEach((edge, e) => {
          if (active[e]) return
          edge.curve.atRate(flow.prices[edge.from]! / flow.prices[edge.to]!, point)
          if (!(point.input > 0)) return
          const surplus = flow.prices[edge.to]! * point.output - flow.prices[edge.from]! * point.input - gasCost * edge.curve.gas(point.input)
          if (surplus > addSurplus) {
            addSurplus = surplus
            add = e
          }
        })
        if (add >= 0) moves.push({ off: [], on: [add], group: -1 })
        // The best swap within a pair.
        let swapGain = 0
        let swap: [number, number] | undefined
        // What a pool of the pair is worth at the solution's prices for the input x, less its gas.
        const worth = (e: number, x: number) => flow.prices[graph.edges[e]!.to]! * graph.edges[e]!.curve.amountOut(x) - gasCost * graph.edges[e]!.curve.gas(x)
        for (const p of best.used) {
          const edge = graph.edges[p]!
          const x = flow.inputs[p]!
          if (!(x > 0)) continue
          const current = worth(p, x)
          for (const q of pairEdges.get(`${edge.from}>${edge.to}`)!) {
            if (used.has(q) || !graph.edges[q]!.curve.covers(x)) continue
            const gain = worth(q, x) - current
            if (gain > swapGain) {
              swapGain = gain
              swap = [p, q]
            }
          }
        }
        if (swap) moves.push({ off: [swap[0]], on: [swap[1]], group: -1 })
        let improved = false
        for (const { off, on, group } of moves) {
          if (solves >= MAX_GAS_SOLVES) break
          const trial = [...active]
          for (const e of off) trial[e] = false
          for (const e of on) trial[e] = true
          const next = solveFlow(graph, trial, amount, flow.prices, TRIAL_ITERATIONS)
          solves++
          iterations += next.iterations
          const model = decompose(graph, next, amount)
          const net = model && model.used.length > 0 ? model.output - gasCost * model.gas : -Infinity
          if (!model || !(net > bestNet)) {
            if (group >= 0) failedGroup[group] = true
            if (group === -1 && off.length === 1 && on.length === 0) failedDrop.add(off[0]!)
            continue
          }
          for (const e of off) active[e] = false
          for (const e of on) active[e] = true
          flow = next
          best = model
          bestNet = net
          improved = true
          break
        }
        if (!improved) break
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
    let split = best && best.paths.length > 0 ? exactSplit(graph, best, amountIn, value, gasCost) : undefined
    if (!split && fullRoute && fullRoute !== best) split = exactSplit(graph, fullRoute, amountIn, value, gasCost)
    if (split) consider(split.plan)
    for (const single of bestSinglePaths(graph, pairEdges, amount, gasCost)) consider(simulatePlan([{ path: single, amountIn }], { gasCostInOutput: gasCost }))
    if (split?.repair && chosen === split.plan) consider(repairSplit(split, amountIn, value, gasCost))
    // The floor, checked before returning: never below the best single path through any token.
    const floor = singlesAnywhere(amountIn)
    for (const single of floor) consider(single)
    if (!chosen) return undefined
    // `consider` keeps the best by value; checked again here so no later change can break the promise.
    for (const single of floor) if (single && single.amountIn === amountIn && single.amountOut > 0n && value(single) > value(chosen)) chosen = single

    const plan: Plan = chosen
    // The all-pools figure costs a pass over every pool: computed when first read.
    let everywhere: ReturnType<typeof allPoolsBound> | undefined
    const allPools = () => (everywhere ??= allPoolsBound(pools, tokenIn, tokenOut, amount, maxHops, new Map(graph.tokens.map((t, i) => [t, full.prices[i]!]))))
    // The candidates named: the graph's, and any token path of the plan beyond them.
    const covering = coverPlan(graph, plan, pools, full.prices, () => allPools().prices)
    const certified = upperBound(covering.graph, covering.prices, amount)
    iterations += certified.iterations
    const bound = certified.bound
    if (Number.isFinite(bound) && bound > 0) {
      const out = Number(plan.amountOut)
      const gap = (upper: number) => ((upper - out) / upper) * 10_000
      const allBound = () => (Number.isFinite(allPools().bound) && allPools().bound > 0 ? allPools().bound : undefined)
      plan.certificate = {
        upperBound: BigInt(Math.ceil(bound)),
        gapBps: gap(bound),
        candidatePools: certified.pools,
        candidateEdges: graph.edges.length,
        candidatePaths: covering.graph.tokenPaths.length,
        pathsUsed: plan.paths.length,
        iterations,
        get allPoolsUpperBound() {
          const figure = allBound()
          return figure === undefined ? undefined : BigInt(Math.ceil(figure))
        },
        get allPoolsGapBps() {
          const figure = allBound()
          return figure === undefined ? undefined : gap(figure)
        },
        get allPools() {
          return allPools().pools
        },
      }
    }
    return plan
  }

  return { graph, route, optimum }
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

/** Value at the solution's prices an edge adds: ν_out·output − ν_in·input. */
function arbitrage(graph: RouteGraph, flow: FlowSolution, e: number): number {
  const edge = graph.edges[e]!
  return flow.prices[edge.to]! * flow.outputs[e]! - flow.prices[edge.from]! * flow.inputs[e]!
}

/**
 * Turns a flow into paths. The flow's support (one direction per pool, cycles
 * broken at their thinnest edge) is first made exactly conserving: the input
 * is pushed through the tokens in topological order, each token's holdings
 * divided among its edges in the flow's proportions. That flow is then
 * decomposed greedily (at each token the edge with the most left, the path's
 * amount its bottleneck), so it needs at most one path per edge; executed as
 * a flow (proportional shares), the paths give back exactly the edge totals.
 * Undefined when the edges cannot take the whole amount.
 */
function decompose(graph: RouteGraph, flow: FlowSolution, amountIn: number, tooLong?: number[]): ModelRoute | undefined {
  const { edges, tokens } = graph
  const inputs = Float64Array.from(flow.inputs)
  // One direction per pool: the larger.
  const byPool = new Map<string, number>()
  edges.forEach((edge, e) => {
    if (!(inputs[e]! > 0)) return
    const other = byPool.get(edge.hop.pool.key)
    if (other === undefined) byPool.set(edge.hop.pool.key, e)
    else if (edges[other]!.from !== edge.from) {
      const drop = inputs[other]! >= inputs[e]! ? e : other
      inputs[drop] = 0
      byPool.set(edge.hop.pool.key, drop === e ? other : e)
    }
  })
  let taken = 0
  edges.forEach((edge, e) => {
    if (edge.from === 1) taken += inputs[e]!
  })
  if (!(taken > 0)) return undefined
  // Short of the amount: past the pools' capacity when no edge out of the input can take the rest,
  // else a solve stopped at float resolution (the push below scales its proportions to the amount).
  if (taken < amountIn * (1 - 1e-9) && !edges.some((edge, e) => edge.from === 1 && inputs[e]! > 0 && edge.curve.covers(inputs[e]! + amountIn - taken))) return undefined

  routeDeadEnds(graph, flow.prices, inputs, byPool)
  const uncut = Float64Array.from(inputs)
  const order = topologicalOrder(graph, inputs)
  // Two-way crossings (H0 -> H1 through one pool, H1 -> H0 through another): the cut above loses
  // their value; their simple paths, executed one after another, keep it. The better model wins.
  const crossings = uncut.some((x, e) => x !== inputs[e]) ? decomposeCrossings(graph, uncut, amountIn) : undefined
  const support = edges.map((_, e) => e).filter((e) => inputs[e]! > 0)
  support.sort((a, b) => order[edges[a]!.from]! - order[edges[b]!.from]! || a - b)
  const outflow = new Float64Array(tokens.length)
  for (const e of support) outflow[edges[e]!.from] = outflow[edges[e]!.from]! + inputs[e]!
  // Conserving flow: what each edge takes and gives.
  const held = new Float64Array(tokens.length)
  held[1] = amountIn
  const edgeIn = new Float64Array(edges.length)
  const edgeOut = new Float64Array(edges.length)
  for (let i = 0; i < support.length; ) {
    const from = edges[support[i]!]!.from
    let j = i
    while (j < support.length && edges[support[j]!]!.from === from) j++
    const group = support.slice(i, j)
    i = j
    if (from === 0) continue
    // The token's holdings in the flow's proportions. A pool traded to the end of its known state
    // stops a margin short of it; what it cannot take goes to the token's other edges in proportion
    // (if none can, it stays as dust).
    const amounts = group.map((e) => (held[from]! * inputs[e]!) / outflow[from]!)
    const capped = group.map(() => false)
    for (let round = 0; round < group.length; round++) {
      let excess = 0
      group.forEach((e, k) => {
        const curve = edges[e]!.curve
        if (capped[k] || !(amounts[k]! > 0) || curve.covers(amounts[k]!)) return
        excess += amounts[k]! - curve.limit()
        amounts[k] = curve.limit()
        capped[k] = true
      })
      const open = amounts.reduce((sum, a, k) => (capped[k] ? sum : sum + a), 0)
      if (!(excess > 0) || !(open > 0)) break
      amounts.forEach((a, k) => {
        if (!capped[k]) amounts[k] = a + (excess * a) / open
      })
    }
    group.forEach((e, k) => {
      if (!(amounts[k]! > 0)) return
      edgeIn[e] = amounts[k]!
      edgeOut[e] = edges[e]!.curve.amountOut(amounts[k]!)
      held[edges[e]!.to] = held[edges[e]!.to]! + edgeOut[e]!
    })
  }

  // Greedy decomposition in each edge's own input units.
  const left = Float64Array.from(edgeIn)
  const paths: { edges: number[]; share: number }[] = []
  const leaving: number[][] = tokens.map(() => [])
  for (const e of support) leaving[edges[e]!.from]!.push(e)
  // A path keeps to maxHops: from a token with `hopsLeft`, only edges to tokens that reach the
  // output over the support within the hops that remain.
  const toSink = hopsToSink(graph, support)
  const outOf = (token: number, hopsLeft: number) => {
    let best = -1
    for (const e of leaving[token]!) if (left[e]! > 0 && toSink[edges[e]!.to]! <= hopsLeft - 1 && (best < 0 || left[e]! > left[best]!)) best = e
    return best
  }
  for (let guard = 0; guard <= support.length; guard++) {
    const trail: number[] = []
    const ratio: number[] = []
    let token = 1
    let gain = 1
    let bottleneck = Infinity
    while (token !== 0) {
      const e = outOf(token, graph.maxHops - trail.length)
      if (e < 0 || trail.length > tokens.length) break
      trail.push(e)
      ratio.push(gain)
      bottleneck = Math.min(bottleneck, left[e]! / gain)
      gain *= edgeOut[e]! / edgeIn[e]!
      token = edges[e]!.to
    }
    if (token !== 0 || !(bottleneck > 0)) {
      // A dead end holds only float dust: clear it so the next path avoids it.
      if (trail.length === 0) break
      left[trail[trail.length - 1]!] = 0
      continue
    }
    trail.forEach((e, k) => {
      left[e] = left[e]! - bottleneck * ratio[k]!
      if (left[e]! <= edgeIn[e]! * 1e-12) left[e] = 0
    })
    paths.push({ edges: trail, share: bottleneck })
  }
  const kept = paths.filter((p) => p.share >= amountIn * MIN_SHARE)
  if (kept.length === 0) return crossings
  const total = kept.reduce((sum, p) => sum + p.share, 0)
  // Paths that carry visibly less than the amount: the flow is past what its pools can take.
  if (total < amountIn * (1 - SHORT_SHARE)) {
    // Report the support edges that only paths longer than maxHops take (the caller may switch them
    // off): those on no such path through the support, and those whose flow stayed mostly
    // undecomposed (short paths took their inflow elsewhere) except the last hops into the output.
    if (tooLong) {
      const fromSource = hopsFromSource(graph, support)
      for (const e of support) if (fromSource[edges[e]!.from]! + 1 + toSink[edges[e]!.to]! > graph.maxHops) tooLong.push(e)
      if (tooLong.length === 0) for (const e of support) if (edges[e]!.to !== SINK && left[e]! > edgeIn[e]! / 2) tooLong.push(e)
    }
    return crossings
  }
  for (const p of kept) p.share *= amountIn / total
  const { output, used, edgeInputs } = flowOutput(graph, kept, order)
  let gas = 0
  for (const e of used) gas += edges[e]!.curve.gas(edgeInputs[e]!)
  const acyclic: ModelRoute = { paths: kept, output, gas, used }
  return crossings && crossings.output > acyclic.output ? crossings : acyclic
}

/**
 * Decomposes a flow whose support has token cycles (two-way crossings) into
 * simple paths of at most maxHops without cutting them: greedily from the
 * input token, at each token the edge with the most left toward a token the
 * path has not visited (and from which the output is within the hops left),
 * the path's amount its bottleneck in input units. Executed one after another
 * (no flow order exists), the paths are modelled at each edge's average rate
 * over the whole flow. Undefined when the paths fall short of the amount.
 */
function decomposeCrossings(graph: RouteGraph, inputs: Float64Array, amountIn: number): ModelRoute | undefined {
  const { edges, tokens } = graph
  const support = edges.map((_, e) => e).filter((e) => inputs[e]! > 0)
  const rate = new Float64Array(edges.length)
  for (const e of support) rate[e] = edges[e]!.curve.amountOut(inputs[e]!) / inputs[e]!
  const left = Float64Array.from(inputs)
  const leaving: number[][] = tokens.map(() => [])
  for (const e of support) leaving[edges[e]!.from]!.push(e)
  const toSink = hopsToSink(graph, support)
  const paths: { edges: number[]; share: number }[] = []
  for (let guard = 0; guard <= 2 * support.length; guard++) {
    const trail: number[] = []
    const visited = new Set<number>([SOURCE])
    let token = SOURCE
    let gain = 1
    let bottleneck = Infinity
    const ratio: number[] = []
    while (token !== SINK) {
      const hopsLeft = graph.maxHops - trail.length
      let best = -1
      for (const e of leaving[token]!) {
        const to = edges[e]!.to
        if (!(left[e]! > 0) || visited.has(to) || toSink[to]! > hopsLeft - 1) continue
        if (best < 0 || left[e]! > left[best]!) best = e
      }
      if (best < 0) break
      trail.push(best)
      ratio.push(gain)
      bottleneck = Math.min(bottleneck, left[best]! / gain)
      gain *= rate[best]!
      token = edges[best]!.to
      visited.add(token)
    }
    if (token !== SINK || !(bottleneck > 0)) {
      if (trail.length === 0) break
      left[trail[trail.length - 1]!] = 0
      continue
    }
    trail.forEach((e, k) => {
      left[e] = left[e]! - bottleneck * ratio[k]!
      if (left[e]! <= inputs[e]! * 1e-12) left[e] = 0
    })
    paths.push({ edges: trail, share: bottleneck })
  }
  const kept = paths.filter((p) => p.share >= amountIn * MIN_SHARE)
  const total = kept.reduce((sum, p) => sum + p.share, 0)
  if (kept.length === 0 || total < amountIn * (1 - SHORT_SHARE)) return undefined
  let output = 0
  const used = new Set<number>()
  for (const p of kept) {
    p.share *= amountIn / total
    let amount = p.share
    for (const e of p.edges) {
      amount *= rate[e]!
      used.add(e)
    }
    output += amount
  }
  let gas = 0
  for (const e of used) gas += edges[e]!.curve.gas(inputs[e]!)
  return { paths: kept, output, gas, used: [...used] }
}

/** Fewest support edges from the input token to each token (tokens.length when it cannot reach it). */
function hopsFromSource(graph: RouteGraph, support: readonly number[]): Int32Array {
  const { edges, tokens } = graph
  const hops = new Int32Array(tokens.length).fill(tokens.length)
  hops[SOURCE] = 0
  for (let round = 0; round < tokens.length; round++) {
    let changed = false
    for (const e of support) {
      const through = hops[edges[e]!.from]! + 1
      if (through < hops[edges[e]!.to]!) {
        hops[edges[e]!.to] = through
        changed = true
      }
    }
    if (!changed) break
  }
  return hops
}

/** Fewest support edges from each token to the output token (tokens.length when it cannot reach it). */
function hopsToSink(graph: RouteGraph, support: readonly number[]): Int32Array {
  const { edges, tokens } = graph
  const hops = new Int32Array(tokens.length).fill(tokens.length)
  hops[SINK] = 0
  for (let round = 0; round < tokens.length; round++) {
    let changed = false
    for (const e of support) {
      const through = hops[edges[e]!.to]! + 1
      if (through < hops[edges[e]!.from]!) {
        hops[edges[e]!.from] = through
        changed = true
      }
    }
    if (!changed) break
  }
  return hops
}

/**
 * Gives each token the flow reaches but leaves by no edge its way out: its
 * outflow is below what the solve's prices resolve (pools so deep that the
 * flow moves their rates by less than a log-price's float precision, so the
 * solve leaves the token at their zero-size rate, taking nothing). Its inflow
 * is split over its edges out (none closing a cycle or trading a pool both
 * ways) at the token price where their marginal rates meet, found by
 * bisection in the price itself. `inputs` is updated in place.
 */
function routeDeadEnds(graph: RouteGraph, prices: Float64Array, inputs: Float64Array, byPool: Map<string, number>): void {
  const { edges, tokens } = graph
  const reaches = (from: number, target: number): boolean => {
    const seen = new Set<number>([from])
    const stack = [from]
    while (stack.length > 0) {
      const t = stack.pop()!
      if (t === target) return true
      edges.forEach((edge, e) => {
        if (edge.from === t && inputs[e]! > 0 && !seen.has(edge.to)) {
          seen.add(edge.to)
          stack.push(edge.to)
        }
      })
    }
    return false
  }
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  for (let round = 0; round < tokens.length; round++) {
    const inflow = new Float64Array(tokens.length)
    const leaves = new Uint8Array(tokens.length)
    edges.forEach((edge, e) => {
      if (!(inputs[e]! > 0)) return
      inflow[edge.to] = inflow[edge.to]! + edge.curve.amountOut(inputs[e]!)
      leaves[edge.from] = 1
    })
    let changed = false
    for (let t = 2; t < tokens.length; t++) {
      if (!(inflow[t]! > 0) || leaves[t]) continue
      const out = edges
        .map((edge, e) => e)
        .filter((e) => {
          const edge = edges[e]!
          if (edge.from !== t || !(edge.curve.rate0 > 0) || !(prices[edge.to]! > 0)) return false
          const taken = byPool.get(edge.hop.pool.key)
          return (taken === undefined || edges[taken]!.from === t) && !reaches(edge.to, t)
        })
      if (out.length === 0) continue
      const taking = (price: number) => out.reduce((sum, e) => sum + edges[e]!.curve.atRate(price / prices[edges[e]!.to]!, point).input, 0)
      // Above `hi` no edge trades; step down until the edges take the inflow (or all they can).
      const hi = Math.max(...out.map((e) => edges[e]!.curve.rate0 * prices[edges[e]!.to]!))
      let upper = hi
      let lower = hi
      for (let width = 1e-12; width < 1 && taking(lower) < inflow[t]!; width *= 4) {
        upper = lower
        lower = hi * (1 - width)
      }
      for (let i = 0; i < 100 && upper - lower > hi * 1e-17; i++) {
        const mid = (lower + upper) / 2
        if (taking(mid) < inflow[t]!) upper = mid
        else lower = mid
      }
      for (const e of out) {
        const x = edges[e]!.curve.atRate(lower / prices[edges[e]!.to]!, point).input
        if (!(x > 0)) continue
        inputs[e] = x
        byPool.set(edges[e]!.hop.pool.key, e)
        changed = true
      }
    }
    if (!changed) return
  }
}

/** Rank of each token in a topological order of the flow's support (edges in cycles are zeroed). */
function topologicalOrder(graph: RouteGraph, inputs: Float64Array): Int32Array {
  const { edges, tokens } = graph
  const n = tokens.length
  for (;;) {
    const indegree = new Int32Array(n)
    edges.forEach((edge, e) => {
      if (inputs[e]! > 0) indegree[edge.to] = indegree[edge.to]! + 1
    })
    const order = new Int32Array(n).fill(-1)
    const queue: number[] = []
    for (let t = 0; t < n; t++) if (indegree[t] === 0) queue.push(t)
    let rank = 0
    while (queue.length > 0) {
      const t = queue.shift()!
      order[t] = rank++
      edges.forEach((edge, e) => {
        if (edge.from !== t || !(inputs[e]! > 0)) return
        indegree[edge.to] = indegree[edge.to]! - 1
        if (indegree[edge.to] === 0) queue.push(edge.to)
      })
    }
    if (rank === n) return order
    // Break the thinnest edge among the tokens left in cycles.
    let thinnest = -1
    edges.forEach((edge, e) => {
      if (inputs[e]! > 0 && order[edge.from] === -1 && order[edge.to] === -1 && (thinnest < 0 || inputs[e]! < inputs[thinnest]!)) thinnest = e
    })
    if (thinnest < 0) return order
    inputs[thinnest] = 0
  }
}

/**
 * Output of paths executed as a flow: each edge trades once with the total its
 * paths bring, and hands each path its share of the output in proportion.
 */
function flowOutput(graph: RouteGraph, paths: { edges: number[]; share: number }[], order: Int32Array) {
  const { edges } = graph
  const edgeInputs = new Float64Array(edges.length)
  const carried = paths.map((p) => p.share)
  const position = paths.map(() => 0)
  const used: number[] = []
  // The paths waiting at each edge (each path waits at its next one).
  const waiting = new Map<number, number[]>()
  const wait = (i: number) => {
    const e = paths[i]!.edges[position[i]!]!
    const list = waiting.get(e)
    if (list) list.push(i)
    else waiting.set(e, [i])
  }
  const pending = new Set<number>()
  paths.forEach((p, i) => {
    for (const e of p.edges) pending.add(e)
    wait(i)
  })
  const sorted = [...pending].sort((a, b) => order[edges[a]!.from]! - order[edges[b]!.from]! || a - b)
  let output = 0
  for (const e of sorted) {
    const here = waiting.get(e) ?? []
    let total = 0
    for (const i of here) total += carried[i]!
    if (!(total > 0)) continue
    used.push(e)
    edgeInputs[e] = total
    const out = edges[e]!.curve.amountOut(total)
    for (const i of here) {
      carried[i] = (out * carried[i]!) / total
      position[i] = position[i]! + 1
      if (position[i] === paths[i]!.edges.length) output += carried[i]!
      else wait(i)
    }
  }
  return { output, used, edgeInputs }
}

/** A model route made exact: its plan, the paths and their integer inputs, and whether to repair it. */
type ExactSplit = { plan: Plan; paths: Path[]; amounts: bigint[]; largest: number; repair: boolean; error: number }

/**
 * The model route's paths in integers (shares floored, the remainder to the
 * largest), simulated exactly, and with its smallest path merged into the
 * largest when that is worth more (the path may gain less than the rounding
 * or gas it adds). Flags a repair (see `repairSplit`) when the model and the
 * exact simulation disagree by more than float noise and integer rounding.
 */
function exactSplit(graph: RouteGraph, model: ModelRoute, amountIn: bigint, value: (plan: Plan) => number, gasCost: number): ExactSplit | undefined {
  const paths: Path[] = model.paths.map((p) => p.edges.map((e) => graph.edges[e]!.hop))
  const amounts = model.paths.map((p) => (Number.isFinite(p.share) && p.share > 0 ? BigInt(Math.floor(p.share)) : 0n))
  let largest = 0
  for (let i = 1; i < amounts.length; i++) if (amounts[i]! > amounts[largest]!) largest = i
  const rest = amountIn - amounts.reduce((a, b) => a + b, 0n)
  amounts[largest] = amounts[largest]! + rest
  if (amounts[largest]! <= 0n) return undefined
  const simulate = (shares: bigint[]) => simulatePlan(paths.map((path, i) => ({ path, amountIn: shares[i]! })), { gasCostInOutput: gasCost })
  const plan = simulate(amounts)
  if (!plan) return undefined
  const split: ExactSplit = { plan, paths, amounts, largest, repair: false, error: 0 }
  if (paths.length < 2) return split
  // The model explains the exact output up to float noise and each hop's integer rounding (a raw
  // unit either side of it, valued in output units).
  let rounding = 0
  for (const p of model.paths) for (const e of p.edges) rounding += 2 * (graph.spot[graph.edges[e]!.from]! + Math.max(1, graph.spot[graph.edges[e]!.to]!))
  const miss = Math.abs(Number(plan.amountOut) - model.output)
  split.error = miss / model.output
  split.repair = miss > model.output * 1e-9 + rounding
  let smallest = largest === 0 ? 1 : 0
  for (let i = 0; i < amounts.length; i++) if (i !== largest && amounts[i]! < amounts[smallest]!) smallest = i
  // Without gas only a dust path can gain less than the rounding it adds.
  if (gasCost === 0 && amounts[smallest]! * 1_000_000n > amountIn) return split
  const merged = [...amounts]
  merged[largest] = merged[largest]! + merged[smallest]!
  merged[smallest] = 0n
  const mergedPlan = simulate(merged)
  if (mergedPlan && value(mergedPlan) > value(plan)) {
    split.plan = mergedPlan
    split.amounts = merged
  }
  return split
}

/**
 * Repairs an exact split on simulation: moves between the largest path and
 * each other one, in steps from the model's error down, kept while the exact
 * value improves, within REPAIR_BUDGET simulations.
 */
function repairSplit(split: ExactSplit, amountIn: bigint, value: (plan: Plan) => number, gasCost: number): Plan {
  const { paths, largest } = split
  const amounts = [...split.amounts]
  let plan = split.plan
  let current = value(plan)
  let step = BigInt(Math.max(1, Math.floor(Number(amountIn) * Math.min(1 / 64, Math.max(1e-7, 8 * split.error)))))
  let budget = REPAIR_BUDGET
  while (budget > 0 && step > 0n) {
    let moved = false
    for (let j = 0; j < paths.length && budget > 0; j++) {
      if (j === largest) continue
      for (const [from, to] of [
        [j, largest],
        [largest, j],
      ] as const) {
        if (budget <= 0 || amounts[from]! < step) continue
        const trial = [...amounts]
        trial[from] = trial[from]! - step
        trial[to] = trial[to]! + step
        budget--
        const next = simulatePlan(paths.map((path, i) => ({ path, amountIn: trial[i]! })), { gasCostInOutput: gasCost })
        if (next && value(next) > current) {
          amounts.splice(0, amounts.length, ...trial)
          plan = next
          current = value(next)
          moved = true
          break
        }
      }
    }
    if (!moved) step /= 4n
  }
  return plan
}

/** Single paths simulated exactly: the best few by the model's output net of gas (and the best gross). */
const SINGLE_CANDIDATES = 3
/** (output, gas) trade-offs kept per hop of a token path. */
const MAX_FRONTIER = 8

/** A single path under construction: its hops, what it holds after them, and their gas. */
type PartialPath = { hops: Path[number][]; amount: number; gas: number }

/**
 * The best single paths in the model, net of gas: every pool combination of
 * every token path is weighed, hop by hop, by keeping the (amount, gas) pairs
 * no other choice beats on both (a later hop's output increases with its
 * input and gas adds up, so a dominated pair never ends best; past
 * MAX_FRONTIER such pairs at a hop, the best by value net of gas are kept).
 * Returns the few best net of gas and the best gross, as hop lists.
 */
function bestSinglePaths(graph: RouteGraph, pairEdges: Map<string, number[]>, amountIn: number, gasCost: number): Path[] {
  const scored: { path: Path; net: number; gross: number; id: number }[] = []
  graph.tokenPaths.forEach((tokens, id) => {
    let frontier: PartialPath[] = [{ hops: [], amount: amountIn, gas: 0 }]
    for (let k = 0; k + 1 < tokens.length && frontier.length > 0; k++) {
      const next: PartialPath[] = []
      for (const state of frontier)
        for (const e of pairEdges.get(`${tokens[k]}>${tokens[k + 1]}`) ?? []) {
          const curve = graph.edges[e]!.curve
          if (!curve.covers(state.amount)) continue
          const out = curve.amountOut(state.amount)
          if (out > 0) next.push({ hops: [...state.hops, graph.edges[e]!.hop], amount: out, gas: state.gas + curve.gas(state.amount) })
        }
      frontier = paretoFront(next, gasCost, graph.spot[tokens[k + 1]!] ?? 0)
    }
    for (const s of frontier) scored.push({ path: s.hops, net: s.amount - gasCost * s.gas, gross: s.amount, id })
  })
  const byNet = [...scored].sort((a, b) => b.net - a.net || a.id - b.id)
  const byGross = [...scored].sort((a, b) => b.gross - a.gross || a.id - b.id)
  const picked: Path[] = []
  for (const s of [...byNet.slice(0, SINGLE_CANDIDATES), ...byGross.slice(0, 1)]) if (!picked.includes(s.path)) picked.push(s.path)
  return picked
}

/**
 * The (amount, gas) pairs not beaten on both by another (gas-free: the largest
 * amount), at most MAX_FRONTIER of them, the best by their value in the output
 * token (`value` per unit held) net of gas.
 */
function paretoFront(states: PartialPath[], gasCost: number, value: number): PartialPath[] {
  states.sort((a, b) => b.amount - a.amount || a.gas - b.gas)
  if (gasCost === 0) return states.slice(0, 1)
  const front: PartialPath[] = []
  for (const s of states) if (front.length === 0 || s.gas < front[front.length - 1]!.gas) front.push(s)
  if (front.length <= MAX_FRONTIER) return front
  return front.sort((a, b) => b.amount * value - gasCost * b.gas - (a.amount * value - gasCost * a.gas)).slice(0, MAX_FRONTIER)
}

/** Candidate paths, exported for callers that want to inspect the search. */
export { findPaths }
