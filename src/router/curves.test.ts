import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { ChainConfig } from '../chains/types.js'
import type { Pool } from '../protocols/types.js'
import { uniswapV2Family } from '../protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../protocols/uniswapV3/family.js'
import { getSqrtRatioAtTick } from '../protocols/uniswapV3/tickMath.js'
import { getCurve } from './curves.js'

const A = '0x000000000000000000000000000000000000000a' as Address
const B = '0x000000000000000000000000000000000000000b' as Address
const E18 = 10n ** 18n

const chain: ChainConfig = { ...base, dexes: [{ ...base.dexes[0]!, id: 'v2', feeBps: 30 }, base.dexes[1]!] }

function v2(reserveA: bigint, reserveB: bigint): Pool {
  return uniswapV2Family.fromState(
    { family: 'uniswapV2', dex: 'v2', address: '0x00000000000000000000000000000000000000f1', token0: A, token1: B, reserve0: String(reserveA), reserve1: String(reserveB) },
    { chain, dex: chain.dexes[0]!, dexIndex: 0 },
  )
}

/** A V3 pool (fee 0.3%, spacing 60) just above tick 0 with positions [lower, upper, liquidity]. */
function v3(positions: [number, number, bigint][], tick = 7): Pool {
  const net = new Map<number, bigint>()
  let liquidity = 0n
  for (const [lower, upper, l] of positions) {
    net.set(lower, (net.get(lower) ?? 0n) + l)
    net.set(upper, (net.get(upper) ?? 0n) - l)
    if (lower <= tick && tick < upper) liquidity += l
  }
  const ticks = [...net.entries()].filter(([, n]) => n !== 0n).sort((x, y) => x[0] - y[0]).map(([index, n]) => ({ index, liquidityNet: String(n) }))
  return uniswapV3Family.fromState(
    {
      family: 'uniswapV3',
      dex: chain.dexes[1]!.id,
      address: '0x00000000000000000000000000000000000000f2',
      token0: A,
      token1: B,
      fee: 3000,
      tickSpacing: 60,
      sqrtPriceX96: String(getSqrtRatioAtTick(tick) + 12345n),
      tick,
      liquidity: String(liquidity),
      ticks,
      tickLower: -887272,
      tickUpper: 887272,
    },
    { chain, dex: chain.dexes[1]!, dexIndex: 1 },
  )
}

// Exact math floors each output: allow one raw unit besides float error.
const relative = (model: number, exact: bigint) => Math.max(0, Math.abs(model - Number(exact)) - 1) / Number(exact)

