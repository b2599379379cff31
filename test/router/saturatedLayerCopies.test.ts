// A pool into the output reached after 1 and after 3 hops, and too shallow for both, on the hard
// bench's 100-pool market (scripts/bench/hardMarket.ts, seed 42, H9 -> H14, 10% of its depth, at
// most 4 hops). DAI -> H14 (one pool) ends within the trade: the layered solve with each copy
// holding the pool's whole depth drives both copies (DAI after 1 hop, DAI after 3 hops through
// H33 -> USDC) to its end, so they trade the same and tied on what layeredRoute holds a pool by.
// The first copy kept it, leaving the USDC route no exit and the DAI bought directly a worse one
// (0.86 bp under the bench's layered plan). The copy that gains more at the flow's prices (its DAI
// cheaper: bought through USDC, while the DAI bought directly has H34 -> H13 to go to) keeps it now.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a saturated pool reached from two layers (hard market)', () => {
  it('is held to the layer that gains more (seed 42, H9 -> H14, 10%, 4 hops)', () => {
    const plan = routeHardTrade(100, 42, 'H9->', 0.1, 4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The bench's layered plan: 127628487711082675292; within 0.1 bp of it. Before: 127617450607161353258.
    expect(plan.amountOut).toBeGreaterThanOrEqual((127628487711082675292n * 99_999n) / 100_000n)
  })
})
