import { allPoolsBound } from '../router/allPoolsBound.js'
import { allPoolsScope } from '../router/allPoolsScope.js'
import { getCurve } from '../router/curves.js'
import { DEFAULT_MAX_HOPS, type RouteParameters } from '../router/types.js'

/**
 * The largest input any plan can sell: a transaction carries less than 2^256 (an exact output
 * whose input would reach it is a 404 anyway).
 */
const LARGEST_INPUT = 2 ** 256

/**
 * The most input any plan can sell into the pools that take the input token: every path starts
 * with one of their directions, and each takes at most its `maxIn` in all (swaps one after
 * another through a pool move its price as one swap would). Past that, none: a pool whose drained
 * state still takes more (a family that limits each swap, not the pool) makes it 2^256.
 */
function largestInput({ pools, tokenIn }: RouteParameters): number {
  let total = 0n
  for (const pool of pools) {
    if (!pool.tokens.includes(tokenIn)) continue
    for (const token of pool.tokens) {
      if (token === tokenIn) continue
      const { maxIn } = pool.limits(tokenIn, token)
      if (maxIn <= 0n) continue
      const drained = pool.quoteExactIn(tokenIn, token, maxIn)?.next
      if (!drained || drained.limits(tokenIn, token).maxIn > 0n) return LARGEST_INPUT
      total += maxIn
    }
  }
  // Rounded up past the float conversion's error, so the bound covers the exact total.
  const most = Number(total) * (1 + 1e-12)
  return most > 0 && most < LARGEST_INPUT ? most : LARGEST_INPUT
}

/**
 * Whether no plan of at most maxHops paths, through any pool of the list and
 * at any input a transaction can carry, delivers `gross` (raw output units,
 * before the output-side fees): the all-pools relaxation's bound (the dual of
 * the convex routing problem over every pool direction a path within maxHops
 * can use, a true upper bound by weak duality, float slack included) at the
 * largest input any plan sells (what the input token's pools take in all,
 * else 2^256), below `gross`. The dual's input price is positive, so its
 * figure bounds every plan selling at most that input, not just that one; one solve
 * over every pool (milliseconds) answers what an exact search would spend a
 * dozen routes on. False whenever the bound cannot be computed or a pool in
 * reach has no float model: refusing is only ever proved, never guessed.
 *
 * @example
 * if (beyondEveryPlan(parameters, 10n ** 30n)) throw noRoute() // more than every pool can give
 */
export function beyondEveryPlan(parameters: RouteParameters, gross: bigint): boolean {
  const { pools, tokenIn, tokenOut, maxHops = DEFAULT_MAX_HOPS } = parameters
  let bound: number
  try {
    // A family without a float model is sampled around the input its pool is expected to take,
    // and at this input every sample is past its capacity: the curve would be empty and the bound
    // would leave the pool out. Only a scope of modelled pools (V2, V3, V4, Solidly, equal-weight
    // Balancer: each curve at or above the pool's exact outputs) proves anything.
    const scope = allPoolsScope(pools, tokenIn, tokenOut, maxHops)
    if (scope?.directions.some((direction) => direction.routable && getCurve(direction.pool, direction.tokenIn, direction.tokenOut, 1).sampled)) return false
    bound = allPoolsBound(pools, tokenIn, tokenOut, largestInput(parameters), maxHops, new Map()).bound
  } catch {
    return false
  }
  return Number.isFinite(bound) && bound >= 0 && Number(gross) > bound
}
