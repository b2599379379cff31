// The pruning gives a dropped path's input to the others in proportion; when one of them runs
// through a pool already at its end (a pool drained to its last tick), that move overfilled the
// pool and failed, so no path could be dropped. On the hard bench's 1,000-pool market of seed 64
// (H0 -> H5, 0.01% of its depth, gas-free) the model's 11 paths, five through WBTC, whose raw unit
// is worth about 13 raw units of H5, executed 39 units below the model, and weft kept the best
// single path, 3 raw units (0.009 bp) below Tines' 10 paths. The move is now tried again without
// the takers of the pool that cannot fill.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('pruning past a taker at a drained pool (hard market, 1,000 pools)', () => {
  it('drops the rounding-heavy paths (seed 64, H0 -> H5, 0.01%, gas-free, 4 and 6 hops)', () => {
    const hard = getHardTrade(1000, 64, 'H0->H5', 0.0001)
    for (const hops of [4, 6]) {
      const plan = hard.route(hops)!
      expect(plan.paths.every((path) => path.path.length <= hops)).toBe(true)
      // Tines' exact output at both limits; weft gave the best single path's 3208747 before.
      expect(plan.amountOut).toBeGreaterThan(3208750n)
      expect(plan.certificate!.allPoolsUpperBound! >= plan.amountOut).toBe(true)
    }
  })
})
