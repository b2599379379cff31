// A held layered model short of the amount, on the hard bench's 100-pool market
// (scripts/bench/hardMarket.ts, seed 109, H11 -> H14, 30% of its depth, at most 4 hops). Holding each
// pool to one layer kept WBTC -> USDC in the layer WBTC takes after one hop, so the H12 bought after
// one hop (H11 -> H12 -> WBTC -> USDC -> H14) lost its way out but H12 -> H13, at its end: the held
// flow stranded part of the input. That short model was dropped with every layered model, and with
// it the solve where the layer copies share the pools; the route fell back on the cut model's paths,
// 630 bp under the bench's layered plan. The copies now share the pools from the short held model.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a held layered model short of the amount (hard market)', () => {
  it('is shared across layers, not dropped (seed 109, H11 -> H14, 30%, 4 hops)', () => {
    const plan = routeHardTrade(100, 109, 'H11->', 0.3, 4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The bench's layered plan: 3036851331372205913687; within 0.1 bp of it. Before: 2845540042874584134858.
    expect(plan.amountOut).toBeGreaterThanOrEqual((3036851331372205913687n * 99_999n) / 100_000n)
  })
})
