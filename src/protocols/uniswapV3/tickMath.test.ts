import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UniswapV3RevertError } from './revertError.js'
import {
  defaultLimitTick,
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from './tickMath.js'

const revertReason = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    if (error instanceof UniswapV3RevertError) return error.reason
    throw error
  }
  return 'no revert'
}

describe('getSqrtRatioAtTick', () => {
  it('matches the contract at the bounds and at tick 0', () => {
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(4295128739n)
    expect(getSqrtRatioAtTick(MIN_TICK + 1)).toBe(4295343490n)
    expect(getSqrtRatioAtTick(MAX_TICK - 1)).toBe(1461373636630004318706518188784493106690254656249n)
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n)
    expect(getSqrtRatioAtTick(0)).toBe(2n ** 96n)
    expect(MIN_SQRT_RATIO).toBe(getSqrtRatioAtTick(MIN_TICK))
    expect(MAX_SQRT_RATIO).toBe(getSqrtRatioAtTick(MAX_TICK))
  })

  it('reverts with T outside [MIN_TICK, MAX_TICK] and on non-integer ticks', () => {
    expect(revertReason(() => getSqrtRatioAtTick(MIN_TICK - 1))).toBe('T')
    expect(revertReason(() => getSqrtRatioAtTick(MAX_TICK + 1))).toBe('T')
    expect(revertReason(() => getSqrtRatioAtTick(0.5))).toBe('T')
    expect(revertReason(() => getSqrtRatioAtTick(Number.NaN))).toBe('T')
  })

  it('is within 1e-10 of sqrt(1.0001^tick) * 2^96 and strictly increasing', () => {
    fc.assert(
      fc.property(fc.integer({ min: -200_000, max: 200_000 }), (tick) => {
        const ratio = getSqrtRatioAtTick(tick)
        const exact = Math.exp((tick / 2) * Math.log(1.0001))
        expect(Math.abs(Number(ratio) / 2 ** 96 / exact - 1)).toBeLessThan(1e-10)
        expect(getSqrtRatioAtTick(tick + 1)).toBeGreaterThan(ratio)
      }),
    )
  })

  it('doubles the sqrt price every 13863 ticks or so (v3-core test: ratio ~2/1, ~1/4)', () => {
    const sqrtPrice = (tick: number) => Number(getSqrtRatioAtTick(tick)) / 2 ** 96
    expect(sqrtPrice(13863)).toBeCloseTo(2, 3)
    expect(sqrtPrice(-13863)).toBeCloseTo(0.5, 3)
    expect(sqrtPrice(27726)).toBeCloseTo(4, 3)
    expect(sqrtPrice(-27726)).toBeCloseTo(0.25, 3)
  })
})

describe('getTickAtSqrtRatio', () => {
  it('matches the contract at the bounds', () => {
    expect(getTickAtSqrtRatio(MIN_SQRT_RATIO)).toBe(MIN_TICK)
    expect(getTickAtSqrtRatio(4295343490n)).toBe(MIN_TICK + 1)
    expect(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n)).toBe(MAX_TICK - 1)
    expect(getTickAtSqrtRatio(1461373636630004318706518188784493106690254656249n)).toBe(MAX_TICK - 1)
    expect(getTickAtSqrtRatio(2n ** 96n)).toBe(0)
    expect(getTickAtSqrtRatio(2n ** 96n + 1n)).toBe(0)
    expect(getTickAtSqrtRatio(2n ** 96n - 1n)).toBe(-1)
  })

  it('reverts with R outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)', () => {
    expect(revertReason(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n))).toBe('R')
    expect(revertReason(() => getTickAtSqrtRatio(MAX_SQRT_RATIO))).toBe('R')
    expect(revertReason(() => getTickAtSqrtRatio(0n))).toBe('R')
  })

  it('inverts getSqrtRatioAtTick: the tick at a tick price, tick - 1 just below it', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK + 1, max: MAX_TICK - 1 }), (tick) => {
        const ratio = getSqrtRatioAtTick(tick)
        expect(getTickAtSqrtRatio(ratio)).toBe(tick)
        expect(getTickAtSqrtRatio(ratio - 1n)).toBe(tick - 1)
      }),
      { numRuns: 500 },
    )
  })

  it('returns the greatest tick whose price is at or below the given price', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }), (sqrtPriceX96) => {
        const tick = getTickAtSqrtRatio(sqrtPriceX96)
        expect(getSqrtRatioAtTick(tick)).toBeLessThanOrEqual(sqrtPriceX96)
        if (tick < MAX_TICK) expect(getSqrtRatioAtTick(tick + 1)).toBeGreaterThan(sqrtPriceX96)
      }),
      { numRuns: 500 },
    )
  })

  it('gives the contract tick from its float shortcut too: prices anywhere in a tick, and a hair off its boundaries', () => {
    // The shortcut trusts a float logarithm away from tick boundaries; these prices land on both
    // sides of it (far from a boundary, and 1e-6 to 1e-3 of a tick from one) over the whole range.
    const isContractTick = (sqrtPriceX96: bigint) => {
      const tick = getTickAtSqrtRatio(sqrtPriceX96)
      expect(getSqrtRatioAtTick(tick)).toBeLessThanOrEqual(sqrtPriceX96)
      if (tick < MAX_TICK) expect(getSqrtRatioAtTick(tick + 1)).toBeGreaterThan(sqrtPriceX96)
    }
    const PARTS_PER_TICK = 10n ** 9n
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK, max: MAX_TICK - 1 }), fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: -3, max: 3 }), (tick, offsetPpb, unit) => {
        const low = getSqrtRatioAtTick(tick)
        const width = getSqrtRatioAtTick(tick + 1) - low
        // Offsets of a few units, and of up to 1e-3 of the tick's width, above its price and below the next one.
        for (const sqrtPriceX96 of [low + (width * BigInt(offsetPpb)) / PARTS_PER_TICK, getSqrtRatioAtTick(tick + 1) - 1n - (width * BigInt(offsetPpb)) / PARTS_PER_TICK, low + BigInt(unit)])
          if (sqrtPriceX96 >= MIN_SQRT_RATIO && sqrtPriceX96 < MAX_SQRT_RATIO) isContractTick(sqrtPriceX96)
      }),
      { numRuns: 3000 },
    )
    for (const tick of [MIN_TICK, MIN_TICK + 1, -1, 0, 1, MAX_TICK - 2, MAX_TICK - 1])
      for (const unit of [-2n, -1n, 0n, 1n, 2n]) {
        const sqrtPriceX96 = getSqrtRatioAtTick(tick) + unit
        if (sqrtPriceX96 >= MIN_SQRT_RATIO && sqrtPriceX96 < MAX_SQRT_RATIO) isContractTick(sqrtPriceX96)
      }
  })

  it('gives the ticks of the default price limits, as getTickAtSqrtRatio does', () => {
    expect(defaultLimitTick(true)).toBe(getTickAtSqrtRatio(MIN_SQRT_RATIO + 1n))
    expect(defaultLimitTick(false)).toBe(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n))
    expect([defaultLimitTick(true), defaultLimitTick(false)]).toEqual([MIN_TICK, MAX_TICK - 1])
  })
})
