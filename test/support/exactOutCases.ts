// Exact-output cases on random V2 + V3 markets, shared by the exact-output search's tests: for each
// market and multiple of its trade, what the exact-input route delivers there, and the outputs asked
// back as shares of it.
import { findRoute } from '../../src/router/findRoute.js'
import type { RouteParameters } from '../../src/router/types.js'
import { createRandom } from './random.js'
import { randomMarket } from './randomMarkets.js'

/** Fee maps of a quote without fees: the routed amount is the sold amount, the net the gross. */
export const noFees = { routedOf: (amountIn: bigint) => amountIn, netOf: (gross: bigint) => gross }

/** One exact output to solve: its market (index and route parameters), the multiple routed exact-in, what that delivered, and the target asked. */
export type ExactOutCase = { market: number; scale: bigint; parameters: RouteParameters; delivered: bigint; target: bigint }

/**
 * The cases of `markets` random markets drawn from `seed` (8 tokens, 20% price skew, density 0.7, up
 * to 4 hops, gas-free): each market's trade times each of `scales`, routed exact-in, and each of
 * `sharesPerMille` of its output as a target. A multiple no route fills gives no case.
 */
export function exactOutCases(seed: number, markets: number, scales: readonly bigint[], sharesPerMille: readonly bigint[]): ExactOutCase[] {
  const random = createRandom(seed)
  const cases: ExactOutCase[] = []
  for (let market = 0; market < markets; market++) {
    const drawn = randomMarket(random, { tokens: 8, skew: 0.2, density: 0.7 })
    const parameters = { pools: drawn.pools, tokenIn: drawn.tokenIn, tokenOut: drawn.tokenOut, connectors: drawn.connectors, maxHops: 4, gasCostInOutput: 0 }
    for (const scale of scales) {
      const delivered = findRoute(parameters, drawn.amountIn * scale)?.amountOut
      if (!delivered) continue
      for (const share of sharesPerMille) cases.push({ market, scale, parameters, delivered, target: (delivered * share) / 1000n })
    }
  }
  return cases
}
