import { describe, expect, it } from 'vitest'
import { maxUint256 } from 'viem'
import { MAX_UINT160 } from './constants.js'
import { UniswapV3RevertError } from './revertError.js'
import {
  getAmount0Delta,
  getAmount0DeltaSigned,
  getAmount1Delta,
  getAmount1DeltaSigned,
  getNextSqrtPriceFromAmount0RoundingUp,
  getNextSqrtPriceFromAmount1RoundingDown,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from './sqrtPriceMath.js'

const E18 = 10n ** 18n
// encodePriceSqrt(reserve1, reserve0) of v3-core's test utilities.
const PRICE_1_1 = 79228162514264337593543950336n
const PRICE_121_100 = 87150978765690771352898345369n
// 256 * 2^96: with liquidity 1024 the virtual reserves are 4 of token0 and 262144 of token1.
const PRICE_256 = 20282409603651670423947251286016n

// Vectors from v3-core's SqrtPriceMath.spec.ts.
describe('getNextSqrtPriceFromInput', () => {
  it('reverts on a zero price or zero liquidity', () => {
    expect(() => getNextSqrtPriceFromInput(0n, 0n, E18 / 10n, false)).toThrow(UniswapV3RevertError)
    expect(() => getNextSqrtPriceFromInput(1n, 0n, E18 / 10n, true)).toThrow(UniswapV3RevertError)
  })

  it('reverts when the input pushes the price past uint160', () => {
    expect(() => getNextSqrtPriceFromInput(MAX_UINT160, 1024n, 1024n, false)).toThrow(UniswapV3RevertError)
  })

  it('cannot underflow the price with any input', () => {
    expect(getNextSqrtPriceFromInput(1n, 1n, 2n ** 255n, true)).toBe(1n)
  })

  it('returns the input price for a zero amount in either direction', () => {
    expect(getNextSqrtPriceFromInput(PRICE_1_1, E18 / 10n, 0n, true)).toBe(PRICE_1_1)
    expect(getNextSqrtPriceFromInput(PRICE_1_1, E18 / 10n, 0n, false)).toBe(PRICE_1_1)
  })

  it('moves the price for 0.1 token1 and 0.1 token0 in', () => {
    expect(getNextSqrtPriceFromInput(PRICE_1_1, E18, E18 / 10n, false)).toBe(87150978765690771352898345369n)
    expect(getNextSqrtPriceFromInput(PRICE_1_1, E18, E18 / 10n, true)).toBe(72025602285694852357767227579n)
  })

  it('handles amountIn above uint96 for zeroForOne', () => {
    expect(getNextSqrtPriceFromInput(PRICE_1_1, 10n * E18, 2n ** 100n, true)).toBe(624999999995069620n)
  })

  it('can return 1 with enough amountIn (the fallback branch when amount * price overflows)', () => {
    expect(getNextSqrtPriceFromInput(PRICE_1_1, 1n, maxUint256 / 2n, true)).toBe(1n)
  })

  it('computes sqrtQ when sqrtP * sqrtQ overflows (echidna case)', () => {
    const sqrtP = 1025574284609383690408304870162715216695788925244n
    const liquidity = 50015962439936049619261659728067971248n
    const sqrtQ = getNextSqrtPriceFromInput(sqrtP, liquidity, 406n, true)
    expect(sqrtQ).toBe(1025574284609383582644711336373707553698163132913n)
    expect(getAmount0Delta(sqrtP, sqrtQ, liquidity, true)).toBe(406n)
  })
})

describe('getNextSqrtPriceFromOutput', () => {
  it('reverts on a zero price or zero liquidity', () => {
    expect(() => getNextSqrtPriceFromOutput(0n, 0n, E18 / 10n, false)).toThrow(UniswapV3RevertError)
    expect(() => getNextSqrtPriceFromOutput(1n, 0n, E18 / 10n, true)).toThrow(UniswapV3RevertError)
  })

  it('reverts when the output is at or above the virtual reserves of token0', () => {
    expect(() => getNextSqrtPriceFromOutput(PRICE_256, 1024n, 4n, false)).toThrow(UniswapV3RevertError)
    expect(() => getNextSqrtPriceFromOutput(PRICE_256, 1024n, 5n, false)).toThrow(UniswapV3RevertError)
  })

  it('reverts when the output is at or above the virtual reserves of token1', () => {
    // v1.0.1 requires sqrtP > quotient: exactly the reserves (a zero price) reverts too.
    expect(() => getNextSqrtPriceFromOutput(PRICE_256, 1024n, 262144n, true)).toThrow(UniswapV3RevertError)
    expect(() => getNextSqrtPriceFromOutput(PRICE_256, 1024n, 262145n, true)).toThrow(UniswapV3RevertError)
    expect(getNextSqrtPriceFromOutput(PRICE_256, 1024n, 262143n, true)).toBe(2n ** 96n / 1024n)
  })

  it('returns the input price for a zero amount in either direction', () => {
    expect(getNextSqrtPriceFromOutput(PRICE_1_1, E18 / 10n, 0n, true)).toBe(PRICE_1_1)
    expect(getNextSqrtPriceFromOutput(PRICE_1_1, E18 / 10n, 0n, false)).toBe(PRICE_1_1)
  })

  it('moves the price for 0.1 token0 and 0.1 token1 out', () => {
    expect(getNextSqrtPriceFromOutput(PRICE_1_1, E18, E18 / 10n, false)).toBe(88031291682515930659493278152n)
    expect(getNextSqrtPriceFromOutput(PRICE_1_1, E18, E18 / 10n, true)).toBe(71305346262837903834189555302n)
  })

  it('reverts when the output is impossible in either direction', () => {
    expect(() => getNextSqrtPriceFromOutput(PRICE_1_1, 1n, maxUint256, true)).toThrow(UniswapV3RevertError)
    expect(() => getNextSqrtPriceFromOutput(PRICE_1_1, 1n, maxUint256, false)).toThrow(UniswapV3RevertError)
  })
})

describe('getNextSqrtPriceFromAmount0RoundingUp / Amount1RoundingDown', () => {
  it('round so a swap never gets more than it pays for', () => {
    // Adding token0 rounds the price up (less price movement); removing token1 rounds down.
    const up = getNextSqrtPriceFromAmount0RoundingUp(PRICE_1_1, 3n, 7n, true)
    expect(up * (3n * 2n ** 96n + 7n * PRICE_1_1)).toBeGreaterThanOrEqual(3n * 2n ** 96n * PRICE_1_1)
    const down = getNextSqrtPriceFromAmount1RoundingDown(PRICE_1_1, 3n, 1n, false)
    expect(down).toBe(PRICE_1_1 - (2n ** 96n + 2n) / 3n)
  })

  it('reverts when adding token1 overflows uint160', () => {
    expect(() => getNextSqrtPriceFromAmount1RoundingDown(MAX_UINT160 - 10n, 2n ** 96n, 11n, true)).toThrow(
      UniswapV3RevertError,
    )
  })
})

describe('getAmount0Delta', () => {
  it('returns 0 for zero liquidity or equal prices', () => {
    expect(getAmount0Delta(PRICE_1_1 * 2n, PRICE_1_1, 0n, true)).toBe(0n)
    expect(getAmount0Delta(PRICE_1_1, PRICE_1_1, E18, true)).toBe(0n)
  })

  it('returns ~0.0909 token0 for a price move from 1 to 1.21, rounding up and down', () => {
    expect(getAmount0Delta(PRICE_121_100, PRICE_1_1, E18, true)).toBe(90909090909090910n)
    expect(getAmount0Delta(PRICE_121_100, PRICE_1_1, E18, false)).toBe(90909090909090909n)
    // Either price order.
    expect(getAmount0Delta(PRICE_1_1, PRICE_121_100, E18, true)).toBe(90909090909090910n)
  })

  it('works for prices whose product overflows 256 bits', () => {
    const high = 2n ** 144n // encodePriceSqrt(2^96, 1)
    const low = 2n ** 141n // encodePriceSqrt(2^90, 1)
    expect(getAmount0Delta(high, low, E18, true)).toBe(getAmount0Delta(high, low, E18, false) + 1n)
  })

  it('reverts on a zero price', () => {
    expect(() => getAmount0Delta(0n, PRICE_1_1, E18, true)).toThrow(UniswapV3RevertError)
  })
})

describe('getAmount1Delta', () => {
  it('returns 0 for zero liquidity or equal prices', () => {
    expect(getAmount1Delta(PRICE_1_1, PRICE_1_1 * 2n, 0n, true)).toBe(0n)
    expect(getAmount1Delta(PRICE_1_1, PRICE_1_1, E18, true)).toBe(0n)
  })

  it('returns 0.1 token1 for a price move from 1 to 1.21, rounding up and down', () => {
    expect(getAmount1Delta(PRICE_1_1, PRICE_121_100, E18, true)).toBe(100000000000000000n)
    expect(getAmount1Delta(PRICE_1_1, PRICE_121_100, E18, false)).toBe(99999999999999999n)
    expect(getAmount1Delta(PRICE_121_100, PRICE_1_1, E18, false)).toBe(99999999999999999n)
  })

  it('is FullMath.mulDiv(liquidity, |ΔsqrtP|, 2^96), rounded as asked (it divides by a shift): exact multiples, a unit off, random operands', () => {
    const Q96 = 1n << 96n
    const reference = (a: bigint, b: bigint, liquidity: bigint, roundUp: boolean) => {
      const product = liquidity * (a > b ? a - b : b - a)
      return product / Q96 + (roundUp && product % Q96 !== 0n ? 1n : 0n)
    }
    const cases: [bigint, bigint, bigint][] = [
      [Q96, 2n * Q96, 1n],
      [Q96, Q96 + 1n, Q96],
      [Q96, Q96 + 1n, Q96 - 1n],
      [Q96, Q96 + 1n, Q96 + 1n],
      [1n, MAX_UINT160, (1n << 128n) - 1n],
    ]
    let seed = 7n
    const next = (bits: bigint) => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n)
      return (seed * (seed + 3n) * 0x9e3779b97f4a7c15n) % (1n << bits)
    }
    for (let i = 0; i < 300; i++) cases.push([next(160n) + 1n, next(160n) + 1n, next(128n)])
    for (const [a, b, liquidity] of cases)
      for (const roundUp of [true, false]) expect(getAmount1Delta(a, b, liquidity, roundUp)).toBe(reference(a, b, liquidity, roundUp))
  })
})

describe('signed deltas', () => {
  it('round up for added liquidity and down (negated) for removed liquidity', () => {
    expect(getAmount0DeltaSigned(PRICE_121_100, PRICE_1_1, E18)).toBe(90909090909090910n)
    expect(getAmount0DeltaSigned(PRICE_121_100, PRICE_1_1, -E18)).toBe(-90909090909090909n)
    expect(getAmount1DeltaSigned(PRICE_1_1, PRICE_121_100, E18)).toBe(100000000000000000n)
    expect(getAmount1DeltaSigned(PRICE_1_1, PRICE_121_100, -E18)).toBe(-99999999999999999n)
    expect(getAmount1DeltaSigned(PRICE_1_1, PRICE_121_100, 0n)).toBe(0n)
  })
})
