import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
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
  const used = allocations.filter((a) => a.amountIn > 0n)
  if (options.mode === 'flow' && sharesPool(used)) return simulateFlow(used, options.memo)
  const sequential = simulateSequential(used, options.memo)
  if (!sharesPool(used) || options.mode === 'paths') return sequential
  const flow = simulateFlow(used, options.memo)
  if (!flow) return sequential
  if (!sequential) return flow
  const cost = options.gasCostInOutput ?? 0
  const value = (plan: Plan) => getNetOutput(plan, cost)
  const [a, b] = [value(flow), value(sequential)]
  if (a !== b) return a > b ? flow : sequential
  if (flow.amountOut !== sequential.amountOut) return flow.amountOut > sequential.amountOut ? flow : sequential
  return flow.gas <= sequential.gas ? flow : sequential
}

function sharesPool(allocations: readonly Allocation[]): boolean {
  const seen = new Set<string>()
  for (const { path } of allocations)
    for (const hop of path) {
      if (seen.has(hop.pool.key)) return true
      seen.add(hop.pool.key)
    }
  return false
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

function simulateSequential(allocations: readonly Allocation[], memo: SwapMemo | undefined): Plan | undefined {
  const states: PoolStates = new Map()
  const paths: ExecutedPath[] = []
  let amountIn = 0n
  let amountOut = 0n
  let gas = 0n
  for (const { path, amountIn: share } of allocations) {
    const executed = simulatePath(path, share, states, memo)
    if (!executed) return undefined
    paths.push(executed)
    amountIn += share
    amountOut += executed.amountOut
    gas += executedPathGas(executed)
  }
  return { paths, segments: paths.map((p) => ({ amountIn: p.amountIn, hops: p.hops })), mode: 'paths', amountIn, amountOut, gas }
}

/**
 * A pool traded from one token to another, with the paths (and their hop index) that go through
 * it. A multi-token pool traded from one input into two outputs is two edges: two executor steps.
 * `done`: traded already in this execution.
 */
type Edge = { pool: Pool; tokenIn: Address; tokenOut: Address; uses: { path: number; hop: number }[]; done: boolean }

/**
 * Flow execution: undefined when the paths cannot form one (a pool entered from two tokens, or
 * tokens that feed each other in a cycle) or a pool cannot fill its total. Each edge is one
 * executor step, priced on the pool's state as the steps before it (in executor order) left it,
 * so a pool with two edges is simulated exactly as the executor runs it.
 *
 * A flow holds a few edges and tokens, and searches simulate thousands of flows per heavy quote:
 * edges and tokens are found by scanning short lists, not through maps built per call.
 */
function simulateFlow(allocations: readonly Allocation[], memo: SwapMemo | undefined): Plan | undefined {
  if (allocations.length === 0) return undefined
  const sellToken = allocations[0]!.path[0]!.tokenIn
  const buyToken = allocations[0]!.path.at(-1)!.tokenOut
  // Edges in the order the paths first use them, found by pool key, then input, then output token.
  const edges: Edge[] = []
  for (let p = 0; p < allocations.length; p++) {
    const { path } = allocations[p]!
    for (let h = 0; h < path.length; h++) {
      const hop = path[h]!
      let edge: Edge | undefined
      for (const known of edges) {
        if (known.pool.key !== hop.pool.key) continue
        // A pool entered from two tokens: no flow.
        if (known.tokenIn !== hop.tokenIn) return undefined
        if (known.tokenOut === hop.tokenOut) edge = known
      }
      if (edge) edge.uses.push({ path: p, hop: h })
      else edges.push({ pool: hop.pool, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, uses: [{ path: p, hop: h }], done: false })
    }
  }

  const order = topologicalTokens(sellToken, edges)
  if (!order) return undefined

  // What each path carries at its current hop, and its hops as executed.
  const carried = allocations.map((a) => a.amountIn)
  const hops: ExecutedHop[][] = allocations.map(() => [])
  const states: PoolStates = new Map()
  const segments: PlanSegment[] = []
  let amountOut = 0n
  let gas = 0n
  for (const token of order) {
    // Its edges not traded yet, in edge order.
    let leaving = 0
    for (const edge of edges) if (edge.tokenIn === token && !edge.done) leaving++
    for (let k = 0, first = 0; k < leaving; k++, first++) {
      while (edges[first]!.tokenIn !== token || edges[first]!.done) first++
      // Each edge leaving a token spends its paths' amounts, except the last, which spends all
      // that is held: the executor's amountIn 0.
      const segment: PlanSegment = { amountIn: 0n, hops: [] }
      if (k < leaving - 1) for (const use of edges[first]!.uses) segment.amountIn += carried[use.path]!
      // Follow the edge through tokens with a single way in and out: one executor path.
      for (let edge: Edge | undefined = edges[first]; edge; ) {
        // The edge traded once with the total its paths carry.
        let total = 0n
        for (const use of edge.uses) total += carried[use.path]!
        const pool = states.get(edge.pool.key) ?? edge.pool
        const result = quoteMemoized(pool, edge.tokenIn, edge.tokenOut, total, memo)
        if (!result) return undefined
        states.set(pool.key, result.next)
        edge.done = true
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
        if (edge.tokenOut === buyToken) amountOut += result.amountOut
        segment.hops.push({ pool, tokenIn: edge.tokenIn, tokenOut: edge.tokenOut, amountIn: total, amountOut: result.amountOut, gas: result.gas })
        edge = singleWayOn(edges, edge.tokenOut, buyToken)
      }
      segments.push(segment)
      if (token !== sellToken) gas += FLOW_SEGMENT_GAS
    }
  }

  const paths: ExecutedPath[] = allocations.map((a, p) => ({ path: a.path, amountIn: a.amountIn, amountOut: carried[p]!, hops: hops[p]! }))
  let amountIn = 0n
  for (const a of allocations) amountIn += a.amountIn
  return { paths, segments, mode: 'flow', amountIn, amountOut, gas }
}

/**
 * The one edge out of `token` when one edge enters it and one leaves it (and it is not the buy
 * token): the executor path goes on through it. Undefined otherwise.
 */
function singleWayOn(edges: readonly Edge[], token: Address, buyToken: Address): Edge | undefined {
  if (token === buyToken) return undefined
  let entering = 0
  let onward: Edge | undefined
  let leaving = 0
  for (const edge of edges) {
    if (edge.tokenOut === token) entering++
    if (edge.tokenIn === token) {
      leaving++
      onward = edge
    }
  }
  return entering === 1 && leaving === 1 ? onward : undefined
}

/**
 * Tokens in an order where every edge into a token comes before the edges out of it, starting at
 * the sell token; undefined when the edges form a cycle.
 */
function topologicalTokens(start: Address, edges: readonly Edge[]): Address[] | undefined {
  // Tokens in the order they are first named (the start, then each edge's input and output), with
  // their count of edges in.
  const tokens: Address[] = [start]
  const indegree: number[] = [0]
  for (const e of edges) {
    if (!tokens.includes(e.tokenIn)) {
      tokens.push(e.tokenIn)
      indegree.push(0)
    }
    const out = tokens.indexOf(e.tokenOut)
    if (out < 0) {
      tokens.push(e.tokenOut)
      indegree.push(1)
    } else indegree[out] = indegree[out]! + 1
  }
  const order: Address[] = []
  const ready: Address[] = []
  for (let t = 0; t < tokens.length; t++) if (indegree[t] === 0) ready.push(tokens[t]!)
  for (let next = 0; next < ready.length; next++) {
    const token = ready[next]!
    order.push(token)
    for (const e of edges) {
      if (e.tokenIn !== token) continue
      const out = tokens.indexOf(e.tokenOut)
      indegree[out] = indegree[out]! - 1
      if (indegree[out] === 0) ready.push(e.tokenOut)
    }
  }
  return order.length === tokens.length ? order : undefined
}
