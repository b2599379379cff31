// Gas-free, a lead model that overfills its pools is searched at a nominal gas price. On the hard
// bench's 100-pool market of seed 515 (H14 -> H19, 10% of its depth, 4 hops) the lead's paths took
// 1/1.6 of the input and no split of it executed whole: weft gave 29,393,685,208,326 gas-free,
// below the 39,769,679,854,279 gross its own plan at the `eth` gas price gave. The gas search's
// drops leave a model that executes.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a gas-free lead that overfills its pools (hard market, 4 hops)', () => {
  it('is searched for pools to drop, as with gas priced (seed 515, H14 -> H19, 10%)', () => {
    const hard = getHardTrade(100, 515, 'H14->H19', 0.1)
    const gasFree = hard.route(4)!
    expect(gasFree.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Never below what the same router gives gross with gas priced (the plan at 1,000 raw units per gas).
    const priced = hard.route(4, 1000)!
    expect(gasFree.amountOut).toBeGreaterThanOrEqual(priced.amountOut)
    expect(gasFree.amountOut).toBeGreaterThan(39_769_000_000_000n)
    expect(gasFree.certificate!.allPoolsUpperBound! >= gasFree.amountOut).toBe(true)
  })
})
