import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { simulateSwap, type SimulateSwapPool } from './swap.js'
import { type SwapTrail, trailStart } from './swapTrail.js'
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from './tickMath.js'
import { mintedLiquidity } from '../../../test/support/v3Positions.js'

/**
 * A pool whose swaps walk many steps: tick spacing 1 (a step per 256 ticks), a wide position, a
 * gap, and a narrow one on each side of the price, known to the ends of the tick range.
 */
function walkingPool(fee: number): SimulateSwapPool {
  const positions = [
    { tickLower: -60_000, tickUpper: 60_000, liquidity: 10n ** 15n },
    { tickLower: -80_000, tickUpper: -70_000, liquidity: 3n * 10n ** 14n },
    { tickLower: 70_500, tickUpper: 71_000, liquidity: 7n * 10n ** 16n },
    { tickLower: -100, tickUpper: 100, liquidity: 10n ** 17n },
  ]
  const tick = 37
  const { ticks, liquidity } = mintedLiquidity(positions, tick)
  return { fee, tickSpacing: 1, sqrtPriceX96: getSqrtRatioAtTick(tick), tick, liquidity, ticks, tickLower: MIN_TICK, tickUpper: MAX_TICK }
}

describe('swap trail', () => {
  it('gives every exact-input swap the result of the swap walked from the price, in any order of amounts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 500, 3000, 10_000),
        fc.boolean(),
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 22n }), { minLength: 1, maxLength: 12 }),
        (fee, zeroForOne, amounts) => {
          const pool = walkingPool(fee)
          const trail: SwapTrail = []
          for (const amount of amounts) expect(simulateSwap(pool, zeroForOne, amount, undefined, trail)).toEqual(simulateSwap(pool, zeroForOne, amount))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('gives the same result at, just below and just above each checkpoint (a swap that ends exactly on one)', () => {
    for (const zeroForOne of [true, false]) {
      const pool = walkingPool(3000)
      const trail: SwapTrail = []
      simulateSwap(pool, zeroForOne, 10n ** 24n, undefined, trail)
      expect(trail.length).toBeGreaterThan(100)
      for (const checkpoint of trail.filter((_, i) => i % 7 === 0))
        for (const amount of [checkpoint.used - 1n, checkpoint.used, checkpoint.used + 1n])
          if (amount > 0n) expect(simulateSwap(pool, zeroForOne, amount, undefined, trail)).toEqual(simulateSwap(pool, zeroForOne, amount))
    }
  })

  it('is ignored with a price limit or an exact output', () => {
    const pool = walkingPool(3000)
    const trail: SwapTrail = []
    const limit = getSqrtRatioAtTick(-5_000)
    expect(simulateSwap(pool, true, 10n ** 20n, limit, trail)).toEqual(simulateSwap(pool, true, 10n ** 20n, limit))
    expect(simulateSwap(pool, true, -(10n ** 15n), undefined, trail)).toEqual(simulateSwap(pool, true, -(10n ** 15n)))
    expect(trail).toEqual([])
  })

  it('starts a swap at the last checkpoint strictly below its amount', () => {
    const at = (used: bigint) => ({ used, amountCalculated: 0n, sqrtPriceX96: 1n, tick: 0, liquidity: 0n, initializedTicksCrossed: 0, stepsTaken: 0 })
    const trail: SwapTrail = [at(10n), at(20n), at(20n), at(30n)]
    expect(trailStart(trail, 5n)).toBe(-1)
    expect(trailStart(trail, 10n)).toBe(-1)
    expect(trailStart(trail, 11n)).toBe(0)
    expect(trailStart(trail, 20n)).toBe(0)
    expect(trailStart(trail, 21n)).toBe(2)
    expect(trailStart(trail, 99n)).toBe(3)
  })
})
