import type { HardUniverse } from '../../scripts/bench/hardMarket.js'
import { findSinglePaths } from '../../src/router/findSinglePaths.js'
import { buildRouteGraph } from '../../src/router/routeGraph.js'
import type { FlowSolution } from '../../src/router/splitSolver.js'
import { DEFAULT_MAX_HOPS, type RouteGraph, SOURCE } from '../../src/router/types.js'

/**
 * The largest imbalance of a token at a solve's prices, as a share of the trade's value: what a
 * token receives minus what it sends, valued at its price (the sink, index 0, collects; the
 * source holds the amount).
 *
 * @example
 * expect(getFlowImbalance(graph, solveFlow(graph, graph.edges.map(() => true), amount), amount)).toBeLessThan(1e-6)
 */
export function getFlowImbalance(graph: RouteGraph, flow: FlowSolution, amount: number): number {
  const held = new Float64Array(graph.tokens.length)
  held[SOURCE] = amount
  graph.edges.forEach((edge, e) => {
    held[edge.from] = held[edge.from]! - flow.inputs[e]!
    held[edge.to] = held[edge.to]! + flow.outputs[e]!
  })
  let imbalance = 0
  for (let token = 1; token < graph.tokens.length; token++) imbalance = Math.max(imbalance, (Math.abs(held[token]!) * flow.prices[token]!) / (amount * flow.prices[SOURCE]!))
  return imbalance
}

/** A hard-bench trade's first candidate graph at one size. */
export type FirstCandidateGraph = { label: string; size: number; amount: number; graph: RouteGraph }

/** The sizes the replays try, as shares of the trade's input depth. */
const SIZES = [1e-4, 1e-3, 1e-2, 0.1, 0.3]

/**
 * The first candidate graph of every planned trade of a hard-bench universe at 0.01% to 30% of its
 * input depth, as prepareRoute builds it (the connectors and the tokens of the best single paths,
 * gas-free), skipping graphs with no edge or no token between the ends.
 *
 * @example
 * for (const { label, amount, graph } of listFirstCandidateGraphs(createHardUniverse(1000, 1))) solveFlow(graph, graph.edges.map(() => true), amount)
 */
export function listFirstCandidateGraphs(universe: HardUniverse): FirstCandidateGraph[] {
  const pools = universe.market.pools.map((p) => p.pool)
  const connectors = universe.market.chain.majorTokens
  const graphs: FirstCandidateGraph[] = []
  for (const trade of universe.trades)
    for (const size of SIZES) {
      const amount = Number((trade.depthIn * BigInt(Math.round(size * 1e9))) / 10n ** 9n)
      const tokenIn = trade.tokenIn.address
      const tokenOut = trade.tokenOut.address
      const floor = findSinglePaths(pools, tokenIn, tokenOut, amount, DEFAULT_MAX_HOPS, 0)
      const candidates = [...new Set([...connectors, ...floor.flatMap((path) => path.slice(0, -1).map((hop) => hop.tokenOut))])]
      const graph = buildRouteGraph({ pools, tokenIn, tokenOut, connectors: candidates, maxHops: DEFAULT_MAX_HOPS }, amount)
      if (graph.edges.length === 0 || graph.tokens.length < 3) continue
      graphs.push({ label: trade.label, size, amount, graph })
    }
  return graphs
}
