// A split the float model fills past what its pools exactly hold, fitted to them (see fitToPools).
// On the hard bench's 100-pool market of seed 12, H4 -> H8 at 30% of its depth and 6 hops, the
// lead model's 14 paths overfilled their pools; fitting them cut one path again and again (its
// excess went to a path trading one of its pools, which changed what the cut had fitted), the
// greedy split's parts did not run path by path either, and the route fell back to one path:
// 302,522,094,786,658,071,589,593 against 631,974,677,995,756,101,956,705 at 4 hops.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a split overfilling its pools', () => {
  it('is fitted to them instead of falling back to one path (100 pools seed 12, H4 -> H8, 30%, 6 hops)', () => {
    const atFour = routeHardTrade(100, 12, 'H4->', 0.3, 4)!
    const atSix = routeHardTrade(100, 12, 'H4->', 0.3, 6)!
    // More hops allowed: every 4-hop split is still there to take.
    expect(atSix.amountOut).toBeGreaterThanOrEqual(atFour.amountOut)
    expect(atSix.paths.length).toBeGreaterThan(1)
  })
})
