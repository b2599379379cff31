// Exact-output refusals on the hard bench's 10-pool universes (scripts/bench/hardMarket.ts,
// seeded): a target past the most any route delivers, when the all-pools relaxation's bound proves
// no plan within maxHops can give it at any input, is refused without a route. The doubling search
// routed 12-13 times before each such 404 (up to 177 times when its first size was past the
// pools, doubling to 2^255: 4 s at 1,000 pools and 6 hops). And the bound never refuses a target
// a route delivers.
import { describe, expect, it, vi } from 'vitest'
import { createHardUniverse } from '../scripts/bench/hardMarket.js'
import { findRoute, prepareRoute } from '../src/router/findRoute.js'
import { beyondEveryPlan } from '../src/quote/beyondEveryPlan.js'
import { solveExactOut } from '../src/quote/solveExactOut.js'
import { hardTradeParameters } from './support/hardMarketRoute.js'
import { exactOutCases, noFees } from './support/exactOutCases.js'

/** Routes (`search` calls) the exact-output search made, counted through prepareRoute. */
let routes = 0
vi.mock('../src/router/findRoute.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/router/findRoute.js')>()
  return {
    ...original,
    prepareRoute: (...args: Parameters<typeof original.prepareRoute>) => {
      const router = original.prepareRoute(...args)
      return {
        ...router,
        search: (amountIn: bigint) => {
          routes++
          return router.search(amountIn)
        },
      }
    },
  }
})

/** Each planned trade of a 10-pool universe, with what routes at 1, 3 and 10 times its depth deliver. */
function tradesOf(seed: number, maxHops: number) {
  const universe = createHardUniverse(10, seed)
  return universe.trades.map((trade) => {
    const parameters = hardTradeParameters(universe, trade, maxHops)
    const delivered = [1n, 3n, 10n].map((multiple) => findRoute(parameters, trade.depthIn * multiple)?.amountOut ?? 0n)
    return { label: `10:${seed} ${trade.label}`, parameters, delivered }
  })
}

describe('exact-output refusals', () => {
  it('refuse a target past what every pool can give without a route', () => {
    const slow: string[] = []
    let refused = 0
    for (const seed of [5, 7, 8, 12])
      for (const { label, parameters, delivered } of tradesOf(seed, 4)) {
        const most = delivered.reduce((a, b) => (a > b ? a : b))
        // 10% past the most a route delivered at up to 10 times the trade's depth.
        const target = (most * 11n) / 10n
        if (!beyondEveryPlan(parameters, target)) continue
        routes = 0
        expect(solveExactOut(parameters, target, noFees)).toBeUndefined()
        refused++
        if (routes > 0) slow.push(`${label}: ${routes} routes`)
      }
    // 5 of the 8 trades are proved out of reach (4 of them took 13 routes before).
    expect(refused).toBeGreaterThanOrEqual(5)
    expect(slow).toEqual([])
  })

  // The bound at 2^256 is looser than at the most the input token's pools can take (its descent
  // starts from prices far from the optimum's there): hard bench 1000:1 H12->H17 at 6 hops, twice
  // the most a route delivered (1,571,358e18), 2.21 times it at 2^256 and 1.87 times at what H12's
  // pools take, so that 404 cost 13 routes (2.5 s) before; 0.6 s now.
  it('bound every plan at the most the input token\'s pools can take (1000:1 H12->H17, 6 hops)', () => {
    const universe = createHardUniverse(1000, 1)
    const trade = universe.trades.find((t) => t.label.startsWith('H12->H17'))!
    const parameters = hardTradeParameters(universe, trade, 6)
    expect(beyondEveryPlan(parameters, 3_142_715_920_526_013_392_754_742n)).toBe(true)
    // What findRoute delivers at 10 times the trade's depth is never refused.
    expect(beyondEveryPlan(parameters, findRoute(parameters, trade.depthIn * 10n)!.amountOut)).toBe(false)
  }, 20_000)

  it('never refuse a target a route delivers', () => {
    const wrong: string[] = []
    for (let seed = 1; seed <= 12; seed++)
      for (const hops of [2, 4])
        for (const { label, parameters, delivered } of tradesOf(seed, hops))
          for (const target of delivered) if (target > 0n && beyondEveryPlan(parameters, target)) wrong.push(`${label} at ${hops} hops: ${target}`)
    for (const { market, scale, parameters, target } of exactOutCases(11, 20, [1n, 3n, 30n], [1000n]))
      if (beyondEveryPlan(parameters, target)) wrong.push(`random market ${market} x${scale}: ${target}`)
    expect(wrong).toEqual([])
  })
})
