import { upperBound } from './certificate.js'
import { findPaths } from './findPaths.js'
import { type RouteGraph, buildRouteGraph } from './routeGraph.js'
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
/** Removals tried per round of the gas pruning before giving up. */
const REMOVALS_PER_ROUND = 3
/** Rounds of the gas pruning (each re-solves a few times). */
const MAX_GAS_ROUNDS = 12
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
  const { pools, tokenIn, tokenOut, connectors, maxHops = 3 } = parameters
  const gasCost = Number.isFinite(parameters.gasCostInOutput) && parameters.gasCostInOutput > 0 ? parameters.gasCostInOutput : 0
  const graph = buildRouteGraph({ pools, tokenIn, tokenOut, connectors, maxHops }, scale)
  const all = graph.edges.map(() => true)
  const pairEdges = new Map<string, number[]>()
  graph.edges.forEach((edge, e) => {
    const key = `${edge.from}>${edge.to}`
    const list = pairEdges.get(key)
    if (list) list.push(e)
    else pairEdges.set(key, [e])
  })

  const optimum = (amountIn: number) => {
    if (graph.edges.length === 0 || !(amountIn > 0)) return undefined
    const flow = solveFlow(graph, all, amountIn)
    // The dual value is the relaxation's optimum (smooth in the amount); undefined past the pools' capacity.
    return decompose(graph, flow, amountIn) ? { output: flow.dual, inputPrice: flow.prices[1]! } : undefined
  }

  const route = (amountIn: bigint): Plan | undefined => {
    if (amountIn <= 0n || graph.edges.length === 0) return undefined
    const amount = Number(amountIn)
    if (!Number.isFinite(amount)) return undefined
    let iterations = 0
    const full = solveFlow(graph, all, amount)
    iterations += full.iterations
    const fullRoute = decompose(graph, full, amount)

    // Gas: drop pools whose arbitrage value at the solution's prices (a lower bound on what removing
    // them loses) is below their gas, one at a time, keeping a removal only if the net output improves.
    let best = fullRoute
    let bestNet = best ? best.output - gasCost * best.gas : -Infinity
    if (gasCost > 0 && best) {
      const active = [...all]
      let flow = full
      for (let round = 0; round < MAX_GAS_ROUNDS; round++) {
        const candidates = best.used
          .map((e) => ({ e, surplus: arbitrage(graph, flow, e) - gasCost * graph.edges[e]!.curve.gas(flow.inputs[e]!) }))
          .filter((c) => c.surplus < 0)
          .sort((a, b) => a.surplus - b.surplus || a.e - b.e)
        // Trials: every such pool at once, the worse half, then the worst few one by one.
        const removals: number[][] = []
        if (candidates.length > 1) removals.push(candidates.map((c) => c.e))
        if (candidates.length > 3) removals.push(candidates.slice(0, candidates.length >> 1).map((c) => c.e))
        for (const { e } of candidates.slice(0, REMOVALS_PER_ROUND)) removals.push([e])
        let improved = false
        for (const removal of removals) {
          const trial = [...active]
          for (const e of removal) trial[e] = false
          const next = solveFlow(graph, trial, amount, flow.prices)
          iterations += next.iterations
          const model = decompose(graph, next, amount)
          if (!model || model.used.length === 0) continue
          const net = model.output - gasCost * model.gas
          if (net > bestNet) {
            for (const e of removal) active[e] = false
            flow = next
            best = model
            bestNet = net
            improved = true
            break
          }
        }
        if (!improved) break
      }
    }

    // Exact plans: the split, and the best single paths (the floor the split can never fall below).
    const value = (plan: Plan) => Number(plan.amountOut) - Number(plan.gas) * gasCost
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
    if (best && best.paths.length > 0) consider(exactSplit(graph, best, amountIn, value, gasCost))
    // The model's gas is an estimate: the gas-free split competes on exact gas too.
    if (fullRoute && fullRoute !== best) consider(exactSplit(graph, fullRoute, amountIn, value, gasCost))
    for (const single of bestSinglePaths(graph, pairEdges, amount, gasCost)) consider(simulatePlan([{ path: single, amountIn }], { gasCostInOutput: gasCost }))
    if (!chosen) return undefined

    const plan: Plan = chosen
    const certified = upperBound(graph, full.prices, amount)
    iterations += certified.iterations
    const bound = certified.bound
    if (Number.isFinite(bound) && bound > 0) {
      const out = Number(plan.amountOut)
      plan.certificate = {
        upperBound: BigInt(Math.ceil(bound)),
        gapBps: ((bound - out) / bound) * 10_000,
        candidatePools: certified.pools,
        candidateEdges: graph.edges.length,
        candidatePaths: graph.tokenPaths.length,
        pathsUsed: plan.paths.length,
        iterations,
      }
    }
    return plan
  }

  return { graph, route, optimum }
}

