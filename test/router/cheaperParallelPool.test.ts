// With gas priced, a two-path plan weighs the greedy split over the best single paths too. On the
// hard bench's 1000-pool market of seed 30 (H5 -> H8, 1% of its depth, 20 gwei, 4 hops) the gas
// search kept H5 -> WETH -> USDC -> H8 through a WETH -> USDC pool of more gas than the one beside
// it: 0.25 bp net below Tines' two paths (the same two token paths, the cheaper pool) and 0.44 bp
// below the 5% grid.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

/** Tines at 20 gwei on this case: gross output and gas of its two paths. */
const TINES = { amountOut: 1354834742327597399383, gas: 524600 }

describe('a two-path plan and a cheaper pool beside one of its hops (hard market, gas priced)', () => {
  it('is no worse net of gas than Tines (seed 30, H5 -> H8, 1%, 20 gwei, 4 hops)', () => {
    const hard = getHardTrade(1000, 30, 'H5->H8', 0.01)
    const gasCost = gasCostIn(hard.planned.tokenOut, 20_000_000_000n)
    const plan = hard.route(4, gasCost)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Before: 1,354,954,331,976,902,124,887 gross for 566,800 gas.
    expect(getNetOutput(plan, gasCost)).toBeGreaterThanOrEqual(TINES.amountOut - TINES.gas * gasCost)
  })
})
