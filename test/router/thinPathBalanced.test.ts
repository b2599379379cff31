// With gas priced, the plan without its thinnest path, balanced, is weighed. On the hard bench's
// 100-pool market of seed 217 (H17 -> H19, 0.01% of its depth, 0.01 gwei, 4 hops) the plan kept a
// third path through a pool beside the second's first: dropped as the pruning weighs it (its amount
// to the others in proportion, not balanced) it did not pay, so it stayed, 0.04 bp net below the
// 5% grid's two paths. Without it, balanced, the plan is worth 0.05 bp more.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a thin path that pays its gas only once the rest is balanced (hard market, gas priced)', () => {
  it('is dropped (seed 217, H17 -> H19, 0.01%, 0.01 gwei, 4 hops)', () => {
    const hard = getHardTrade(100, 217, 'H17->H19', 0.0001)
    const gasCost = gasCostIn(hard.planned.tokenOut, 10_000_000n)
    const plan = hard.route(4, gasCost)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // Before: 3 paths, 17,192,685,009,238,809,006,586 gross for 542,000 gas, 1.71916449e22 net.
    // The two paths without the thinnest, balanced: 1.71917299e22 net.
    expect(getNetOutput(plan, gasCost)).toBeGreaterThanOrEqual(1.71917298e22)
  })
})
