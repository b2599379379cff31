// The models a route weighs do not depend on whether the caller hands over its solve of every
// edge: solveFlow is deterministic, and the hop-limited solve starts with that same solve.
import { describe, expect, it } from 'vitest'
import { createRandom } from '../../test/support/random.js'
import { randomMarket } from '../../test/support/randomMarkets.js'
import { type ModelsToWeigh, prepareModelsToWeigh } from './modelsToWeigh.js'
import { buildRouteGraph } from './routeGraph.js'
import { solveFlow } from './splitSolver.js'

describe('prepareModelsToWeigh', () => {
  it('weighs the same models with the solve of every edge handed over as without', () => {
    const random = createRandom(11)
    let repaired = 0
    for (let trial = 0; trial < 40; trial++) {
      const market = randomMarket(random)
      const amount = Number(market.amountIn) * (0.05 + random())
      const graph = buildRouteGraph({ ...market, maxHops: 3 }, amount)
      if (graph.edges.length === 0) continue
      const pairEdges = new Map<string, number[]>()
      graph.edges.forEach((edge, e) => pairEdges.set(`${edge.from}>${edge.to}`, [...(pairEdges.get(`${edge.from}>${edge.to}`) ?? []), e]))
      const everyEdge = { amount, flow: solveFlow(graph, graph.edges.map(() => true), amount) }
      // The free layered model is made when asked for: compared as made.
      const made = (models: ModelsToWeigh) => ({ ...models, freeLayered: models.freeLayered?.() })
      const fresh = prepareModelsToWeigh(graph, pairEdges)(amount)
      expect(made(prepareModelsToWeigh(graph, pairEdges, everyEdge)(amount))).toEqual(made(fresh))
      // A solve at another amount is not taken for this one.
      const other = { amount: amount * 2, flow: solveFlow(graph, graph.edges.map(() => true), amount * 2) }
      expect(made(prepareModelsToWeigh(graph, pairEdges, other)(amount))).toEqual(made(fresh))
      if (fresh.repaired) repaired++
    }
    expect(repaired).toBeGreaterThan(0)
  })
})
