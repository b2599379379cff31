import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type FlowEdge, type PlanShape, findPlanShape } from './planShape.js'
import { type SwapMemo, quoteMemoized } from './swapMemo.js'
import type { ExecutedHop, ExecutedPath, Path, Plan, PlanSegment } from './types.js'

/** Pool states by key, as the plan has left them so far. */
export type PoolStates = Map<string, Pool>

/**
 * Executor gas of a path that starts at an intermediate token: finding the token on the fill's
 * ledger and the extra path entry in calldata (measured on anvil, rounded up).
 */
export const FLOW_SEGMENT_GAS = 2_500n

/** An allocation: a path and the input it is given. */
export type Allocation = { path: Path; amountIn: bigint }

/** Options of `simulatePlan`. */
export type SimulatePlanOptions = {
  /**
   * Value of one unit of gas in raw output units, used to choose between executing shared pools
   * as a flow or path by path (default 0: more output wins, then less gas).
   */
  gasCostInOutput?: number
  /** Swaps already simulated in this search (see `SwapMemo`); the plan is the same with or without. */
  memo?: SwapMemo
  /**
   * Simulate only this execution of paths that share a pool (a search moving a little input
   * within a flow need not price the path-by-path execution each time); default: both, the
   * better kept.
   */
  mode?: Plan['mode']
}

/**
 * Runs one path exactly on `states`, updating them in place; returns the
 * executed path, or undefined when a hop cannot be filled. `memo` (optional)
 * holds swaps already simulated in this search.
 */
export function simulatePath(path: Path, amountIn: bigint, states: PoolStates, memo?: SwapMemo): ExecutedPath | undefined {
  const hops: ExecutedHop[] = []
  let amount = amountIn
  for (const hop of path) {
    const pool = states.get(hop.pool.key) ?? hop.pool
    const result = quoteMemoized(pool, hop.tokenIn, hop.tokenOut, amount, memo)
    if (!result) return undefined
    states.set(pool.key, result.next)
    hops.push({ pool, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, amountIn: amount, amountOut: result.amountOut, gas: result.gas })
    amount = result.amountOut
  }
  return { path, amountIn, amountOut: amount, hops }
}

/**
 * The exact plan the executor will carry out for these allocations. Paths that share no pool run
 * one after another. When paths share a pool, two executions are simulated and the better one is
 * kept (more output net of gas): path by path, each path seeing the states the previous ones
 * left; or as a flow, each pool traded once with the total the paths send through it, the output
 * at an intermediate token divided among the paths in proportion to what they brought. Paths with
 * a zero amount are dropped. Returns undefined when any hop cannot be filled.
 *
 * @example
 * const plan = simulatePlan([{ path: a, amountIn: 600n }, { path: b, amountIn: 400n }])
 */
export function simulatePlan(allocations: readonly Allocation[], options: SimulatePlanOptions = {}): Plan | undefined {
  // Most plans give every path something: then the allocations as given (no copy per plan).
  const used = allocations.every((a) => a.amountIn > 0n) ? allocations : allocations.filter((a) => a.amountIn > 0n)
  const shape = findPlanShape(used, options.memo?.shapes)
  if (options.mode === 'flow' && shape.sharesPool) return simulateFlow(used, shape, options.memo)
  const sequential = simulateSequential(used, shape, options.memo)
  if (!shape.sharesPool || options.mode === 'paths') return sequential
  const flow = simulateFlow(used, shape, options.memo)
  if (!flow) return sequential
  if (!sequential) return flow
  const cost = options.gasCostInOutput ?? 0
  const flowValue = getNetOutput(flow, cost)
  const sequentialValue = getNetOutput(sequential, cost)
  if (flowValue !== sequentialValue) return flowValue > sequentialValue ? flow : sequential
  if (flow.amountOut !== sequential.amountOut) return flow.amountOut > sequential.amountOut ? flow : sequential
  return flow.gas <= sequential.gas ? flow : sequential
}

/**
 * Whether these allocations (each input above zero) execute as a flow: undefined when their paths
 * share no pool or cannot form a flow (see PlanShape); else `unfilled`, the first edge in executor
 * order whose pool cannot fill its total (its place in that order and the allocations that use
 * it), or none when the flow executes.
 *
 * @example
 * const check = flowFill([{ path: a, amountIn: 600n }, { path: b, amountIn: 400n }])
 * check?.unfilled?.paths // e.g. [0, 1]: both paths' total overfills a pool they share
 */
export function flowFill(allocations: readonly Allocation[], memo?: SwapMemo): { unfilled?: { position: number; paths: number[] } } | undefined {
  const shape = findPlanShape(allocations, memo?.shapes)
  if (!shape.sharesPool || !shape.flow) return undefined
  let unfilled: { position: number; paths: number[] } | undefined
  simulateFlow(allocations, shape, memo, (edge, position) => {
    unfilled = { position, paths: edge.uses.map((use) => use.path) }
  })
  return unfilled ? { unfilled } : {}
}

