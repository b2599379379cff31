// Sushi's Tines router fed the same pool states: V2 pairs as its
// ConstantProductRPool, V3 pools as its UniV3Pool with their ticks. A V3 state
// knows ticks only inside its window, so liquidity is cut to zero at the
// window's edges (Tines would otherwise assume the last liquidity runs on).
// Its route (a DAG of legs with portions) is turned into weft paths with input
// fractions, to be executed exactly on weft's pools.
import {
  type CLTick,
  ConstantProductRPool,
  type MultiRoute,
  type RPool,
  type RToken,
  UniV3Pool,
  findMultiRouteExactIn,
  findMultiRouteExactOut,
} from '@sushiswap/tines'
import type { Address } from 'viem'
import type { Path } from '../../src/router/types.js'
import { buildFloatCurve, capacityFloat, getKnownEdgeTick } from './curves.js'
import type { BenchToken, Market, MarketPool } from './market.js'

/** Tines pools and tokens for a set of market pools. */
export type TinesGraph = { pools: RPool[]; tokens: Map<Address, RToken>; byAddress: Map<string, MarketPool> }

const MIN_TICK = -887272
const MAX_TICK = 887272

function toTinesV3(entry: MarketPool, token0: RToken, token1: RToken): UniV3Pool {
  const state = entry.state
  if (state.family !== 'uniswapV3') throw new Error('not a V3 state')
  const lower = getKnownEdgeTick(state, true)
  const upper = getKnownEdgeTick(state, false)
  const liquidity = BigInt(state.liquidity)
  // Liquidity just above the lower edge and just below the upper edge.
  let atLower = liquidity
  for (const t of [...state.ticks].reverse()) if (t.index <= state.tick && t.index > lower) atLower -= BigInt(t.liquidityNet)
  let atUpper = liquidity
  for (const t of state.ticks) if (t.index > state.tick && t.index < upper) atUpper += BigInt(t.liquidityNet)
  const ticks: CLTick[] = []
  if (lower > MIN_TICK) ticks.push({ index: lower, DLiquidity: atLower })
  for (const t of state.ticks) if (t.index > lower && t.index < upper) ticks.push({ index: t.index, DLiquidity: BigInt(t.liquidityNet) })
  if (upper < MAX_TICK) ticks.push({ index: upper, DLiquidity: -atUpper })
  // Reserves (Tines uses them to weigh prices): what each direction can take out within the window.
  const reserve1 = BigInt(Math.floor(capacityFloat(buildFloatCurve(state, state.token0)).y))
  const reserve0 = BigInt(Math.floor(capacityFloat(buildFloatCurve(state, state.token1)).y))
  return new UniV3Pool(
    state.address,
    token0,
    token1,
    state.fee / 1e6,
    reserve0,
    reserve1,
    state.tick,
    liquidity,
    BigInt(state.sqrtPriceX96),
    ticks,
  )
}

/**
 * Tines' view of a market's pools (built once; routing does not change them).
 *
 * @example
 * const graph = buildTinesGraph(market, market.pools)
 */
export function buildTinesGraph(market: Market, pools: readonly MarketPool[]): TinesGraph {
  const tokens = new Map<Address, RToken>()
  const tokenOf = (t: BenchToken): RToken => {
    let token = tokens.get(t.address)
    if (!token) {
      token = { name: t.symbol, symbol: t.symbol, address: t.address, decimals: t.decimals, chainId: market.chain.id }
      tokens.set(t.address, token)
    }
    return token
  }
  for (const t of market.tokens) tokenOf(t)
  const result: RPool[] = []
  for (const entry of pools) {
    const { state } = entry
    const t0 = tokenOf(market.tokenByAddress.get(state.token0)!)
    const t1 = tokenOf(market.tokenByAddress.get(state.token1)!)
    if (state.family === 'uniswapV2') {
      result.push(new ConstantProductRPool(state.address, t0, t1, (entry.v2FeeBps ?? 30) / 10_000, BigInt(state.reserve0), BigInt(state.reserve1)))
    } else result.push(toTinesV3(entry, t0, t1))
  }
  return { pools: result, tokens, byAddress: new Map(pools.map((p) => [p.state.address, p])) }
}

/** A route as weft paths and the fraction of the input each takes. */
export type FractionalRoute = { paths: Path[]; fractions: number[]; status: string }

/** Decomposes Tines' legs (portions of each token's outflow) into paths with input fractions. */
function toPaths(route: MultiRoute, graph: TinesGraph, tokenIn: Address, tokenOut: Address): FractionalRoute {
  const byFrom = new Map<string, MultiRoute['legs']>()
  for (const leg of route.legs) {
    const from = leg.tokenFrom.address.toLowerCase()
    const list = byFrom.get(from)
    if (list) list.push(leg)
    else byFrom.set(from, [leg])
  }
  const paths: Path[] = []
  const fractions: number[] = []
  const walk = (token: string, fraction: number, hops: Path) => {
    if (token === tokenOut) {
      paths.push(hops)
      fractions.push(fraction)
      return
    }
    if (hops.length >= 6) return
    for (const leg of byFrom.get(token) ?? []) {
      const entry = graph.byAddress.get(leg.poolAddress.toLowerCase())
      if (!entry || leg.absolutePortion <= 0) continue
      const next = leg.tokenTo.address.toLowerCase() as Address
      walk(next, fraction * leg.absolutePortion, [...hops, { pool: entry.pool, tokenIn: token as Address, tokenOut: next }])
    }
  }
  walk(tokenIn, 1, [])
  const kept = fractions.map((f, i) => (f > 1e-12 ? i : -1)).filter((i) => i >= 0)
  return { paths: kept.map((i) => paths[i]!), fractions: kept.map((i) => fractions[i]!), status: route.status }
}

/**
 * Tines' exact-in route for `amountIn`, valuing gas at `gasPrice` raw units of `gasToken` per gas:
 * wei of the chain's wrapped ether (Tines prices it in the output through the pools), or raw units
 * of the output token itself when a host's price must stand in for pools that do not link the two.
 *
 * @example
 * const route = routeWithTines(graph, usdc, weth, 10n ** 12n, 20e9, wethAddress)
 */
export function routeWithTines(
  graph: TinesGraph,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
  gasPrice: number,
  gasToken: Address,
): FractionalRoute {
  const from = graph.tokens.get(tokenIn)!
  const to = graph.tokens.get(tokenOut)!
  const route = findMultiRouteExactIn(from, to, amountIn, graph.pools, graph.tokens.get(gasToken)!, gasPrice)
  return toPaths(route, graph, tokenIn, tokenOut)
}

/**
 * Tines' exact-out route for `amountOut`: the split shape it picks (input fractions).
 *
 * @example
 * const route = routeWithTinesExactOut(graph, usdc, weth, 10n ** 20n, 0, wethAddress)
 */
export function routeWithTinesExactOut(
  graph: TinesGraph,
  tokenIn: Address,
  tokenOut: Address,
  amountOut: bigint,
  gasPriceWei: number,
  weth: Address,
): FractionalRoute {
  const from = graph.tokens.get(tokenIn)!
  const to = graph.tokens.get(tokenOut)!
  const route = findMultiRouteExactOut(from, to, amountOut, graph.pools, graph.tokens.get(weth)!, gasPriceWei)
  return toPaths(route, graph, tokenIn, tokenOut)
}
