import { simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Plan } from './types.js'

/** Exact simulations the pruning may spend. */
const PRUNE_BUDGET = 16

/**
 * A plan with paths that cost more gas than they add taken out, on exact
 * simulation: each path's whole amount goes to the others in proportion to
 * what they carry, kept when the plan's exact output net of gas (`gasCostInOutput` raw
 * output units per gas unit) improves, again until no removal pays or
 * PRUNE_BUDGET simulations are spent. The gas search works in the float
 * model with one pool at a time; a path that splits off for a sliver of the
 * trade (a detour through two extra pools) can survive it although its gas
 * is worth more than its output. Returns the better plan found, or `plan`.
 *
 * @example
 * const pruned = prunePaths(plan, 2e9, memo) // the same plan, or one with fewer paths worth more net of gas
 */
export function prunePaths(plan: Plan, gasCostInOutput: number, memo?: SwapMemo): Plan {
  if (!(gasCostInOutput > 0) || plan.paths.length < 2) return plan
  const value = (candidate: Plan) => Number(candidate.amountOut) - Number(candidate.gas) * gasCostInOutput
  let best = plan
  let bestValue = value(plan)
  let allocations = plan.paths.map((p) => ({ path: p.path, amountIn: p.amountIn }))
  for (let budget = PRUNE_BUDGET, improved = true; improved && allocations.length > 1 && budget > 0; ) {
    improved = false
    // The thinnest paths first: they add least output for their gas.
    const order = allocations.map((_, i) => i).sort((a, b) => (allocations[a]!.amountIn < allocations[b]!.amountIn ? -1 : allocations[a]!.amountIn > allocations[b]!.amountIn ? 1 : a - b))
    for (const dropped of order) {
      if (budget <= 0) break
      // The dropped amount to the others in proportion to what they carry (at the split's optimum the
      // paths' marginal rates are equal, so each takes its share), the rounding to the largest.
      const freed = allocations[dropped]!.amountIn
      const rest = allocations.filter((_, i) => i !== dropped).map((a) => ({ ...a }))
      const carried = plan.amountIn - freed
      if (carried <= 0n) continue
      for (const a of rest) a.amountIn += (freed * a.amountIn) / carried
      const largest = rest.reduce((a, b) => (b.amountIn > a.amountIn ? b : a))
      largest.amountIn += plan.amountIn - rest.reduce((sum, a) => sum + a.amountIn, 0n)
      budget--
      const trial = simulatePlan(rest, { gasCostInOutput, memo })
      if (!trial || trial.amountIn !== plan.amountIn || !(value(trial) > bestValue)) continue
      best = trial
      bestValue = value(trial)
      allocations = rest
      improved = true
      break
    }
  }
  return best
}