describe('getCurve', () => {
  it('models a V2 pair to float precision, its marginal and its inverse', () => {
    const pool = v2(1000n * E18, 3_000_000n * 10n ** 6n)
    const curve = getCurve(pool, A, B, 1e18)
    for (const x of [10n ** 12n, E18, 100n * E18, 5000n * E18]) {
      expect(relative(curve.amountOut(Number(x)), pool.quoteExactIn(A, B, x)!.amountOut)).toBeLessThan(1e-9)
      const rate = curve.marginal(Number(x))
      const point = curve.atRate(rate, { input: 0, output: 0, slope: 0 })
      expect(Math.abs(point.input - Number(x)) / Number(x)).toBeLessThan(1e-6)
      expect(point.slope).toBeLessThan(0)
    }
    expect(curve.atRate(curve.rate0 * 1.01, { input: 1, output: 1, slope: 1 })).toEqual({ input: 0, output: 0, slope: 0 })
  })

  it('models V3 liquidity ranges across tick crossings, both directions', () => {
    const pool = v3([
      [-600, 600, 10n ** 21n],
      [-1200, -300, 5n * 10n ** 20n],
      [300, 3000, 2n * 10n ** 21n],
      [-60_000, 60_000, 10n ** 19n],
    ])
    for (const [tokenIn, tokenOut] of [
      [A, B],
      [B, A],
    ] as const) {
      const curve = getCurve(pool, tokenIn, tokenOut, 1e18)
      for (const x of [10n ** 9n, 10n ** 18n, 3n * 10n ** 19n, 10n ** 20n, 2n * 10n ** 21n]) {
        const exact = pool.quoteExactIn(tokenIn, tokenOut, x)
        if (!exact) {
          // More than the ranges hold: the model knows it cannot take it either.
          expect(curve.covers(Number(x))).toBe(false)
          continue
        }
        expect(relative(curve.amountOut(Number(x)), exact.amountOut)).toBeLessThan(1e-9)
        // Gas estimated to within one bitmap word's read.
        expect(Math.abs(curve.gas(Number(x)) - Number(exact.gas))).toBeLessThanOrEqual(8000)
        // The inverse of the marginal returns the same input (where the price moves by more than float noise).
        if (x < 10n ** 18n) continue
        const point = curve.atRate(curve.marginal(Number(x)), { input: 0, output: 0, slope: 0 })
        expect(Math.abs(point.input - Number(x)) / Number(x)).toBeLessThan(1e-6)
      }
    }
  })

  it('covers an input that ends exactly on a tick boundary when ranges lie beyond it', () => {
    const pool = v3([
      [-600, 600, 10n ** 21n],
      [-6000, 6000, 10n ** 20n],
    ])
    // The input that takes the price exactly to tick -600, from a curve built that far.
    const probe = getCurve(pool, A, B, 1e18)
    const rate = probe.marginal(0) * Math.exp(-607 * Math.log(1.0001)) * (1 - 1e-15)
    const onBoundary = probe.atRate(rate, { input: 0, output: 0, slope: 0 }).input
    // A fresh curve has built only its first range: covers() must look past it.
    const fresh = getCurve(pool, A, B, 1e18)
    expect(fresh.covers(onBoundary)).toBe(true)
    expect(pool.quoteExactIn(A, B, BigInt(Math.floor(onBoundary)))).toBeDefined()
  })

  it('routes a pool whose current tick sits in a gap between positions (no active liquidity)', () => {
    // Liquidity only above the price: token1 -> token0 (the price rises) reaches it past a gap.
    const pool = v3([[600, 3000, 10n ** 21n]], 7)
    const up = getCurve(pool, B, A, 1e18)
    expect(up.rate0).toBeGreaterThan(0)
    for (const x of [10n ** 15n, 10n ** 18n, 10n ** 19n]) expect(relative(up.amountOut(Number(x)), pool.quoteExactIn(B, A, x)!.amountOut)).toBeLessThan(1e-9)
    // The other way nothing is there: no rate, no capacity.
    const down = getCurve(pool, A, B, 1e18)
    expect(down.rate0).toBe(0)
    expect(down.covers(1)).toBe(false)
  })

  it('samples exact quotes for a pool family without a model', () => {
    const pool = v2(1000n * E18, 3_000_000n * 10n ** 6n)
    const bare: Pool = {
      key: pool.key,
      address: pool.address,
      protocol: pool.protocol,
      fork: pool.fork,
      family: 'bare',
      tokens: pool.tokens,
      spotPrice: (a, b) => pool.spotPrice(a, b),
      quoteExactIn: (a, b, x) => pool.quoteExactIn(a, b, x),
      quoteExactOut: (a, b, y) => pool.quoteExactOut(a, b, y),
      limits: (a, b) => pool.limits(a, b),
      buildStep: (a, b) => pool.buildStep(a, b),
    }
    const curve = getCurve(bare, A, B, 10e18)
    for (const x of [10n ** 17n, 10n ** 18n, 10n ** 19n, 5n * 10n ** 19n]) {
      // A sampled curve is an approximation: within a few bps of the exact output.
      expect(relative(curve.amountOut(Number(x)), pool.quoteExactIn(A, B, x)!.amountOut)).toBeLessThan(5e-4)
    }
    // Concave: the marginal falls as the input grows.
    expect(curve.marginal(1e17)).toBeGreaterThan(curve.marginal(1e19))
  })
})
