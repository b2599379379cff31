import { maxUint256 } from 'viem'
import { MAX_INT256, MAX_UINT160, Q96 } from './constants.js'
import { mulDiv, mulDivRoundingUp } from './fullMath.js'
import { UniswapV3RevertError } from './revertError.js'

// UnsafeMath.divRoundingUp: EVM division, so a zero divisor gives 0, not a revert.
function divRoundingUp(x: bigint, y: bigint): bigint {
  if (y === 0n) return 0n
  const quotient = x / y
  // No remainder exactly when the quotient multiplies back (cheaper than a second division).
  return quotient * y === x ? quotient : quotient + 1n
}

/**
 * The next sqrt price after adding (`add`) or removing `amount` of token0,
 * rounded up, as SqrtPriceMath.getNextSqrtPriceFromAmount0RoundingUp: the
 * exact formula `L * sqrtP / (L + amount * sqrtP)` while it fits in 256 bits,
 * else the contract's fallback `L / (L / sqrtP + amount)` (which rounds
 * differently, so the branch is reproduced, not just the value).
 *
 * @param sqrtPX96 - uint160 start price
 * @param liquidity - uint128
 * @param amount - uint256
 * @param add - true when token0 is added (price goes down)
 * @throws UniswapV3RevertError when removing at least the virtual reserves of token0, or on overflow.
 * @example
 * getNextSqrtPriceFromAmount0RoundingUp(2n ** 96n, 10n ** 18n, 10n ** 17n, true) // 72025602285694852357767227579n
 */
export function getNextSqrtPriceFromAmount0RoundingUp(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  // Short-circuit: the formulas below are not guaranteed to return sqrtPX96 for a zero amount.
  if (amount === 0n) return sqrtPX96
  const numerator1 = liquidity << 96n
  const product = amount * sqrtPX96

  if (add) {
    if (product <= maxUint256) {
      const denominator = numerator1 + product
      if (denominator <= maxUint256) return mulDivRoundingUp(numerator1, sqrtPX96, denominator)
    }
    const denominator = numerator1 / sqrtPX96 + amount
    if (denominator > maxUint256) throw new UniswapV3RevertError('amount0 overflow')
    return divRoundingUp(numerator1, denominator)
  }

  // A product that overflows means the denominator would underflow.
  if (product > maxUint256 || numerator1 <= product) {
    throw new UniswapV3RevertError('amount0 out exceeds reserves')
  }
  const next = mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product)
  if (next > MAX_UINT160) throw new UniswapV3RevertError('price overflow')
  return next
}

/**
 * The next sqrt price after adding (`add`) or removing `amount` of token1,
 * rounded down, as SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown:
 * `sqrtP ± amount / L`.
 *
 * @param sqrtPX96 - uint160 start price
 * @param liquidity - uint128
 * @param amount - uint256
 * @param add - true when token1 is added (price goes up)
 * @throws UniswapV3RevertError when the price would leave uint160, or removing at least the virtual reserves of token1.
 * @example
 * getNextSqrtPriceFromAmount1RoundingDown(2n ** 96n, 10n ** 18n, 10n ** 17n, true) // 87150978765690771352898345369n
 */
export function getNextSqrtPriceFromAmount1RoundingDown(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (add) {
    // amount <= uint160 max: `(amount << 96) / L`, which reverts on L = 0 like mulDiv does.
    if (liquidity === 0n) throw new UniswapV3RevertError('division by zero')
    const quotient = amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity)
    const next = sqrtPX96 + quotient
    if (next > MAX_UINT160) throw new UniswapV3RevertError('price overflow')
    return next
  }

  const quotient =
    amount <= MAX_UINT160 ? divRoundingUp(amount << 96n, liquidity) : mulDivRoundingUp(amount, Q96, liquidity)
  if (sqrtPX96 <= quotient) throw new UniswapV3RevertError('amount1 out exceeds reserves')
  return sqrtPX96 - quotient
}

/**
 * The price after swapping `amountIn` into the pool, rounded so it does not
 * pass the true target (SqrtPriceMath.getNextSqrtPriceFromInput).
 *
 * @param sqrtPX96 - uint160, > 0
 * @param liquidity - uint128, > 0
 * @param amountIn - uint256 amount of token0 (`zeroForOne`) or token1
 * @param zeroForOne - direction: token0 in (price down) or token1 in (price up)
 * @throws UniswapV3RevertError on a zero price or liquidity, or on overflow.
 * @example
 * getNextSqrtPriceFromInput(2n ** 96n, 10n ** 18n, 10n ** 17n, false) // 87150978765690771352898345369n
 */
export function getNextSqrtPriceFromInput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 <= 0n) throw new UniswapV3RevertError('zero price')
  if (liquidity <= 0n) throw new UniswapV3RevertError('zero liquidity')
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true)
}

