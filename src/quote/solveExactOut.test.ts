// Exact output never answers 404 where a route fills: on random V2 + V3 markets (gaps, empty ticks,
// pools drained to their last tick, prices 20% apart between pools), an exact output of what the
// exact-input route delivers (for the market's trade and three times it; 90% and 100% of that) is
// always met. The model's split for such a target can drain a pool to its end and fall short by
// the model's error, so its proportions cannot grow to the target (families soak seed 80: 404s on
// outputs a single path filled ten times over).
import { describe, expect, it } from 'vitest'
import { randomMarket } from '../../test/support/randomMarkets.js'
import { createRandom } from '../../test/support/random.js'
import { findRoute } from '../router/findRoute.js'
import { solveExactOut } from './solveExactOut.js'

const MARKETS = 20
/** Multiples of the market's trade routed exact-in. */
const SCALES = [1n, 3n]
/** Shares (per mille) of the exact-input route's output asked for as exact outputs. */
const SHARES_PER_MILLE = [900n, 1000n]
const noFees = { routedOf: (amountIn: bigint) => amountIn, netOf: (gross: bigint) => gross }

describe('solveExactOut on random markets', () => {
  it('meets every output an exact-input route delivers', () => {
    const random = createRandom(11)
    const missed: string[] = []
    let asked = 0
    for (let m = 0; m < MARKETS; m++) {
      const market = randomMarket(random, { tokens: 8, skew: 0.2, density: 0.7 })
      const parameters = { pools: market.pools, tokenIn: market.tokenIn, tokenOut: market.tokenOut, connectors: market.connectors, maxHops: 4, gasCostInOutput: 0 }
      for (const scale of SCALES) {
        const delivered = findRoute(parameters, market.amountIn * scale)?.amountOut
        if (!delivered) continue
        for (const share of SHARES_PER_MILLE) {
          const target = (delivered * share) / 1000n
          asked++
          const solved = solveExactOut(parameters, target, noFees)
          if (!solved || solved.net < target) missed.push(`market ${m}: ${target} of ${delivered} (input ${market.amountIn * scale})`)
        }
      }
    }
    expect(asked).toBeGreaterThan(MARKETS)
    expect(missed).toEqual([])
  })
})
