// Candidates grown when their own solve stalls. On the hard bench's 100-pool market of seed 254
// (H11 -> H14, 30% of its depth, 6 hops) the solve over every candidate edge zigzagged on the
// kinks of a drained H12 -> H13 pool and stopped with a dual of 6.634e15, above the 6.581e15 the
// relaxation over every pool allows (that relaxation covers every candidate edge), so the
// comparison that grows the candidates saw no gap and no token joined them: the routes through
// H16, H17, H18 and H19 that avoid the H12 -> H13 bottleneck were missed, 8.7 bp below Tines.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('candidates grown when their own solve stalls (hard market)', () => {
  it('reaches the routes beyond the bottleneck (seed 254, H11 -> H14, 30%, 6 hops)', () => {
    const hard = getHardTrade(100, 254, 'H11->H14', 0.3)
    const plan = hard.route(6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    // Tines' exact output on the same pools; weft gave 6574210887405675 before.
    expect(plan.amountOut).toBeGreaterThan(6579909255952822n)
  })
})
