import type { ExecutedPath } from './types.js'

/**
 * The least input that still gives an executed path its output (or, with `lastHop`, what that hop
 * gives): backwards from it, each hop's exact input for what the next one took (a hop into a
 * token of few decimals rounds its output down, so up to a raw unit of that token, worth many raw
 * units of the input, buys nothing). The path's own input when no hop can be cut.
 *
 * @example
 * const needed = leastInput(plan.paths[0]!) // ≤ plan.paths[0]!.amountIn, same output
 */
export function leastInput(path: ExecutedPath, lastHop = path.hops.length - 1): bigint {
  let needed = path.hops[lastHop]?.amountOut ?? path.amountOut
  for (let h = lastHop; h >= 0 && needed > 0n; h--) {
    const hop = path.hops[h]!
    const least = hop.pool.quoteExactOut(hop.tokenIn, hop.tokenOut, needed)
    needed = least && least.amountIn <= hop.amountIn ? least.amountIn : hop.amountIn
  }
  return needed > 0n && needed < path.amountIn ? needed : path.amountIn
}
