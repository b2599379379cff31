// The local search's pairs: on a one-path plan, the best replace with each of the likeliest adds,
// balanced. A plan one path away from a better pair of two paths each worse alone beside it took
// one improving move at a time and found none: the sibling path with less gas came out below the
// plan alone, and the thin path that pays beside it was tried past its best share, unbalanced. The
// 5% grid's figure below is its gross output less its gas at the same price.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

/** 20 gwei, the bench's `eth` gas price. */
const GAS_PRICE = 20_000_000_000n

describe('the local search pairs a replace with an add on a one-path plan', () => {
  it('swaps the lead for its sibling and adds a chain (1000 pools seed 46, H7 -> H11, 1%, 4 hops)', () => {
    const hard = getHardTrade(1000, 46, 'H7->H11', 0.01)
    const gasCost = gasCostIn(hard.planned.tokenOut, GAS_PRICE)
    const plan = hard.route(4, gasCost)!
    // The grid: 2,107,970,503,006 net (two paths). Before: one path, 2,107,663,382,737 (1.46 bp below it).
    expect(getNetOutput(plan, gasCost)).toBeGreaterThan(2_107_970_503_006)
    expect(plan.paths.every((executed) => executed.path.length <= 4)).toBe(true)
  })
})
