import { fitFlowToPools } from './fitFlowToPools.js'
import { fitToPools } from './fitToPools.js'
import { simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { ModelRoute } from './decompose.js'
import type { Path, Plan, RouteGraph } from './types.js'

/** Exact simulations the integer repair may spend. */
const REPAIR_BUDGET = 10

/** A model route made exact: its plan, the paths and their integer inputs, and whether to repair it. */
export type ExactSplit = { plan: Plan; paths: Path[]; amounts: bigint[]; largest: number; repair: boolean; error: number }

/**
 * The model route's paths in integers (shares floored, the remainder to the
 * largest), simulated exactly, and with its smallest path merged into the
 * largest when that is worth more (the path may gain less than the rounding
 * or gas it adds). Flags a repair (see `repairSplit`) when the model and the
 * exact simulation disagree by more than float noise and integer rounding.
 * `memo` (optional) holds swaps already simulated in this search.
 *
 * @example
 * const split = exactSplit(graph, model, 10n ** 18n, (plan) => Number(plan.amountOut), 0)
 * split?.plan.amountOut // the model's split, simulated exactly
 */
export function exactSplit(graph: RouteGraph, model: ModelRoute, amountIn: bigint, value: (plan: Plan) => number, gasCost: number, memo?: SwapMemo): ExactSplit | undefined {
  const paths: Path[] = model.paths.map((p) => p.edges.map((e) => graph.edges[e]!.hop))
  const amounts = model.paths.map((p) => (Number.isFinite(p.share) && p.share > 0 ? BigInt(Math.floor(p.share)) : 0n))
  let largest = 0
  for (let i = 1; i < amounts.length; i++) if (amounts[i]! > amounts[largest]!) largest = i
  const rest = amountIn - amounts.reduce((a, b) => a + b, 0n)
  amounts[largest] = amounts[largest]! + rest
  if (amounts[largest]! <= 0n) return undefined
  const simulate = (shares: bigint[]) => simulatePlan(paths.map((path, i) => ({ path, amountIn: shares[i]! })), { gasCostInOutput: gasCost, memo })
  const modelAmounts = [...amounts]
  let plan = simulate(amounts)
  // A pool the model fills past what it exactly holds (its float curve a hair deep, or a pool one
  // direction shared by several paths) fails the whole split: the paths are fitted to the pools
  // instead, and the split goes on from there (the repair below then weighs it on exact value).
  if (!plan && fitToPools(paths, amounts, memo)) plan = simulate(amounts)
  // Paths that share a pool and do not execute as a flow as the model split them: fitted as a
  // flow too (the model's own execution; see fitFlowToPools), the better kept.
  if (paths.length > 1 && plan?.mode !== 'flow') {
    const fitted = fitFlowToPools(paths, modelAmounts, memo)
    const flow = fitted && simulatePlan(paths.map((path, i) => ({ path, amountIn: fitted[i]! })), { gasCostInOutput: gasCost, memo, mode: 'flow' })
    if (flow && (!plan || value(flow) > value(plan))) {
      plan = flow
      amounts.splice(0, amounts.length, ...fitted!)
    }
  }
  if (!plan) return undefined
  const split: ExactSplit = { plan, paths, amounts, largest, repair: false, error: 0 }
  if (paths.length < 2) return split
  // The model explains the exact output up to float noise and each hop's integer rounding (a raw
  // unit either side of it, valued in output units).
  let rounding = 0
  for (const p of model.paths) for (const e of p.edges) rounding += 2 * (graph.spot[graph.edges[e]!.from]! + Math.max(1, graph.spot[graph.edges[e]!.to]!))
  const miss = Math.abs(Number(plan.amountOut) - model.output)
  split.error = miss / model.output
  split.repair = miss > model.output * 1e-9 + rounding
  let smallest = largest === 0 ? 1 : 0
  for (let i = 0; i < amounts.length; i++) if (i !== largest && amounts[i]! < amounts[smallest]!) smallest = i
  // Without gas only a dust path can gain less than the rounding it adds.
  if (gasCost === 0 && amounts[smallest]! * 1_000_000n > amountIn) return split
  const merged = [...amounts]
  merged[largest] = merged[largest]! + merged[smallest]!
  merged[smallest] = 0n
  const mergedPlan = simulate(merged)
  if (mergedPlan && value(mergedPlan) > value(plan)) {
    split.plan = mergedPlan
    split.amounts = merged
  }
  return split
}

/**
 * Repairs an exact split on simulation: moves between the largest path and
 * each other one, in steps from the model's error down, kept while the exact
 * value improves, within REPAIR_BUDGET simulations. `memo` (optional) holds
 * swaps already simulated in this search.
 *
 * @example
 * if (split.repair) plan = repairSplit(split, 10n ** 18n, (p) => Number(p.amountOut), 0)
 */
export function repairSplit(split: ExactSplit, amountIn: bigint, value: (plan: Plan) => number, gasCost: number, memo?: SwapMemo): Plan {
  const { paths, largest } = split
  const amounts = [...split.amounts]
  let plan = split.plan
  let current = value(plan)
  let step = BigInt(Math.max(1, Math.floor(Number(amountIn) * Math.min(1 / 64, Math.max(1e-7, 8 * split.error)))))
  let budget = REPAIR_BUDGET
  while (budget > 0 && step > 0n) {
    let moved = false
    for (let j = 0; j < paths.length && budget > 0; j++) {
      if (j === largest) continue
      for (const [from, to] of [
        [j, largest],
        [largest, j],
      ] as const) {
        if (budget <= 0 || amounts[from]! < step) continue
        const trial = [...amounts]
        trial[from] = trial[from]! - step
        trial[to] = trial[to]! + step
        budget--
        const next = simulatePlan(paths.map((path, i) => ({ path, amountIn: trial[i]! })), { gasCostInOutput: gasCost, memo })
        if (next && value(next) > current) {
          amounts.splice(0, amounts.length, ...trial)
          plan = next
          current = value(next)
          moved = true
          break
        }
      }
    }
    if (!moved) step /= 4n
  }
  return plan
}
