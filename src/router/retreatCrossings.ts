import { getNetOutput, simulatePath, simulatePlan } from './simulatePlan.js'
import { pathKey } from './pathKey.js'
import type { SwapMemo } from './swapMemo.js'
import type { Path, Plan } from './types.js'

/** Path simulations the retreat may spend (a whole plan's trial counts as one per path it holds). */
const RETREAT_BUDGET = 48
/** Bisection steps locating a path's last gas step (to 2^-15 of its input). */
const BISECTION_STEPS = 14

/**
 * The plan with a path pulled back below its last gas step, when that pays
 * net of gas (`gasCostInOutput` raw output units per gas unit). A
 * concentrated pool's gas grows by a step with each tick its swap crosses;
 * the split is balanced on output alone (the float model's marginal rates,
 * then polishSplit's exact ones, where a step is invisible), so a path can
 * cross a tick for a last sliver whose extra output is worth less than the
 * crossing's gas (hard bench 100:16 H0->H2 1% at 20 gwei: 84,400 gas on
 * the last hop, 1.4 bp below the 5% grid). For each path whose gas at its
 * input exceeds its gas at half of it (a step further back frees more
 * input than the other paths take at the same rate), the largest input below
 * its last step is found by bisection on the path's exact simulation; the
 * input freed goes to the other path carrying most, and to all the others in
 * proportion;
 * each trial is simulated exactly and kept when the plan's value net of gas
 * improves, again until no retreat pays or RETREAT_BUDGET is spent. Returns
 * the better plan found, or `plan`. `memo` (optional) holds swaps already
 * simulated in this search.
 *
 * @example
 * const retreated = retreatCrossings(plan, 0.2, memo) // the same paths, one pulled back before a tick it paid too much gas to cross
 */
export function retreatCrossings(plan: Plan, gasCostInOutput: number, memo?: SwapMemo): Plan {
  if (!(gasCostInOutput > 0) || plan.paths.length < 2) return plan
  const value = (candidate: Plan) => getNetOutput(candidate, gasCostInOutput)
  // A path's own gas at an input (alone on fresh states; undefined when it does not fill).
  const gasAt = (path: Path, amountIn: bigint) => simulatePath(path, amountIn, new Map(), memo)?.hops.reduce((sum, hop) => sum + hop.gas, 0n)
  let best = plan
  let bestValue = value(plan)
  let budget = RETREAT_BUDGET
  // Paths already searched at their current input (a retreat changes the inputs: searched again).
  const searched = new Set<string>()
  for (let improved = true; improved && budget > 0; ) {
    improved = false
    const allocations = best.paths.map((p) => ({ path: p.path, amountIn: p.amountIn }))
    // The plan's own execution only (a flow's shared pools, or path by path), as polishSplit's moves.
    const mode = best.mode
    // The paths spending most gas first (the likeliest to have crossed ticks).
    const pathGas = best.paths.map((p) => p.hops.reduce((sum, hop) => sum + hop.gas, 0n))
    const order = allocations.map((_, i) => i).sort((a, b) => (pathGas[b]! > pathGas[a]! ? 1 : pathGas[b]! < pathGas[a]! ? -1 : a - b))
    for (const donor of order) {
      if (budget <= 0 || improved) break
      const { path, amountIn } = allocations[donor]!
      const key = `${pathKey(path)}@${amountIn}`
      if (searched.has(key)) continue
      searched.add(key)
      const half = amountIn / 2n
      const full = gasAt(path, amountIn)
      const least = half > 0n ? gasAt(path, half) : undefined
      budget -= 2
      // No step between half and the whole (a path's gas only grows with its input).
      if (full === undefined || least === undefined || least >= full) continue
      // The largest input found whose gas is below the path's gas at its whole input.
      let below = half
      let above = amountIn
      for (let step = 0; step < BISECTION_STEPS && above - below > 1n; step++) {
        const middle = (below + above) / 2n
        const gas = gasAt(path, middle)
        budget--
        if (gas !== undefined && gas < full) below = middle
        else above = middle
      }
      const freed = amountIn - below
      const others = allocations.map((_, i) => i).filter((i) => i !== donor)
      const largest = others.reduce((a, b) => (allocations[b]!.amountIn > allocations[a]!.amountIn ? b : a))
      // The freed input to the other path carrying most, then to all of them in proportion.
      const takerSets = others.length > 1 ? [[largest], others] : [others]
      for (const takers of takerSets) {
        if (budget <= 0) break
        const trial = give(allocations, donor, below, freed, takers)
        const next = simulatePlan(trial, { gasCostInOutput, memo, mode })
        budget -= allocations.length
        if (!next || next.amountIn !== plan.amountIn || !(value(next) > bestValue)) continue
        best = next
        bestValue = value(next)
        improved = true
      }
    }
  }
  return best
}

/** The allocations with `donor` cut to `kept`, `freed` given to `takers` in proportion to what they carry (the rounding to the first). */
function give(allocations: readonly { path: Path; amountIn: bigint }[], donor: number, kept: bigint, freed: bigint, takers: readonly number[]) {
  const next = allocations.map((a) => ({ ...a }))
  next[donor]!.amountIn = kept
  const carried = takers.reduce((sum, i) => sum + allocations[i]!.amountIn, 0n)
  let given = 0n
  for (const i of takers) {
    const share = carried > 0n ? (freed * allocations[i]!.amountIn) / carried : 0n
    next[i]!.amountIn += share
    given += share
  }
  next[takers[0]!]!.amountIn += freed - given
  return next
}
