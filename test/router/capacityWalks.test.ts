// The single-path search (findSinglePaths) drops a walk that holds less at a token than another,
// for no less gas: later pools give more for more. Not when a pool out of the token takes the less
// and not the more (an exact-in swap must fill). On the hard bench's 100-pool market of seed 13,
// H5 -> H10 at 30% of its depth and 4 hops, the walks holding most DAI after three hops overfill
// the only DAI -> H10 pool; the one through H22, holding less, fills it. Dropped, no path was
// found and findRoute answered 404 where that path gives 606,781,954,525,650,319,002,250,071.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('single paths past a pool’s capacity', () => {
  it('keeps the walk holding less when only it fits the next pool (100 pools seed 13, H5 -> H10, 30%, 4 hops)', () => {
    const plan = routeHardTrade(100, 13, 'H5->', 0.3, 4)
    expect(plan).toBeDefined()
    // The best single path of at most 4 hops (exhaustive search on exact quotes).
    expect(plan!.amountOut).toBeGreaterThanOrEqual(606_781_954_525_650_319_002_250_071n)
  })
})
