// A gas-priced route collapsed to one path. With gas priced in, the float gas search drops one pool
// at a time from the gas-free split and the pruning one path at a time; on the hard bench's 100-pool
// market of seed 7 (H4 -> H8 at 1% of its depth, 20 gwei) they ended on the best single path, 1.35
// bp below the 5% grid's two paths and 24 bp below the greedy split over the best single paths
// (each the best net of its own gas), which now runs when a split could pay for a second path.
import { describe, expect, it } from 'vitest'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a gas-priced route collapsed to one path', () => {
  it('splits when two single paths pay their gas (100 pools seed 7, H4 -> H8, 1%, 20 gwei)', () => {
    // 20 gwei in raw H8 per gas unit, at the bench's native price of H8.
    const gasCost = 147.49845964888544
    const plan = routeHardTrade(100, 7, 'H4->', 0.01, 4, gasCost)!
    const value = getNetOutput(plan, gasCost)
    // The 5% grid: 8746476018.76. Before: the single path, 8745296060.15.
    expect(value).toBeGreaterThan(8746476018.76)
    expect(plan.paths.length).toBeGreaterThan(1)
  })
})
