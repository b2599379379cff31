import { leastInput } from './leastInput.js'
import { polishSplit } from './polishSplit.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Path, Plan } from './types.js'

/** Other paths tried for the freed input (the best single paths come first: a few suffice). */
const MAX_TAKERS = 4

/**
 * A single-path plan whose path pays for rounding (see leastInput) with that input spent on a
 * second path instead: the path cut to its least input, the freed input given to each of `others`
 * (paths sharing no pool with it, the best few first) in turn, the best such split then balanced
 * on exact simulation (polishSplit). polishSplit's own trim only moves input between a split's
 * paths; a single path has nowhere to put it (hard bench 100:35 H14->H19 0.01%, 5 hops: ~0.7 of a
 * raw unit of WBTC, 8 decimals, lost at the hop into it, 0.15 bp, where the 5% grid's second path
 * took 10% and came out 0.02 bp ahead). Returns the better plan by value net of gas, or `plan`.
 *
 * @example
 * const spent = spendRounding(plan, secondBestPaths, 0, memo)
 */
export function spendRounding(plan: Plan, others: readonly Path[], gasCostInOutput: number, memo?: SwapMemo): Plan {
  if (plan.paths.length !== 1 || !(gasCostInOutput >= 0)) return plan
  const only = plan.paths[0]!
  const needed = leastInput(only)
  const freed = only.amountIn - needed
  if (freed <= 0n) return plan
  const value = (candidate: Plan) => getNetOutput(candidate, gasCostInOutput)
  const ownPools = new Set(only.hops.map((hop) => hop.pool.key))
  // The best raw split first (each taker weighed at the freed input alone), then that one balanced:
  // one polish per quote (a single path through a token of few decimals is the common case).
  let split: Plan | undefined
  let tried = 0
  for (const other of others) {
    if (tried >= MAX_TAKERS) break
    if (other.some((hop) => ownPools.has(hop.pool.key))) continue
    tried++
    const trial = simulatePlan(
      [
        { path: only.path, amountIn: needed },
        { path: other, amountIn: freed },
      ],
      { gasCostInOutput, memo },
    )
    if (trial && trial.amountIn === plan.amountIn && (!split || value(trial) > value(split))) split = trial
  }
  if (!split) return plan
  const polished = polishSplit(split, gasCostInOutput, memo)
  const best = value(polished) > value(split) ? polished : split
  return value(best) > value(plan) ? best : plan
}
