// Balancer V2's 18-decimal fixed-point arithmetic (solidity-utils FixedPoint.sol, as compiled into
// the WeightedPool of 20230206-weighted-pool-v3 / 20230320-weighted-pool-v4), in bigint. Every
// checked operation throws BalancerV2RevertError with the contract's code where the contract reverts.
import { maxUint256 } from 'viem'
import { pow } from './logExpMath.js'
import { BAL, balRequire } from './revertError.js'

/** 1.0 in 18-decimal fixed point. */
export const ONE = 10n ** 18n
const TWO = 2n * ONE
const FOUR = 4n * ONE
/** pow's error bound, relative: 10^-14 (powUp adds it, powDown subtracts it). */
const MAX_POW_RELATIVE_ERROR = 10_000n

/**
 * Checked uint256 addition.
 * @example add(1n, 2n) // 3n
 */
export function add(a: bigint, b: bigint): bigint {
  const c = a + b
  balRequire(c <= maxUint256, BAL.ADD_OVERFLOW)
  return c
}

/**
 * Checked uint256 subtraction (BAL#001 below zero).
 * @example sub(3n, 2n) // 1n
 */
export function sub(a: bigint, b: bigint): bigint {
  balRequire(b <= a, BAL.SUB_OVERFLOW)
  return a - b
}

/**
 * a·b / 1e18, rounded down (BAL#003 when a·b overflows uint256).
 * @example mulDown(3n * ONE, ONE / 2n) // 1.5e18
 */
export function mulDown(a: bigint, b: bigint): bigint {
  const product = a * b
  balRequire(product <= maxUint256, BAL.MUL_OVERFLOW)
  return product / ONE
}

/**
 * a·b / 1e18, rounded up.
 * @example mulUp(1n, 1n) // 1n
 */
export function mulUp(a: bigint, b: bigint): bigint {
  const product = a * b
  balRequire(product <= maxUint256, BAL.MUL_OVERFLOW)
  // (product - 1) / ONE + 1: the contract's form, which never overflows in the addition.
  return product === 0n ? 0n : (product - 1n) / ONE + 1n
}

/**
 * a·1e18 / b, rounded down (BAL#004 for b = 0, BAL#005 when a·1e18 overflows).
 * @example divDown(ONE, 3n * ONE) // 333333333333333333n
 */
export function divDown(a: bigint, b: bigint): bigint {
  balRequire(b !== 0n, BAL.ZERO_DIVISION)
  const inflated = a * ONE
  balRequire(inflated <= maxUint256, BAL.DIV_INTERNAL)
  return inflated / b
}

/**
 * a·1e18 / b, rounded up.
 * @example divUp(ONE, 3n * ONE) // 333333333333333334n
 */
export function divUp(a: bigint, b: bigint): bigint {
  balRequire(b !== 0n, BAL.ZERO_DIVISION)
  const inflated = a * ONE
  balRequire(inflated <= maxUint256, BAL.DIV_INTERNAL)
  return inflated === 0n ? 0n : (inflated - 1n) / b + 1n
}

/**
 * x^y rounded down: exact for y = 1, 2, 4 (50/50 and 80/20 pools), else LogExpMath.pow less its
 * error bound (floored at 0).
 * @example powDown(ONE / 2n, 2n * ONE) // 0.25e18
 */
export function powDown(x: bigint, y: bigint): bigint {
  if (y === ONE) return x
  if (y === TWO) return mulDown(x, x)
  if (y === FOUR) {
    const square = mulDown(x, x)
    return mulDown(square, square)
  }
  const raw = pow(x, y)
  const maxError = add(mulUp(raw, MAX_POW_RELATIVE_ERROR), 1n)
  return raw < maxError ? 0n : sub(raw, maxError)
}

/**
 * x^y rounded up: exact for y = 1, 2, 4, else LogExpMath.pow plus its error bound.
 * @example powUp(ONE / 2n, 2n * ONE) // 0.25e18
 */
export function powUp(x: bigint, y: bigint): bigint {
  if (y === ONE) return x
  if (y === TWO) return mulUp(x, x)
  if (y === FOUR) {
    const square = mulUp(x, x)
    return mulUp(square, square)
  }
  const raw = pow(x, y)
  const maxError = add(mulUp(raw, MAX_POW_RELATIVE_ERROR), 1n)
  return add(raw, maxError)
}

/**
 * 1 - x, or 0 when x >= 1.
 * @example complement(ONE / 4n) // 0.75e18
 */
export function complement(x: bigint): bigint {
  return x < ONE ? ONE - x : 0n
}
