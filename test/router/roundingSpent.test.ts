// A single path that pays for its own rounding. Through a hop into a token of few decimals, a path's
// output is a staircase in its input: the last raw unit of that token is rounded away, and the input
// that bought part of it buys nothing. polishSplit's trim moves such input between a split's paths;
// a single-path plan had nowhere to put it. On the hard bench's 100-pool market of seed 35 (H14 ->
// H19 at 0.01% of its depth, gas-free, 5 and 6 hops), weft's one path lost ~0.7 raw units of WBTC
// (8 decimals; 0.15 bp) and the 5% grid, whose second path took 10% and landed above a WBTC step
// by chance, came out 0.02 bp ahead.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a single path through a few-decimals token', () => {
  it('spends the input its rounding wastes on a second path (100 pools seed 35, H14 -> H19, 0.01%, 6 hops)', () => {
    const hard = getHardTrade(100, 35, 'H14->H19', 0.0001)
    const plan = hard.route(6)!
    expect(plan.amountIn).toBe(hard.amountIn)
    expect(plan.paths.every((p) => p.hops.length <= 6)).toBe(true)
    // The 5% grid (95% through WBTC, 5% through H15..H18): 797,454,533,327. Before: 797,453,066,106,
    // the WBTC path alone.
    expect(plan.amountOut).toBeGreaterThan(797_454_533_327n)
  })
})
