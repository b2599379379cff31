import { describe, expect, it } from 'vitest'
import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from './sqrtPriceMath.js'
import { mulDiv } from './fullMath.js'
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

  it('reaches the target exactly when the input to it is spent, around the float shortcut', () => {
    // An exact-input step skips the exact input to the target when floats prove the amount falls
    // short of it. Amounts at, just below and just above that input (by 1 unit and by a relative
    // 1e-13 .. 1e-9), in both directions, on wide and narrow ranges: the step must be the
    // contract's, whose next price is the target exactly when the amount less fee reaches it.
    let seed = 7
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const fee = 3000n
    let checked = 0
    for (let trial = 0; trial < 200; trial++) {
      const current = PRICE_1_1 + BigInt(Math.floor((random() - 0.5) * 1e12)) * 10n ** 16n
      const width = BigInt(Math.ceil(random() * 10 ** (1 + Math.floor(random() * 12))))
      const liquidity = BigInt(Math.ceil(random() * 1e9)) * 10n ** BigInt(Math.floor(random() * 20))
      for (const zeroForOne of [true, false]) {
        const target = zeroForOne ? current - width : current + width
        const toTarget = zeroForOne ? getAmount0Delta(target, current, liquidity, true) : getAmount1Delta(current, target, liquidity, true)
        const relative = (share: number) => (toTarget * BigInt(Math.round(share * 1e15))) / 10n ** 15n
        for (const lessFee of [toTarget - 1n, toTarget, toTarget + 1n, toTarget - relative(1e-13), toTarget - relative(1e-9), toTarget + relative(1e-12)]) {
          if (lessFee <= 0n) continue
          // The gross amount whose less-fee part is `lessFee` (or just above it).
          const amount = (lessFee * 1_000_000n + 996_999n) / 997_000n
          const step = computeSwapStep(current, target, liquidity, amount, fee)
          const spent = mulDiv(amount, 1_000_000n - fee, 1_000_000n)
          const next = spent >= toTarget ? target : getNextSqrtPriceFromInput(current, liquidity, spent, zeroForOne)
          expect(step.sqrtRatioNextX96).toBe(next)
          const stepIn = next === target ? toTarget : zeroForOne ? getAmount0Delta(next, current, liquidity, true) : getAmount1Delta(current, next, liquidity, true)
          expect(step.amountIn).toBe(stepIn)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(2000)
  })
})
