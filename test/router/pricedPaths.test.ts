// A gas-free plan beyond the default hop limit grown by the paths its exact margins say it lacks.
// On the hard bench's 100-pool market of seed 293 (H5 -> H10, 1% of its depth, 6 hops) the plan
// the models gave held 8 paths; at its exact state the 6-hop path H5 -> H6 -> WETH -> ... -> WBTC
// -> H10, which no model held, paid more at the margin than any of them: weft gave
// 4,297,077,127,368, 0.21 bp below Tines' 4,297,166,449,135.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('paths priced at the exact margins of the plan (hard market)', () => {
  it('adds the paths that pay more at the margin (seed 293, H5 -> H10, 1%, 6 hops)', () => {
    const plan = getHardTrade(100, 293, 'H5->H10', 0.01).route(6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    // Tines' exact output on the same pools (4,297,242,145,806 now, 0.18 bp above it).
    expect(plan.amountOut).toBeGreaterThan(4297166449135n)
  })
})
