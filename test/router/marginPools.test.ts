// Pools shallow at 1% impact, weighed at the optimum's margin. The route graph leaves out a pool
// whose 1%-impact depth is under 1e-7 of the trade's value, but a large trade pushes its routes'
// rates far below their mid prices, and a pool whose rate starts above that margin then trades far
// deeper. On the hard bench's 100-pool market of seed 421 (H7 -> H11, 30% of its depth, 4 hops) a
// DAI -> H11 pool of depth 5e-8 of the trade's value, left out, carried the optimum's path
// H7 -> USDT -> WBTC -> DAI -> H11: weft 0.125 bp below the layered optimum's exact plan. On seed
// 278 (H13 -> H15, 30%, 6 hops) the pools H13 -> H10 and H13 -> H2, of depth 1e-7, carried two of
// the optimum's side routes: 0.45 bp below it.
import { describe, expect, it } from 'vitest'
import { getHardTrade } from '../support/hardMarketRoute.js'

/** 1e-6 (0.01 bp) of an amount, in its raw units. */
const tolerance = (amount: bigint) => amount / 1_000_000n

describe('pools shallow at 1% impact kept when they trade at the margin (hard market)', () => {
  it('routes the optimum path through a shallow last pool (seed 421, H7 -> H11, 30%, 4 hops)', () => {
    const plan = getHardTrade(100, 421, 'H7->H11', 0.3).route(4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The bench's layered optimum within 4 hops executes 317,082,342,113,168,892,138,378,295; weft
    // gave 317,078,372,097,469,861,485,244,065 (0.125 bp below) before.
    const optimum = 317082342113168892138378295n
    expect(plan.amountOut).toBeGreaterThan(optimum - tolerance(optimum))
  })

  it('routes the side routes through shallow first pools (seed 278, H13 -> H15, 30%, 6 hops)', () => {
    const plan = getHardTrade(100, 278, 'H13->H15', 0.3).route(6)!
    expect(plan.paths.every((path) => path.path.length <= 6)).toBe(true)
    // The bench's optimum within 6 hops (its unlimited flow, 6 hops long) executes
    // 1,113,962,094,559,555; weft gave 1,113,912,153,247,481 (0.45 bp below) before.
    const optimum = 1113962094559555n
    expect(plan.amountOut).toBeGreaterThan(optimum - tolerance(optimum))
  })
})
