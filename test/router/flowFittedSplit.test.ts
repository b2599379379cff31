// A model split that executes only as a flow, fitted as one. On the hard bench's 100-pool market
// of seed 288 (H11 -> H12, 30% of its depth, 4 hops) the model sends H11 -> H13 through one V2
// pool for two paths (on through WETH and through H0) and drains H0 -> USDC to its last tick. As a
// flow its split overfilled that pool by 8e-7 of its input; path by path it executed, but the
// first path took the shared pool's best part and overfed its own branch: 144,309e9 raw H12,
// polished to 144,782e9, 17.9 bp below the bench's layered optimum (145,041.7e9). The flow,
// fitted to the pool, executes the model's split.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a model split fitted to the pools as a flow (hard market)', () => {
  it('executes what the model promised (seed 288, H11 -> H12, 30%, 4 hops)', () => {
    const plan = getHardTrade(100, 288, 'H11->H12', 0.3).route(4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Within 0.1 bp of the layered optimum's exact plan, 145041705604731; weft gave 144782483261622 before.
    expect(plan.amountOut).toBeGreaterThan(145_040_250_000_000n)
  })
})
