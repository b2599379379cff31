// A polish misled by its own rates' rounding. polishSplit prices each path's exact rate over a small
// probe (a 64th of the thinnest path); a rate is a difference of integer amounts, so through a hop
// into a token of few decimals it is off by up to a raw unit of that token over the few it moved. On
// the hard bench's 100-pool market of seed 25 (H9 -> H13 at 0.01% of its depth, 0.01 gwei, 4 hops),
// weft's two paths were the 5% grid's own, but the probe moved about 590 raw units of WBTC (8
// decimals) on the path through it: each rate was off by up to 0.17%, thirty times the paths' true
// difference, and the polish moved input the wrong way, then stopped 0.18 bp below the grid's split.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a split whose rates a few-decimals hop rounds', () => {
  it('is balanced on resolved rates (100 pools seed 25, H9 -> H13, 0.01%, 0.01 gwei, 4 hops)', () => {
    const hard = getHardTrade(100, 25, 'H9->H13', 0.0001)
    // The bench's base gas price (0.01 gwei) in raw H13 per gas unit.
    const gasCost = gasCostIn(hard.planned.tokenOut, 10_000_000n)
    const plan = hard.route(4, gasCost)!
    expect(plan.amountIn).toBe(hard.amountIn)
    const value = getNetOutput(plan, gasCost)
    // The 5% grid (the same two paths, 70% and 30%): 1.8293518655e21 net. Before: 1.8293197514e21,
    // 83% through WBTC.
    expect(value).toBeGreaterThan(1.8293518655e21)
  })
})
