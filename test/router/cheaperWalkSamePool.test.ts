// With gas priced, the single-path search keeps a walk that reaches a token for less gas through
// the same last pool as a walk holding more there. On the hard bench's 100-pool market of seed 217
// (H4 -> H8, 0.01% of its depth, 20 gwei, 4 hops) the walk H4 -> H5 -> H6 -> H7 through cheap
// pools reached H7 through the same H6 -> H7 pool as the walk that reached H6 through USDC, holding
// more for more gas: it was dropped as beaten, and weft's route came 155 bp net below Tines' (that
// very 4-hop path).
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { findSinglePaths } from '../../src/router/findSinglePaths.js'
import { getNetOutput, simulatePlan } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

/** Tines at 20 gwei on this case: gross output and gas of its one path, H4 -> H5 -> H6 -> H7 -> H8. */
const TINES = { amountOut: 4682548403376283358630, gas: 260400 }

describe('a cheaper walk through the same last pool (hard market, gas priced)', () => {
  const hard = getHardTrade(100, 217, 'H4->H8', 0.0001)
  const gasCost = gasCostIn(hard.planned.tokenOut, 20_000_000_000n)
  const tines = TINES.amountOut - TINES.gas * gasCost

  it('the single-path search finds a path at least as good net of gas as Tines (seed 217, H4 -> H8, 0.01%, 20 gwei, 4 hops)', () => {
    const paths = findSinglePaths(hard.pools, hard.planned.tokenIn.address, hard.planned.tokenOut.address, Number(hard.amountIn), 4, gasCost)
    const best = Math.max(...paths.map((path) => getNetOutput(simulatePlan([{ path, amountIn: hard.amountIn }], { gasCostInOutput: gasCost })!, gasCost)))
    // Before: 4.0881e21 net at best (H4 -> USDC -> WETH -> H8, 310,900 gas).
    expect(best).toBeGreaterThanOrEqual(tines)
  })

  it('the route is no worse net of gas than Tines', () => {
    const plan = hard.route(4, gasCost)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    expect(getNetOutput(plan, gasCost)).toBeGreaterThanOrEqual(tines)
  })
})
