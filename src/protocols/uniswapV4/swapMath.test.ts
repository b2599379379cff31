import { describe, expect, it } from 'vitest'
import { computeSwapStep as computeV3SwapStep } from '../uniswapV3/swapMath.js'
import { getNextSqrtPriceFromInput } from '../uniswapV3/sqrtPriceMath.js'
import { computeSwapStep } from './swapMath.js'

const Q96 = 2n ** 96n
const E18 = 10n ** 18n
const TARGET_UP = 79623317895830914510639640423n // price 1.01
const TARGET_DOWN = 78833030112140176575862854579n // price 0.99

describe('V4 SwapMath.computeSwapStep', () => {
  it('reads a negative amount as an exact input (V4), where V3 reads a positive one', () => {
    const v4 = computeSwapStep(Q96, TARGET_UP, 2n * E18, -E18, 600n)
    const v3 = computeV3SwapStep(Q96, TARGET_UP, 2n * E18, E18, 600n)
    // The target is reached: the same step both ways.
    expect(v4).toEqual(v3)
    expect(v4).toEqual({
      sqrtRatioNextX96: TARGET_UP,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    })
  })

  it('reads a positive amount as an exact output', () => {
    const v4 = computeSwapStep(Q96, TARGET_DOWN, 2n * E18, E18, 600n)
    const v3 = computeV3SwapStep(Q96, TARGET_DOWN, 2n * E18, -E18, 600n)
    expect(v4).toEqual(v3)
    expect(v4.sqrtRatioNextX96).toBe(TARGET_DOWN)
  })

  it('an exact input that runs out inside the range: input is the remainder less fee, fee the rest (V3 recomputes the input)', () => {
    const remaining = 10n ** 15n
    const fee = 3000n
    const v4 = computeSwapStep(Q96, TARGET_DOWN, 2n * E18, -remaining, fee)
    const v3 = computeV3SwapStep(Q96, TARGET_DOWN, 2n * E18, remaining, fee)
    const lessFee = (remaining * (1_000_000n - fee)) / 1_000_000n
    expect(v4.amountIn).toBe(lessFee)
    expect(v4.feeAmount).toBe(remaining - lessFee)
    expect(v4.sqrtRatioNextX96).toBe(getNextSqrtPriceFromInput(Q96, 2n * E18, lessFee, true))
    // The price, the output and what the step consumes in total agree with V3; the split may not.
    expect(v4.sqrtRatioNextX96).toBe(v3.sqrtRatioNextX96)
    expect(v4.amountOut).toBe(v3.amountOut)
    expect(v4.amountIn + v4.feeAmount).toBe(v3.amountIn + v3.feeAmount)
    expect(v3.amountIn).toBeLessThanOrEqual(v4.amountIn)
  })

  it('an exact output that runs out inside the range delivers exactly the remainder', () => {
    const step = computeSwapStep(Q96, TARGET_DOWN, 2n * E18, 12_345n, 500n)
    expect(step.amountOut).toBe(12_345n)
    expect(step.sqrtRatioNextX96 < Q96 && step.sqrtRatioNextX96 > TARGET_DOWN).toBe(true)
  })

  it('a 100% fee takes the whole exact input as fee and moves nothing', () => {
    const step = computeSwapStep(Q96, TARGET_DOWN, 2n * E18, -E18, 1_000_000n)
    expect(step).toEqual({ sqrtRatioNextX96: Q96, amountIn: 0n, amountOut: 0n, feeAmount: E18 })
    // With no liquidity the target is reached for free.
    expect(computeSwapStep(Q96, TARGET_DOWN, 0n, -E18, 1_000_000n)).toEqual({ sqrtRatioNextX96: TARGET_DOWN, amountIn: 0n, amountOut: 0n, feeAmount: 0n })
  })

  it('a 0 fee charges nothing', () => {
    const step = computeSwapStep(Q96, TARGET_DOWN, 2n * E18, -(10n ** 15n), 0n)
    expect(step.feeAmount).toBe(0n)
    expect(step.amountIn).toBe(10n ** 15n)
  })
})
