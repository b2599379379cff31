// Collapsed prices in the solve of every candidate edge. Newton in log-prices can slide the tokens
// upstream of an exit at its capacity down together: the dual, linear in their prices, falls toward
// a floor above its minimum while its log-price gradient vanishes with the prices, and the solve
// stops with tokens sending what they never received. On the hard bench's 100-pool market of seed
// 116 (H0 -> H2, 10% of its depth, 4 hops) H31 and USDT sat at 1e-8 and 2e4 raw H2 against their
// zero-size values of about 4e2 and 2e14; the flow decomposed into H0 -> H1 -> H2 alone and the route
// through USDC -> H31 -> USDT was lost: 96 bp under the bench's layered plan. Such a solve is now
// made again with the gradient's own curvature, and the lower dual kept.
import { describe, expect, it } from 'vitest'
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { prepareRoute } from '../../src/router/findRoute.js'
import { solveFlow } from '../../src/router/splitSolver.js'
import { routeHardTrade } from '../support/hardMarketRoute.js'

describe('a solve whose prices collapse (hard market)', () => {
  it('routes through the tokens it had priced at nothing (seed 116, H0 -> H2, 10%, 4 hops)', () => {
    const plan = routeHardTrade(100, 116, 'H0->', 0.1, 4)!
    expect(plan.paths.every((path) => path.path.length <= 4)).toBe(true)
    // The bench's layered plan: 38017004565664005512185692; within 0.1 bp of it. Before: 37651704009347176900447045.
    expect(plan.amountOut).toBeGreaterThanOrEqual((38017004565664005512185692n * 99_999n) / 100_000n)
  })

  it('bounds the candidates within 0.01 bp of the optimum (seed 95, H0 -> H1, 30%, 6 hops)', () => {
    const universe = createHardUniverse(100, 95)
    const trade = universe.trades.find((t) => t.label.startsWith('H0->'))!
    const amountIn = Number((trade.depthIn * 300_000_000n) / 10n ** 9n)
    const pools = universe.market.pools.map((p) => p.pool)
    const { graph } = prepareRoute({ pools, tokenIn: trade.tokenIn.address, tokenOut: trade.tokenOut.address, connectors: universe.market.chain.majorTokens, maxHops: 6, gasCostInOutput: 0 }, amountIn)
    const flow = solveFlow(graph, graph.edges.map(() => true), amountIn)
    // The bench's exact plan over every pool: 23712871010576116973895519 (a dual is a bound: never
    // below it). Before: 2.377456e25, 26 bp above.
    expect(flow.dual).toBeGreaterThanOrEqual(23712871010576116973895519 * (1 - 1e-12))
    expect(flow.dual).toBeLessThanOrEqual(23712871010576116973895519 * (1 + 1e-6))
  })
})