/**
 * The exact-in route: the optimal split of `amountIn` across candidate paths
 * up to `maxHops` (through the connectors and tokens deep on both sides),
 * solved in floats on each pool's curve (the marginal rates of used paths
 * equalised through the dual of the convex routing problem), pruned of pools
 * that do not pay for their gas, then made integer and repaired on exact
 * simulation. Never worse than the best single path; carries a certificate
 * bounding its distance to the optimum. Undefined when nothing can fill the amount.
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
function decompose(graph: RouteGraph, flow: FlowSolution, amountIn: number): ModelRoute | undefined {
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
  const order = topologicalOrder(graph, inputs)
  const support = edges.map((_, e) => e).filter((e) => inputs[e]! > 0)
  support.sort((a, b) => order[edges[a]!.from]! - order[edges[b]!.from]! || a - b)
  const outflow = new Float64Array(tokens.length)
  for (const e of support) outflow[edges[e]!.from] = outflow[edges[e]!.from]! + inputs[e]!
  // Conserving flow: what each edge takes and gives.
  const held = new Float64Array(tokens.length)
  held[1] = amountIn
  const edgeIn = new Float64Array(edges.length)
  const edgeOut = new Float64Array(edges.length)
  for (const e of support) {
    const edge = edges[e]!
    if (edge.from === 0) continue
    let amount = (held[edge.from]! * inputs[e]!) / outflow[edge.from]!
    // A pool traded to the end of its known state stops a margin short of it (what it leaves stays as dust).
    if (amount > 0 && !edge.curve.covers(amount)) amount = edge.curve.limit()
    if (!(amount > 0)) continue
    edgeIn[e] = amount
    edgeOut[e] = edge.curve.amountOut(amount)
    held[edge.to] = held[edge.to]! + edgeOut[e]!
  }

  // Greedy decomposition in each edge's own input units.
  const left = Float64Array.from(edgeIn)
  const paths: { edges: number[]; share: number }[] = []
  const outOf = (token: number) => {
    let best = -1
    for (const e of support) if (edges[e]!.from === token && left[e]! > 0 && (best < 0 || left[e]! > left[best]!)) best = e
    return best
  }
  for (let guard = 0; guard <= support.length; guard++) {
    const trail: number[] = []
    const ratio: number[] = []
    let token = 1
    let gain = 1
    let bottleneck = Infinity
    while (token !== 0) {
      const e = outOf(token)
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
  if (kept.length === 0) return undefined
  const total = kept.reduce((sum, p) => sum + p.share, 0)
  for (const p of kept) p.share *= amountIn / total
  const { output, used, edgeInputs } = flowOutput(graph, kept, order)
  let gas = 0
  for (const e of used) gas += edges[e]!.curve.gas(edgeInputs[e]!)
  return { paths: kept, output, gas, used }
}

/**
 * Gives each token the flow reaches but leaves by no edge an edge out: its
 * outflow is below what the prices resolve (a pool so deep that the flow
 * moves its rate by less than a price's float precision, so the solve leaves
 * it at its zero-size rate, taking nothing). The edge is the one with the
 * best zero-size value (rate times the price of the token it leads to) that
 * closes no cycle and trades no pool both ways. `inputs` is updated in place.
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
      let best = -1
      let bestValue = 0
      edges.forEach((edge, e) => {
        if (edge.from !== t) return
        const value = edge.curve.rate0 * prices[edge.to]!
        const taken = byPool.get(edge.hop.pool.key)
        if (value > bestValue && (taken === undefined || edges[taken]!.from === t) && !reaches(edge.to, t)) {
          best = e
          bestValue = value
        }
      })
      if (best < 0) continue
      inputs[best] = inflow[t]!
      byPool.set(edges[best]!.hop.pool.key, best)
      changed = true
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
  const pending = new Set<number>()
  for (const p of paths) for (const e of p.edges) pending.add(e)
  const sorted = [...pending].sort((a, b) => order[edges[a]!.from]! - order[edges[b]!.from]! || a - b)
  let output = 0
  for (const e of sorted) {
    let total = 0
    paths.forEach((p, i) => {
      if (p.edges[position[i]!] === e) total += carried[i]!
    })
    if (!(total > 0)) continue
    used.push(e)
    edgeInputs[e] = total
    const out = edges[e]!.curve.amountOut(total)
    paths.forEach((p, i) => {
      if (p.edges[position[i]!] !== e) return
      carried[i] = (out * carried[i]!) / total
      position[i] = position[i]! + 1
      if (position[i] === p.edges.length) output += carried[i]!
    })
  }
  return { output, used, edgeInputs }
}

/**
 * The model route's paths in integers (shares floored, the remainder to the
 * largest), simulated exactly, then repaired: moves between the largest path
 * and each other one while the exact value improves, when the model and the
 * exact simulation disagree by more than float noise.
 */
