// The gas search's add move, after a drop that leaves the flow on fewer tokens. Hard bench 100:72
// H15 -> H16 (one hop) at 1% of its depth, 20 gwei, 4 hops (a fresh seed): the drop of every pool
// below its gas left the first H15 -> H16 pool alone; the add then weighed the dropped pools at the
// new solve's prices, and a pool between two tokens the flow no longer reached (USDT -> H0, priced by
// an earlier solve) showed the largest surplus, failed, and the search stopped. The second H15 -> H16
// pool, between two tokens the flow trades, adds ~1.9e8 at those prices. weft's one path netted
// 71,190,920,742, 1.15 bp below Tines' two direct pools and 1.97 bp below the 5% grid; at 6 hops
// another sequence of moves found the two pools (71,205,224,878).
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

/** Tines' two direct pools at 20 gwei, net of their exact gas (output units). */
const TINES_NET = 71_199_138_285

describe('gas search add move (hard bench 100:72 H15->H16 1% at 20 gwei)', () => {
  const hard = getHardTrade(100, 72, 'H15->H16', 0.01)
  const gasCost = gasCostIn(hard.planned.tokenOut, 20_000_000_000n)

  it('keeps the second direct pool at 4 hops, as at 6', () => {
    const plan = hard.route(4, gasCost)!
    expect(getNetOutput(plan, gasCost)).toBeGreaterThanOrEqual(TINES_NET)
    expect(plan.paths.length).toBeGreaterThan(1)
    const wider = hard.route(6, gasCost)!
    expect(getNetOutput(plan, gasCost)).toBeGreaterThanOrEqual(getNetOutput(wider, gasCost))
  }, 30_000)
})
