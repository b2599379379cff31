// Mid rates for gas valuation: a token reached only through ordinary tokens (no connector next to
// it) still gets a rate, so getQuote weighs gas on routes to it instead of valuing gas at nothing.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { Pool } from '../protocols/types.js'
import { getMidRate, indexPairs } from './prices.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const token = (n: number) => `0x${(0xe0 + n).toString(16).padStart(40, '0')}` as Address
const [WETH, USDC, X, Y, Z] = [0, 1, 2, 3, 4].map(token) as [Address, Address, Address, Address, Address]
/** A V2 pair (0.3%) holding `reserveA` raw units of a and `reserveB` of b. */
const pair = createV2Pairs({ nextAddress: createAddressCounter(0xe000) })

const E18 = 10n ** 18n

describe('getMidRate', () => {
  it('prices a token three pairs from the native token, through ordinary tokens only', () => {
    // WETH -> X at 2, X -> Y at 3, Y -> Z at 5: 30 Z per WETH. USDC (a connector) touches none of them.
    const pools = [pair(WETH, X, 1000n * E18, 2000n * E18), pair(X, Y, 1000n * E18, 3000n * E18), pair(Y, Z, 1000n * E18, 5000n * E18), pair(WETH, USDC, E18, 3000n * E18)]
    const rate = getMidRate(indexPairs(pools), WETH, Z, [USDC, WETH])
    expect(rate).toBeCloseTo(30, 9)
    expect(getMidRate(indexPairs(pools), Z, WETH, [USDC, WETH])).toBeCloseTo(1 / 30, 9)
  })

  it('takes the fewest pairs, and among those the way whose thinnest pair has the most pools', () => {
    // Two 2-pair ways WETH -> Z past X (one pool a pair, rate 4) and past Y (two pools a pair, rate 6),
    // and a 3-pair way (rate 100) that is longer: the way past Y wins.
    const pools = [
      pair(WETH, X, E18, 2n * E18),
      pair(X, Z, E18, 2n * E18),
      pair(WETH, Y, E18, 2n * E18),
      pair(WETH, Y, E18, 2n * E18),
      pair(Y, Z, E18, 3n * E18),
      pair(Y, Z, E18, 3n * E18),
      pair(WETH, USDC, E18, 10n * E18),
      pair(USDC, token(9), E18, 10n * E18),
      pair(token(9), Z, E18, E18),
    ]
    expect(getMidRate(indexPairs(pools), WETH, Z, [])).toBeCloseTo(6, 9)
  })

  it('is undefined when no pools connect the two tokens', () => {
    const pools = [pair(WETH, X, E18, E18), pair(Y, Z, E18, E18)]
    expect(getMidRate(indexPairs(pools), WETH, Z, [X, Y])).toBeUndefined()
  })

  it('finds a rate once per pair index and connector list: a second quote on the same pools reads no pool', () => {
    const pools = [pair(WETH, X, 1000n * E18, 2000n * E18), pair(X, Z, 1000n * E18, 3000n * E18)]
    let reads = 0
    const counted = pools.map((pool) => Object.assign(Object.create(pool) as Pool, { spotPrice: (a: Address, b: Address) => (reads++, pool.spotPrice(a, b)) }))
    const index = indexPairs(counted)
    const connectors = [USDC]
    expect(getMidRate(index, WETH, Z, connectors)).toBeCloseTo(6, 9)
    const first = reads
    expect(first).toBeGreaterThan(0)
    expect(getMidRate(index, WETH, Z, connectors)).toBeCloseTo(6, 9)
    expect(reads).toBe(first)
    expect(getMidRate(index, WETH, Y, connectors)).toBeUndefined()
    const afterMiss = reads
    expect(getMidRate(index, WETH, Y, connectors)).toBeUndefined()
    expect(reads).toBe(afterMiss)
    // Another index of the same pools (another pool list) computes afresh.
    expect(getMidRate(indexPairs(counted), WETH, Z, connectors)).toBeCloseTo(6, 9)
    expect(reads).toBe(afterMiss + first)
  })
})
