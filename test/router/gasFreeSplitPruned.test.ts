// With gas priced, the gas-free split pruned on exact simulation. On the hard bench's 100-pool
// market of seed 115 (H9 -> H13, 1% of its depth, 20 gwei, 4 hops) the float gas search, dropping
// pools one at a time from the gas-free lead, settled on the DAI path beside H9 -> USDT -> USDC ->
// H13, 0.89 bp net below Tines' two paths (the DAI path and H9 -> H10 -> H11 -> USDC -> H13), both
// among the lead's own. The lead's exact split, pruned path by path and balanced, is weighed too.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a gas search that settles on paths pruning would not keep (hard market)', () => {
  it('weighs the gas-free split pruned (seed 115, H9 -> H13, 1%, 20 gwei, 4 hops)', () => {
    const hard = getHardTrade(100, 115, 'H9->H13', 0.01)
    const gasCost = gasCostIn(hard.planned.tokenOut, 20_000_000_000n)
    const plan = hard.route(4, gasCost)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Tines at 20 gwei: 549351165751349 gross for 612900 gas. Before: 549039958462259 for 503200.
    expect(getNetOutput(plan, gasCost)).toBeGreaterThan(549351165751349 - 612900 * gasCost)
  })
})
