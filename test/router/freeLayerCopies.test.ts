// The free layered flow weighed as a split. On the hard bench's 100-pool market of seed 237
// (H0 -> H3, 10% of its depth, 6 hops) the layered solve wants DAI -> H3 from several hop counts
// and WETH <-> USDT both ways; the held model (each pool on one layer) and the shared one (the
// layers splitting each pool's depth, one direction per pool) ended 46 bp under the free layered
// dual, and weft's best split came 1.53 bp below the independent optimum's exact plan, which
// executes that free flow, each pool traded on the state the last trade left.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('the free layered flow executed path by path (hard market)', () => {
  it('reaches the layered optimum within 6 hops (seed 237, H0 -> H3, 10%)', () => {
    const hard = getHardTrade(100, 237, 'H0->H3', 0.1)
    const plan = hard.route(6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    // The bench's layered optimum's exact plan within 6 hops; weft gave 2084641338820 before.
    expect(plan.amountOut).toBeGreaterThanOrEqual(2084959767569n)
    // The certificate still bounds it.
    expect(plan.certificate!.allPoolsUpperBound! >= plan.amountOut).toBe(true)
  })
})
