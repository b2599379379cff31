// Tokens a growing round dropped from the graph, offered again. On the hard bench's 100-pool
// market of seed 283 (H0 -> H4, 0.1% and 1% of its depth, 4 hops) the graph held H31 by gain
// alone (not a candidate); the round that grew the candidates by H20, H23 and H34 rebuilt the
// graph without it, and H31, being in the graph when the round looked, was never offered: the
// layered optimum's H0 -> H31 -> WBTC -> H3 -> H4 was out of reach, 0.32 and 0.26 bp below it.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('tokens a growing round dropped (hard market)', () => {
  it('reaches the layered optimum within 4 hops (seed 283, H0 -> H4, 0.1% and 1%)', () => {
    // The layered optimum's exact plans, 451123921 and 4489101033; weft gave 451109560 and 4488982999 before.
    const small = getHardTrade(100, 283, 'H0->H4', 0.001).route(4)!
    expect(small.amountOut).toBeGreaterThanOrEqual(451123921n)
    const larger = getHardTrade(100, 283, 'H0->H4', 0.01).route(4)!
    expect(larger.amountOut).toBeGreaterThanOrEqual(4489101033n)
    for (const plan of [small, larger]) expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
  })
})
