import { compressTick, type InitializedTick, isWordKnown } from './tickBitmap.js'
import { MAX_TICK, MIN_TICK } from './tickMath.js'

/** What the walk over empty bitmap words reads of a concentrated-liquidity pool's state. */
export type TickRange = {
  readonly tickSpacing: number
  /** Every initialized tick in [`tickLower`, `tickUpper`], sorted ascending. */
  readonly ticks: readonly InitializedTick[]
  /** Lower bound of the known tick range (at or below MIN_TICK: known to the end). */
  readonly tickLower: number
  /** Upper bound of the known tick range (at or above MAX_TICK: known to the end). */
  readonly tickUpper: number
}

/** The smallest integer at or above a / b (b > 0). */
const ceilDiv = (a: number, b: number) => Math.ceil(a / b)
/** The largest integer at or below a / b (b > 0). */
const floorDiv = (a: number, b: number) => Math.floor(a / b)

/**
 * The last bitmap word of a run of empty words the swap walks from `tick` (whose search word,
 * `word`, holds no initialized tick on the swap's side and the range no liquidity): the run stops
 * before the word of the next initialized tick, and is cut short so that no step in it would reach
 * the price limit (ticks past `limitTick`, the limit's tick), be clamped to MIN_TICK / MAX_TICK, or
 * search a word the state does not hold. Every step of the run then moves the price to its word's
 * boundary and nothing else (the checks are monotone along the run, so its two ends stand for all
 * of it). Undefined when the run is shorter than two words. Shared by the V3 and V4 swap loops
 * (the same bitmap walk).
 *
 * @example
 * const last = lastEmptyWord(pool, tick, getSearchWord(tick, pool.tickSpacing, true), true, getTickAtSqrtRatio(limit))
 * if (last !== undefined) console.log(`words ${last}..${word} hold nothing: one jump`)
 */
export function lastEmptyWord(pool: TickRange, tick: number, word: number, zeroForOne: boolean, limitTick: number): number | undefined {
  const { ticks, tickSpacing, tickLower, tickUpper } = pool
  const wordTicks = 256 * tickSpacing
  const compressed = compressTick(tick, tickSpacing)
  let last: number
  if (zeroForOne) {
    // The highest initialized tick at or below the search start: its word ends the run.
    const from = compressed * tickSpacing
    let low = 0
    let high = ticks.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((ticks[middle] as InitializedTick).index <= from) low = middle + 1
      else high = middle
    }
    last = low > 0 ? (compressTick((ticks[low - 1] as InitializedTick).index, tickSpacing) >> 8) + 1 : -Infinity
    // Boundaries (word * 256 * spacing) strictly above the limit's tick, at or above MIN_TICK, in the known range.
    last = Math.max(last, ceilDiv(limitTick + 1, wordTicks), ceilDiv(MIN_TICK, wordTicks), tickLower <= MIN_TICK ? -Infinity : ceilDiv(tickLower, wordTicks))
    if (!(last <= word - 1)) return undefined
  } else {
    // The lowest initialized tick above the search start: its word ends the run.
    const from = (compressed + 1) * tickSpacing
    let low = 0
    let high = ticks.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((ticks[middle] as InitializedTick).index < from) low = middle + 1
      else high = middle
    }
    last = low < ticks.length ? (compressTick((ticks[low] as InitializedTick).index, tickSpacing) >> 8) - 1 : Infinity
    // Boundaries ((word * 256 + 255) * spacing) at or below the limit's tick and MAX_TICK, in the known range.
    const lastAtOrBelow = (bound: number) => floorDiv(floorDiv(bound, tickSpacing) - 255, 256)
    last = Math.min(last, lastAtOrBelow(limitTick), lastAtOrBelow(MAX_TICK), tickUpper >= MAX_TICK ? Infinity : lastAtOrBelow(tickUpper))
    if (!(last >= word + 1)) return undefined
  }
  return Number.isFinite(last) && isWordKnown(last, tickSpacing, tickLower, tickUpper) ? last : undefined
}

/**
 * Where a run of empty words leaves a swap loop (V3 or V4) that takes it in one jump: the price at
 * the last word's boundary, the tick the last step would leave, and the steps the run counts (one
 * per word). Undefined when there is no run (see lastEmptyWord) or its boundary lies past the price
 * limit; the loop then steps word by word. `boundarySqrtPrice` is the loop's own sqrt price of a
 * boundary tick (each loop keeps its cache).
 *
 * @example
 * const jump = jumpEmptyWords(pool, tick, word, zeroForOne, limit, limitTick, getSqrtRatioAtTick)
 * if (jump) [sqrtPriceX96, tick] = [jump.sqrtPriceX96, jump.tick]
 */
export function jumpEmptyWords(
  pool: TickRange,
  tick: number,
  word: number,
  zeroForOne: boolean,
  limit: bigint,
  limitTick: number,
  boundarySqrtPrice: (tick: number) => bigint,
): { steps: number; sqrtPriceX96: bigint; tick: number } | undefined {
  const last = lastEmptyWord(pool, tick, word, zeroForOne, limitTick)
  if (last === undefined) return undefined
  const boundary = zeroForOne ? last * 256 * pool.tickSpacing : (last * 256 + 255) * pool.tickSpacing
  const sqrtPriceX96 = boundarySqrtPrice(boundary)
  if (zeroForOne ? sqrtPriceX96 < limit : sqrtPriceX96 > limit) return undefined
  return { steps: Math.abs(word - last) + 1, sqrtPriceX96, tick: zeroForOne ? boundary - 1 : boundary }
}
