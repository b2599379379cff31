import fc from 'fast-check'
import { maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { mulDiv, mulDivRoundingUp } from './fullMath.js'
import { UniswapV3RevertError } from './revertError.js'

const Q128 = 2n ** 128n

// Cases from v3-core's FullMath.spec.ts.
describe('mulDiv', () => {
  it('reverts on a zero denominator, with or without a 512-bit product', () => {
    expect(() => mulDiv(Q128, 5n, 0n)).toThrow(UniswapV3RevertError)
    expect(() => mulDiv(Q128, Q128, 0n)).toThrow(UniswapV3RevertError)
  })

  it('reverts when the result overflows uint256', () => {
    expect(() => mulDiv(Q128, Q128, 1n)).toThrow(UniswapV3RevertError)
    expect(() => mulDiv(maxUint256, maxUint256, maxUint256 - 1n)).toThrow(UniswapV3RevertError)
  })

  it('is exact for all max inputs', () => {
    expect(mulDiv(maxUint256, maxUint256, maxUint256)).toBe(maxUint256)
  })

  it('is accurate without phantom overflow', () => {
    expect(mulDiv(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n)).toBe(Q128 / 3n)
  })

  it('is accurate with phantom overflow (the product exceeds 256 bits, the result does not)', () => {
    expect(mulDiv(Q128, 35n * Q128, 8n * Q128)).toBe((4375n * Q128) / 1000n)
    expect(mulDiv(Q128, 1000n * Q128, 3000n * Q128)).toBe(Q128 / 3n)
  })
})

describe('mulDivRoundingUp', () => {
  it('reverts on a zero denominator and on overflow', () => {
    expect(() => mulDivRoundingUp(Q128, 5n, 0n)).toThrow(UniswapV3RevertError)
    expect(() => mulDivRoundingUp(Q128, Q128, 0n)).toThrow(UniswapV3RevertError)
    expect(() => mulDivRoundingUp(Q128, Q128, 1n)).toThrow(UniswapV3RevertError)
    expect(() => mulDivRoundingUp(maxUint256, maxUint256, maxUint256 - 1n)).toThrow(UniswapV3RevertError)
  })

  it('reverts when rounding up passes uint256 max', () => {
    expect(() =>
      mulDivRoundingUp(535006138814359n, 432862656469423142931042426214547535783388063929571229938474969n, 2n),
    ).toThrow(UniswapV3RevertError)
    expect(() =>
      mulDivRoundingUp(
        115792089237316195423570985008687907853269984659341747863450311749907997002549n,
        115792089237316195423570985008687907853269984659341747863450311749907997002550n,
        115792089237316195423570985008687907853269984653042931687443039491902864365164n,
      ),
    ).toThrow(UniswapV3RevertError)
  })

  it('is exact for all max inputs and rounds only a remainder up', () => {
    expect(mulDivRoundingUp(maxUint256, maxUint256, maxUint256)).toBe(maxUint256)
    expect(mulDivRoundingUp(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n)).toBe(Q128 / 3n + 1n)
    expect(mulDivRoundingUp(Q128, 35n * Q128, 8n * Q128)).toBe((4375n * Q128) / 1000n)
    expect(mulDivRoundingUp(Q128, 1000n * Q128, 3000n * Q128)).toBe(Q128 / 3n + 1n)
  })

  it('is mulDiv, plus one exactly when the division leaves a remainder', () => {
    const uint256 = fc.bigInt({ min: 0n, max: maxUint256 })
    fc.assert(
      fc.property(uint256, uint256, fc.bigInt({ min: 1n, max: maxUint256 }), (a, b, denominator) => {
        if ((a * b) / denominator >= maxUint256) return
        const down = mulDiv(a, b, denominator)
        expect(down).toBe((a * b) / denominator)
        expect(mulDivRoundingUp(a, b, denominator) - down).toBe((a * b) % denominator === 0n ? 0n : 1n)
      }),
    )
  })
})
