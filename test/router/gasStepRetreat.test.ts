// A split that paid a tick crossing's gas for a sliver. The exact split is balanced on output alone
// (the float model's marginal rates, then polishSplit's exact ones), where a concentrated pool's gas
// step for each tick crossed is invisible: on the hard bench's 100-pool market of seed 16 (H0 -> H2 at
// 1% of its depth, 20 gwei, 4 hops), weft's two paths were the 5% grid's own, but the one through DAI
// and USDC took a hair more and crossed a tick of the USDC -> H2 pool (84,400 gas, 1.4 bp of the
// output) for less than that gas was worth. retreatCrossings pulls such a path back below its step.
import { describe, expect, it } from 'vitest'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a path that crossed a tick for less than its gas', () => {
  it('is pulled back below the tick (100 pools seed 16, H0 -> H2, 1%, 20 gwei, 4 hops)', () => {
    // 20 gwei in raw H2 per gas unit, at the bench's native price of H2.
    const gasCost = 0.21791584544532724
    const plan = routeHardTrade(100, 16, 'H0->H2', 0.01, 4, gasCost)!
    const value = getNetOutput(plan, gasCost)
    // The 5% grid (the same two paths, half each): 110250840.37 net. Before: 110235054.27, the
    // USDC -> H2 hop at 159,900 gas where half the input takes it at 75,500.
    expect(value).toBeGreaterThan(110250840.37)
    expect(plan.paths.length).toBeGreaterThan(1)
  })
})
