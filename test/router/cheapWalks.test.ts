// The single-path search keeps, per token and hop count, the walks holding most there; with gas
// priced, the cheapest walk stays too. Hard bench 1000:8 H16->H19 0.01% at 20 gwei (a fresh seed):
// the four walks holding most WBTC after two hops all cost more gas than H16 -> H27 -> WBTC, which
// held a little less and was dropped. weft's one path, through DAI, netted 2.33 bp below Tines'
// through H27 (30,110,654,208,933 against 30,117,673,951,214), at 4 and at 6 hops.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { findSinglePaths } from '../../src/router/findSinglePaths.js'
import { getNetOutput, simulatePlan } from '../../src/router/simulatePlan.js'
import type { Path } from '../../src/router/types.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

/** Tines' one path, net of its exact gas at 20 gwei (output units). */
const TINES_NET = 30_117_673_951_213

describe('single paths with gas priced (hard bench 1000:8 H16->H19 0.01% at 20 gwei)', () => {
  const hard = getHardTrade(1000, 8, 'H16->H19', 0.0001)
  const { tokenIn, tokenOut } = hard.planned
  const gasCost = gasCostIn(tokenOut, 20_000_000_000n)
  const pools = hard.pools
  const netOf = (path: Path) => {
    const plan = simulatePlan([{ path, amountIn: hard.amountIn }], { gasCostInOutput: gasCost })
    return plan ? getNetOutput(plan, gasCost) : -Infinity
  }

  it('finds the cheaper path the four walks holding most WBTC crowded out', () => {
    const paths = findSinglePaths(pools, tokenIn.address, tokenOut.address, Number(hard.amountIn), 4, gasCost)
    expect(Math.max(...paths.map(netOf))).toBeGreaterThanOrEqual(TINES_NET)
  })

  it('routes at least as well net of gas as Tines', () => {
    const plan = hard.route(4, gasCost)!
    expect(getNetOutput(plan, gasCost)).toBeGreaterThanOrEqual(TINES_NET)
  }, 30_000)
})
