import { findPaths, findRoute } from '../router/findRoute.js'
import { getBestSpotRate } from '../router/getBestSpotRate.js'
import { simulatePlan } from '../router/simulatePlan.js'
import type { Path, Plan, RouteParameters } from '../router/types.js'

/** A plan for a total input: the route for `routed`, plus what the user sends and nets. */
export type SizedPlan = { amountIn: bigint; routed: bigint; plan: Plan; net: bigint }

/** How fees map the user's input to the routed input, and gross output to net output. */
export type FeeMaps = {
  routedOf: (amountIn: bigint) => bigint
  netOf: (grossOut: bigint) => bigint
}

type Shape = { paths: Path[]; weights: bigint[]; total: bigint }

function shapeOf(plan: Plan): Shape {
  const weights = plan.paths.map((p) => p.amountIn)
  return { paths: plan.paths.map((p) => p.path), weights, total: plan.amountIn }
}

/** Splits `routed` across the shape's paths in its proportions (cumulative rounding, exact sum). */
function planAtScale(shape: Shape, routed: bigint): Plan | undefined {
  let cumulative = 0n
  let previousCut = 0n
  const allocations = shape.paths.map((path, i) => {
    cumulative += shape.weights[i]!
    const cut = (routed * cumulative) / shape.total
    const amountIn = cut - previousCut
    previousCut = cut
    return { path, amountIn }
  })
  return simulatePlan(allocations)
}

/**
 * The least input (for a fixed split shape) whose net output reaches `target`:
 * a binary search over exact simulations. Returns undefined when even `hi` falls short.
 */
function leastInput(shape: Shape, target: bigint, hi: bigint, fees: FeeMaps): SizedPlan | undefined {
  const evaluate = (amountIn: bigint): SizedPlan | undefined => {
    const routed = fees.routedOf(amountIn)
    if (routed <= 0n) return undefined
    const plan = planAtScale(shape, routed)
    return plan ? { amountIn, routed, plan, net: fees.netOf(plan.amountOut) } : undefined
  }
  let best = evaluate(hi)
  if (!best || best.net < target) return undefined
  let lo = 0n
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    const trial = evaluate(mid)
    if (trial && trial.net >= target) {
      hi = mid
      best = trial
    } else lo = mid
  }
  return best
}

/**
 * Exact output: the least amount the user sends such that the net output
 * (after every fee) is at least `target`. Starts from a generous input
 * bound, takes the router's optimal split there, and binary-searches the input
 * on that split; then re-optimises the split at the found size and searches
 * again, keeping the smaller input.
 */
export function solveExactOut(parameters: RouteParameters, target: bigint, fees: FeeMaps): SizedPlan | undefined {
  const routeAt = (amountIn: bigint): SizedPlan | undefined => {
    const routed = fees.routedOf(amountIn)
    if (routed <= 0n) return undefined
    const plan = findRoute(parameters, routed)
    return plan ? { amountIn, routed, plan, net: fees.netOf(plan.amountOut) } : undefined
  }
  // No route delivers more than the pools hold of the output token: refuse at once.
  if (leastWith(fees.netOf, target) > maxGrossOut(parameters)) return undefined
  // Upper bound: the input the best single path needs (exact-out through its hops); when no single
  // path can deliver, double from the input the best spot rate implies (a lower bound), at most
  // MAX_DOUBLINGS times past the first fill: 4096x the spot input is a price impact over 99.9%.
  const paths = findPaths(parameters.pools, parameters.tokenIn, parameters.tokenOut, {
    connectors: parameters.connectors,
    maxHops: parameters.maxHops ?? 3,
  })
  let hi = singlePathInput(paths, target, fees) ?? spotInput(paths, target, fees)
  let sized: SizedPlan | undefined
  let previous: bigint | undefined
  let doublings = 0
  for (let i = 0; i < 256; i++) {
    sized = routeAt(hi)
    if (sized) {
      if (sized.net >= target) break
      // Doubling the input no longer moves the output (under 1 ppm): the pools are exhausted.
      if (previous !== undefined && (sized.net - previous) * 1_000_000n < sized.net) return undefined
      if (++doublings > MAX_DOUBLINGS) return undefined
      previous = sized.net
    } else if (previous !== undefined) return undefined // past the liquidity the pools hold
    sized = undefined
    if (hi >= 1n << 255n) return undefined
    hi *= 2n
  }
  if (!sized) return undefined
  let best = leastInput(shapeOf(sized.plan), target, hi, fees) ?? sized
  const reshaped = routeAt(best.amountIn)
  if (reshaped) {
    const again = leastInput(shapeOf(reshaped.plan), target, best.amountIn, fees)
    if (again && again.amountIn < best.amountIn) best = again
  }
  return best
}

/** Doublings of the input allowed once a route fills but falls short of the target. */
const MAX_DOUBLINGS = 12

/** The input the best zero-size rate among the candidate paths implies: no route needs less. */
function spotInput(paths: readonly Path[], target: bigint, fees: FeeMaps): bigint {
  const best = getBestSpotRate(paths)
  if (!(best > 0)) return 1n
  const estimate = Number(leastWith(fees.netOf, target)) / best
  if (!Number.isFinite(estimate) || estimate < 1) return 1n
  const routed = BigInt(Math.min(Math.floor(estimate), 2 ** 255))
  return leastWith(fees.routedOf, routed > 0n ? routed : 1n)
}

/** Least x with f(x) >= target for a non-decreasing f, searching up from `target` (fees only shrink amounts). */
export function leastWith(f: (x: bigint) => bigint, target: bigint): bigint {
  let lo = target - 1n
  let hi = target > 0n ? target : 1n
  while (f(hi) < target) {
    lo = hi
    hi *= 2n
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (f(mid) >= target) hi = mid
    else lo = mid
  }
  return hi
}

/**
 * The input the best single path needs for the target, computed backwards with
 * each pool's exact-out math; undefined when no single path can deliver it.
 */
function singlePathInput(paths: readonly Path[], target: bigint, fees: FeeMaps): bigint | undefined {
  const gross = leastWith(fees.netOf, target)
  let best: bigint | undefined
  for (const path of paths) {
    let amount: bigint | undefined = gross
    for (let k = path.length - 1; k >= 0 && amount !== undefined; k--) {
      const hop = path[k]!
      amount = hop.pool.quoteExactOut(hop.tokenIn, hop.tokenOut, amount)?.amountIn
    }
    if (amount !== undefined && (best === undefined || amount < best)) best = amount
  }
  return best === undefined ? undefined : leastWith(fees.routedOf, best)
}

/** The most any route could deliver: every pool's output-token limit, summed. */
function maxGrossOut({ pools, tokenOut }: RouteParameters): bigint {
  let total = 0n
  for (const pool of pools) {
    if (!pool.tokens.includes(tokenOut)) continue
    let most = 0n
    for (const token of pool.tokens) {
      if (token === tokenOut) continue
      const { maxOut } = pool.limits(token, tokenOut)
      if (maxOut > most) most = maxOut
    }
    total += most
  }
  return total
}
