/**
 * The swap loop's state after a step of an exact-input swap that ended on its step's target (an
 * initialized tick, a bitmap word's boundary, the end of a run of empty words, or the price limit):
 * the input taken so far (fees included) and the loop's variables there.
 */
export type SwapCheckpoint = {
  readonly used: bigint
  readonly amountCalculated: bigint
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  readonly initializedTicksCrossed: number
  readonly stepsTaken: number
}

/**
 * The checkpoints of one pool state's exact-input swaps in one direction at the default price
 * limit, in loop order (`used` never falls along it).
 *
 * Each step that ends on its target takes an input that does not depend on the amount swapped
 * (the input to the target, and its fee rounded up), and any larger amount ends that step on the
 * same target: an amount reaches the target exactly when what remains of it covers that input and
 * its fee (floor(R·(1e6 − fee)/1e6) ≥ in ⟺ R ≥ in + ceil(in·fee/(1e6 − fee))). So a swap of any
 * amount above a checkpoint's `used` passes through that checkpoint with the very same loop state,
 * and can start there. On a state swapped again and again at amounts that cross many words (a
 * large trade through a wide range at a small tick spacing walks one step per 256 ticks, each a
 * dozen big-integer products), the walk up to the last checkpoint below the amount is then skipped.
 * The swap loop appends to the trail as it walks past its end (see simulateSwap).
 */
export type SwapTrail = SwapCheckpoint[]

/**
 * Checkpoints a trail holds at most (the walk beyond them is not kept; the swap is still exact).
 * A walk down to the price limit through a pool's positions at tick spacing 1 is up to ~7,000 words,
 * most of them skipped in runs (see jumpEmptyWords).
 */
export const TRAIL_LIMIT = 4096

/**
 * The index of the last checkpoint of `trail` an exact-input swap of `amount` passes through with
 * input still left (its `used` strictly below `amount`: a swap that uses its input up exactly on a
 * checkpoint stops there, while a later checkpoint of the same `used` lies past a free step it
 * would not take); -1 when none.
 *
 * @example
 * const at = trailStart(trail, 10n ** 18n)
 * if (at >= 0) console.log(`start from tick ${trail[at]!.tick}`)
 */
export function trailStart(trail: SwapTrail, amount: bigint): number {
  let low = 0
  let high = trail.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((trail[middle] as SwapCheckpoint).used < amount) low = middle + 1
    else high = middle
  }
  return low - 1
}
