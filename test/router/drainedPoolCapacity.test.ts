// A split that drains a pool to its end, on the hard bench's 100-pool market of seed 123 (H16 ->
// H19, 30% of its depth, 6 hops). weft's paths drain USDT -> H19 and H16 -> WBTC; USDT reached
// H19's pool from H16 directly and through H17 -> H31 and H17 -> H33, 3.6% dearer. The pairwise
// balance could neither give the direct feeder more (the pool was full) nor take from the dearer
// ones (their rate beat the free paths'), and weft stopped at 272,040,766,811,615, 2.35 bp below
// Tines' 272,104,608,016,588. The drained pool's capacity now moves between its paths.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

describe('a drained pool balanced between its paths (hard market)', () => {
  it('ends above Tines (seed 123, H16 -> H19, 30%, 6 hops)', () => {
    const plan = getHardTrade(100, 123, 'H16->H19', 0.3).route(6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    expect(plan.amountOut).toBeGreaterThan(272_104_608_016_588n)
    // The certificate still bounds it.
    expect(plan.certificate!.allPoolsUpperBound! >= plan.amountOut).toBe(true)
  })
})
