import type { Path } from './types.js'

/**
 * The highest zero-size, fee-free rate among paths: for each, the product of
 * its hops' mid prices (raw output units per raw input unit). 0 when no path
 * has a finite positive rate.
 *
 * @example
 * getBestSpotRate(plan.paths.map((p) => p.path)) // e.g. 3.0e-9 for WETH -> USDC
 */
export function getBestSpotRate(paths: readonly Path[]): number {
  let best = 0
  for (const path of paths) {
    let rate = 1
    for (const hop of path) rate *= hop.pool.spotPrice(hop.tokenIn, hop.tokenOut)
    if (Number.isFinite(rate) && rate > best) best = rate
  }
  return best
}
