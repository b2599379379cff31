import { mulDiv, mulDivRoundingUp } from './fullMath.js'
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from './sqrtPriceMath.js'

/** One swap step's outcome, as SwapMath.computeSwapStep returns it. */
export type SwapStep = {
  /** The price after the step (the target, or short of it when the amount ran out). */
  sqrtRatioNextX96: bigint
  /** Input the step takes, fee excluded. */
  amountIn: bigint
  /** Output the step gives. */
  amountOut: bigint
  /** Fee the step takes, on top of `amountIn`. */
  feeAmount: bigint
}

const ONE_MILLION = 1_000_000n
const UINT256_MODULUS = 1n << 256n

const Q96_FLOAT = 2 ** 96
/** Relative margin of the float test below: its error is a few ulps (1e-15); a thousand times that. */
const SHORT_MARGIN = 1e-12

/** The input (fee excluded) that moves the price from `current` to `target`, rounded up (the contract's). */
function inputToTarget(current: bigint, target: bigint, liquidity: bigint, zeroForOne: boolean): bigint {
  return zeroForOne ? getAmount0Delta(target, current, liquidity, true) : getAmount1Delta(current, target, liquidity, true)
}

/**
 * True only when `amount` is certainly below the input (fee excluded) that moves the price from
 * `current` to `target`, proven in floats: that input's real value is L·2^96·(B − A)/(A·B) in token0
 * or L·(B − A)/2^96 in token1 (A < B the two prices), the exact, rounded-up one is at least that,
 * and the float estimate (the difference taken exactly) is within a few ulps of the real value, far
 * inside SHORT_MARGIN. False when in doubt; the caller then computes the exact input. Most swaps end
 * with such a step (the amount runs out inside a range), and the exact input to the target is a
 * dozen big-integer products and quotients that are only compared.
 */
function fallsShortOfTarget(current: bigint, target: bigint, liquidity: bigint, amount: bigint, zeroForOne: boolean): boolean {
  const estimate = zeroForOne
    ? (Number(liquidity) * Q96_FLOAT * Number(current - target)) / (Number(current) * Number(target))
    : (Number(liquidity) * Number(target - current)) / Q96_FLOAT
  return Number(amount) < estimate * (1 - SHORT_MARGIN)
}

/**
 * {@link computeSwapStep} writing into `out` so the swap loop allocates no
 * result object per step.
 *
 * @internal
 * @example
 * const step: SwapStep = { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n }
 * computeSwapStepInto(step, current, target, liquidity, amountRemaining, 3000n)
 */
export function computeSwapStepInto(
  out: SwapStep,
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
): void {
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96
  const exactIn = amountRemaining >= 0n
  // `1e6 - feePips` is unchecked uint256 arithmetic in the contract.
  const feeComplement = feePips <= ONE_MILLION ? ONE_MILLION - feePips : ONE_MILLION - feePips + UINT256_MODULUS

  let sqrtRatioNextX96: bigint
  let amountIn = 0n
  let amountOut = 0n
  // int256 -> uint256 of a negative int256 (also right for int256 min, which negates to itself).
  const amountRemainingAbs = exactIn ? amountRemaining : -amountRemaining

  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, feeComplement, ONE_MILLION)
    if (fallsShortOfTarget(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, amountRemainingLessFee, zeroForOne)) {
      // The input to the target is only compared with here (the step's own is computed below),
      // unless the next price rounds onto the target, where the contract keeps it.
      sqrtRatioNextX96 = getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne)
      if (sqrtRatioNextX96 === sqrtRatioTargetX96) amountIn = inputToTarget(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, zeroForOne)
    } else {
      amountIn = inputToTarget(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, zeroForOne)
      sqrtRatioNextX96 =
        amountRemainingLessFee >= amountIn
          ? sqrtRatioTargetX96
          : getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne)
    }
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false)
    sqrtRatioNextX96 =
      amountRemainingAbs >= amountOut
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, amountRemainingAbs, zeroForOne)
  }

  const max = sqrtRatioTargetX96 === sqrtRatioNextX96

  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true)
    if (!(max && !exactIn)) amountOut = getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false)
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true)
    if (!(max && !exactIn)) amountOut = getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false)
  }

  // The output never exceeds what was asked for.
  if (!exactIn && amountOut > amountRemainingAbs) amountOut = amountRemainingAbs

  let feeAmount: bigint
  if (exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96) {
    // The target was not reached: the whole remainder beyond amountIn is fee
    // (an unchecked uint256 subtraction in the contract).
    feeAmount = amountRemaining - amountIn
    if (feeAmount < 0n) feeAmount += UINT256_MODULUS
  } else {
    feeAmount = mulDivRoundingUp(amountIn, feePips, feeComplement)
  }

  out.sqrtRatioNextX96 = sqrtRatioNextX96
  out.amountIn = amountIn
  out.amountOut = amountOut
  out.feeAmount = feeAmount
}

/**
 * One step of a swap within a single liquidity range, as
 * SwapMath.computeSwapStep: how far the price moves toward the target with
 * the remaining amount, the input and output it takes, and the fee. The
 * direction follows from the prices (`current >= target` is zeroForOne);
 * a positive `amountRemaining` is exact input, a negative one exact output.
 *
 * @param sqrtRatioCurrentX96 - uint160 current price
 * @param sqrtRatioTargetX96 - uint160 price the step may not pass
 * @param liquidity - uint128 active liquidity
 * @param amountRemaining - int256 amount still to swap (> 0 exact in, < 0 exact out)
 * @param feePips - uint24 fee in hundredths of a bip (3000 = 0.3%)
 * @throws UniswapV3RevertError where the contract reverts.
 * @example
 * computeSwapStep(2n ** 96n, 79623317895830914510639640423n, 2n * 10n ** 18n, 10n ** 18n, 600n)
 * // { sqrtRatioNextX96: 79623317895830914510639640423n, amountIn: 9975124224178055n,
 * //   amountOut: 9925619580021728n, feeAmount: 5988667735148n }
 */
export function computeSwapStep(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
): SwapStep {
  const out: SwapStep = { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n }
  computeSwapStepInto(out, sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, amountRemaining, feePips)
  return out
}