/**
 * The price after taking `amountOut` out of the pool, rounded so it passes
 * the true target (SqrtPriceMath.getNextSqrtPriceFromOutput).
 *
 * @param sqrtPX96 - uint160, > 0
 * @param liquidity - uint128, > 0
 * @param amountOut - uint256 amount of token1 (`zeroForOne`) or token0
 * @param zeroForOne - direction: token1 out (price down) or token0 out (price up)
 * @throws UniswapV3RevertError on a zero price or liquidity, or when the output exceeds the virtual reserves.
 * @example
 * getNextSqrtPriceFromOutput(2n ** 96n, 10n ** 18n, 10n ** 17n, true) // 71305346262837903834189555302n
 */
export function getNextSqrtPriceFromOutput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 <= 0n) throw new UniswapV3RevertError('zero price')
  if (liquidity <= 0n) throw new UniswapV3RevertError('zero liquidity')
  return zeroForOne
    ? getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false)
}

/**
 * The token0 amount between two prices for a liquidity,
 * `L * (sqrtB - sqrtA) / (sqrtA * sqrtB)`, rounded up or down as
 * SqrtPriceMath.getAmount0Delta (two divisions, each rounded). The prices may
 * come in either order.
 *
 * @param sqrtRatioAX96 - uint160
 * @param sqrtRatioBX96 - uint160
 * @param liquidity - uint128
 * @param roundUp - round up (amounts owed to the pool) or down (amounts paid out)
 * @throws UniswapV3RevertError when the lower price is 0.
 * @example
 * getAmount0Delta(87150978765690771352898345369n, 2n ** 96n, 10n ** 18n, true) // 90909090909090910n
 */
export function getAmount0Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  let lower = sqrtRatioAX96
  let upper = sqrtRatioBX96
  if (lower > upper) {
    lower = sqrtRatioBX96
    upper = sqrtRatioAX96
  }
  if (lower === 0n) throw new UniswapV3RevertError('zero price')
  const numerator1 = liquidity << 96n
  const numerator2 = upper - lower
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower)
    : mulDiv(numerator1, numerator2, upper) / lower
}

/**
 * The token1 amount between two prices for a liquidity, `L * (sqrtB - sqrtA)`,
 * rounded up or down as SqrtPriceMath.getAmount1Delta. The prices may come
 * in either order.
 *
 * @param sqrtRatioAX96 - uint160
 * @param sqrtRatioBX96 - uint160
 * @param liquidity - uint128
 * @param roundUp - round up (amounts owed to the pool) or down (amounts paid out)
 * @example
 * getAmount1Delta(2n ** 96n, 87150978765690771352898345369n, 10n ** 18n, true) // 100000000000000000n
 */
export function getAmount1Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const difference = sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 - sqrtRatioBX96 : sqrtRatioBX96 - sqrtRatioAX96
  const product = liquidity * difference
  if (product < 0n) return roundUp ? mulDivRoundingUp(liquidity, difference, Q96) : mulDiv(liquidity, difference, Q96)
  // mulDiv(liquidity, difference, Q96) and its rounding up, by a shift: the divisor is 2^96 (a
  // general division of the 300-bit product was a fifth of a swap step).
  let result = product >> 96n
  if (roundUp && (product & Q96_MASK) !== 0n) result += 1n
  if (result > maxUint256) throw new UniswapV3RevertError('mulDiv overflow')
  return result
}

/** The bits below 2^96. */
const Q96_MASK = Q96 - 1n

function toInt256(value: bigint): bigint {
  if (value > MAX_INT256) throw new UniswapV3RevertError('int256 overflow')
  return value
}

/**
 * Signed token0 delta for a signed liquidity change (the int128 overload of
 * SqrtPriceMath.getAmount0Delta): rounded up when liquidity is added, down
 * and negated when it is removed.
 *
 * @param sqrtRatioAX96 - uint160
 * @param sqrtRatioBX96 - uint160
 * @param liquidity - int128
 * @example
 * getAmount0DeltaSigned(87150978765690771352898345369n, 2n ** 96n, -(10n ** 18n)) // -90909090909090909n
 */
export function getAmount0DeltaSigned(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint): bigint {
  return liquidity < 0n
    ? -toInt256(getAmount0Delta(sqrtRatioAX96, sqrtRatioBX96, -liquidity, false))
    : toInt256(getAmount0Delta(sqrtRatioAX96, sqrtRatioBX96, liquidity, true))
}

/**
 * Signed token1 delta for a signed liquidity change (the int128 overload of
 * SqrtPriceMath.getAmount1Delta): rounded up when liquidity is added, down
 * and negated when it is removed.
 *
 * @param sqrtRatioAX96 - uint160
 * @param sqrtRatioBX96 - uint160
 * @param liquidity - int128
 * @example
 * getAmount1DeltaSigned(2n ** 96n, 87150978765690771352898345369n, 10n ** 18n) // 100000000000000000n
 */
export function getAmount1DeltaSigned(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint): bigint {
  return liquidity < 0n
    ? -toInt256(getAmount1Delta(sqrtRatioAX96, sqrtRatioBX96, -liquidity, false))
    : toInt256(getAmount1Delta(sqrtRatioAX96, sqrtRatioBX96, liquidity, true))
}
