import { maxUint256 } from 'viem'
import { UniswapV3RevertError } from './revertError.js'

/**
 * `floor(a * b / denominator)` with a full 512-bit intermediate product, as
 * FullMath.mulDiv: no phantom overflow, but it reverts when the denominator
 * is zero or the result does not fit in a uint256.
 *
 * @param a - uint256
 * @param b - uint256
 * @param denominator - uint256
 * @throws UniswapV3RevertError when `denominator` is 0 or the result exceeds 2^256 - 1.
 * @example
 * mulDiv(2n ** 128n, 35n * 2n ** 128n, 8n * 2n ** 128n) // 4375n * 2n ** 128n / 1000n
 */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new UniswapV3RevertError('mulDiv by zero')
  const result = (a * b) / denominator
  if (result > maxUint256) throw new UniswapV3RevertError('mulDiv overflow')
  return result
}

/**
 * `ceil(a * b / denominator)` with a full 512-bit intermediate product, as
 * FullMath.mulDivRoundingUp. Reverts like {@link mulDiv}, and also when
 * rounding up passes 2^256 - 1.
 *
 * @param a - uint256
 * @param b - uint256
 * @param denominator - uint256
 * @throws UniswapV3RevertError when `denominator` is 0 or the result exceeds 2^256 - 1.
 * @example
 * mulDivRoundingUp(10n, 10n, 3n) // 34n
 */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new UniswapV3RevertError('mulDiv by zero')
  const product = a * b
  let result = product / denominator
  // A remainder exactly when the quotient does not multiply back: a product is cheaper than a second division.
  if (result * denominator !== product) result += 1n
  if (result > maxUint256) throw new UniswapV3RevertError('mulDiv overflow')
  return result
}
