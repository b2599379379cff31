import { describe, expect, it } from 'vitest'
import { getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from './sqrtPriceMath.js'
import { computeSwapStep } from './swapMath.js'

const E18 = 10n ** 18n
// encodePriceSqrt(reserve1, reserve0) of v3-core's test utilities.
const PRICE_1_1 = 79228162514264337593543950336n
const PRICE_101_100 = 79623317895830914510639640423n
const PRICE_1000_100 = 250541448375047931186413801569n
const PRICE_10000_100 = 792281625142643375935439503360n

// Vectors from v3-core's SwapMath.spec.ts.
describe('computeSwapStep', () => {
  it('exact in, capped at the price target, one for zero', () => {
    const step = computeSwapStep(PRICE_1_1, PRICE_101_100, 2n * E18, E18, 600n)
    expect(step).toEqual({
      sqrtRatioNextX96: PRICE_101_100,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    })
    expect(step.amountIn + step.feeAmount).toBeLessThan(E18)
    expect(step.sqrtRatioNextX96).toBeLessThan(getNextSqrtPriceFromInput(PRICE_1_1, 2n * E18, E18, false))
  })

  it('exact out, capped at the price target, one for zero', () => {
    const step = computeSwapStep(PRICE_1_1, PRICE_101_100, 2n * E18, -E18, 600n)
    expect(step).toEqual({
      sqrtRatioNextX96: PRICE_101_100,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    })
    expect(step.sqrtRatioNextX96).toBeLessThan(getNextSqrtPriceFromOutput(PRICE_1_1, 2n * E18, E18, false))
  })

  it('exact in, fully spent, one for zero', () => {
    const step = computeSwapStep(PRICE_1_1, PRICE_1000_100, 2n * E18, E18, 600n)
    expect(step.amountIn).toBe(999400000000000000n)
    expect(step.feeAmount).toBe(600000000000000n)
    expect(step.amountOut).toBe(666399946655997866n)
    expect(step.amountIn + step.feeAmount).toBe(E18)
    expect(step.sqrtRatioNextX96).toBeLessThan(PRICE_1000_100)
    expect(step.sqrtRatioNextX96).toBe(getNextSqrtPriceFromInput(PRICE_1_1, 2n * E18, E18 - step.feeAmount, false))
  })

  it('exact out, fully received, one for zero', () => {
    const step = computeSwapStep(PRICE_1_1, PRICE_10000_100, 2n * E18, -E18, 600n)
    expect(step.amountIn).toBe(2000000000000000000n)
    expect(step.feeAmount).toBe(1200720432259356n)
    expect(step.amountOut).toBe(E18)
    expect(step.sqrtRatioNextX96).toBeLessThan(PRICE_10000_100)
    expect(step.sqrtRatioNextX96).toBe(getNextSqrtPriceFromOutput(PRICE_1_1, 2n * E18, E18, false))
  })

  it('caps the output at the amount asked for', () => {
    const step = computeSwapStep(
      417332158212080721273783715441582n,
      1452870262520218020823638996n,
      159344665391607089467575320103n,
      -1n,
      1n,
    )
    expect(step).toEqual({
      sqrtRatioNextX96: 417332158212080721273783715441581n,
      amountIn: 1n,
      amountOut: 1n, // would be 2 if not capped
      feeAmount: 1n,
    })
  })

  it('uses part of the input when the target price is 1', () => {
    const step = computeSwapStep(2n, 1n, 1n, 3915081100057732413702495386755767n, 1n)
    expect(step).toEqual({
      sqrtRatioNextX96: 1n,
      amountIn: 39614081257132168796771975168n,
      amountOut: 0n,
      feeAmount: 39614120871253040049813n,
    })
    expect(step.amountIn + step.feeAmount).toBeLessThanOrEqual(3915081100057732413702495386755767n)
  })

  it('takes the entire input as fee when it moves the price by nothing', () => {
    const step = computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872n)
    expect(step).toEqual({ sqrtRatioNextX96: 2413n, amountIn: 0n, amountOut: 0n, feeAmount: 10n })
  })

  it('handles intermediate insufficient liquidity, exact output, price going up', () => {
    const sqrtP = 20282409603651670423947251286016n
    const step = computeSwapStep(sqrtP, (sqrtP * 11n) / 10n, 1024n, -4n, 3000n)
    expect(step).toEqual({ sqrtRatioNextX96: (sqrtP * 11n) / 10n, amountIn: 26215n, amountOut: 0n, feeAmount: 79n })
  })

  it('handles intermediate insufficient liquidity, exact output, price going down', () => {
    const sqrtP = 20282409603651670423947251286016n
    const step = computeSwapStep(sqrtP, (sqrtP * 9n) / 10n, 1024n, -263000n, 3000n)
    expect(step).toEqual({ sqrtRatioNextX96: (sqrtP * 9n) / 10n, amountIn: 1n, amountOut: 26214n, feeAmount: 1n })
  })

  it('moves nothing and charges nothing with zero liquidity', () => {
    const step = computeSwapStep(PRICE_1_1, PRICE_101_100, 0n, E18, 3000n)
    expect(step).toEqual({ sqrtRatioNextX96: PRICE_101_100, amountIn: 0n, amountOut: 0n, feeAmount: 0n })
  })

  it('charges no fee at fee 0', () => {
    const step = computeSwapStep(PRICE_1_1, PRICE_1000_100, 2n * E18, E18, 0n)
    expect(step.feeAmount).toBe(0n)
    expect(step.amountIn).toBe(E18)
  })
})
