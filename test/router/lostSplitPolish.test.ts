// A split that loses to a single path on exact simulation only by its rounding, on the hard bench's
// 100-pool market (scripts/bench/hardMarket.ts, seed 62, H9 -> H14, 0.01% of its depth, at most 4
// hops). The model splits the input over H9 -> H10 -> USDC -> WETH -> H14 and
// H9 -> DAI -> WBTC -> WETH -> H14 (223,857,308 in the model); made exact, the second path floors
// its few WBTC units (8 decimals: about 538 output units each) and the split gives 223,856,531,
// under the single path's 223,856,920. Only the chosen plan, the single path, was balanced on
// exact simulation, so weft came out 0.0075 bp below Tines (223,857,088). The split is now
// balanced too when its model promised more than the plan chosen: 223,857,102.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a split lost to rounding (hard market)', () => {
  it('is balanced on exact simulation before it is given up (seed 62, H9 -> H14, 0.01%, 4 hops)', () => {
    const plan = routeHardTrade(100, 62, 'H9->', 0.0001, 4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Tines within 4 hops: 223857088. Before: 223856920 (the single path).
    expect(plan.amountOut).toBeGreaterThanOrEqual(223857088n)
    expect(plan.paths.length).toBeGreaterThan(1)
  })
})
