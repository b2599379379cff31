import type { Path, RouteGraph } from './types.js'

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
 *
 * @example
 * const singles = bestSinglePaths(graph, pairEdges, 1e18, 0) // hop lists, the best first
 */
export function bestSinglePaths(graph: RouteGraph, pairEdges: Map<string, number[]>, amountIn: number, gasCost: number): Path[] {
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
