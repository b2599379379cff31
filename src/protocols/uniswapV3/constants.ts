/**
 * Fixed-width integer bounds of the EVM types the V3 contracts use, and Q96.
 * The math files check against them where Solidity 0.7 checks (or wraps to
 * them where the contract is unchecked).
 */

/**
 * 2^96, the fixed-point unit of `sqrtPriceX96` (FixedPoint96.Q96).
 * @example const sqrtPriceAtOne = Q96 // price 1.0
 */
export const Q96 = 1n << 96n

/**
 * Largest uint160, the width of a sqrt price.
 * @example if (sqrtPriceX96 > MAX_UINT160) throw new Error('not a uint160')
 */
export const MAX_UINT160 = (1n << 160n) - 1n

/**
 * Largest uint128, the width of liquidity.
 * @example if (liquidity > MAX_UINT128) throw new Error('not a uint128')
 */
export const MAX_UINT128 = (1n << 128n) - 1n

/**
 * Largest int256: the largest exact-input amount a swap takes.
 * @example simulateSwap(pool, true, MAX_INT256, limit) // swap up to the limit price
 */
export const MAX_INT256 = (1n << 255n) - 1n

/**
 * Smallest int256.
 * @example if (amountSpecified < MIN_INT256) throw new RangeError('not an int256')
 */
export const MIN_INT256 = -(1n << 255n)

/**
 * Largest int128, the upper bound of a tick's liquidityNet.
 * @example if (liquidityNet > MAX_INT128) throw new Error('not an int128')
 */
export const MAX_INT128 = (1n << 127n) - 1n

/**
 * Smallest int128.
 * @example if (liquidityNet < MIN_INT128) throw new Error('not an int128')
 */
export const MIN_INT128 = -(1n << 127n)
