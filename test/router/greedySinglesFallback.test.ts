// When the greedy split over the models' paths finds no room for a part (its first parts took the
// pools the other paths share), it gave nothing; the greedy split over the best single paths alone
// is now weighed instead. On the hard bench's 100-pool market of seed 515 (H14 -> H19, 10% of its
// depth, gas-free, 4 hops) the lead fell short, the greedy split over its 16 paths stuck at 65% of
// the input, and weft kept a single path of 11,162,989,620,158, 2,285 bp below the 5% grid's
// 14,468,937,575,738.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a greedy split with no room for its parts (hard market, 4 hops)', () => {
  it('falls back to the best single paths (seed 515, H14 -> H19, 10%, gas-free)', () => {
    const hard = getHardTrade(100, 515, 'H14->H19', 0.1)
    const plan = hard.route(4)!
    expect(plan.amountIn).toBe(hard.amountIn)
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The 5% grid's exact output over the same limit.
    expect(plan.amountOut).toBeGreaterThan(14468937575738n)
    expect(plan.certificate!.allPoolsUpperBound! >= plan.amountOut).toBe(true)
  })
})
