// Rounding on many paths at maxHops 6 on the hard bench's 100-pool market (scripts/bench/hardMarket.ts,
// seed 10, H5 -> H8 at 0.01% of its depth): about 1% of the trade goes through WBTC (8 decimals),
// about a thousand raw units of it. The 6-hop split spread those over five paths, each rounding its
// part down, and came out below its own 4-hop plan and 0.16 bp below Tines. The pruning of the
// chosen plan now runs gas-free too, and gives a dropped path's amount to the paths sharing its
// first pools (the whole WBTC part on one path again).
// The reference is Tines' exact split within 6 hops.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('paths losing to rounding, gas-free (hard market)', () => {
  it('is not below Tines at 6 hops nor below its own 4-hop plan (seed 10, H5 -> H8, 0.01%)', () => {
    const route = (maxHops: number) => routeHardTrade(100, 10, 'H5->', 1e-4, maxHops)!
    const six = route(6)
    expect(six.paths.every((path) => path.path.length <= 6)).toBe(true)
    // Tines: 3813056149483909442. Before: 3812996083607810321 (0.16 bp below).
    expect(six.amountOut).toBeGreaterThanOrEqual(3813056149483909442n)
    // The 4-hop plan (3813059982459800206) within a few raw units of rounding more.
    expect(Number(six.amountOut)).toBeGreaterThan(Number(route(4).amountOut) * (1 - 1e-8))
  })
})
