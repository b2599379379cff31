import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { assembleGraph } from './assembleGraph.js'
import { MAX_EXTRA_TOKENS, chooseByGain } from './chooseByGain.js'
import { type Trade, createMarket } from './market.js'
import { screenIntermediates } from './screening.js'
import type { RouteGraph } from './types.js'

/**
 * Builds the route graph for a trade of `size` (raw input units, or an exact
 * output in raw output units): token paths up to `maxHops` through the
 * connectors and through tokens beyond them with deep pools toward both ends.
 * Those are screened by depth (the thinnest hop of their best path), then
 * ranked by what they add at the gas-free optimum over the connectors: the
 * rise in the dual bound their pools bring at its prices (their own price
 * optimised), the best few kept. Pools too shallow to matter for this size
 * are left out of the optimisation (the certificate still covers them).
 *
 * @example
 * const graph = buildRouteGraph({ pools, tokenIn: weth, tokenOut: usdc, connectors, maxHops: 3 }, 1e18)
 * const forOutput = buildRouteGraph({ pools, tokenIn: weth, tokenOut: usdc, connectors, maxHops: 3 }, { amountOut: 3e9 })
 */
export function buildRouteGraph(
  parameters: { pools: readonly Pool[]; tokenIn: Address; tokenOut: Address; connectors: readonly Address[]; maxHops: number; margins?: ReadonlyMap<Address, number> },
  size: number | { amountOut: number },
): RouteGraph {
  const { pools, tokenIn, tokenOut, maxHops, margins } = parameters
  const market = createMarket(pools)
  const trade: Trade = { pools, tokenIn, tokenOut, maxHops, size, ...(margins ? { margins } : {}) }
  const connectors = [...new Set(parameters.connectors.filter((c) => c !== tokenIn && c !== tokenOut))]
  const base = assembleGraph(market, trade, connectors)
  if (maxHops < 2) return base.graph
  const screened = screenIntermediates(market, trade, new Set(connectors))
  if (screened.tokens.length === 0) return base.graph
  if (base.graph.edges.length === 0) {
    const extras = screened.tokens.slice(0, MAX_EXTRA_TOKENS)
    return extras.length > 0 ? assembleGraph(market, trade, [...connectors, ...extras]).graph : base.graph
  }
  const extras = chooseByGain(market, base, screened, connectors, maxHops)
  return extras.length > 0 ? assembleGraph(market, trade, [...connectors, ...extras]).graph : base.graph
}
