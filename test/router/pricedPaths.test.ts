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

describe('the grown plan balanced again while a balance gains (hard market)', () => {
  it('balances an 11-path plan to its top (seed 249, H0 -> H5, 10%, 6 hops)', () => {
    // One balance of 11 paths runs one round, and a round earns another only for a 0.1 bp gain:
    // weft stopped at 468,172,567,935, 0.26 bp below Tines' 468,184,655,056. Four more balances
    // gain 0.15 bp (468,179,652,878 now).
    const plan = getHardTrade(100, 249, 'H0->H5', 0.1).route(6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    expect(plan.amountOut).toBeGreaterThan(468172567935n + 468172567935n / 100_000n)
  })
})
