import { maxUint256 } from 'viem'
import { UniswapV3RevertError } from './revertError.js'

/**
 * The lowest tick a price can be at: log base sqrt(1.0001) of 2^-128.
 * @example getSqrtRatioAtTick(MIN_TICK) === MIN_SQRT_RATIO // true
 */
export const MIN_TICK = -887272

/**
 * The highest tick: `-MIN_TICK`.
 * @example getSqrtRatioAtTick(MAX_TICK) === MAX_SQRT_RATIO // true
 */
export const MAX_TICK = 887272

/**
 * `getSqrtRatioAtTick(MIN_TICK)`, the lowest sqrt price a pool can hold.
 * @example simulateSwap(pool, true, amount, MIN_SQRT_RATIO + 1n) // the furthest a swap may go down
 */
export const MIN_SQRT_RATIO = 4295128739n

/**
 * `getSqrtRatioAtTick(MAX_TICK)`: an exclusive upper bound, no price reaches it.
 * @example simulateSwap(pool, false, amount, MAX_SQRT_RATIO - 1n) // the furthest a swap may go up
 */
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n

const Q32 = 1n << 32n
const Q128 = 1n << 128n

// sqrt(1.0001)^-(2^i) in Q128.128 for bit i of |tick|, i = 1..19 (TickMath's
// constants). Bit 0 seeds the product instead of multiplying it.
const BIT0_RATIO = 0xfffcb933bd6fad37aa2d162d1a594001n
const BIT_RATIOS: readonly bigint[] = [
  0n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
]

/**
 * `sqrt(1.0001^tick) * 2^96` rounded as TickMath.getSqrtRatioAtTick does
 * (bit for bit: the same table of constants, the same truncations, and the
 * final Q128.128 to Q64.96 conversion rounded up).
 *
 * @param tick - an integer in [MIN_TICK, MAX_TICK]
 * @throws UniswapV3RevertError `'T'` when the tick is out of range.
 * @example
 * getSqrtRatioAtTick(0) // 2n ** 96n
 */
export function getSqrtRatioAtTick(tick: number): bigint {
  const absTick = tick < 0 ? -tick : tick
  if (!(absTick <= MAX_TICK) || !Number.isInteger(tick)) throw new UniswapV3RevertError('T')

  let ratio = (absTick & 1) !== 0 ? BIT0_RATIO : Q128
  for (let bit = 1, mask = 2; mask <= absTick; bit++, mask <<= 1) {
    if ((absTick & mask) !== 0) ratio = (ratio * (BIT_RATIOS[bit] as bigint)) >> 128n
  }
  if (tick > 0) ratio = maxUint256 / ratio

  return (ratio >> 32n) + (ratio % Q32 === 0n ? 0n : 1n)
}

// log2 to log base sqrt(1.0001) in Q128.128, and the error bounds of the
// 14-bit log2 approximation that bracket the true tick (TickMath's constants).
const LOG_SQRT10001_FACTOR = 255738958999603826347141n
const TICK_LOW_OFFSET = 3402992956809132418596140100660247210n
const TICK_HIGH_OFFSET = 291339464771989622907027621153398088495n
const MSB_WIDTHS: readonly bigint[] = [128n, 64n, 32n, 16n, 8n, 4n, 2n, 1n]
const MSB_THRESHOLDS: readonly bigint[] = MSB_WIDTHS.map((width) => 1n << width)

// The float shortcut of getTickAtSqrtRatio. The tick is log base sqrt(1.0001) of the price over
// 2^96, floored at the contract's tick prices. In floats that logarithm is off by under 1e-9 of a
// tick (the price's rounding to a double, 1e-16 relative, and a few ulps of a logarithm at most
// 111); the contract's tick prices sit off the exact powers by at most one unit of Q64.96 rounding
// (relative 1 / MIN_SQRT_RATIO, 2.3e-10, which is 5e-6 of a tick) and the table's truncations
// (far less). A float estimate more than FLOAT_TICK_MARGIN from every integer therefore floors to
// the contract's tick; closer than that, the exact computation below decides.
const LN_Q96 = 96 * Math.LN2
const LN_SQRT_10001 = Math.log(1.0001) / 2
/** Distance (in ticks) from a tick boundary past which the float estimate is trusted: 20x the worst error above. */
const FLOAT_TICK_MARGIN = 1e-4

