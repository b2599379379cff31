// What a quote beyond the default hop limit spends growing plans by their exact margins
// (addPricedPaths). A 6-hop route weighs the route at 5 hops, which grew its own plan too, and the
// 6-hop route then grows the plan it keeps over its own graph, whose paths hold the 5-hop graph's:
// the 5-hop growth only ever fed the 6-hop one. Now only the outer limit grows its plan; the
// route keeps its output with fewer exact swaps.
import { describe, expect, it } from 'vitest'
import { countExactSwaps } from '../support/countExactSwaps.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('plans grown by their margins at the outer hop limit only (hard market)', () => {
  it('keeps the output with fewer exact swaps (seed 249, H0 -> H5, 10%, 6 hops)', () => {
    const trade = getHardTrade(100, 249, 'H0->H5', 0.1)
    const { result: plan, swaps } = countExactSwaps(() => trade.route(6)!)
    // The same output as when the 5-hop route grew its plan too (468,179,652,878), with 7,502
    // exact swaps then and 5,774 now.
    expect(plan.amountOut).toBeGreaterThanOrEqual(468_179_652_878n)
    expect(swaps).toBeLessThan(6_600)
  })
})
