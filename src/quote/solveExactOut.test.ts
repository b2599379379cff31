// Exact output never answers 404 where a route fills: on random V2 + V3 markets (gaps, empty ticks,
// pools drained to their last tick, prices 20% apart between pools), an exact output of what the
// exact-input route delivers (for the market's trade and three times it; 90% and 100% of that) is
// always met. The model's split for such a target can drain a pool to its end and fall short by
// the model's error, so its proportions cannot grow to the target (families soak seed 80: 404s on
// outputs a single path filled ten times over).
import { describe, expect, it } from 'vitest'
import { exactOutCases, noFees } from '../../test/support/exactOutCases.js'
import { solveExactOut } from './solveExactOut.js'

const MARKETS = 20
/** Multiples of the market's trade routed exact-in. */
const SCALES = [1n, 3n]
/** Shares (per mille) of the exact-input route's output asked for as exact outputs. */
const SHARES_PER_MILLE = [900n, 1000n]

describe('solveExactOut on random markets', () => {
  it('meets every output an exact-input route delivers', () => {
    const cases = exactOutCases(11, MARKETS, SCALES, SHARES_PER_MILLE)
    const missed: string[] = []
    for (const { market, scale, parameters, delivered, target } of cases) {
      const solved = solveExactOut(parameters, target, noFees)
      if (!solved || solved.net < target) missed.push(`market ${market} x${scale}: ${target} of ${delivered}`)
    }
    expect(cases.length).toBeGreaterThan(MARKETS)
    expect(missed).toEqual([])
  })
})