function exactSplit(graph: RouteGraph, model: ModelRoute, amountIn: bigint, value: (plan: Plan) => number, gasCost: number): Plan | undefined {
  const paths: Path[] = model.paths.map((p) => p.edges.map((e) => graph.edges[e]!.hop))
  const amounts = model.paths.map((p) => (Number.isFinite(p.share) && p.share > 0 ? BigInt(Math.floor(p.share)) : 0n))
  let largest = 0
  for (let i = 1; i < amounts.length; i++) if (amounts[i]! > amounts[largest]!) largest = i
  const rest = amountIn - amounts.reduce((a, b) => a + b, 0n)
  amounts[largest] = amounts[largest]! + rest
  if (amounts[largest]! <= 0n) return undefined
  const simulate = (shares: bigint[]) => simulatePlan(paths.map((path, i) => ({ path, amountIn: shares[i]! })), { gasCostInOutput: gasCost })
  let plan = simulate(amounts)
  if (!plan || paths.length < 2) return plan
  let current = value(plan)
  // The smallest path may gain less than the integer rounding (or gas) it adds: try it merged into the largest.
  let smallest = largest === 0 ? 1 : 0
  for (let i = 0; i < amounts.length; i++) if (i !== largest && amounts[i]! < amounts[smallest]!) smallest = i
  const merged = [...amounts]
  merged[largest] = merged[largest]! + merged[smallest]!
  merged[smallest] = 0n
  const mergedPlan = simulate(merged)
  if (mergedPlan && value(mergedPlan) > current) {
    amounts.splice(0, amounts.length, ...merged)
    plan = mergedPlan
    current = value(mergedPlan)
  }
  // Repair only what the model cannot explain by float noise and each hop's integer rounding.
  const hops = paths.reduce((n, p) => n + p.length, 0)
  const miss = Math.abs(Number(plan.amountOut) - model.output)
  if (!(miss > model.output * 1e-9 + 2 * hops)) return plan
  const error = miss / model.output
  let step = BigInt(Math.max(1, Math.floor(Number(amountIn) * Math.min(1 / 64, Math.max(1e-7, 8 * error)))))
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
        const next = simulate(trial)
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
 * every token path is covered, hop by hop, by keeping the (amount, gas) pairs
 * no other choice beats on both (a later hop's output increases with its
 * input and gas adds up, so a dominated pair never ends best). Returns the
 * few best net of gas and the best gross, as hop lists.
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
