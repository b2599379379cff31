// A split whose path passes a hop of few raw units (a staircase of outputs, one tooth per unit) is
// balanced on the teeth's tops. On the hard bench's 100-pool market of seed 375 (H9 -> H13, 0.01%
// of its depth, 4 hops) one path passes 38,000 raw units of WBTC, each unit 0.26 bp of its output:
// the polish stopped on a tooth, its rates blurred by the rounding, 0.029 bp below the 5% grid's
// split of the same two paths (see snapToTooth).
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a split balanced on the tops of a coarse hop’s teeth (hard market)', () => {
  it('beats the 5% grid over the same two paths (seed 375, H9 -> H13, 0.01%, 4 hops)', () => {
    const hard = getHardTrade(100, 375, 'H9->H13', 0.0001)
    const plan = hard.route(4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The 5% grid's exact output on the same pools; weft gave 1,337,570,510 before.
    expect(plan.amountOut).toBeGreaterThan(1337574352n)
  })
})
