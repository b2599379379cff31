// Pool-math micro-benchmarks: one V2 exact quote, one V3 exact swap at 0, 10
// and 50 initialized ticks crossed, each against its target.
import type { Address } from 'viem'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { simulateSwap } from '../../src/protocols/uniswapV3/swap.js'
import { MAX_TICK, MIN_TICK, getSqrtRatioAtTick } from '../../src/protocols/uniswapV3/tickMath.js'
import { UniswapV3Pool } from '../../src/protocols/uniswapV3/pool.js'
import { createMarket, majorTokens } from './market.js'
import { percentile, printTable, timeBatches } from './stats.js'

/** A measured figure against its target (µs per call). */
export type MicroResult = { label: string; targetUs: number; p50Us: number; p99Us: number; samples: number; met: boolean }

/**
 * Runs the micro-benchmarks and prints them with their targets
 * (V2 ≤ 1 µs; V3 ≤ 10 µs + 3 µs per tick crossed).
 *
 * @example
 * const results = runMicroBench()
 */
export function runMicroBench(): MicroResult[] {
  const tokens = majorTokens()
  const [usdc, weth] = [tokens[0]!, tokens[3]!]
  const { chain } = createMarket(tokens, [], 1)
  const [token0, token1] = (usdc.address < weth.address ? [usdc.address, weth.address] : [weth.address, usdc.address]) as [Address, Address]
  const results: MicroResult[] = []
  const record = (label: string, targetUs: number, samples: number[]) => {
    const p50 = percentile(samples, 50)
    const p99 = percentile(samples, 99)
    results.push({ label, targetUs, p50Us: p50, p99Us: p99, samples: samples.length, met: p50 <= targetUs })
  }

  // V2: UniswapV2Pool.quoteExactIn (the call the router makes: the amount, the gas and the next state).
  const v2Dex = chain.dexes.findIndex((d) => d.id === 'uniswapV2')
  const v2 = uniswapV2Family.fromState(
    { family: 'uniswapV2', dex: 'uniswapV2', address: '0x00000000000000000000000000000000000000a2', token0, token1, reserve0: '20000000000000', reserve1: '6666666666666666666666' },
    { chain, dex: chain.dexes[v2Dex]!, dexIndex: v2Dex },
  )
  let amount = 10n ** 9n
  record('V2 quoteExactIn', 1, timeBatches(300, 500, () => v2.quoteExactIn(token0, token1, (amount += 1n))))

  // V3: a 0.3% pool with an initialized tick every 60 ticks either side of the price (liquidity thinning
  // away from it) and a full-range base; selling token0 down to just past the n-th tick crosses exactly n.
  const v3Dex = chain.dexes.findIndex((d) => d.id === 'uniswapV3')
  const L = 10n ** 21n
  const base = 10n ** 20n
  const fullLower = Math.ceil(MIN_TICK / 60) * 60
  const fullUpper = Math.floor(MAX_TICK / 60) * 60
  const ticks = [
    { index: fullLower, liquidityNet: base.toString() },
    ...Array.from({ length: 200 }, (_, k) => ({ index: -60 * (200 - k), liquidityNet: L.toString() })),
    ...Array.from({ length: 200 }, (_, k) => ({ index: 60 * (k + 1), liquidityNet: (-L).toString() })),
    { index: fullUpper, liquidityNet: (-base).toString() },
  ]
  const v3 = uniswapV3Family.fromState(
    {
      family: 'uniswapV3',
      dex: 'uniswapV3',
      address: '0x00000000000000000000000000000000000000a3',
      token0,
      token1,
      fee: 3000,
      tickSpacing: 60,
      sqrtPriceX96: getSqrtRatioAtTick(30).toString(),
      tick: 30,
      liquidity: (base + 200n * L).toString(),
      ticks,
      tickLower: MIN_TICK,
      tickUpper: MAX_TICK,
    },
    { chain, dex: chain.dexes[v3Dex]!, dexIndex: v3Dex },
  ) as UniswapV3Pool
  for (const crossings of [0, 10, 50]) {
    const limit = getSqrtRatioAtTick(crossings === 0 ? 10 : -60 * crossings - 30)
    const amountIn = simulateSwap(v3, true, 10n ** 40n, limit)!.amount0
    const check = simulateSwap(v3, true, amountIn)!
    if (check.initializedTicksCrossed !== crossings) throw new Error(`V3 micro: crossed ${check.initializedTicksCrossed}, wanted ${crossings}`)
    // About 0.5 ms of work per sample.
    const batch = crossings === 0 ? 100 : crossings === 10 ? 20 : 5
    record(`V3 quoteExactIn, ${crossings} ticks crossed`, 10 + 3 * crossings, timeBatches(200, batch, () => v3.quoteExactIn(token0, token1, amountIn)))
  }

  console.log('Pool math (per call: each sample is the mean of a batch of calls)')
  printTable(
    ['call', 'target', 'p50', 'p99', 'samples', ''],
    results.map((r) => [r.label, `≤ ${r.targetUs} µs`, `${r.p50Us.toFixed(2)} µs`, `${r.p99Us.toFixed(2)} µs`, `${r.samples}`, r.met ? 'MET' : 'MISSED']),
  )
  console.log('')
  return results
}
