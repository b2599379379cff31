import { executedPathGas, simulatePath } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { ExecutedPath, Path, Plan } from './types.js'

/**
 * The exact value (output less gas at `gasCostInOutput`) of `plan`, the plan of `amounts` over
 * `paths`, once path `from`'s whole amount is moved to path `to`, found with one path simulated
 * instead of the plan; undefined when that shortcut does not hold. It holds when the paths in use
 * and `to` share no pool (no pool twice, in one path or two): `simulatePlan` then runs them path
 * by path, each seeing only its own pools' states, so the move changes `from`'s and `to`'s
 * executions alone, and the plan's output and gas are sums over its paths. The value is the one
 * `simulatePlan` gives the moved amounts, to the bit.
 *
 * @example
 * const value = mergedMoveValue(plan, paths, amounts, 2, 0, gasCost) // undefined: simulate the plan
 */
export function mergedMoveValue(
  plan: Plan,
  paths: readonly Path[],
  amounts: readonly bigint[],
  from: number,
  to: number,
  gasCostInOutput: number,
  memo?: SwapMemo,
): number | undefined {
  if (plan.mode !== 'paths' || from === to || amounts[from]! <= 0n) return undefined
  const seen = new Set<string>()
  let executedFrom: ExecutedPath | undefined
  let executedTo: ExecutedPath | undefined
  // The plan's paths are the allocations with an amount, in order.
  for (let p = 0, used = 0; p < paths.length; p++) {
    if (amounts[p] === 0n && p !== to) continue
    for (const hop of paths[p]!) {
      if (seen.has(hop.pool.key)) return undefined
      seen.add(hop.pool.key)
    }
    if (amounts[p] === 0n) continue
    if (p === from) executedFrom = plan.paths[used]
    if (p === to) executedTo = plan.paths[used]
    used++
  }
  if (!executedFrom || executedFrom.path !== paths[from] || (executedTo && executedTo.path !== paths[to])) return undefined
  const merged = simulatePath(paths[to]!, amounts[to]! + amounts[from]!, new Map(), memo)
  if (!merged) return -Infinity
  const amountOut = plan.amountOut - executedFrom.amountOut - (executedTo?.amountOut ?? 0n) + merged.amountOut
  const gas = plan.gas - executedPathGas(executedFrom) - (executedTo ? executedPathGas(executedTo) : 0n) + executedPathGas(merged)
  return Number(amountOut) - Number(gas) * gasCostInOutput
}

