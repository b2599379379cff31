// With gas priced, a plan of one or two paths weighs its paths with one pool swapped for another
// beside it (same tokens): in a flow they share their other pools, so the second path costs one
// swap's gas. On the hard bench's 100-pool market of seed 236 (H7 -> H11, 0.1% of its depth,
// 20 gwei, 4 hops) weft held H7 -> WBTC -> H6 -> H11 through one WBTC -> H6 pool beside the direct
// H7 -> H11 pool, 3.1 bp net below the 5% grid; through both WBTC -> H6 pools it gives 29 bp more.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a path beside one of the plan own, through a pool beside one of its pools (hard market, gas priced)', () => {
  it('is weighed (seed 236, H7 -> H11, 0.1%, 20 gwei, 4 hops)', () => {
    const hard = getHardTrade(100, 236, 'H7->H11', 0.001)
    const gasCost = gasCostIn(hard.planned.tokenOut, 20_000_000_000n)
    const plan = hard.route(4, gasCost)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Before: 1.12760494e22 net (the WBTC path and the direct pool); the 5% grid about 1.12796e22.
    expect(getNetOutput(plan, gasCost)).toBeGreaterThan(1.1308e22)
  })
})
