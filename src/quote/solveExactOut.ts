import { findRoute } from '../router/findRoute.js'
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
  // Upper bound: double an input until the router's plan nets the target (or liquidity runs out).
  let hi = target > 0n ? target : 1n
  let sized: SizedPlan | undefined
  const routeAt = (amountIn: bigint): SizedPlan | undefined => {
    const routed = fees.routedOf(amountIn)
    if (routed <= 0n) return undefined
    const plan = findRoute(parameters, routed)
    return plan ? { amountIn, routed, plan, net: fees.netOf(plan.amountOut) } : undefined
  }
  // Seed the bound from the best rate at a small size, so the doubling starts close.
  const probe = routeAt(hi)
  if (probe && probe.net > 0n) hi = (target * hi) / probe.net + 1n
  let filled = false
  for (let i = 0; i < 256; i++) {
    sized = routeAt(hi)
    if (sized) {
      if (sized.net >= target) break
      filled = true
    } else if (filled) return undefined // past the liquidity the pools hold
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
