// A split held below a single path by a sliver path that rounds its input away, on the hard bench's
// 1000-pool market (scripts/bench/hardMarket.ts, seed 11, H3 -> H6, 0.1% of its depth, gas-free).
// The model splits the WETH -> USDC hop over three pools and sends 3,048,651 raw units (of
// 1,330,528,728,520) down a 4-hop path of their own; made exact, that path gives back almost
// nothing and the split executes 4,923,790,838,191,640,526,156, under the single path's
// 4,923,797,502,994,899,072,225 (Tines, splitting the WETH -> USDC hop: 4,923,797,510,695,977,157,869).
// Only the chosen plan, the single path, was pruned; the split is now pruned too before it is
// balanced: without the sliver, 4,923,797,518,397,055,250,403.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a split held down by a sliver path (hard market)', () => {
  const hard = getHardTrade(1000, 11, 'H3->H6', 0.001)
  for (const maxHops of [4, 6])
    it(`is pruned before it is given up (seed 11, H3 -> H6, 0.1%, ${maxHops} hops)`, () => {
      const plan = hard.route(maxHops)!
      expect(plan.paths.every((path) => path.path.length <= maxHops)).toBe(true)
      // Tines: 4,923,797,510,695,977,157,869. Before: 4,923,797,502,994,899,072,225 (the single path).
      expect(plan.amountOut).toBeGreaterThanOrEqual(4_923_797_510_695_977_157_869n)
      expect(plan.paths.length).toBeGreaterThan(1)
    })
})
