import { type Allocation, executedPathGas, getNetOutput, simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Plan } from './types.js'

/** The thinnest path's gas, as a share of the plan's value, worth weighing the plan without it (0.001 bp). */
const DROP_GAS_SHARE = 1e-7

/**
 * The plan without its thinnest path (the least input), that path's whole amount given to the
 * other path through the same tokens (a pool beside one of its own on some hop) that pays most for
 * it, net of gas (`gasCostInOutput` raw output units per gas unit), on exact simulation; undefined
 * when no other path goes through its tokens, nothing executes, or the thinnest path's gas is worth
 * at most DROP_GAS_SHARE of the plan's value (balanced, a plan with the path gives at least as
 * much gross, so dropping it gains at most its gas). Not balanced: the caller
 * balances it (polishSplit) when it pays. The pruning gives a removed path's amount to the paths
 * sharing its first pools or to all the others in proportion, so a path through a pool beside
 * another path's (its amount best taken by that path alone) can stay in although its gas is worth
 * more than it adds.
 *
 * @example
 * const thinner = dropThinnest(plan, 2e9, memo) // one path fewer, or undefined
 */
export function dropThinnest(plan: Plan, gasCostInOutput: number, memo?: SwapMemo): Plan | undefined {
  if (plan.paths.length < 2) return undefined
  let thinnest = 0
  plan.paths.forEach((path, i) => {
    if (path.amountIn < plan.paths[thinnest]!.amountIn) thinnest = i
  })
  const thinnestGas = Number(executedPathGas(plan.paths[thinnest]!))
  if (!(thinnestGas * gasCostInOutput > DROP_GAS_SHARE * getNetOutput(plan, gasCostInOutput))) return undefined
  const freed = plan.paths[thinnest]!.amountIn
  const rest: Allocation[] = plan.paths.filter((_, i) => i !== thinnest).map((path) => ({ path: path.path, amountIn: path.amountIn }))
  // The paths through the same tokens (a pool beside one of its own on some hop): the pruning's
  // takers miss them when they share none of its first pools.
  const tokensOf = (allocation: Allocation) => allocation.path.map((hop) => hop.tokenOut).join()
  const tokens = tokensOf(plan.paths[thinnest]!)
  let best: Plan | undefined
  for (const taker of rest) {
    if (taker.path.length !== plan.paths[thinnest]!.path.length || tokensOf(taker) !== tokens) continue
    const trial = simulatePlan(
      rest.map((allocation) => (allocation === taker ? { path: allocation.path, amountIn: allocation.amountIn + freed } : allocation)),
      { gasCostInOutput, memo },
    )
    if (trial && trial.amountIn === plan.amountIn && (!best || getNetOutput(trial, gasCostInOutput) > getNetOutput(best, gasCostInOutput))) best = trial
  }
  return best
}
