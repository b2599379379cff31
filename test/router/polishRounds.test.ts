// A split far from its exact balance over many hops, on the hard bench's 100-pool market
// (scripts/bench/hardMarket.ts, seed 104, H15 -> H19, 30% of its depth, at most 6 hops). The route's
// eight paths held 43 hops, so polishSplit's hop budget gave it one round: one move between one pair
// of paths, while their exact rates at the plan differed up to 7,000-fold (the path through
// USDC -> DAI -> H19 took 1% of the input, the one through H16 -> ... -> H10 seven times that). A
// round that gains visibly now earns another: the same paths, balanced, give 539 bp more.
import { describe, expect, it } from 'vitest'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a many-hop split far from its balance (hard market)', () => {
  it('is polished while each round gains (seed 104, H15 -> H19, 30%, 6 hops)', () => {
    const plan = routeHardTrade(100, 104, 'H15->', 0.3, 6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    // 1499955947295332 now; before: 1423198497628245 (the bench's own optimum stayed below it).
    expect(plan.amountOut).toBeGreaterThan(1_490_000_000_000_000n)
  })
})
