// Whole-graph routing at maxHops 6 on the hard bench's 100-pool markets (scripts/bench/hardMarket.ts,
// seeded): the tokens the all-pools relaxation adds to the candidates. Two causes lost 1.7-4.6 bp:
// - the tokens were ranked by the layered relaxation's trades even when the plain one was the
//   tighter (its Newton solve converged; the layered one's descent had not), so the deep route's
//   tokens came late;
// - the one round of growth could add a route's first tokens but not the one it still needed, and
//   a token on no path was offered again instead of the next.
// The references are independent exact plans the bench found (Tines' split, the convex optimum's
// flow), each within 6 hops.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

/** weft's gross output at 6 hops for a planned trade of the universe at `fraction` of its depth. */
const route = (pools: number, seed: number, trade: string, fraction: number): bigint => routeHardTrade(pools, seed, trade, fraction, 6)?.amountOut ?? 0n

describe('candidate growth at 6 hops (hard markets)', () => {
  it('reaches a deep route through three tokens beyond the candidates (seed 6, H7 -> H11, 1%)', () => {
    // Tines: 216676306525417191457. Before: 216576316092542690094 (4.6 bp below).
    expect(route(100, 6, 'H7->', 0.01)).toBeGreaterThanOrEqual(216676306525417191457n)
  })

  it('splits over every exit of the optimum (seed 3, H16 -> H19, 0.1%)', () => {
    // The convex optimum's exact flow (6 hops): 743479669968566697. Before: 743353362348201289 (1.7 bp below).
    expect(route(100, 3, 'H16->', 0.001)).toBeGreaterThanOrEqual(743479669968566697n)
  })
})
