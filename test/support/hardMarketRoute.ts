// A planned trade of the hard bench's seeded markets (scripts/bench/hardMarket.ts) routed by
// findRoute: the shared setup of the router tests that replay a bench case.
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { findRoute } from '../../src/router/findRoute.js'
import type { Pool } from '../../src/protocols/types.js'
import type { Plan, RouteParameters } from '../../src/router/types.js'

/** One planned trade of a hard universe at a size, and a router over the universe's pools. */
export type HardTrade = {
  planned: ReturnType<typeof createHardUniverse>['trades'][number]
  /** `fraction` of the trade's depth, raw input units. */
  amountIn: bigint
  /** The universe's pools, as the router takes them. */
  pools: Pool[]
  /** weft's plan for `amountIn` at most `maxHops` hops, gas priced at `gasCostInOutput` raw output per gas (0: gas-free). */
  route: (maxHops: number, gasCostInOutput?: number) => Plan | undefined
}

/**
 * The universe's planned trade whose label starts with `trade` (e.g. 'H7->') at `fraction` of its
 * depth, with a router over the universe's pools.
 *
 * @example
 * const hard = getHardTrade(100, 25, 'H9->H13', 0.0001)
 * hard.route(4, gasCostIn(hard.planned.tokenOut, 10_000_000n))?.amountOut
 */
export function getHardTrade(pools: number, seed: number, trade: string, fraction: number): HardTrade {
  const universe = createHardUniverse(pools, seed)
  const planned = universe.trades.find((t) => t.label.startsWith(trade))
  if (!planned) throw new Error(`no planned trade ${trade} in the ${pools}-pool universe of seed ${seed}`)
  const amountIn = (planned.depthIn * BigInt(Math.round(fraction * 1e9))) / 10n ** 9n
  const route = (maxHops: number, gasCostInOutput = 0) => findRoute(hardTradeParameters(universe, planned, maxHops, gasCostInOutput), amountIn)
  return { planned, amountIn, pools: universe.market.pools.map((p) => p.pool), route }
}

/**
 * The router's parameters for a planned trade of a hard universe: every pool of the universe, the
 * chain's major tokens as connectors, at most `maxHops` hops, gas at `gasCostInOutput` raw output
 * units per gas (gas-free by default).
 *
 * @example
 * const universe = createHardUniverse(100, 2)
 * const parameters = hardTradeParameters(universe, universe.trades[0]!, 6)
 */
export function hardTradeParameters(
  universe: ReturnType<typeof createHardUniverse>,
  trade: ReturnType<typeof createHardUniverse>['trades'][number],
  maxHops: number,
  gasCostInOutput = 0,
): RouteParameters {
  return {
    pools: universe.market.pools.map((p) => p.pool),
    tokenIn: trade.tokenIn.address,
    tokenOut: trade.tokenOut.address,
    connectors: universe.market.chain.majorTokens,
    maxHops,
    gasCostInOutput,
  }
}

/**
 * weft's plan for the universe's planned trade whose label starts with `trade` (e.g. 'H7->'),
 * at `fraction` of its depth and at most `maxHops` hops, gas priced at `gasCostInOutput` raw
 * output units per gas (gas-free by default); undefined when nothing fills it.
 *
 * @example
 * const plan = routeHardTrade(100, 6, 'H7->', 0.01, 6)
 * plan?.amountOut // the gross output, raw units
 */
export function routeHardTrade(pools: number, seed: number, trade: string, fraction: number, maxHops: number, gasCostInOutput = 0): Plan | undefined {
  return getHardTrade(pools, seed, trade, fraction).route(maxHops, gasCostInOutput)
}
