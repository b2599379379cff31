// Candidates grown on the hop-limited relaxation over every pool. On the hard bench's 100-pool
// market of seed 119 (H11 -> H14, 30% of its depth, 4 hops) the candidates' own relaxation, which
// chains any number of pools, matched the one over every pool (through routes of up to 12 hops),
// so no token joined them; within 4 hops the layered optimum's H11 -> H10 -> H9 -> USDC -> H14
// and H11 -> H10 -> WETH -> H13 -> H14 were out of reach, and weft's split came 4.7 bp below
// the independent optimum's exact plan.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('candidates grown where the hop limit binds (hard market)', () => {
  it('reaches the layered optimum within 4 hops (seed 119, H11 -> H14, 30%)', () => {
    const hard = getHardTrade(100, 119, 'H11->H14', 0.3)
    const plan = hard.route(4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The bench's layered optimum's exact plan within 4 hops; weft gave 3297698593535927343691418 before.
    expect(plan.amountOut).toBeGreaterThanOrEqual(3299246785229874285388556n)
  })
})
