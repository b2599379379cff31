// Growing the candidates beyond the default hop limit, on the hard bench's 100-pool market
// (scripts/bench/hardMarket.ts, seed 62, H0 -> H3, 1% of its depth, at most 6 hops). Tines splits
// over a third path, H0 -> DAI -> H9 -> H10 -> USDC -> H25 -> H3, through two tokens weft's
// candidates lack: 15,443,310,043,999,876,162 against weft's 15,443,307,046,780,641,269 (0.0019 bp
// more). The relaxation over every pool promised 0.0028 bp above the candidates, under the 0.01 bp
// the candidates grew at. Beyond the default limit (no latency target there) they now grow past
// 0.001 bp.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('candidates grown past 0.001 bp beyond the default hop limit (hard market)', () => {
  it('is not below Tines at 6 hops (seed 62, H0 -> H3, 1%)', () => {
    const plan = routeHardTrade(100, 62, 'H0->', 0.01, 6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    // Tines within 6 hops: 15443310043999876162. Before: 15443307046780641269.
    expect(plan.amountOut).toBeGreaterThanOrEqual(15443310043999876162n)
  })
})
