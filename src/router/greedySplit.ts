import { fitToPools } from './fitToPools.js'
import { mergedMoveValue } from './mergedMoveValue.js'
import type { Pool } from '../protocols/types.js'
import { getNetOutput, type PoolStates, simulatePlan } from './simulatePlan.js'
import { standaloneBound } from './standaloneBound.js'
import { type SwapMemo, createSwapMemo, quoteMemoized } from './swapMemo.js'
import type { Path, Plan } from './types.js'

/** Equal parts of the input the greedy split hands out one at a time. */
const PARTS = 20
/** Exact simulations the refinement after the greedy pass may spend. */
const REFINE_BUDGET = 40
/** Exact simulations the whole-path moves (with gas priced in) may spend. */
const SWAP_BUDGET = 24
/**
 * Share of a whole-path move's bound (see standaloneBound) it must fall short of the current value
 * by to go unsimulated (0.01 bp): far above the few raw units the pools' rounding can add to a flow's
 * share, unless a path's amounts are dust.
 */
const BOUND_SLACK = 1e-6

/**
 * A split over given paths found on exact simulation alone: the input in
 * PARTS equal parts, each given to the path whose next part adds the most
 * output on the pool states the parts before it left (paths sharing a pool
 * see each other's trades), then refined by moving halves of a part between
 * paths while the exact value improves; with gas priced in, a path's whole
 * amount is also moved to another path (one in use or not) when that saves
 * more gas than it loses, which half-part moves never see (each leaves both
 * paths trading). For when the flow cannot be turned into paths of
 * at most maxHops: a split no worse than the best of these paths alone (the
 * caller weighs it against them on exact value, net of gas). Undefined when
 * no path takes a part. `memo` holds the swaps this search has already
 * simulated (a fresh one when not given), which the refinement repeats.
 *
 * @example
 * const plan = greedySplit([viaWeth, viaUsdc, direct], 10n ** 18n, 0)
 */
