// The single-path search (findSinglePaths) searches again keeping the walks that hold less where a
// pool's capacity was met, not only when no path it found takes the whole amount: one path that
// fills can be far below the best. On the hard bench's 100-pool market of seed 81, H18 -> H19 at
// 30% of its depth and 6 hops, the walks holding most DAI after four hops overfill the DAI -> USDT
// -> H19 route; the one path found, through H0 and WETH, gave 111,334,934,413,882 and findRoute
// returned it, 5,600 bp below the path through H29 and USDT (253,068,167,861,744): the floor the
// router is held to was that one path.
import { describe, expect, it } from 'vitest'
import { findSinglePaths } from '../../src/router/findSinglePaths.js'
import { simulatePlan } from '../../src/router/simulatePlan.js'
import { getHardTrade } from '../support/hardMarketRoute.js'

/** The best single path of at most 6 hops (the bench's exact search on every path). */
const BEST_SINGLE = 253_068_167_861_744n

describe('single paths when one fills and a better one passes a capacity', () => {
  const hard = getHardTrade(100, 81, 'H18->H19', 0.3)

  it('finds the path holding less where the walks holding most overfill a pool (100 pools seed 81, H18 -> H19, 30%, 6 hops)', () => {
    const paths = findSinglePaths(hard.pools, hard.planned.tokenIn.address, hard.planned.tokenOut.address, Number(hard.amountIn), 6)
    const outputs = paths.map((path) => simulatePlan([{ path, amountIn: hard.amountIn }], { gasCostInOutput: 0 })?.amountOut ?? 0n)
    expect(outputs.reduce((most, output) => (output > most ? output : most), 0n)).toBeGreaterThanOrEqual(BEST_SINGLE)
  })

  it('keeps findRoute above that path', () => {
    const plan = hard.route(6)
    expect(plan).toBeDefined()
    expect(plan!.amountOut).toBeGreaterThanOrEqual(BEST_SINGLE)
  })
})
