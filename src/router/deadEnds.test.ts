// decompose routes a dead end (a token the flow sends something to but nothing out of: a solve
// stopped short, or edges switched off) onward at the solve's prices, so no input is stranded. Its
// edge lists are built only when a dead end shows up (most flows have none): here every flow is
// given one, by switching off the edges out of an intermediate token the flow uses.
import { describe, expect, it } from 'vitest'
import { randomMarket } from '../../test/support/randomMarkets.js'
import { createRandom } from '../../test/support/random.js'
import { decompose } from './decompose.js'
import { buildRouteGraph } from './routeGraph.js'
import { solveFlow } from './splitSolver.js'
import { SINK, SOURCE } from './types.js'

describe('decompose with a dead end', () => {
  it('routes the stranded inflow on: every path runs from the input to the output and the paths carry the whole amount', () => {
    const random = createRandom(11)
    let routed = 0
    let onward = 0
    for (let i = 0; i < 300 && routed < 40; i++) {
      const market = randomMarket(random, { tokens: 7, connectors: 5, density: 0.7 })
      const amount = Number(market.amountIn)
      const graph = buildRouteGraph({ pools: market.pools, tokenIn: market.tokenIn, tokenOut: market.tokenOut, connectors: market.connectors, maxHops: 4 }, amount)
      if (graph.edges.length === 0 || graph.tokens.length < 3) continue
      const flow = solveFlow(graph, graph.edges.map(() => true), amount)
      // An intermediate token the flow both enters and leaves: what leaves it is switched off.
      const leavingEdge = graph.edges.findIndex((edge, e) => edge.from !== SOURCE && edge.from !== SINK && flow.inputs[e]! > 0)
      if (leavingEdge < 0) continue
      const stranded = graph.edges[leavingEdge]!.from
      const inputs = Float64Array.from(flow.inputs)
      graph.edges.forEach((edge, e) => {
        if (edge.from === stranded) inputs[e] = 0
      })
      const model = decompose(graph, { ...flow, inputs }, amount)
      // Short: its edges out could not take the inflow on (they lead back to it, or their pools trade
      // the other way in the flow).
      if (!model || model.short) continue
      routed++
      let carried = 0
      for (const path of model.paths) {
        expect(graph.edges[path.edges[0]!]!.from).toBe(SOURCE)
        expect(graph.edges[path.edges.at(-1)!]!.to).toBe(SINK)
        carried += path.share
      }
      expect(Math.abs(carried - amount)).toBeLessThanOrEqual(amount * 1e-6)
      // The stranded token's inflow left it through one of its edges (switched on again by the routing).
      if (model.paths.some((path) => path.edges.some((e) => graph.edges[e]!.from === stranded))) onward++
    }
    console.log(`models: ${routed}, routed on through the stranded token: ${onward}`)
    expect(routed).toBeGreaterThanOrEqual(20)
    expect(onward).toBeGreaterThanOrEqual(10)
  })
})
