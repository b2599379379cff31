// The candidates grow when the relaxation over every pool promises more than 0.001 bp above
// theirs, at the default hop limit too. On the hard bench's 100-pool market of seed 304 (H11 -> H14,
// 0.01% of its depth, gas-free, 4 hops) Tines sent 1% through H11 -> H30 -> DAI -> H14, 0.006 bp
// above weft's candidates, which held no H30: the relaxation promised 0.0066 bp more, under the
// 0.01 bp the default limit asked before, and weft ended 0.006 bp below Tines.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a gap under 0.01 bp between the candidates and every pool (hard market, 4 hops)', () => {
  it('grows the candidates (seed 304, H11 -> H14, 0.01%, gas-free)', () => {
    const hard = getHardTrade(100, 304, 'H11->H14', 0.0001)
    const plan = hard.route(4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Tines' exact output; weft gave 111547308758 before.
    expect(plan.amountOut).toBeGreaterThanOrEqual(111547375865n)
    expect(plan.certificate!.allPoolsUpperBound! >= plan.amountOut).toBe(true)
  })
})
