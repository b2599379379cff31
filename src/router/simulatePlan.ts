import type { Pool } from '../protocols/types.js'
import type { ExecutedHop, ExecutedPath, Path, Plan } from './types.js'

/** Pool states by key, as the plan has left them so far. */
export type PoolStates = Map<string, Pool>

/**
 * Runs one path exactly on `states`, updating them in place; returns the
 * executed path, or undefined when a hop cannot be filled.
 */
export function simulatePath(path: Path, amountIn: bigint, states: PoolStates): ExecutedPath | undefined {
  const hops: ExecutedHop[] = []
  let amount = amountIn
  for (const hop of path) {
    const pool = states.get(hop.pool.key) ?? hop.pool
    const result = pool.quoteExactIn(hop.tokenIn, hop.tokenOut, amount)
    if (!result) return undefined
    states.set(pool.key, result.next)
    hops.push({ ...hop, pool, amountIn: amount, amountOut: result.amountOut, gas: result.gas })
    amount = result.amountOut
  }
  return { path, amountIn, amountOut: amount, hops }
}

/**
 * Executes allocations in order, as the executor will: each path sees the
 * pool states the previous paths left. Paths with a zero amount are dropped.
 * Returns undefined when any hop cannot be filled.
 *
 * @example
 * const plan = simulatePlan([{ path: a, amountIn: 600n }, { path: b, amountIn: 400n }])
 */
export function simulatePlan(allocations: readonly { path: Path; amountIn: bigint }[]): Plan | undefined {
  const states: PoolStates = new Map()
  const paths: ExecutedPath[] = []
  let amountIn = 0n
  let amountOut = 0n
  let gas = 0n
  for (const { path, amountIn: share } of allocations) {
    if (share <= 0n) continue
    const executed = simulatePath(path, share, states)
    if (!executed) return undefined
    paths.push(executed)
    amountIn += share
    amountOut += executed.amountOut
    for (const hop of executed.hops) gas += hop.gas
  }
  return { paths, amountIn, amountOut, gas }
}
