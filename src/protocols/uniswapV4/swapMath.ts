import { mulDiv, mulDivRoundingUp } from '../uniswapV3/fullMath.js'
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from '../uniswapV3/sqrtPriceMath.js'
import type { SwapStep } from '../uniswapV3/swapMath.js'
import { MAX_LP_FEE } from './fees.js'

export type { SwapStep }

const MAX_SWAP_FEE = BigInt(MAX_LP_FEE)

/**
 * {@link computeSwapStep} writing into `out`, so the swap loop allocates no
 * result object per step.
 *
 * @internal
 * @example
 * const step: SwapStep = { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n }
 * computeSwapStepInto(step, current, target, liquidity, -amountIn, 3000n)
 */
export function computeSwapStepInto(
  out: SwapStep,
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
): void {
  const zeroForOne = sqrtPriceCurrentX96 >= sqrtPriceTargetX96
  // V4's sign convention: a negative amount is what is left of an exact input.
  const exactIn = amountRemaining < 0n
  let sqrtPriceNextX96: bigint
  let amountIn: bigint
  let amountOut: bigint
  let feeAmount: bigint

  if (exactIn) {
    // uint256(-amountRemaining): also right for int256 min, whose negation is 2^255 here.
    const remaining = -amountRemaining
    const remainingLessFee = mulDiv(remaining, MAX_SWAP_FEE - feePips, MAX_SWAP_FEE)
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, true)
    if (remainingLessFee >= amountIn) {
      // The target caps the input.
      sqrtPriceNextX96 = sqrtPriceTargetX96
      // With a 100% fee the input is 0 here (remainingLessFee is 0).
      feeAmount = feePips === MAX_SWAP_FEE ? amountIn : mulDivRoundingUp(amountIn, feePips, MAX_SWAP_FEE - feePips)
    } else {
      // The amount runs out first: unlike V3, the input is the whole remainder less fee, and the
      // rest of the remainder is fee.
      amountIn = remainingLessFee
      sqrtPriceNextX96 = getNextSqrtPriceFromInput(sqrtPriceCurrentX96, liquidity, remainingLessFee, zeroForOne)
      feeAmount = remaining - amountIn
    }
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, false)
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, false)
    if (amountRemaining >= amountOut) {
      sqrtPriceNextX96 = sqrtPriceTargetX96
    } else {
      // The output is capped at what is left to deliver.
      amountOut = amountRemaining
      sqrtPriceNextX96 = getNextSqrtPriceFromOutput(sqrtPriceCurrentX96, liquidity, amountOut, zeroForOne)
    }
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, true)
    // Pool.swap refuses exact outputs at a 100% fee before any step, so the divisor is not 0.
    feeAmount = mulDivRoundingUp(amountIn, feePips, MAX_SWAP_FEE - feePips)
  }

  out.sqrtRatioNextX96 = sqrtPriceNextX96
  out.amountIn = amountIn
  out.amountOut = amountOut
  out.feeAmount = feeAmount
}

/**
 * One swap step within a single liquidity range, as v4-core's
 * SwapMath.computeSwapStep: how far the price moves toward the target, the
 * input and output it takes, and the fee. It differs from V3's in sign and in
 * rounding detail: a NEGATIVE `amountRemaining` is an exact input (V4's
 * convention); when an exact input runs out inside the range, the step's
 * input is the remainder less fee (V3 recomputes it from the prices) and the
 * fee the rest; when an exact output runs out, the output is exactly the
 * remainder; and a 100% fee is allowed for exact inputs.
 *
 * @param sqrtPriceCurrentX96 - uint160 current price
 * @param sqrtPriceTargetX96 - uint160 price the step may not pass (sets the direction)
 * @param liquidity - uint128 active liquidity
 * @param amountRemaining - int256: < 0 exact input left, > 0 exact output left
 * @param feePips - total swap fee in hundredths of a bip, at most 1e6
 * @throws UniswapV3RevertError where the shared price math reverts.
 * @example
 * computeSwapStep(2n ** 96n, 79623317895830914510639640423n, 2n * 10n ** 18n, -(10n ** 18n), 600n)
 * // { sqrtRatioNextX96: 79623317895830914510639640423n, amountIn: 9975124224178055n,
 * //   amountOut: 9925619580021728n, feeAmount: 5988667735148n }
 */
export function computeSwapStep(
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
): SwapStep {
  const out: SwapStep = { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n }
  computeSwapStepInto(out, sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, amountRemaining, feePips)
  return out
}
