import type { RatePoint } from './curves.js'
import { type ModelRoute, decompose } from './decompose.js'
import { type FlowSolution, solveFlow } from './splitSolver.js'
import type { RouteGraph } from './types.js'

/** Single drops tried per step of the gas search before the other moves. */
const DROPS_PER_STEP = 3
/** Re-solves the gas search may spend. */
const MAX_GAS_SOLVES = 24
/**
 * Solver iterations of a gas-search trial: a trial's model is a feasible flow's output whether or not
 * the solve converged, so a capped trial never passes for better than it is (it may only miss a move).
 */
const TRIAL_ITERATIONS = 30

/**
 * The pools that trade, searched for the best output net of gas from the
 * gas-free optimum `start` (its flow, model route and active edges); `pairEdges`
 * lists the edges of each token pair (`from>to`). Returns the best model route
 * found and the solver iterations spent; `settled`, when the last move (an add
 * between tokens the flow trades) took the search further, is the model it had
 * stopped on before, for the caller to weigh too.
 *
 * @example
 * const { model } = searchGas(graph, pairEdges, { flow, model: gasFree, active }, 1e18, 1e-9)
 */
export function searchGas(
  graph: RouteGraph,
  pairEdges: ReadonlyMap<string, number[]>,
  start: { flow: FlowSolution; model: ModelRoute; active: readonly boolean[] },
  amount: number,
  gasCost: number,
): { model: ModelRoute; iterations: number; settled?: ModelRoute } {
  // Gas: a local search over which pools trade, from the gas-free optimum. Moves, in order: drop
  // pools whose arbitrage value at the solution's prices (a lower bound on what dropping them
  // loses) is below their gas (all of them, the worse half, or the worst few one at a time); add
  // back a dropped pool whose arbitrage value exceeds its gas; swap a used pool for one of its
  // pair that carries nothing when, at the same input, that one's output less its gas is worth
  // more. Each move is re-solved and kept only if the net output improves.
  let best = start.model
  let bestNet = best.output - gasCost * best.gas
  let iterations = 0
  // The model the search stopped on before an add between traded tokens took it further.
  let settled: ModelRoute | undefined
  if (gasCost > 0) {
    const active = [...start.active]
    let flow = start.flow
    // A drop that fails (of a group, or of one pool) is not tried again: it rarely succeeds later,
    // and the solves it would take go to other moves.
    const failedGroup = [false, false]
    const failedDrop = new Set<number>()
    const point: RatePoint = { input: 0, output: 0, slope: 0 }
    for (let solves = 0; solves < MAX_GAS_SOLVES; ) {
      const used = new Set(best.used)
      const moves: { off: number[]; on: number[]; group: number; traded?: boolean }[] = []
      const drops = best.used
        .map((e) => ({ e, surplus: arbitrage(graph, flow, e) - gasCost * graph.edges[e]!.curve.gas(flow.inputs[e]!) }))
        .filter((c) => c.surplus < 0)
        .sort((a, b) => a.surplus - b.surplus || a.e - b.e)
      if (drops.length > 1 && !failedGroup[0]) moves.push({ off: drops.map((c) => c.e), on: [], group: 0 })
      if (drops.length > 3 && !failedGroup[1]) moves.push({ off: drops.slice(0, drops.length >> 1).map((c) => c.e), on: [], group: 1 })
      for (const { e } of drops.filter((c) => !failedDrop.has(c.e)).slice(0, DROPS_PER_STEP)) moves.push({ off: [e], on: [], group: -1 })
      // The dropped pool that would add the most, and the one that would add the most between two
      // tokens the flow trades. Only those two tokens' prices are set by the flow: a token the flow
      // no longer reaches keeps a price of an earlier solve, and a pool touching it can show a
      // surplus nothing backs (hard bench 100:72 H15->H16 1% at 20 gwei, 4 hops: the drop of every
      // pool below its gas left one pool, the add then tried USDT->H0 at 2.9e11 and the search
      // stopped, where the dropped second H15->H16 pool added 1.9e8).
      const traded = new Set<number>()
      for (const e of best.used) traded.add(graph.edges[e]!.from).add(graph.edges[e]!.to)
      let add = -1
      let addSurplus = 0
      let tradedAdd = -1
      let tradedAddSurplus = 0
      graph.edges.forEach((edge, e) => {
        if (active[e]) return
        // At or above its zero-size rate a pool trades nothing (as in solveFlow): no call.
        const rate = flow.prices[edge.from]! / flow.prices[edge.to]!
        if (rate >= edge.curve.rate0) return
        edge.curve.atRate(rate, point)
        if (!(point.input > 0)) return
        const surplus = flow.prices[edge.to]! * point.output - flow.prices[edge.from]! * point.input - gasCost * edge.curve.gas(point.input)
        if (surplus > addSurplus) {
          addSurplus = surplus
          add = e
        }
        if (surplus > tradedAddSurplus && traded.has(edge.from) && traded.has(edge.to)) {
          tradedAddSurplus = surplus
          tradedAdd = e
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
      // Last, so the search only goes on where it stopped before.
      if (tradedAdd >= 0 && tradedAdd !== add) moves.push({ off: [], on: [tradedAdd], group: -1, traded: true })
      let improved = false
      for (const { off, on, group, traded: tradedMove } of moves) {
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
        if (tradedMove) settled ??= best
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
  return settled ? { model: best, iterations, settled } : { model: best, iterations }
}

/** Value at the solution's prices an edge adds: ν_out·output − ν_in·input. */
function arbitrage(graph: RouteGraph, flow: FlowSolution, e: number): number {
  const edge = graph.edges[e]!
  return flow.prices[edge.to]! * flow.outputs[e]! - flow.prices[edge.from]! * flow.inputs[e]!
}