export function greedySplit(paths: readonly Path[], amountIn: bigint, gasCostInOutput: number, memo: SwapMemo = createSwapMemo()): Plan | undefined {
  if (paths.length === 0 || amountIn <= 0n) return undefined
  const part = amountIn / BigInt(PARTS)
  if (part <= 0n) return undefined
  const amounts = paths.map(() => 0n)
  const states: PoolStates = new Map()
  // A path's part is priced on the states of its own pools only; that price holds until a part
  // goes through one of them (or the part's size changes), so only the paths sharing a pool with
  // the last one chosen are priced again. A trial's output (`null`: the path cannot take the part)
  // and the states it leaves per hop are kept per path, written in place: no map or executed path
  // per trial (the trials are most of a small quote's simulations).
  const poolKeys = paths.map((path) => new Set(path.map((hop) => hop.pool.key)))
  const trialOut: (bigint | null | undefined)[] = paths.map(() => undefined)
  const trialStates: Pool[][] = paths.map(() => [])
  let pricedSize = -1n
  for (let k = 0; k < PARTS; k++) {
    // The last part takes the rounding remainder.
    const size = k === PARTS - 1 ? amountIn - part * BigInt(PARTS - 1) : part
    if (size !== pricedSize) {
      trialOut.fill(undefined)
      pricedSize = size
    }
    let best = -1
    let bestOut = 0n
    for (let p = 0; p < paths.length; p++) {
      let out = trialOut[p]
      if (out === undefined) trialOut[p] = out = tryPart(paths[p]!, size, states, memo, trialStates[p]!) ?? null
      if (out !== null && out > bestOut) {
        best = p
        bestOut = out
      }
    }
    if (best < 0) return undefined
    amounts[best] = amounts[best]! + size
    const chosen = paths[best]!
    // In hop order: a pool the path trades twice ends in the state its later hop left.
    for (let hop = 0; hop < chosen.length; hop++) states.set(chosen[hop]!.pool.key, trialStates[best]![hop]!)
    const touched = poolKeys[best]!
    for (let p = 0; p < paths.length; p++)
      for (const key of poolKeys[p]!)
        if (touched.has(key)) {
          trialOut[p] = undefined
          break
        }
  }
  // Refinement: halve the part and move it between the paths while the plan's exact value (net of
  // gas) improves, within REFINE_BUDGET simulations.
  const simulate = (shares: bigint[]) => simulatePlan(paths.map((path, p) => ({ path, amountIn: shares[p]! })), { gasCostInOutput, memo })
  const value = (plan: Plan | undefined) => (plan ? getNetOutput(plan, gasCostInOutput) : -Infinity)
  let plan = simulate(amounts)
  // The parts were priced in the order they were chosen, but the plan runs path by path (or as a
  // flow): a path whose part came after others through a shared pool may overfill a pool further
  // on when it runs first. Fitted to the pools, the split still executes, and the refinement
  // below starts from it (without, it only took a move the flow could fill, or nothing).
  if (!plan && fitToPools(paths, amounts, memo)) plan = simulate(amounts)
  let current = value(plan)
  let budget = REFINE_BUDGET
  /** Takes `trial` when its exact value is higher. */
  const tryShares = (trial: bigint[]) => {
    const next = simulate(trial)
    if (!(value(next) > current)) return false
    amounts.splice(0, amounts.length, ...trial)
    plan = next
    current = value(next)
    return true
  }
  for (let step = part / 2n; step > 0n && budget > 0; step /= 2n) {
    for (let moved = true; moved && budget > 0; ) {
      moved = false
      for (let from = 0; from < paths.length && !moved && budget > 0; from++) {
        if (amounts[from]! < step) continue
        for (let to = 0; to < paths.length && !moved && budget > 0; to++) {
          if (to === from) continue
          const trial = [...amounts]
          trial[from] = trial[from]! - step
          trial[to] = trial[to]! + step
          budget--
          moved = tryShares(trial)
        }
      }
    }
    if (step < part / 16n) break
  }
  // With gas priced in: a used path's whole amount to another path (replacing it, or merging into
  // one in use), while the exact value improves, within SWAP_BUDGET simulations. A move whose exact
  // value is known from one path's simulation (paths that share no pool), or bounded by its paths
  // run alone (see standaloneBound), and does not improve is not simulated as a plan, but still
  // counts against the budget: the moves tried and taken stay those the plan's simulation would take.
  for (let swaps = gasCostInOutput > 0 ? SWAP_BUDGET : 0, moved = true; moved && swaps > 0; ) {
    moved = false
    for (let from = 0; from < paths.length && !moved && swaps > 0; from++) {
      if (amounts[from] === 0n) continue
      for (let to = 0; to < paths.length && !moved && swaps > 0; to++) {
        if (to === from) continue
        swaps--
        const known = plan && mergedMoveValue(plan, paths, amounts, from, to, gasCostInOutput, memo)
        if (known !== undefined && !(known > current)) continue
        const trial = [...amounts]
        trial[to] = trial[to]! + trial[from]!
        trial[from] = 0n
        // Over shared pools: the moved plan's output is at most its paths' outputs run alone, and
        // its gas costs something, so a move whose paths alone do not reach the current value
        // cannot win (most of those merging a large trade onto fewer paths lose far more output
        // than the gas they save). BOUND_SLACK covers the pools' integer rounding, which the bound's
        // argument (on the exact curves) leaves out.
        const most = known === undefined ? standaloneBound(paths, trial, memo) : undefined
        if (most !== undefined && Number(most) * (1 + BOUND_SLACK) <= current) continue
        moved = tryShares(trial)
      }
    }
  }
  return plan
}

/**
 * One part through `path` on `states` (read only): its output, or undefined when a hop cannot be
 * filled; the state each hop leaves is written to `next` (by hop). As `simulatePath` on a copy of
 * the path's states, without the copy or the executed path.
 */
function tryPart(path: Path, size: bigint, states: PoolStates, memo: SwapMemo, next: Pool[]): bigint | undefined {
  let amount = size
  for (let hop = 0; hop < path.length; hop++) {
    const { pool: original, tokenIn, tokenOut } = path[hop]!
    let pool = states.get(original.key) ?? original
    // A pool an earlier hop of this path traded: the state that hop left.
    for (let earlier = hop - 1; earlier >= 0; earlier--)
      if (path[earlier]!.pool.key === original.key) {
        pool = next[earlier]!
        break
      }
    const result = quoteMemoized(pool, tokenIn, tokenOut, amount, memo)
    if (!result) return undefined
    next[hop] = result.next
    amount = result.amountOut
  }
  return amount
}
