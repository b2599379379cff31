// What a quote beyond the default hop limit spends growing plans by their exact margins
// (addPricedPaths). A 6-hop route weighs the route at 5 hops, which grew its own plan too, and the
// 6-hop route then grows the plan it keeps over its own graph, whose paths hold the 5-hop graph's:
// the 5-hop growth only ever fed the 6-hop one. Now only the outer limit grows its plan; the
// route keeps its output with fewer exact swaps.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { UniswapV2Pool } from '../../src/protocols/uniswapV2/pool.js'
import { UniswapV3Pool } from '../../src/protocols/uniswapV3/pool.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('plans grown by their margins at the outer hop limit only (hard market)', () => {
  afterEach(() => vi.restoreAllMocks())

  it('keeps the output with fewer exact swaps (seed 249, H0 -> H5, 10%, 6 hops)', () => {
    const trade = getHardTrade(100, 249, 'H0->H5', 0.1)
    const v3 = vi.spyOn(UniswapV3Pool.prototype, 'quoteExactIn')
    const v2 = vi.spyOn(UniswapV2Pool.prototype, 'quoteExactIn')
    const plan = trade.route(6)!
    // The same output as when the 5-hop route grew its plan too (468,179,652,878), with 7,502
    // exact swaps then and 5,774 now.
    expect(plan.amountOut).toBeGreaterThanOrEqual(468_179_652_878n)
    expect(v3.mock.calls.length + v2.mock.calls.length).toBeLessThan(6_600)
  })
})
