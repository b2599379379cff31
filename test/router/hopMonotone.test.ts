// A looser hop limit never gives less than a tighter one: every route of at most 5 hops is a route
// of at most 6. The layered models (the candidate graph layered by hop count, pools held to a layer
// or shared between layers) are heuristics, and more layers can settle worse: on the hard bench's
// 100-pool market of seed 12 (scripts/bench/hardMarket.ts), H4 -> H8 at 1% of its depth gave
// 28,220,670,635,857,819,732,924 at 5 hops and 1.6 bp less at 6, 0.17 bp below Tines. Beyond the
// default limit the router now weighs its own route at one hop fewer.
import { describe, expect, it } from 'vitest'
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { findRoute } from '../../src/router/findRoute.js'
import { routeHardTrade } from '../support/hardMarketRoute.js'

/** Trade sizes, as shares of each planned trade's depth. */
const SIZES = [1e-3, 1e-2, 0.1]

describe('output never falls as maxHops grows', () => {
  it('gives at 6 hops at least the 5-hop route (seed 12, H4 -> H8, 1%)', () => {
    const five = routeHardTrade(100, 12, 'H4->H8', 0.01, 5)!
    const six = routeHardTrade(100, 12, 'H4->H8', 0.01, 6)!
    expect(six.paths.every((path) => path.path.length <= 6)).toBe(true)
    // Before: 28216201485162155841466 at 6 hops. Tines at 6 hops: 28216675779690305790830.
    expect(six.amountOut).toBeGreaterThanOrEqual(five.amountOut)
    expect(six.amountOut).toBeGreaterThan(28216675779690305790830n)
    // The certificate is this limit's own: a bound on the plan it carries.
    expect(six.certificate!.upperBound).toBeGreaterThanOrEqual(six.amountOut)
  })

  it('holds for every planned trade of the 100-pool market of seed 12, from 4 to 6 hops', () => {
    const universe = createHardUniverse(100, 12)
    const pools = universe.market.pools.map((entry) => entry.pool)
    const falls: string[] = []
    for (const planned of universe.trades)
      for (const size of SIZES) {
        const amountIn = (planned.depthIn * BigInt(Math.round(size * 1e9))) / 10n ** 9n
        let previous = 0n
        for (const maxHops of [4, 5, 6]) {
          const plan = findRoute({ pools, tokenIn: planned.tokenIn.address, tokenOut: planned.tokenOut.address, connectors: universe.market.chain.majorTokens, maxHops, gasCostInOutput: 0 }, amountIn)
          const output = plan?.amountOut ?? 0n
          if (output < previous) falls.push(`${planned.label} ${size} at ${maxHops} hops: ${output} < ${previous}`)
          previous = output
        }
      }
    expect(falls).toEqual([])
  }, 20_000)
})
