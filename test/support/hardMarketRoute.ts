// A planned trade of the hard bench's seeded markets (scripts/bench/hardMarket.ts) routed by
// findRoute, gas-free: the shared setup of the router tests that replay a bench case.
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { findRoute } from '../../src/router/findRoute.js'
import type { Plan } from '../../src/router/types.js'

/**
 * weft's gas-free plan for the universe's planned trade whose label starts with `trade`
 * (e.g. 'H7->'), at `fraction` of its depth and at most `maxHops` hops; undefined when
 * nothing fills it.
 *
 * @example
 * const plan = routeHardTrade(100, 6, 'H7->', 0.01, 6)
 * plan?.amountOut // the gross output, raw units
 */
export function routeHardTrade(pools: number, seed: number, trade: string, fraction: number, maxHops: number): Plan | undefined {
  const universe = createHardUniverse(pools, seed)
  const planned = universe.trades.find((t) => t.label.startsWith(trade))
  if (!planned) throw new Error(`no planned trade ${trade} in the ${pools}-pool universe of seed ${seed}`)
  const amountIn = (planned.depthIn * BigInt(Math.round(fraction * 1e9))) / 10n ** 9n
  return findRoute(
    {
      pools: universe.market.pools.map((p) => p.pool),
      tokenIn: planned.tokenIn.address,
      tokenOut: planned.tokenOut.address,
      connectors: universe.market.chain.majorTokens,
      maxHops,
      gasCostInOutput: 0,
    },
    amountIn,
  )
}
