import { simulatePath } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Path } from './types.js'

/**
 * An upper bound on the output of the plan of `amounts` over `paths` however `simulatePlan` runs
 * it (path by path or as a flow): the sum of each path's output run alone on the pools' own states;
 * undefined when a pool is traded in more than one direction (then a trade can make another's
 * price better) or a path cannot be filled alone. Why it bounds: a pool every path trades the same
 * way (same input and output token) only gets a worse price for a later trade (its input reserve
 * grows, its output reserve shrinks), and gives more for more input; so run path by path, each
 * hop of a path gets at most what it gets alone from the input it is given, which is at most its
 * input alone, and so on to the path's output. Run as a flow, a pool traded once with the sum the
 * paths bring (F(x₁ + x₂ + …), concave, F(0) = 0) gives each path its share in proportion to its
 * input, F(X)·xᵢ/X ≤ F(xᵢ): again at most what it gets alone.
 *
 * @example
 * const most = standaloneBound(paths, [600n, 400n, 0n], memo)
 */
export function standaloneBound(paths: readonly Path[], amounts: readonly bigint[], memo?: SwapMemo): bigint | undefined {
  const direction = new Map<string, string>()
  for (let p = 0; p < paths.length; p++) {
    if (amounts[p]! <= 0n) continue
    for (const hop of paths[p]!) {
      const way = `${hop.tokenIn}>${hop.tokenOut}`
      const seen = direction.get(hop.pool.key)
      if (seen !== undefined && seen !== way) return undefined
      direction.set(hop.pool.key, way)
    }
  }
  let total = 0n
  for (let p = 0; p < paths.length; p++) {
    if (amounts[p]! <= 0n) continue
    const alone = simulatePath(paths[p]!, amounts[p]!, new Map(), memo)
    if (!alone) return undefined
    total += alone.amountOut
  }
  return total
}
