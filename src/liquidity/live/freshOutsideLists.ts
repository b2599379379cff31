/**
 * A state's `freshOutside0` / `freshOutside1` lists (Uniswap V3 family and V4): the initialized
 * ticks whose fee growth outside is zero in token0 and in token1, as the readers report them.
 */
export type FreshOutsideLists = { freshOutside0: number[]; freshOutside1: number[] }

/**
 * The lists after a swap crossed `crossed`, exactly as the pool's Tick.cross leaves them, or
 * `reread` when the log cannot tell. Crossing sets a tick's fee growth outside to global - outside:
 * from zero it becomes the global growth at the crossing, zero only in a token whose global growth
 * is still zero then (`stillFresh0` / `stillFresh1`, which the caller knows only when the swap could
 * not have raised it before the crossing); from anything else its zeroness is unknown.
 *
 * @example
 * crossFreshOutside({ freshOutside0: [60], freshOutside1: [60] }, [60], false, false) // { freshOutside0: [], freshOutside1: [] }
 * crossFreshOutside({ freshOutside0: [], freshOutside1: [60] }, [60], false, false) // 'reread'
 */
export function crossFreshOutside(lists: FreshOutsideLists, crossed: readonly number[], stillFresh0: boolean, stillFresh1: boolean): FreshOutsideLists | 'reread' {
  if (crossed.length === 0) return lists
  const fresh = [new Set(lists.freshOutside0), new Set(lists.freshOutside1)] as const
  if (crossed.some((index) => !fresh[0].has(index) || !fresh[1].has(index))) return 'reread'
  for (const [token, stillFresh] of [stillFresh0, stillFresh1].entries()) {
    if (!stillFresh) for (const index of crossed) fresh[token as 0 | 1].delete(index)
  }
  return { freshOutside0: ascending(fresh[0]), freshOutside1: ascending(fresh[1]) }
}

/**
 * What a position's liquidity change does to the lists at one range end: a tick that becomes
 * initialized (`initialized`) gets its fee growth outside as Tick.update sets it (the global
 * growth at or below the current tick: growth before a tick counts as below it; zero above), and
 * a tick whose liquidity returns to zero (`cleared`) is deleted with its words. The sets change in place.
 *
 * @example
 * const fresh = [new Set<number>(), new Set<number>()] as const
 * updateFreshOutside(fresh, 120, { initialized: true, atOrBelow: false, globalFresh0: false, globalFresh1: false }) // 120 in both: zero above the price
 */
export function updateFreshOutside(
  fresh: readonly [Set<number>, Set<number>],
  index: number,
  change: { initialized: true; atOrBelow: boolean; globalFresh0: boolean; globalFresh1: boolean } | { initialized: false },
): void {
  if (!change.initialized) {
    fresh[0].delete(index)
    fresh[1].delete(index)
    return
  }
  if (!change.atOrBelow || change.globalFresh0) fresh[0].add(index)
  if (!change.atOrBelow || change.globalFresh1) fresh[1].add(index)
}

/**
 * A set of ticks as the readers list them: ascending.
 *
 * @example
 * ascending(new Set([60, -60])) // [-60, 60]
 */
export function ascending(set: ReadonlySet<number>): number[] {
  return [...set].sort((a, b) => a - b)
}

/**
 * The initialized ticks a swap from `tickBefore` to `tickAfter` crossed, in the state's ascending
 * `ticks`: those in (low, high] (moving down the ticks in (after, before], moving up those in
 * (before, after]; the loop crosses every tick it reaches).
 *
 * @example
 * crossedTicks([{ index: -60 }, { index: 60 }], 0, 70) // [60]
 */
export function crossedTicks(ticks: readonly { index: number }[], tickBefore: number, tickAfter: number): number[] {
  const low = Math.min(tickBefore, tickAfter)
  const high = Math.max(tickBefore, tickAfter)
  return ticks.filter((t) => t.index > low && t.index <= high).map((t) => t.index)
}
