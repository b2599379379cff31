// Column generation for the candidate graph: liquidity reachable only through a chain of tokens
// none of which the candidate selection takes (hard bench 1000:2 H9->H14 1% at 6 hops routed 2%
// of its input through H202 -> H186 -> H210, which the relaxation's trades ranked behind a dozen
// others). Here the chain A -> X1 -> X2 -> X3 -> B prices better than the main route A -> W -> B
// at zero size, but is too shallow to be anyone's best single path; X1 and X3 gain nothing alone
// (X2 is not priced) and are not pooled with each other; and 14 tokens each pooled twice with W
// at prices 5% apart trade far more in the all-pools relaxation (arbitrage between their pools,
// which no route can take), so the relaxation's ranking fills its 12 places with them.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { Pool } from '../protocols/types.js'
import { uniswapV2Family } from '../protocols/uniswapV2/family.js'
import { findRoute } from './findRoute.js'
import { priceColumns } from './priceColumns.js'
import { buildRouteGraph } from './routeGraph.js'
import { simulatePlan } from './simulatePlan.js'
import { solveFlow } from './splitSolver.js'
import type { Path } from './types.js'

const token = (n: number) => `0x${(0xc0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, W, X1, X2, X3, U, V] = [0, 1, 2, 3, 4, 5, 6, 7].map(token) as [Address, Address, Address, Address, Address, Address, Address, Address]
const DECOYS = Array.from({ length: 14 }, (_, i) => token(16 + i))
const E18 = 10n ** 18n
let counter = 0
const nextAddress = () => `0x${(0xf000 + ++counter).toString(16).padStart(40, '0')}` as Address

/** A V2 pair (0.3%) holding `reserveA` whole tokens of `a` and `reserveB` of `b`. */
function pair(a: Address, b: Address, reserveA: bigint, reserveB: bigint): Pool {
  const [token0, token1, reserve0, reserve1] = a < b ? [a, b, reserveA, reserveB] : [b, a, reserveB, reserveA]
  return uniswapV2Family.fromState(
    { family: 'uniswapV2', dex: base.dexes[0]!.id, address: nextAddress(), token0, token1, reserve0: String(reserve0 * E18), reserve1: String(reserve1 * E18) },
    { chain: base, dex: base.dexes[0]!, dexIndex: 0 },
  )
}

const main = [pair(A, W, 1_000_000n, 1_000_000n), pair(W, B, 1_000_000n, 1_000_000n)]
// Each chain pool gives 1% more than par: the chain starts about 3.5% above the main route.
const chain = [pair(A, X1, 100_000n, 101_000n), pair(X1, X2, 100_000n, 101_000n), pair(X2, X3, 100_000n, 101_000n), pair(X3, B, 100_000n, 101_000n)]
// A deep fair 4-hop route: the best single path of 4 hops, so the chain is no length's best.
const detour = [pair(W, U, 10_000_000n, 10_000_000n), pair(U, V, 10_000_000n, 10_000_000n), pair(V, B, 10_000_000n, 10_000_000n)]
const decoys = DECOYS.flatMap((d) => [pair(W, d, 1_000_000n, 1_000_000n), pair(W, d, 1_000_000n, 1_050_000n)])
const pools = [...main, ...chain, ...detour, ...decoys]
const connectors = [W]
const amountIn = 10_000n * E18

const hops = (list: Pool[], tokens: Address[]): Path => list.map((pool, k) => ({ pool, tokenIn: tokens[k]!, tokenOut: tokens[k + 1]! }))
const mainPath = hops(main, [A, W, B])
const chainPath = hops(chain, [A, X1, X2, X3, B])

describe('priceColumns', () => {
  it('prices the chain the candidate graph lacks, and no arbitrage loop', () => {
    // The candidates findRoute starts from: the connector and the best single paths' tokens.
    const graph = buildRouteGraph({ pools, tokenIn: A, tokenOut: B, connectors: [W, U, V], maxHops: 4 }, Number(amountIn))
    expect(graph.tokens).not.toContain(X2)
    const flow = solveFlow(graph, graph.edges.map(() => true), Number(amountIn))
    const columns = priceColumns(pools, graph, flow, Number(amountIn))
    expect(columns.map((column) => column.tokens)).toEqual([[X1, X2, X3]])
    expect(columns[0]!.profit).toBeGreaterThan(0)
  })

  it('finds nothing once the chain is in the graph', () => {
    const graph = buildRouteGraph({ pools, tokenIn: A, tokenOut: B, connectors: [W, U, V, X1, X2, X3], maxHops: 4 }, Number(amountIn))
    const flow = solveFlow(graph, graph.edges.map(() => true), Number(amountIn))
    expect(priceColumns(pools, graph, flow, Number(amountIn))).toEqual([])
  })
})

describe('findRoute through tokens the candidate selection skips', () => {
  it('routes part of the trade through the chain: at least the best split of the main route and the chain', () => {
    const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors, maxHops: 4, gasCostInOutput: 0 }, amountIn)!
    expect(plan.paths.some((path) => path.hops.some((hop) => hop.tokenOut === X2))).toBe(true)
    for (const path of plan.paths) expect(path.hops.length).toBeLessThanOrEqual(4)
    // The best split of the two paths on a 1% grid, simulated exactly.
    let best = 0n
    for (let part = 0n; part <= 100n; part++) {
      const split = simulatePlan([
        { path: mainPath, amountIn: amountIn - (amountIn * part) / 100n },
        { path: chainPath, amountIn: (amountIn * part) / 100n },
      ])
      if (split && split.amountOut > best) best = split.amountOut
    }
    const mainAlone = simulatePlan([{ path: mainPath, amountIn }])!.amountOut
    // The chain is worth more than 10 bp here; the route takes all of it.
    expect(best).toBeGreaterThan(mainAlone + (mainAlone * 10n) / 10_000n)
    expect(plan.amountOut).toBeGreaterThanOrEqual(best)
    expect(plan.certificate!.upperBound).toBeGreaterThanOrEqual(plan.amountOut)
  })
})
