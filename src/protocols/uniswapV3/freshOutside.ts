import type { InitializedTick } from './tickBitmap.js'

/**
 * Initialized ticks whose fee growth outside is zero, in token0 (or currency0) and in token1: the
 * `freshOutside0` / `freshOutside1` lists of a Uniswap V3 family or V4 pool state, as sets.
 */
export type FreshOutside = readonly [ReadonlySet<number>, ReadonlySet<number>]

/**
 * The fresh-outside sets of a state that carries both lists, or undefined when it does not say
 * (an older snapshot, a hand-written state): its crossings are then priced as before the lists.
 * Entries that are not integers are ignored.
 *
 * @example
 * parseFreshOutside({ freshOutside0: [60], freshOutside1: [] }) // [Set {60}, Set {}]
 * parseFreshOutside({}) // undefined
 */
export function parseFreshOutside(state: { freshOutside0?: unknown; freshOutside1?: unknown }): FreshOutside | undefined {
  const { freshOutside0, freshOutside1 } = state
  if (!Array.isArray(freshOutside0) || !Array.isArray(freshOutside1)) return undefined
  return [new Set(freshOutside0.filter(Number.isInteger)), new Set(freshOutside1.filter(Number.isInteger))]
}

/**
 * The ticks earlier swaps of the same fill crossed on one pool: those in (low, high], none when
 * low >= high. One interval holds them all: each swap moves the price from where the last left
 * it, so the ticks crossed always join up.
 */
export type CrossedRange = { readonly low: number; readonly high: number }

/** No tick crossed yet. */
export const NOTHING_CROSSED: CrossedRange = Object.freeze({ low: 0, high: 0 })

/**
 * The crossed range after a swap from `tickBefore` to `tickAfter` that crossed a tick.
 *
 * @example
 * extendCrossed(NOTHING_CROSSED, 0, 130) // { low: 0, high: 130 }
 * extendCrossed({ low: 0, high: 130 }, 130, -70) // { low: -70, high: 130 }
 */
export function extendCrossed(range: CrossedRange, tickBefore: number, tickAfter: number): CrossedRange {
  const low = Math.min(tickBefore, tickAfter)
  const high = Math.max(tickBefore, tickAfter)
  return range.low >= range.high ? { low, high } : { low: Math.min(low, range.low), high: Math.max(high, range.high) }
}

/**
 * What {@link countFreshOutsideWrites} needs to know about one swap that crossed ticks, on a Uniswap
 * V3 family or V4 pool state that carries fresh-outside sets.
 */
export type FreshOutsideSwap = {
  /** The pool's initialized ticks, ascending. */
  ticks: readonly InitializedTick[]
  /** The pool's tick before and after the swap. */
  tickBefore: number
  tickAfter: number
  /** The state's fresh-outside sets. */
  freshOutside: FreshOutside
  /** The swap's direction: token0 (currency0) in. */
  zeroForOne: boolean
  /** Whether the swap pays an LP fee: the input's fee growth then grows during it. */
  lpFee: boolean
  /** Whether the pool's fee growth of token0 / token1 is still zero before the swap. */
  feeGrowthZero0: boolean
  feeGrowthZero1: boolean
  /** Ticks an earlier swap of the same fill already crossed: their words are written since. */
  crossedBefore: CrossedRange
}

/**
 * The fee-growth-outside words a swap's tick crossings write from zero, beyond the one per
 * crossing that the families' per-tick gas prices (`TICK_CROSSED_GAS` was fitted on crossings
 * that write one).
 *
 * Tick.cross (Uniswap V3, its forks, V4's Pool.crossTick) sets each word to the global growth
 * minus itself: a word written from zero is one still zero (in the state's list, and not crossed
 * earlier in the fill) whose token's global growth is nonzero at the crossing. The pool has fee
 * growth in a token at the crossing unless it is still zero: the input's grows with an LP fee
 * during the swap. Each crossing adds its count of such words minus one: +1 for both, -1 for a
 * crossing that only rewrites. The crossed ticks are those between the two ticks, in (low, high]:
 * the loop crosses every one it reaches, a tick reached exactly included. Allocates nothing: it
 * runs on every quote that crosses.
 *
 * @example
 * countFreshOutsideWrites({ ticks, tickBefore: 0, tickAfter: 130, freshOutside: [new Set([120]), new Set([120])],
 *   zeroForOne: false, lpFee: true, feeGrowthZero0: false, feeGrowthZero1: false, crossedBefore: NOTHING_CROSSED }) // 1: tick 120's two words from zero
 */
export function countFreshOutsideWrites(swap: FreshOutsideSwap): number {
  const { ticks, tickBefore, tickAfter, freshOutside, zeroForOne, lpFee, feeGrowthZero0, feeGrowthZero1, crossedBefore } = swap
  const inputGrows = lpFee || !(zeroForOne ? feeGrowthZero0 : feeGrowthZero1)
  const otherGrows = !(zeroForOne ? feeGrowthZero1 : feeGrowthZero0)
  const grows0 = zeroForOne ? inputGrows : otherGrows
  const grows1 = zeroForOne ? otherGrows : inputGrows
  const low = Math.min(tickBefore, tickAfter)
  const high = Math.max(tickBefore, tickAfter)
  let extraFreshWrites = 0
  for (let position = countTicksAtOrBelow(ticks, low); position < ticks.length; position++) {
    const index = (ticks[position] as InitializedTick).index
    if (index > high) break
    const written = index > crossedBefore.low && index <= crossedBefore.high
    const fresh = (!written && grows0 && freshOutside[0].has(index) ? 1 : 0) + (!written && grows1 && freshOutside[1].has(index) ? 1 : 0)
    extraFreshWrites += fresh - 1
  }
  return extraFreshWrites
}

/**
 * How many of the ascending `ticks` have an index at or below `tick` (a binary search): the
 * position of the first tick above it.
 *
 * @example
 * countTicksAtOrBelow([{ index: -60, liquidityNet: 1n }, { index: 60, liquidityNet: -1n }], 0) // 1
 */
export function countTicksAtOrBelow(ticks: readonly InitializedTick[], tick: number): number {
  let low = 0
  let high = ticks.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((ticks[middle] as InitializedTick).index <= tick) low = middle + 1
    else high = middle
  }
  return low
}
