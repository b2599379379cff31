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

/** What {@link countFreshOutsideWrites} needs to know about one swap. */
export type FreshOutsideSwap = {
  /** The pool's initialized ticks, ascending. */
  ticks: readonly InitializedTick[]
  /** The pool's tick before and after the swap. */
  tickBefore: number
  tickAfter: number
  /** How many initialized ticks the swap crossed (0: nothing to count). */
  initializedTicksCrossed: number
  /** The state's fresh-outside sets; undefined when it does not say. */
  freshOutside: FreshOutside | undefined
  /** Whether the pool's fee growth of token0 / token1 is nonzero when the swap crosses its ticks. */
  grows0: boolean
  grows1: boolean
  /** Ticks an earlier swap of the same fill already crossed: their words are written since. */
  crossedBefore: ReadonlySet<number>
}

/**
 * The fee-growth-outside words a swap's tick crossings write from zero, beyond the one per
 * crossing that the families' per-tick gas prices (`TICK_CROSSED_GAS` was fitted on crossings
 * that write one), and the ticks it crossed.
 *
 * Tick.cross (Uniswap V3, its forks, V4's Pool.crossTick) sets each word to the global growth
 * minus itself: a word written from zero is one still zero (in the state's list, and not crossed
 * earlier in the fill) whose token's global growth is nonzero at the crossing. Each crossing adds
 * its count of such words minus one: +1 for both, -1 for a crossing that only rewrites. A state
 * that does not say adds nothing. The crossed ticks are those between the two ticks, in
 * (low, high]: the loop crosses every one it reaches, a tick reached exactly included.
 *
 * @example
 * const { extraFreshWrites, crossed } = countFreshOutsideWrites({ ticks, tickBefore: 0, tickAfter: 130, initializedTicksCrossed: 1,
 *   freshOutside: [new Set([120]), new Set([120])], grows0: true, grows1: true, crossedBefore: new Set() })
 * // extraFreshWrites 1 (tick 120's two words from zero), crossed [120]
 */
export function countFreshOutsideWrites(swap: FreshOutsideSwap): { extraFreshWrites: number; crossed: readonly number[] } {
  const { ticks, tickBefore, tickAfter, initializedTicksCrossed, freshOutside, grows0, grows1, crossedBefore } = swap
  if (initializedTicksCrossed === 0 || freshOutside === undefined) return { extraFreshWrites: 0, crossed: NONE }
  const low = Math.min(tickBefore, tickAfter)
  const high = Math.max(tickBefore, tickAfter)
  const crossed: number[] = []
  let extraFreshWrites = 0
  for (let position = countTicksAtOrBelow(ticks, low); position < ticks.length; position++) {
    const index = (ticks[position] as InitializedTick).index
    if (index > high) break
    crossed.push(index)
    const written = crossedBefore.has(index)
    const fresh = (!written && grows0 && freshOutside[0].has(index) ? 1 : 0) + (!written && grows1 && freshOutside[1].has(index) ? 1 : 0)
    extraFreshWrites += fresh - 1
  }
  return { extraFreshWrites, crossed }
}

const NONE: readonly number[] = Object.freeze([])

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
