import type { InitializedTick } from './tickBitmap.js'
import { getSqrtRatioAtTick } from './tickMath.js'

// A tick's sqrt price never changes, and the swap loops of the V3 family and of V4 stop at the
// same ticks over and over: initialized ticks (cached by identity; only frozen tick objects, as
// the pool adapters make them, so an entry cannot go stale) and bitmap-word boundaries (a bounded
// map, cleared when full).
const initializedSqrtPrices = new WeakMap<InitializedTick, bigint>()
const boundarySqrtPrices = new Map<number, bigint>()
const BOUNDARY_CACHE_LIMIT = 65_536

/**
 * `getSqrtRatioAtTick` of an initialized tick, cached while the (frozen) tick object lives.
 *
 * @example
 * const sqrtPriceX96 = getInitializedTickSqrtPrice(pool.ticks[0])
 */
export function getInitializedTickSqrtPrice(tick: InitializedTick): bigint {
  let sqrtPriceX96 = initializedSqrtPrices.get(tick)
  if (sqrtPriceX96 === undefined) {
    sqrtPriceX96 = getSqrtRatioAtTick(tick.index)
    if (Object.isFrozen(tick)) initializedSqrtPrices.set(tick, sqrtPriceX96)
  }
  return sqrtPriceX96
}

/**
 * `getSqrtRatioAtTick` of a tick a swap stops at without an initialized tick there (a bitmap
 * word's boundary, or MIN_TICK / MAX_TICK), cached in a bounded map.
 *
 * @example
 * const sqrtPriceX96 = getBoundarySqrtPrice(word * 256 * tickSpacing)
 */
export function getBoundarySqrtPrice(tick: number): bigint {
  let sqrtPriceX96 = boundarySqrtPrices.get(tick)
  if (sqrtPriceX96 === undefined) {
    sqrtPriceX96 = getSqrtRatioAtTick(tick)
    if (boundarySqrtPrices.size >= BOUNDARY_CACHE_LIMIT) boundarySqrtPrices.clear()
    boundarySqrtPrices.set(tick, sqrtPriceX96)
  }
  return sqrtPriceX96
}
