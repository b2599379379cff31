// The bench's independent optimum: a plan "fills" only when the input reaches the output. At a
// network's capacity the dual prices of saturated tokens fall near zero, so a plan that sells the
// input into a pool and leaves that pool's output stuck on the way looked filled by value alone
// (the hard bench counted weft's correct 404s as wrong refusals).
import { describe, expect, it } from 'vitest'
import { type BenchToken, createMarketFromStates, majorTokens, tokenAddress } from '../../scripts/bench/market.js'
import { buildNetwork, executeDual, solveDual } from '../../scripts/bench/networkOptimum.js'
import { findRoute } from '../../src/router/findRoute.js'
import { getSqrtRatioAtTick } from '../../src/protocols/uniswapV3/tickMath.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'

const token = (index: number, symbol: string): BenchToken => ({ address: tokenAddress(900 + index), symbol, decimals: 18, priceUsd: 1 })
const [A, B, C] = [token(0, 'A'), token(1, 'B'), token(2, 'C')] as [BenchToken, BenchToken, BenchToken]
const E18 = 10n ** 18n
const ordered = (x: BenchToken, y: BenchToken) => (x.address < y.address ? [x, y] : [y, x])

// A -> B: a deep V2 pair (takes any input). B -> C: one V3 position of ±60 ticks around the price,
// so B -> C takes about 3 B (liquidity 1000 B) and then nothing more.
const [a0, a1] = ordered(A, B)
const pairAB: UniswapV2PoolState = {
  family: 'uniswapV2',
  dex: 'uniswapV2',
  address: '0xba00000000000000000000000000000000000901',
  token0: a0!.address,
  token1: a1!.address,
  reserve0: (1_000_000n * E18).toString(),
  reserve1: (1_000_000n * E18).toString(),
}
const [b0, b1] = ordered(B, C)
const liquidity = 1000n * E18
const narrowBC: UniswapV3PoolState = {
  family: 'uniswapV3',
  dex: 'uniswapV3',
  address: '0xba00000000000000000000000000000000000902',
  token0: b0!.address,
  token1: b1!.address,
  fee: 3000,
  tickSpacing: 60,
  sqrtPriceX96: getSqrtRatioAtTick(0).toString(),
  tick: 0,
  liquidity: liquidity.toString(),
  ticks: [
    { index: -60, liquidityNet: liquidity.toString() },
    { index: 60, liquidityNet: (-liquidity).toString() },
  ],
  tickLower: -887272,
  tickUpper: 887272,
}
const market = createMarketFromStates([...majorTokens(), A, B, C], [{ state: pairAB, depthUsd: 2e6 }, { state: narrowBC, depthUsd: 6 }], 'stranding')

function plan(amountIn: bigint) {
  const network = buildNetwork(market, A, C)!
  return executeDual(market, network, solveDual(network, Number(amountIn)), amountIn)
}

describe('executeDual: what a plan strands', () => {
  it('a plan that sells the input into A -> B past what B -> C takes does not fill', () => {
    const amountIn = 1000n * E18
    const result = plan(amountIn)
    expect(result.amountOut).toBeGreaterThan(0n)
    // Nearly all of the input's B is stuck at B: most of the input did not reach the output.
    expect(result.stranded).toBeGreaterThan(0.5)
    expect(result.filled).toBe(false)
    // And indeed no exact plan sells it all: weft refuses it.
    const pools = market.pools.map((p) => p.pool)
    expect(findRoute({ pools, tokenIn: A.address, tokenOut: C.address, connectors: [], maxHops: 2, gasCostInOutput: 0 }, amountIn)).toBeUndefined()
  })

  it('a trade within B -> C’s range fills', () => {
    const result = plan(E18)
    expect(result.filled).toBe(true)
    expect(result.stranded).toBeLessThan(1e-8)
  })
})
