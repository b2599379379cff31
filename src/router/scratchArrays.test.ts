// Scratch arrays lent out again and again: long enough, the same array for the same slot while it
// fits, never more kept than the bound; and the split solver, which borrows its working arrays,
// gives every graph the same solution whatever was solved before (stale contents never leak in).
import { describe, expect, it } from 'vitest'
import { randomMarket } from '../../test/support/randomMarkets.js'
import { createRandom } from '../../test/support/random.js'
import { buildRouteGraph } from './routeGraph.js'
import { createScratchArrays } from './scratchArrays.js'
import { type FlowSolution, solveFlow } from './splitSolver.js'

describe('createScratchArrays', () => {
  it('lends each slot one array while requests fit, grown when they do not', () => {
    const scratch = createScratchArrays({ slots: 2, maxLength: 100 })
    const first = scratch.float(0, 10)
    expect(first.length).toBeGreaterThanOrEqual(10)
    expect(scratch.float(0, 5)).toBe(first)
    expect(scratch.float(1, 5)).not.toBe(first)
    const grown = scratch.float(0, first.length + 1)
    expect(grown.length).toBeGreaterThan(first.length)
    expect(scratch.float(0, 3)).toBe(grown)
    const ints = scratch.int(0, 7)
    expect(ints).toBeInstanceOf(Int32Array)
    expect(scratch.int(0, 7)).toBe(ints)
  })

  it('keeps at most slots × maxLength elements of each kind: a longer request gets a fresh array, not kept', () => {
    const scratch = createScratchArrays({ slots: 3, maxLength: 64 })
    for (let slot = 0; slot < 3; slot++) {
      scratch.float(slot, 64)
      scratch.int(slot, 40)
      scratch.int(slot, 64)
    }
    expect(scratch.retained).toBeLessThanOrEqual(2 * 3 * 64)
    const kept = scratch.float(2, 64)
    const huge = scratch.float(2, 65)
    expect(huge.length).toBe(65)
    expect(scratch.float(2, 65)).not.toBe(huge)
    expect(scratch.float(2, 10)).toBe(kept)
    expect(scratch.retained).toBeLessThanOrEqual(2 * 3 * 64)
  })
})

describe('solveFlow on borrowed arrays', () => {
  const solutionOf = (flow: FlowSolution) => ({ prices: [...flow.prices], inputs: [...flow.inputs], outputs: [...flow.outputs], dual: flow.dual, iterations: flow.iterations })

  it('solves every graph to the same bits alone or after solves of larger and smaller graphs', () => {
    const random = createRandom(91)
    const graphs = Array.from({ length: 24 }, (_, i) => {
      const market = randomMarket(random, { tokens: 3 + (i % 6), connectors: 1 + (i % 3) })
      const graph = buildRouteGraph({ ...market, maxHops: 3 }, Number(market.amountIn))
      return { graph, amount: Number(market.amountIn) }
    }).filter(({ graph }) => graph.edges.length > 0)
    expect(graphs.length).toBeGreaterThan(12)
    // Each graph first right after a different one (largest first, so the scratch holds longer
    // stale contents), then again in the opposite order.
    const forward = graphs.map(({ graph, amount }) => solutionOf(solveFlow(graph, graph.edges.map(() => true), amount)))
    const backward = [...graphs].reverse().map(({ graph, amount }) => solutionOf(solveFlow(graph, graph.edges.map(() => true), amount)))
    backward.reverse()
    expect(backward).toEqual(forward)
    // And with some edges off (other active counts, other runs).
    const half = (count: number) => Array.from({ length: count }, (_, e) => e % 2 === 0)
    const first = graphs.map(({ graph, amount }) => solutionOf(solveFlow(graph, half(graph.edges.length), amount)))
    const again = [...graphs].reverse().map(({ graph, amount }) => solutionOf(solveFlow(graph, half(graph.edges.length), amount)))
    again.reverse()
    expect(again).toEqual(first)
  })
})
