// fitToPools: a split whose integer inputs overfill a pool is fitted path by path. The excess of a
// cut path goes to a path sharing none of its pools when there is one: a taker trading one of them
// changes what the cut path was fitted to, and the cut repeats until the attempts run out.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool, v3Pool } from '../../test/support/randomMarkets.js'
import { fitToPools } from './fitToPools.js'
import { simulatePlan } from './simulatePlan.js'
import type { Path } from './types.js'

const token = (n: number) => `0x${(0xe0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X, Y] = [0, 1, 2, 3].map(token) as [Address, Address, Address, Address]
const E18 = 10n ** 18n
const DEEP = 1_000_000n * E18
const TIER = { fee: 500, spacing: 10 }

/** A V3 X/B pool at tick 0 whose one position takes at most about `capacity` X (nothing past its upper tick). */
function cappedPool(capacity: bigint) {
  const probe = v3Pool(X, B, TIER, 0, [[-600, 600, DEEP]], false)
  return v3Pool(X, B, TIER, 0, [[-600, 600, (DEEP * capacity) / probe.limits(X, B).maxIn]], false)
}

describe('fitToPools', () => {
  it('moves a cut path’s excess to a path sharing none of its pools, not to the largest that feeds it', () => {
    // The largest path sells X for Y in `middle`; the thin one buys X there with Y and ends in a
    // pool taking 10 X at most. The more the largest path sends, the more X the thin one gets: each
    // excess handed to the largest path makes the thin one overfill again. A deep direct pair
    // shares no pool with the thin path and takes the excess at once.
    const middle = v2Pool(X, Y, 200n * E18, 200n * E18)
    const largest: Path = [
      { pool: v2Pool(A, X, DEEP, DEEP), tokenIn: A, tokenOut: X },
      { pool: middle, tokenIn: X, tokenOut: Y },
      { pool: v2Pool(Y, B, DEEP, DEEP), tokenIn: Y, tokenOut: B },
    ]
    const thin: Path = [
      { pool: v2Pool(A, Y, DEEP, DEEP), tokenIn: A, tokenOut: Y },
      { pool: middle, tokenIn: Y, tokenOut: X },
      { pool: cappedPool(10n * E18), tokenIn: X, tokenOut: B },
    ]
    const direct: Path = [{ pool: v2Pool(A, B, DEEP, DEEP), tokenIn: A, tokenOut: B }]
    const paths = [largest, thin, direct]
    const amounts = [60n * E18, 30n * E18, 10n * E18]
    const total = amounts.reduce((sum, amount) => sum + amount, 0n)
    expect(simulatePlan(paths.map((path, i) => ({ path, amountIn: amounts[i]! })), { mode: 'paths' })).toBeUndefined()

    expect(fitToPools(paths, amounts)).toBe(true)
    expect(amounts.reduce((sum, amount) => sum + amount, 0n)).toBe(total)
    expect(amounts[0]).toBe(60n * E18)
    expect(amounts[1]! < 30n * E18 && amounts[1]! > 0n).toBe(true)
    expect(simulatePlan(paths.map((path, i) => ({ path, amountIn: amounts[i]! })), { mode: 'paths' })).toBeDefined()
  })

  it('gives the excess to the largest path when every other path shares a pool with the cut one', () => {
    const shared = v2Pool(A, X, 1000n * E18, 1000n * E18)
    const thin: Path = [
      { pool: shared, tokenIn: A, tokenOut: X },
      { pool: cappedPool(5n * E18), tokenIn: X, tokenOut: B },
    ]
    const deep: Path = [
      { pool: shared, tokenIn: A, tokenOut: X },
      { pool: v2Pool(X, B, DEEP, DEEP), tokenIn: X, tokenOut: B },
    ]
    const amounts = [20n * E18, 30n * E18]
    expect(fitToPools([thin, deep], amounts)).toBe(true)
    expect(amounts[0]! + amounts[1]!).toBe(50n * E18)
    expect(amounts[0]! < 5n * E18 + E18 / 10n).toBe(true)
  })
})
