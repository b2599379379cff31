// With gas priced, a split that cannot run as one flow is made into one that can. On the hard
// bench's 1,000-pool market of seed 40 (H5 -> H8, 30% of its depth, 20 gwei, 6 hops) the gas-free
// lead, a layered model, crosses WBTC <-> WETH, WBTC <-> USDT and USDT <-> USDC through different
// pools: its 49 paths ran path by path at 18.7 million gas where the model counted 5.9 million, the
// gas search stopped on it, and weft ended 0.90 bp net below Tines. Without the paths of the
// thinnest pair of each cycle the split runs as a flow, 2.2 bp above Tines' own plan run as one.
import { describe, expect, it } from 'vitest'
import { gasCostIn } from '../../scripts/bench/market.js'
import { getNetOutput } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a split that crosses tokens both ways (hard market, gas priced)', () => {
  it('runs as one flow without its thinnest crossings (seed 40, H5 -> H8, 30%, 20 gwei, 6 hops)', () => {
    const hard = getHardTrade(1000, 40, 'H5->H8', 0.3)
    const gasCost = gasCostIn(hard.planned.tokenOut, 20_000_000_000n)
    const plan = hard.route(6, gasCost)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    // Before: 4.918412e14 net (20 paths); Tines' plan 4.918890e14 as the bench runs it (path by
    // path), 4.920685e14 run as one flow.
    expect(getNetOutput(plan, gasCost)).toBeGreaterThan(4.9207e14)
  }, 60_000)
})
