// With gas priced, a gas-free split pruned down to one path also weighs that path paired with each
// other path of the split, balanced. On the hard bench's 100-pool market of seed 132 (H9 -> H14,
// 1% of its depth, 20 gwei, 4 hops) the pruning, weighing each removal at the amounts the split
// left, dropped H9 -> H15 -> USDC -> H14 and kept one path, 0.63 bp net below the 5% grid's pair
// of the same two paths.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a gas-free split pruned to one path (hard market)', () => {
  it('weighs the kept path paired with another, balanced (seed 132, H9 -> H14, 1%, 20 gwei, 4 hops)', () => {
    const hard = getHardTrade(100, 132, 'H9->H14', 0.01)
    const gasCost = gasCostIn(hard.planned.tokenOut, 20_000_000_000n)
    const plan = hard.route(4, gasCost)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The 5% grid at 20 gwei: 164421613514786883128418 gross for 549900 gas. Before: the single
    // path, 164018923594087898668273 for 333800.
    expect(getNetOutput(plan, gasCost)).toBeGreaterThan(164421613514786883128418 - 549900 * gasCost)
  })
})