/**
 * A plan's output net of its gas, in raw output units at `gasCostInOutput` per gas: the figure
 * every gas-aware choice of the router compares.
 *
 * @example
 * getNetOutput(plan, 0) === Number(plan.amountOut) // gas-free
 */
export function getNetOutput(plan: Plan, gasCostInOutput: number): number {
  return Number(plan.amountOut) - Number(plan.gas) * gasCostInOutput
}

/**
 * Gas of a path's swaps as executed: what a path adds to a plan run path by path.
 *
 * @example
 * const gas = executedPathGas(plan.paths[0]!)
 */
export function executedPathGas(executed: ExecutedPath): bigint {
  let gas = 0n
  for (const hop of executed.hops) gas += hop.gas
  return gas
}

/**
 * Path-by-path execution: each path on the pool states the paths before it left (a pool's state
 * kept in its slot of the shape, as simulatePath keeps it by key).
 */
function simulateSequential(allocations: readonly Allocation[], shape: PlanShape, memo: SwapMemo | undefined): Plan | undefined {
  const states: (Pool | undefined)[] = new Array(shape.pools)
  const paths: ExecutedPath[] = []
  const segments: PlanSegment[] = []
  let amountIn = 0n
  let amountOut = 0n
  let gas = 0n
  for (let p = 0; p < allocations.length; p++) {
    const { path, amountIn: share } = allocations[p]!
    const slots = shape.hopSlots[p]!
    const hops: ExecutedHop[] = []
    let amount = share
    for (let h = 0; h < path.length; h++) {
      const hop = path[h]!
      const pool = states[slots[h]!] ?? hop.pool
      const result = quoteMemoized(pool, hop.tokenIn, hop.tokenOut, amount, memo)
      if (!result) return undefined
      states[slots[h]!] = result.next
      hops.push({ pool, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, amountIn: amount, amountOut: result.amountOut, gas: result.gas })
      gas += result.gas
      amount = result.amountOut
    }
    paths.push({ path, amountIn: share, amountOut: amount, hops })
    segments.push({ amountIn: share, hops })
    amountIn += share
    amountOut += amount
  }
  return { paths, segments, mode: 'paths', amountIn, amountOut, gas }
}

/**
 * Flow execution: undefined when the paths cannot form one (see PlanShape) or a pool cannot fill
 * its total. Each edge is one executor step, priced on the pool's state as the steps before it (in
 * executor order) left it, so a pool with two edges is simulated exactly as the executor runs it.
 */
function simulateFlow(allocations: readonly Allocation[], shape: PlanShape, memo: SwapMemo | undefined, unfilled?: (edge: FlowEdge, position: number) => void): Plan | undefined {
  if (!shape.flow) return undefined
  // The edge's place in executor order (reported with an edge its pool cannot fill).
  let position = 0
  // What each path carries at its current hop, and its hops as executed.
  const carried = allocations.map((a) => a.amountIn)
  const hops: ExecutedHop[][] = allocations.map(() => [])
  const states: (Pool | undefined)[] = new Array(shape.pools)
  const segments: PlanSegment[] = []
  let amountOut = 0n
  let gas = 0n
  for (const { edges, spendsOwn, fromIntermediate } of shape.flow) {
    const segment: PlanSegment = { amountIn: 0n, hops: [] }
    for (const edge of edges) {
      // The edge traded once with the total its paths carry (the first edge's total is what a
      // segment that spends its own paths' amounts spends).
      let total = 0n
      for (const use of edge.uses) total += carried[use.path]!
      if (spendsOwn && edge === edges[0]) segment.amountIn = total
      const pool = states[edge.slot] ?? edge.pool
      const result = quoteMemoized(pool, edge.tokenIn, edge.tokenOut, total, memo)
      if (!result) {
        unfilled?.(edge, position)
        return undefined
      }
      position++
      states[edge.slot] = result.next
      gas += result.gas
      // The output divided among the paths in proportion to their input; the last takes the rest,
      // so the shares sum exactly to what the pool gave.
      let left = result.amountOut
      for (let i = 0; i < edge.uses.length; i++) {
        const use = edge.uses[i]!
        const amountIn = carried[use.path]!
        const share = i === edge.uses.length - 1 ? left : (result.amountOut * amountIn) / total
        left -= share
        const hop = allocations[use.path]!.path[use.hop]!
        hops[use.path]!.push({ pool, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, amountIn, amountOut: share, gas: i === 0 ? result.gas : 0n })
        carried[use.path] = share
      }
      if (edge.buys) amountOut += result.amountOut
      segment.hops.push({ pool, tokenIn: edge.tokenIn, tokenOut: edge.tokenOut, amountIn: total, amountOut: result.amountOut, gas: result.gas })
    }
    segments.push(segment)
    if (fromIntermediate) gas += FLOW_SEGMENT_GAS
  }

  const paths: ExecutedPath[] = allocations.map((a, p) => ({ path: a.path, amountIn: a.amountIn, amountOut: carried[p]!, hops: hops[p]! }))
  let amountIn = 0n
  for (const a of allocations) amountIn += a.amountIn
  return { paths, segments, mode: 'flow', amountIn, amountOut, gas }
}
