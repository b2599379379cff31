import { leastInput } from './leastInput.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Plan } from './types.js'

/**
 * A hop whose output is fewer raw units than this rounds visibly (2^21: one unit is 0.005 bp of
 * it): a path through it gives the same output over a whole tooth of inputs, each unit of that
 * token one tooth.
 */
const COARSE_UNITS = 1n << 21n

/**
 * The plan with one of two of its paths (`first`, `second`) cut to the least input that still
 * gives its output, the input freed given to the other, when that executes higher net of gas;
 * undefined otherwise. A path through a hop of few raw units (a token of few decimals) gives a
 * staircase of outputs: a split between it and a finer path, moved by any amount, lands anywhere
 * in a tooth, and a search along the move sees a sawtooth whose tops it cannot tell from the
 * envelope (hard bench 100:375 H9->H13 0.01%, 4 hops: a path through 38,000 raw units of WBTC, each
 * unit 0.26 bp of its output; the polish stopped on a tooth 0.029 bp below the 5% grid's split of
 * the same two paths). Cut to its tooth's start, each trial weighs the envelope. A path is cut through
 * its own first hops only (see toothEnd).
 *
 * @example
 * const snapped = snapToTooth(plan, 0, 1, 0) // plan.paths[0] or [1] at the start of its tooth, or undefined
 */
export function snapToTooth(plan: Plan, first: number, second: number, gasCostInOutput: number, memo?: SwapMemo): Plan | undefined {
  if (first === second || first < 0 || second < 0 || first >= plan.paths.length || second >= plan.paths.length) return undefined
  let best: Plan | undefined
  let bestValue = getNetOutput(plan, gasCostInOutput)
  for (const [cut, receiver] of [
    [first, second],
    [second, first],
  ] as const) {
    const path = plan.paths[cut]!
    const through = toothEnd(plan, cut)
    if (through < 0) continue
    const needed = leastInput(path, through)
    if (needed >= path.amountIn) continue
    const amounts = plan.paths.map((p) => p.amountIn)
    amounts[receiver] = amounts[receiver]! + path.amountIn - needed
    amounts[cut] = needed
    const next = simulatePlan(
      plan.paths.map((p, i) => ({ path: p.path, amountIn: amounts[i]! })),
      { gasCostInOutput, memo, mode: plan.mode },
    )
    const nextValue = next && next.amountIn === plan.amountIn ? getNetOutput(next, gasCostInOutput) : -Infinity
    if (nextValue > bestValue) {
      best = next!
      bestValue = nextValue
    }
  }
  return best
}

/**
 * Whether path `index` of the plan gives a staircase of outputs snapToTooth can cut: a hop of
 * fewer than COARSE_UNITS raw units out among its first hops that no other path trades.
 *
 * @example
 * toothed(plan, 0) // true when plan.paths[0] passes a coarse hop before any pool it shares
 */
export function toothed(plan: Plan, index: number): boolean {
  return toothEnd(plan, index) >= 0
}

/**
 * The last hop of path `index`'s own first hops (before the first pool another path trades: their
 * amounts are the path's alone) when one of them gives fewer than COARSE_UNITS raw units; -1
 * otherwise. Cut through that hop, the path keeps what it gives there, so the hops after it, shared
 * or not, trade the same (hard bench 100:368 H5->H10 0.01% at 6 hops: a path through 80,000 raw
 * units of WBTC into a WETH -> H10 pool another path trades too, each unit 0.07 bp).
 */
function toothEnd(plan: Plan, index: number): number {
  // Most paths pass no coarse hop: told without building the other paths' pools.
  if (!plan.paths[index]!.hops.some((hop) => hop.amountOut < COARSE_UNITS)) return -1
  const others = new Set(plan.paths.flatMap((other, i) => (i === index ? [] : other.hops.map((hop) => hop.pool.key))))
  const hops = plan.paths[index]!.hops
  let end = -1
  let coarse = false
  for (let h = 0; h < hops.length && !others.has(hops[h]!.pool.key); h++) {
    end = h
    coarse ||= hops[h]!.amountOut < COARSE_UNITS
  }
  return coarse ? end : -1
}
