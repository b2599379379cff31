// exactSplit makes a model route's split exact. A model can fill a pool past what it exactly holds
// (a pool one direction shared by paths of several hop counts, each copy given its part): the
// split then failed whole, and only the coarse greedy split was left (1,000 pools seed 3, H0 -> H4,
// 30% at 6 hops: 20.3 bp below Tines). The paths are now fitted to the pools first.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool, v3Pool } from '../../test/support/randomMarkets.js'
import type { ModelRoute } from './decompose.js'
import { exactSplit } from './exactSplit.js'
import { buildRouteGraph } from './routeGraph.js'

const A = '0x00000000000000000000000000000000000000a1' as Address
const B = '0x00000000000000000000000000000000000000b2' as Address
const E18 = 10n ** 18n

describe('exactSplit', () => {
  it('fits a split that overfills a pool to what the pools hold, the excess to the other path', () => {
    // A concentrated pool holding one narrow position (it runs dry) and a deep pair, A -> B.
    const narrow = v3Pool(A, B, { fee: 3000, spacing: 60 }, 0, [[-120, 120, 10n ** 21n]], false)
    const deep = v2Pool(A, B, 100_000n * E18, 100_000n * E18)
    // What the narrow pool can take: the most input it fills (bisection on its exact quote).
    let lo = 0n
    let hi = 10n ** 30n
    while (hi - lo > 1n) {
      const middle = (lo + hi) / 2n
      if (narrow.quoteExactIn(A, B, middle)) lo = middle
      else hi = middle
    }
    expect(lo).toBeGreaterThan(0n)
    expect(lo).toBeLessThan(10n ** 28n)
    const amountIn = lo * 3n
    const graph = buildRouteGraph({ pools: [narrow, deep], tokenIn: A, tokenOut: B, connectors: [], maxHops: 1 }, Number(amountIn))
    const edgeOf = (key: string) => graph.edges.findIndex((edge) => edge.hop.pool.key === key)
    // The model sends 1.5x what the narrow pool holds through it.
    const model: ModelRoute = {
      paths: [
        { edges: [edgeOf(narrow.key)], share: Number(lo) * 1.5 },
        { edges: [edgeOf(deep.key)], share: Number(amountIn) - Number(lo) * 1.5 },
      ],
      output: Number(amountIn),
      gas: 0,
      used: [edgeOf(narrow.key), edgeOf(deep.key)],
    }
    expect(model.paths.every((p) => p.edges[0]! >= 0)).toBe(true)
    const split = exactSplit(graph, model, amountIn, (plan) => Number(plan.amountOut), 0)
    expect(split).toBeDefined()
    expect(split!.plan.amountIn).toBe(amountIn)
    const [narrowIn, deepIn] = split!.amounts
    // The narrow path keeps all it can take (within its bisection), the deep one the rest.
    expect(narrowIn!).toBeLessThanOrEqual(lo)
    expect(narrowIn!).toBeGreaterThan((lo * 999n) / 1000n)
    expect(narrowIn! + deepIn!).toBe(amountIn)
  })
})
