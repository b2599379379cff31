// Balancer V2 weighted-pool swap math (pool-weighted WeightedMath.sol) and the scaling and swap-fee
// steps BaseMinimalSwapInfoPool.onSwap wraps around it, in bigint, bit for bit.
import { complement, divDown, divUp, mulDown, mulUp, powUp, sub, add, ONE } from './fixedPoint.js'
import { BAL, balRequire } from './revertError.js'

/**
 * A swap may bring in at most 30% of the input balance (WeightedMath._MAX_IN_RATIO).
 * @example mulDown(balanceIn, MAX_IN_RATIO) // the largest upscaled, fee-reduced input
 */
export const MAX_IN_RATIO = 3n * 10n ** 17n
/**
 * A swap may take out at most 30% of the output balance (WeightedMath._MAX_OUT_RATIO).
 * @example mulDown(balanceOut, MAX_OUT_RATIO) // the largest upscaled GIVEN_OUT output
 */
export const MAX_OUT_RATIO = 3n * 10n ** 17n

/**
 * WeightedMath._calcOutGivenIn on upscaled (18-decimal) amounts: bO·(1 − (bI/(bI+aI))^(wI/wO)),
 * the base and power rounded up so the output rounds down. BAL#304 when aI > 30% of bI.
 *
 * @example
 * calcOutGivenIn(100n * ONE, ONE / 2n, 100n * ONE, ONE / 2n, ONE) // 990099009900990000n (exact: …990099)
 */
export function calcOutGivenIn(balanceIn: bigint, weightIn: bigint, balanceOut: bigint, weightOut: bigint, amountIn: bigint): bigint {
  balRequire(amountIn <= mulDown(balanceIn, MAX_IN_RATIO), BAL.MAX_IN_RATIO)
  const denominator = add(balanceIn, amountIn)
  const base = divUp(balanceIn, denominator)
  const exponent = divDown(weightIn, weightOut)
  const power = powUp(base, exponent)
  return mulDown(balanceOut, complement(power))
}

/**
 * WeightedMath._calcInGivenOut on upscaled amounts: bI·((bO/(bO−aO))^(wO/wI) − 1), rounded up.
 * BAL#305 when aO > 30% of bO.
 *
 * @example
 * calcInGivenOut(100n * ONE, ONE / 2n, 100n * ONE, ONE / 2n, ONE) // 1010101010101010200n (exact: …010101)
 */
export function calcInGivenOut(balanceIn: bigint, weightIn: bigint, balanceOut: bigint, weightOut: bigint, amountOut: bigint): bigint {
  balRequire(amountOut <= mulDown(balanceOut, MAX_OUT_RATIO), BAL.MAX_OUT_RATIO)
  const base = divUp(balanceOut, sub(balanceOut, amountOut))
  const exponent = divUp(weightOut, weightIn)
  const power = powUp(base, exponent)
  const ratio = sub(power, ONE)
  return mulUp(balanceIn, ratio)
}

/**
 * One direction of a weighted pool: raw Vault balances, normalized weights, scaling factors.
 * @example
 * const side: WeightedSwapSide = { balanceIn, balanceOut, weightIn, weightOut, scalingIn: ONE, scalingOut: 10n ** 30n, swapFee }
 */
export type WeightedSwapSide = {
  balanceIn: bigint
  balanceOut: bigint
  weightIn: bigint
  weightOut: bigint
  /** The pool's scaling factors (getScalingFactors: 1e18 · 10^(18 − decimals)). */
  scalingIn: bigint
  scalingOut: bigint
  /** Swap fee, 18-decimal (1e16 = 1%). */
  swapFee: bigint
}

/**
 * What the pool's onSwap returns to the Vault for a GIVEN_IN swap of `amountIn` raw units: the
 * fee subtracted (rounded up) before upscaling, balances and amount upscaled with mulDown, the
 * output downscaled rounding down. Throws BalancerV2RevertError where the pool reverts.
 *
 * @example
 * swapGivenIn({ balanceIn: 10n ** 21n, balanceOut: 3n * 10n ** 12n, weightIn: ONE / 2n, weightOut: ONE / 2n, scalingIn: ONE, scalingOut: 10n ** 30n, swapFee: 3n * 10n ** 15n }, 10n ** 18n)
 */
export function swapGivenIn(side: WeightedSwapSide, amountIn: bigint): bigint {
  const balanceIn = mulDown(side.balanceIn, side.scalingIn)
  const balanceOut = mulDown(side.balanceOut, side.scalingOut)
  const feeAmount = mulUp(amountIn, side.swapFee)
  const amount = mulDown(sub(amountIn, feeAmount), side.scalingIn)
  const amountOut = calcOutGivenIn(balanceIn, side.weightIn, balanceOut, side.weightOut, amount)
  return divDown(amountOut, side.scalingOut)
}

/**
 * What the pool's onSwap returns to the Vault for a GIVEN_OUT swap of `amountOut` raw units: the
 * input downscaled rounding up, then grossed up by the fee (divUp by 1 − fee).
 *
 * @example
 * swapGivenOut(side, 1_000_000n) // the input the Vault would pull for 1 USDC out
 */
export function swapGivenOut(side: WeightedSwapSide, amountOut: bigint): bigint {
  const balanceIn = mulDown(side.balanceIn, side.scalingIn)
  const balanceOut = mulDown(side.balanceOut, side.scalingOut)
  const amount = mulDown(amountOut, side.scalingOut)
  const amountIn = divUp(calcInGivenOut(balanceIn, side.weightIn, balanceOut, side.weightOut, amount), side.scalingIn)
  return divUp(amountIn, complement(side.swapFee))
}
