// What polishing a split that drains a pool costs, on the hard bench's 100-pool market of seed 123
// (H16 -> H19, 30% of its depth, gas-free, 6 hops; see drainedPoolCapacity.test). Each round that
// moved the drained pool's capacity earned another, and every polish whose drained moves gained
// ran all its rounds twice (the drained move first, then beside the pairwise one): the last rounds
// gained 5e-9 of the value and less, and the second order 9e-10, at 13 ms of the quote's polish.
// The second order now runs only after drained moves that gained 3e-8 of the value: the route
// stays above Tines with fewer exact swaps.
import { describe, expect, it } from 'vitest'
import { countExactSwaps } from '../support/countExactSwaps.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('polishing a split that drains a pool (hard market)', () => {
  it('stays above Tines with fewer exact swaps (seed 123, H16 -> H19, 30%, 6 hops)', () => {
    const trade = getHardTrade(100, 123, 'H16->H19', 0.3)
    const { result: plan, swaps } = countExactSwaps(() => trade.route(6)!)
    expect(plan.amountOut).toBeGreaterThan(272_104_608_016_588n)
    // 9,445 exact swaps before, 9,166 now.
    expect(swaps).toBeLessThan(9_300)
  })
})
