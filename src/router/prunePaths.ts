import { type Allocation, flowFill, getNetOutput, simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Path, Plan } from './types.js'

/** Exact simulations the pruning may spend. */
const PRUNE_BUDGET = 16

/**
 * A plan with paths that cost more gas than they add, or that lose more to
 * rounding than they add, taken out on exact simulation: each path's whole
 * amount goes to the paths sharing its longest first pools (the first pools
 * then trade what they traded; each sibling in proportion to what it
 * carries), or, when that does not pay or it shares none, to all the others in
 * proportion; kept when the plan's exact output net of gas (`gasCostInOutput`
 * raw output units per gas unit, 0 for gross) improves, again until no
 * removal pays or PRUNE_BUDGET simulations are spent. The gas search works in
 * the float model with one pool at a time; a path that splits off for a
 * sliver of the trade (a detour through two extra pools) can survive it
 * although its gas is worth more than its output; and a float split may
 * spread a low-decimals token's few raw units over many paths, each rounding
 * its part down. Returns the better plan found, or `plan`.
 *
 * With `pastFullPools`, a move that fails because a taker runs through a pool at its end (a pool
 * drained to its last tick: the flow's first unfilled pool) is tried once more without that
 * pool's takers; this mode returns `plan` itself when no move met such a pool (the plain
 * pruning's answer then stands). Without it, one path at a drained pool blocks every move to all
 * the others, and the budget goes on moves that cannot execute.
 *
 * @example
 * const pruned = prunePaths(plan, 2e9, memo) // the same plan, or one with fewer paths worth more net of gas
 * const pastFull = prunePaths(plan, 0, memo, true) // `plan` when no move met a drained pool
 */
export function prunePaths(plan: Plan, gasCostInOutput: number, memo?: SwapMemo, pastFullPools = false): Plan {
  if (!(gasCostInOutput >= 0) || plan.paths.length < 2) return plan
  const value = (candidate: Plan) => getNetOutput(candidate, gasCostInOutput)
  let best = plan
  let bestValue = value(plan)
  let allocations = plan.paths.map((p) => ({ path: p.path, amountIn: p.amountIn }))
  // Whether a move met a full pool (pastFullPools: else the plain pruning's answer stands).
  let metFull = false
  for (let budget = PRUNE_BUDGET, improved = true; improved && allocations.length > 1 && budget > 0; ) {
    improved = false
    // The thinnest paths first: they add least output for their gas.
    const order = allocations.map((_, i) => i).sort((a, b) => (allocations[a]!.amountIn < allocations[b]!.amountIn ? -1 : allocations[a]!.amountIn > allocations[b]!.amountIn ? 1 : a - b))
    for (const dropped of order) {
      if (budget <= 0) break
      const droppedPath = allocations[dropped]!.path
      // Pools at the start of each other path it shares with the dropped one.
      const prefix = (path: Path) => {
        let length = 0
        while (length < path.length && length < droppedPath.length && path[length]!.pool.key === droppedPath[length]!.pool.key) length++
        return length
      }
      const others = allocations.map((_, i) => i).filter((i) => i !== dropped)
      const longest = Math.max(...others.map((i) => prefix(allocations[i]!.path)))
      // The siblings first (their marginal rates were equal too, and the shared pools keep their
      // amounts), then all the others.
      const takerSets = longest > 0 ? [others.filter((i) => prefix(allocations[i]!.path) === longest), others] : [others]
      for (const takers of takerSets) {
        if (budget <= 0) break
        let rest = moveTo(allocations, dropped, takers)
        if (!rest) continue
        budget--
        let trial = simulatePlan(rest, { gasCostInOutput, memo })
        // A taker at a pool's end (a pool drained to its last tick) cannot take its share, and the
        // whole move fails: once more without the takers of the flow's first unfilled pool.
        const full = pastFullPools && !trial && budget > 0 ? flowFill(rest, memo)?.unfilled : undefined
        if (full) {
          metFull = true
          const fullPaths = new Set(full.paths.map((i) => rest![i]!.path))
          const able = takers.filter((i) => !fullPaths.has(allocations[i]!.path))
          rest = able.length > 0 && able.length < takers.length ? moveTo(allocations, dropped, able) : undefined
          if (rest) {
            budget--
            trial = simulatePlan(rest, { gasCostInOutput, memo })
          }
        }
        if (!rest) continue
        if (!trial || trial.amountIn !== plan.amountIn || !(value(trial) > bestValue)) continue
        best = trial
        bestValue = value(trial)
        allocations = rest
        improved = true
        break
      }
      if (improved) break
    }
  }
  return pastFullPools && !metFull ? plan : best
}

/**
 * The allocations without `dropped`, its amount given to `takers` in proportion to what they
 * carry (the rounding to the largest taker); undefined when the takers carry nothing.
 */
function moveTo(allocations: readonly Allocation[], dropped: number, takers: readonly number[]): Allocation[] | undefined {
  const freed = allocations[dropped]!.amountIn
  const carried = takers.reduce((sum, i) => sum + allocations[i]!.amountIn, 0n)
  if (carried <= 0n) return undefined
  const next = allocations.map((a) => ({ ...a }))
  let given = 0n
  for (const i of takers) {
    const share = (freed * allocations[i]!.amountIn) / carried
    next[i]!.amountIn += share
    given += share
  }
  const largest = takers.reduce((a, b) => (allocations[b]!.amountIn > allocations[a]!.amountIn ? b : a))
  next[largest]!.amountIn += freed - given
  return next.filter((_, i) => i !== dropped)
}
