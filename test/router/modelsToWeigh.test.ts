// The contract of ModelsToWeigh (src/router/modelsToWeigh.ts), the one place that builds the
// gas-free models a route weighs, on the hard bench's 100-pool market (scripts/bench/hardMarket.ts),
// whose trades at 4 and 6 hops need the layered solves often: every model is over the candidate
// graph's edges, an amount that fits maxHops as solved weighs its lead alone, and a layered lead
// carries the layered solve the gas search starts from.
import { describe, expect, it } from 'vitest'
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import type { ModelRoute } from '../../src/router/decompose.js'
import { prepareModelsToWeigh } from '../../src/router/modelsToWeigh.js'
import { buildRouteGraph } from '../../src/router/routeGraph.js'
import type { RouteGraph } from '../../src/router/types.js'

const SIZES = [1e-3, 0.1, 0.3]

/** The graph's edges of each token pair (`from>to`), as prepareRoute lists them. */
function pairEdgesOf(graph: RouteGraph): Map<string, number[]> {
  const pairs = new Map<string, number[]>()
  graph.edges.forEach((edge, e) => pairs.set(`${edge.from}>${edge.to}`, [...(pairs.get(`${edge.from}>${edge.to}`) ?? []), e]))
  return pairs
}

/** Whether every path of `model` is a chain of the graph's edges from the input to the output, within maxHops. */
function isCandidateRoute(graph: RouteGraph, model: ModelRoute): boolean {
  return model.paths.every(
    ({ edges }) =>
      edges.length >= 1 &&
      edges.length <= graph.maxHops &&
      edges.every((e, i) => graph.edges[e] !== undefined && (i === 0 || graph.edges[edges[i - 1]!]!.to === graph.edges[e]!.from)),
  )
}

describe('ModelsToWeigh on the hard market', () => {
  it('keeps every model over the candidate edges, weighs alternatives only past a hop repair, and leads layered solves with their layers', () => {
    const seen = { amounts: 0, repaired: 0, layeredLead: 0, alternatives: 0, alternativeSolves: 0 }
    const problems: string[] = []
    for (const seed of [1, 2, 3]) {
      const universe = createHardUniverse(100, seed)
      const pools = universe.market.pools.map((p) => p.pool)
      // Every token a connector: dense candidate graphs, whose flows chain short paths into long ones.
      const connectors = [...new Set(pools.flatMap((pool) => pool.tokens))]
      for (const trade of universe.trades)
        for (const maxHops of [4, 6])
          for (const share of SIZES) {
            const amount = Number(trade.depthIn) * share
            const graph = buildRouteGraph({ pools, tokenIn: trade.tokenIn.address, tokenOut: trade.tokenOut.address, connectors, maxHops }, amount)
            if (graph.edges.length === 0) continue
            const models = prepareModelsToWeigh(graph, pairEdgesOf(graph))(amount)
            const label = `seed ${seed} ${trade.label} ${share} h${maxHops}`
            seen.amounts++
            if ((models.lead === undefined) !== (models.leadSolve === undefined)) problems.push(`${label}: a lead without its solve, or the reverse`)
            for (const model of [models.lead, ...models.alternatives]) if (model && !isCandidateRoute(graph, model)) problems.push(`${label}: a model off the candidate edges`)
            if (models.greedyPaths.some((edges) => edges.some((e) => graph.edges[e] === undefined))) problems.push(`${label}: a greedy path off the candidate edges`)
            if (!models.repaired) {
              if (models.alternatives.length > 0 || models.alternativeSolves.length > 0) problems.push(`${label}: alternatives without a hop repair`)
              if (models.leadFlow !== models.candidateFlow) problems.push(`${label}: a lead from another flow without a hop repair`)
              continue
            }
            seen.repaired++
            seen.alternatives += models.alternatives.length
            seen.alternativeSolves += models.alternativeSolves.length
            if (models.leadSolve?.layers) {
              seen.layeredLead++
              if (models.leadFlow !== models.leadSolve!.flow) problems.push(`${label}: a layered lead from another flow than its solve`)
              if (models.lead!.output !== models.leadSolve!.model.output) problems.push(`${label}: the layered lead's output is not its solve's`)
            } else if (models.alternativeSolves.length > 0) problems.push(`${label}: a held layered solve to search beside a lead that is not layered`)
            for (const start of models.alternativeSolves) if (!start.layers) problems.push(`${label}: an alternative solve without its layers`)
          }
    }
    console.log(`ModelsToWeigh: ${JSON.stringify(seen)}`)
    expect(problems).toEqual([])
    // The market exercises the layered branch, or this test says nothing about it.
    expect(seen.layeredLead).toBeGreaterThan(0)
    expect(seen.alternatives).toBeGreaterThan(0)
    expect(seen.alternativeSolves).toBeGreaterThan(0)
  })
})