/**
 * The greatest tick whose sqrt ratio is at or below `sqrtPriceX96`, computed
 * as TickMath.getTickAtSqrtRatio does (a 14-bit binary logarithm, then the
 * tick candidate checked with {@link getSqrtRatioAtTick}). The same tick comes
 * from a float logarithm whenever the price is not within 1e-4 of a tick of a
 * tick boundary (see FLOAT_TICK_MARGIN), far cheaper than the big-integer steps.
 *
 * @param sqrtPriceX96 - in [MIN_SQRT_RATIO, MAX_SQRT_RATIO)
 * @throws UniswapV3RevertError `'R'` when the price is out of range.
 * @example
 * getTickAtSqrtRatio(2n ** 96n) // 0
 * getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n) // MAX_TICK - 1
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (!(sqrtPriceX96 >= MIN_SQRT_RATIO && sqrtPriceX96 < MAX_SQRT_RATIO)) {
    throw new UniswapV3RevertError('R')
  }
  const estimate = (Math.log(Number(sqrtPriceX96)) - LN_Q96) / LN_SQRT_10001
  const below = Math.floor(estimate)
  if (estimate - below > FLOAT_TICK_MARGIN && below + 1 - estimate > FLOAT_TICK_MARGIN) return below
  return getTickAtSqrtRatioExact(sqrtPriceX96)
}

/** getTickAtSqrtRatio step by step as the contract computes it (the price already checked in range). */
function getTickAtSqrtRatioExact(sqrtPriceX96: bigint): number {
  const ratio = sqrtPriceX96 << 32n

  // Most significant bit, by halving the search width as the contract does.
  let msb = 0n
  let r = ratio
  for (let i = 0; i < MSB_WIDTHS.length; i++) {
    const width = MSB_WIDTHS[i] as bigint
    if (r >= (MSB_THRESHOLDS[i] as bigint)) {
      msb |= width
      r >>= width
    }
  }

  // Normalise r to [2^127, 2^128), a Q1.127 mantissa. Each squaring yields
  // the next bit of log2 (the contract's `f = r >> 128`, which is 0 or 1); the
  // 14 fraction bits (63..50) are collected in a float, where they are exact.
  r = msb >= 128n ? ratio >> (msb - 127n) : ratio << (127n - msb)
  let fraction = 0
  for (let bit = 63; bit >= 50; bit--) {
    r = (r * r) >> 127n
    if (r >= Q128) {
      fraction += 2 ** bit
      r >>= 1n
    }
  }
  // The integer part has no bits below 64, so OR-ing in the fraction is adding it.
  const log2 = ((msb - 128n) << 64n) + BigInt(fraction)

  const logSqrt10001 = log2 * LOG_SQRT10001_FACTOR
  const tickLow = Number((logSqrt10001 - TICK_LOW_OFFSET) >> 128n)
  const tickHigh = Number((logSqrt10001 + TICK_HIGH_OFFSET) >> 128n)

  if (tickLow === tickHigh) return tickLow
  return getSqrtRatioAtTick(tickHigh) <= sqrtPriceX96 ? tickHigh : tickLow
}

// The ticks of a swap's default price limits, computed once (both sit next to a tick boundary,
// where getTickAtSqrtRatio takes its exact, big-integer steps).
const LOWEST_LIMIT_TICK = getTickAtSqrtRatio(MIN_SQRT_RATIO + 1n)
const HIGHEST_LIMIT_TICK = getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n)

/**
 * `getTickAtSqrtRatio` of a swap's default price limit (MIN_SQRT_RATIO + 1
 * when the price goes down, MAX_SQRT_RATIO − 1 when it goes up), computed
 * once: every swap that jumps a run of empty words asks it.
 *
 * @example
 * defaultLimitTick(true) // MIN_TICK
 * defaultLimitTick(false) // MAX_TICK - 1
 */
export function defaultLimitTick(zeroForOne: boolean): number {
  return zeroForOne ? LOWEST_LIMIT_TICK : HIGHEST_LIMIT_TICK
}
