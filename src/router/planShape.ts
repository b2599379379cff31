import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import type { Path } from './types.js'

/**
 * A pool traded from one token to another, with the paths (and their hop index) that go through
 * it. A multi-token pool traded from one input into two outputs is two edges: two executor steps.
 * `slot`: where the flow keeps the pool's state (the edges of one pool share it); `buys`: its
 * output is the buy token.
 */
export type FlowEdge = { pool: Pool; tokenIn: Address; tokenOut: Address; uses: { path: number; hop: number }[]; slot: number; buys: boolean }

/**
 * One executor path of a flow: edges traded one after another through tokens with a single way in
 * and out. `spendsOwn`: it spends what its first edge's paths carry (every edge leaving a token but
 * the last, which spends all that is held: the executor's amountIn 0); `fromIntermediate`: it
 * starts at a token other than the sell token (it pays FLOW_SEGMENT_GAS, see simulatePlan).
 */
export type FlowSegmentShape = { edges: FlowEdge[]; spendsOwn: boolean; fromIntermediate: boolean }

/**
 * What simulatePlan needs to know of a set of paths before their amounts (it depends on the paths alone): whether two hops share a
 * pool, and the flow's segments in executor order (undefined when the paths cannot form a flow: a
 * pool entered from two tokens, or tokens that feed each other in a cycle). `pools`: distinct
 * pools of the paths (their state slots); `hopSlots`: each hop's pool slot, by path.
 */
export type PlanShape = { paths: readonly Path[]; sharesPool: boolean; flow: FlowSegmentShape[] | undefined; pools: number; hopSlots: number[][] }

/**
 * Shapes made so far in one search, by their first path (see SwapMemo, which carries it): the
 * searches simulate the same paths at many amounts (a line search moving input between two paths,
 * a pruning dropping one path at a time), so a shape is made once per set of paths, not per plan.
 * Per search, not module-wide: each quote makes its paths afresh, and entries of a long-lived
 * WeakMap outlive their quote until a full GC, each scavenge promoting them (see
 * test/router/boundPromotion.test.ts).
 */
export type PlanShapes = Map<Path, PlanShape[]>

/** Shapes kept per first path (the most recent). */
const SHAPES_PER_PATH = 16

/**
 * The shape of these allocations' paths (see PlanShape), from `known` when made there before
 * (compared path by path, by identity), else made and added to it.
 *
 * @example
 * const shape = findPlanShape([{ path: a }, { path: b }], new Map())
 * shape.sharesPool // whether a and b trade a pool in common
 */
export function findPlanShape(allocations: readonly { path: Path }[], known?: PlanShapes): PlanShape {
  if (allocations.length === 0) return { paths: [], sharesPool: false, flow: undefined, pools: 0, hopSlots: [] }
  if (!known) return makePlanShape(allocations.map((a) => a.path))
  const first = allocations[0]!.path
  let made = known.get(first)
  if (made)
    for (const shape of made) {
      if (shape.paths.length !== allocations.length) continue
      let same = true
      for (let p = 1; p < allocations.length && same; p++) same = shape.paths[p] === allocations[p]!.path
      if (same) return shape
    }
  else known.set(first, (made = []))
  const shape = makePlanShape(allocations.map((a) => a.path))
  if (made.length >= SHAPES_PER_PATH) made.shift()
  made.push(shape)
  return shape
}

/** The shape of these paths (see PlanShape), made afresh. */
function makePlanShape(paths: readonly Path[]): PlanShape {
  // Each pool's state slot by key, in the order the paths first use them.
  const slots = new Map<string, number>()
  const hopSlots: number[][] = []
  let sharesPool = false
  for (const path of paths) {
    const pathSlots: number[] = []
    hopSlots.push(pathSlots)
    for (const hop of path) {
      const slot = slots.get(hop.pool.key)
      if (slot === undefined) {
        pathSlots.push(slots.size)
        slots.set(hop.pool.key, slots.size)
      } else {
        pathSlots.push(slot)
        sharesPool = true
      }
    }
  }
  // Paths that share no pool run one after another: no flow is asked of them.
  return { paths, sharesPool, flow: sharesPool ? flowOf(paths, hopSlots) : undefined, pools: slots.size, hopSlots }
}

/** The flow's segments over these paths (see PlanShape), undefined when they cannot form one. */
function flowOf(paths: readonly Path[], hopSlots: readonly number[][]): FlowSegmentShape[] | undefined {
  const sellToken = paths[0]![0]!.tokenIn
  const buyToken = paths[0]!.at(-1)!.tokenOut
  // Edges in the order the paths first use them, found by pool, then input, then output token.
  const edges: FlowEdge[] = []
  for (let p = 0; p < paths.length; p++) {
    const path = paths[p]!
    for (let h = 0; h < path.length; h++) {
      const hop = path[h]!
      const slot = hopSlots[p]![h]!
      let edge: FlowEdge | undefined
      for (const known of edges) {
        if (known.slot !== slot) continue
        // A pool entered from two tokens: no flow.
        if (known.tokenIn !== hop.tokenIn) return undefined
        if (known.tokenOut === hop.tokenOut) edge = known
      }
      if (edge) edge.uses.push({ path: p, hop: h })
      else edges.push({ pool: hop.pool, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, uses: [{ path: p, hop: h }], slot, buys: hop.tokenOut === buyToken })
    }
  }
  const order = topologicalTokens(sellToken, edges)
  return order && flowSegments(order, edges, sellToken, buyToken)
}

/**
 * The flow's executor segments: tokens in topological order, at each its edges not traded yet (in
 * edge order), each followed through tokens with a single way in and out.
 */
function flowSegments(order: readonly Address[], edges: readonly FlowEdge[], sellToken: Address, buyToken: Address): FlowSegmentShape[] {
  const done = new Set<FlowEdge>()
  const segments: FlowSegmentShape[] = []
  for (const token of order) {
    const leaving = edges.filter((edge) => edge.tokenIn === token && !done.has(edge))
    leaving.forEach((start, k) => {
      const segment: FlowSegmentShape = { edges: [], spendsOwn: k < leaving.length - 1, fromIntermediate: token !== sellToken }
      for (let edge: FlowEdge | undefined = start; edge; edge = singleWayOn(edges, edge.tokenOut, buyToken)) {
        segment.edges.push(edge)
        done.add(edge)
      }
      segments.push(segment)
    })
  }
  return segments
}

/**
 * The one edge out of `token` when one edge enters it and one leaves it (and it is not the buy
 * token): the executor path goes on through it. Undefined otherwise.
 */
function singleWayOn(edges: readonly FlowEdge[], token: Address, buyToken: Address): FlowEdge | undefined {
  if (token === buyToken) return undefined
  let entering = 0
  let onward: FlowEdge | undefined
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
function topologicalTokens(start: Address, edges: readonly FlowEdge[]): Address[] | undefined {
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
