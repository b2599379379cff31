import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tickMath.js'

/**
 * An initialized tick as the swap math reads it: its index (a multiple of
 * the pool's tick spacing) and its signed liquidityNet (int128).
 */
export type InitializedTick = { readonly index: number; readonly liquidityNet: bigint }

/**
 * `tick / tickSpacing` rounded toward negative infinity: the tick's bit in
 * the pool's tick bitmap (TickBitmap's compressed tick).
 *
 * @example
 * compressTick(-1, 60) // -1
 * compressTick(119, 60) // 1
 */
export function compressTick(tick: number, tickSpacing: number): number {
  return Math.floor(tick / tickSpacing)
}

/**
 * Whether the state holds bitmap word `word` (compressed ticks
 * [word * 256, word * 256 + 255]) completely: every tick it covers lies in
 * the known range [`tickLower`, `tickUpper`], where a bound at or past
 * MIN_TICK/MAX_TICK means "known to the end".
 *
 * @example
 * isWordKnown(0, 60, -15360, 15359) // true: ticks 0..15300
 * isWordKnown(1, 60, -15360, 15359) // false
 */
export function isWordKnown(word: number, tickSpacing: number, tickLower: number, tickUpper: number): boolean {
  return (
    (tickLower <= MIN_TICK || word * 256 * tickSpacing >= tickLower) &&
    (tickUpper >= MAX_TICK || (word * 256 + 255) * tickSpacing <= tickUpper)
  )
}

/**
 * The bitmap word TickBitmap.nextInitializedTickWithinOneWord searches from
 * `tick`: the current word for `lte` (at or below), the word of the next
 * compressed tick otherwise.
 *
 * @example
 * getSearchWord(-1, 1, true) // -1
 * getSearchWord(255, 1, false) // 1
 */
export function getSearchWord(tick: number, tickSpacing: number, lte: boolean): number {
  const compressed = compressTick(tick, tickSpacing)
  return (lte ? compressed : compressed + 1) >> 8
}

/**
 * Position in `ticks` (sorted ascending) of the initialized tick that
 * TickBitmap.nextInitializedTickWithinOneWord finds from `tick`, or -1 when
 * the searched word holds none: for `lte` the highest at or below the
 * compressed tick within its word, otherwise the lowest above it within the
 * word of the next compressed tick. A binary search, no allocation.
 *
 * @example
 * findInitializedTickWithinOneWord([{ index: 60, liquidityNet: 1n }], 0, 60, false) // 0
 * findInitializedTickWithinOneWord([{ index: 60, liquidityNet: 1n }], 0, 60, true) // -1
 */
export function findInitializedTickWithinOneWord(
  ticks: readonly InitializedTick[],
  tick: number,
  tickSpacing: number,
  lte: boolean,
): number {
  const compressed = compressTick(tick, tickSpacing)
  if (lte) {
    const wordStart = (compressed >> 8) * 256 * tickSpacing
    const from = compressed * tickSpacing
    // Last position with index <= from.
    let low = 0
    let high = ticks.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((ticks[middle] as InitializedTick).index <= from) low = middle + 1
      else high = middle
    }
    const position = low - 1
    return position >= 0 && (ticks[position] as InitializedTick).index >= wordStart ? position : -1
  }
  const next = compressed + 1
  const wordEnd = ((next >> 8) * 256 + 255) * tickSpacing
  const from = next * tickSpacing
  // First position with index >= from.
  let low = 0
  let high = ticks.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((ticks[middle] as InitializedTick).index < from) low = middle + 1
    else high = middle
  }
  return low < ticks.length && (ticks[low] as InitializedTick).index <= wordEnd ? low : -1
}

/**
 * The tick where a search that finds nothing initialized ends: the lowest
 * tick of the current word for `lte`, the highest tick of the next
 * compressed tick's word otherwise. May lie past MIN_TICK/MAX_TICK; the swap
 * clamps it.
 *
 * @example
 * getWordBoundaryTick(0, 60, true) // 0
 * getWordBoundaryTick(0, 60, false) // 15300
 */
export function getWordBoundaryTick(tick: number, tickSpacing: number, lte: boolean): number {
  const word = getSearchWord(tick, tickSpacing, lte)
  return (lte ? word * 256 : word * 256 + 255) * tickSpacing
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord over a sorted array of
 * initialized ticks instead of a bitmap: the next initialized tick within
 * one bitmap word from `tick` (at or below for `lte`, above otherwise), or
 * the word's boundary tick with `initialized: false` when the word holds none.
 *
 * @param ticks - initialized ticks, sorted ascending, indexes multiples of `tickSpacing`
 * @param tick - the pool's current tick
 * @param tickSpacing - the pool's tick spacing
 * @param lte - search at or below (zeroForOne) or above
 * @example
 * const ticks = [{ index: -120, liquidityNet: 5n }, { index: 120, liquidityNet: -5n }]
 * nextInitializedTickWithinOneWord(ticks, -1, 60, true) // { next: -120, initialized: true }
 * nextInitializedTickWithinOneWord(ticks, 0, 60, true) // { next: 0, initialized: false }
 * nextInitializedTickWithinOneWord(ticks, 120, 60, false) // { next: 15300, initialized: false }
 */
export function nextInitializedTickWithinOneWord(
  ticks: readonly InitializedTick[],
  tick: number,
  tickSpacing: number,
  lte: boolean,
): { next: number; initialized: boolean } {
  const position = findInitializedTickWithinOneWord(ticks, tick, tickSpacing, lte)
  return position >= 0
    ? { next: (ticks[position] as InitializedTick).index, initialized: true }
    : { next: getWordBoundaryTick(tick, tickSpacing, lte), initialized: false }
}

/**
 * The price at the edge of the known words in one direction (`zeroForOne`:
 * down): a swap limited to it never searches a word outside the known range
 * [`tickLower`, `tickUpper`]. MIN_SQRT_RATIO + 1 or MAX_SQRT_RATIO - 1 when
 * the range is known to that end; undefined when no word that way is known
 * whole. Pools of the V3 family and of V4 limit quotes, `limits` and their
 * executor steps to it.
 *
 * @example
 * getKnownPriceLimit(60, -15360, 15359, true) // getSqrtRatioAtTick(-15360)
 */
export function getKnownPriceLimit(tickSpacing: number, tickLower: number, tickUpper: number, zeroForOne: boolean): bigint | undefined {
  if (zeroForOne) {
    if (tickLower <= MIN_TICK) return MIN_SQRT_RATIO + 1n
    // Lowest tick of the lowest word entirely at or above tickLower.
    const boundary = -Math.floor(-tickLower / (256 * tickSpacing)) * 256 * tickSpacing
    return boundary <= MAX_TICK ? getSqrtRatioAtTick(boundary) : undefined
  }
  if (tickUpper >= MAX_TICK) return MAX_SQRT_RATIO - 1n
  // Highest tick of the highest word entirely at or below tickUpper.
  const word = Math.floor((Math.floor(tickUpper / tickSpacing) - 255) / 256)
  const boundary = (word * 256 + 255) * tickSpacing
  return boundary >= MIN_TICK ? getSqrtRatioAtTick(boundary) : undefined
}
