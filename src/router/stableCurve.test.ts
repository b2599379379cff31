// The Aerodrome V2 stable curve model (getCurve on a stable pool's `stable` CurveModel) against the
// pool's exact bigint math: output within float rounding of the exact output and never below it
// (beyond the fee's one-raw-unit rounding), marginal rate equal to finite differences, monotone
// and concave, the inverse of the marginal, capacity; a split across three stable pools that is
// at least the best split of a fine grid on exact simulation; and, for stable and volatile pools
// alike, certificates at or above small trades' exact outputs (the models credit the fee's floor).
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createRandom } from '../../test/support/random.js'
import { base } from '../chains/base.js'
import { aerodromeV2Family } from '../protocols/aerodromeV2/family.js'
import type { AerodromeV2Pool } from '../protocols/aerodromeV2/pool.js'
import { getCurve } from './curves.js'
import { findPaths } from './findPaths.js'
import { findRoute } from './findRoute.js'
import { simulatePlan } from './simulatePlan.js'

const T0 = '0x00000000000000000000000000000000000000a0' as Address
const T1 = '0x00000000000000000000000000000000000000b0' as Address
const dexIndex = base.dexes.findIndex((d) => d.family === 'aerodromeV2')
const context = { chain: base, dex: base.dexes[dexIndex]!, dexIndex }

let counter = 0x100
/** A stable (or volatile) pool between T0 and T1 holding `reserve0`/`reserve1` raw units. */
function stablePool(reserve0: bigint, reserve1: bigint, decimals0: number, decimals1: number, feeBps: number, stable = true): AerodromeV2Pool {
  return aerodromeV2Family.fromState(
    {
      family: 'aerodromeV2',
      dex: context.dex.id,
      address: `0x${(++counter).toString(16).padStart(40, '0')}` as Address,
      token0: T0,
      token1: T1,
      stable,
      reserve0: reserve0.toString(),
      reserve1: reserve1.toString(),
      decimals0,
      decimals1,
      feeBps,
    },
    context,
  ) as AerodromeV2Pool
}

/** `whole` tokens of `decimals` as raw units (whole may be fractional). */
const raw = (whole: number, decimals: number) => (BigInt(Math.round(whole * 1e6)) * 10n ** BigInt(decimals)) / 1_000_000n

const point = () => ({ input: 0, output: 0, slope: 0 })

describe('stable curve model (Aerodrome V2 stable pools)', () => {
  it('is a model, not samples, for stable pools', () => {
    const pool = stablePool(raw(1e6, 6), raw(1e6, 18), 6, 18, 5)
    expect(pool.curveModel(T0, T1)?.kind).toBe('stable')
    expect(getCurve(pool, T0, T1, 1e9).sampled).toBe(false)
  })

  it('gives the exact output to float precision on random pools, and never less (6/18 decimals, imbalanced, dust to huge)', () => {
    const random = createRandom(12)
    let worst = 0
    let checked = 0
    for (let trial = 0; trial < 60; trial++) {
      const decimals0 = random() < 0.5 ? 6 : 18
      const decimals1 = random() < 0.5 ? 6 : 18
      // Whole-token reserves from 1e3 to 1e9, one side up to 30 times the other.
      const depth = 10 ** (3 + 6 * random())
      const skew = 30 ** (2 * random() - 1)
      const pool = stablePool(raw(depth, decimals0), raw(depth * skew, decimals1), decimals0, decimals1, [0, 1, 4, 5, 30][Math.floor(random() * 5)]!)
      for (const [tokenIn, tokenOut, decimalsIn, decimalsOut] of [
        [T0, T1, decimals0, decimals1],
        [T1, T0, decimals1, decimals0],
      ] as const) {
        const curve = getCurve(pool, tokenIn, tokenOut, 1)
        const reserveIn = Number(tokenIn === T0 ? pool.reserve0 : pool.reserve1) / 10 ** decimalsIn
        for (let sample = 0; sample < 8; sample++) {
          // From a billionth of the reserve to twice the whole reserve (whole tokens), at least one raw unit.
          const whole = reserveIn * 10 ** (-9 + 9.3 * random())
          const amountIn = raw(whole, decimalsIn) > 0n ? raw(whole, decimalsIn) : 1n
          const exact = pool.quoteExactIn(tokenIn, tokenOut, amountIn)
          if (!exact) {
            expect(curve.covers(Number(amountIn))).toBe(false)
            continue
          }
          expect(curve.covers(Number(amountIn)) || Number(amountIn) > curve.limit() * 0.999).toBe(true)
          const model = curve.amountOut(Number(amountIn))
          const out = Number(exact.amountOut)
          // The model credits the fee's rounding (at most one raw input unit more than the pool): never below the
          // pool but for float rounding and the pool's own floors (output, invariant, Newton: a raw unit or two).
          expect(out).toBeLessThanOrEqual(model * (1 + 1e-12) + 2)
          const feeRounding = 2 + curve.marginal(0)
          expect(model).toBeLessThanOrEqual(out * (1 + 1e-12) + feeRounding)
          if (out > 1e9 && amountIn > 10n ** 9n) {
            worst = Math.max(worst, Math.abs(model - out) / out)
            checked++
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(300)
    // Float rounding only, where the pool's raw-unit rounding is negligible.
    expect(worst).toBeLessThan(1e-8)
  })

  it('has a marginal rate equal to finite differences, falling with the input, and its inverse', () => {
    const random = createRandom(7)
    for (let trial = 0; trial < 20; trial++) {
      const decimals0 = random() < 0.5 ? 6 : 18
      const decimals1 = random() < 0.5 ? 6 : 18
      const depth = 10 ** (4 + 4 * random())
      const pool = stablePool(raw(depth, decimals0), raw(depth * 8 ** (2 * random() - 1), decimals1), decimals0, decimals1, 5)
      const curve = getCurve(pool, T0, T1, 1)
      const reserveIn = Number(pool.reserve0)
      let previousOut = 0
      let previousRate = curve.rate0
      expect(curve.marginal(0)).toBeCloseTo(curve.rate0, 12)
      for (let e = -6; e <= 0.5; e += 0.25) {
        const x = reserveIn * 10 ** e
        const h = x * 1e-5
        const difference = (curve.amountOut(x + h) - curve.amountOut(x - h)) / (2 * h)
        const rate = curve.marginal(x)
        expect(Math.abs(difference - rate) / rate).toBeLessThan(1e-6)
        // Monotone and concave.
        const out = curve.amountOut(x)
        expect(out).toBeGreaterThan(previousOut)
        expect(rate).toBeLessThanOrEqual(previousRate * (1 + 1e-12))
        previousOut = out
        previousRate = rate
        // The input at that marginal rate is x again (where the rate has moved beyond float noise).
        if (rate < curve.rate0 * (1 - 1e-6)) {
          const at = curve.atRate(rate, point())
          expect(Math.abs(at.input - x) / x).toBeLessThan(1e-4)
          expect(Math.abs(at.output - out) / out).toBeLessThan(1e-4)
          expect(at.slope).toBeLessThan(0)
          // The slope matches d(input)/d(rate) by finite differences.
          const below = curve.atRate(rate * (1 - 1e-8), point()).input
          const above = curve.atRate(Math.min(rate * (1 + 1e-8), curve.rate0), point()).input
          const numeric = (above - below) / (Math.min(rate * (1 + 1e-8), curve.rate0) - rate * (1 - 1e-8))
          expect(Math.abs(numeric - at.slope) / Math.abs(at.slope)).toBeLessThan(1e-2)
        }
      }
      // Above the zero-size rate nothing trades; at or below zero the whole curve.
      expect(curve.atRate(curve.rate0 * 1.001, point())).toEqual({ input: 0, output: 0, slope: 0 })
      expect(curve.atRate(0, point()).input).toBe(Number(pool.limits(T0, T1).maxIn))
    }
  })

  it('splits across three stable pools of different depths at least as well as a fine grid of splits', () => {
    // USDC-like (6) to USDT-like (18), three depths and fees, one pool off balance.
    const pools = [stablePool(raw(2e6, 6), raw(2e6, 18), 6, 18, 5), stablePool(raw(4e5, 6), raw(3.7e5, 18), 6, 18, 1), stablePool(raw(9e4, 6), raw(1.1e5, 18), 6, 18, 4)]
    const paths = findPaths(pools, T0, T1, { connectors: [], maxHops: 1 })
    expect(paths).toHaveLength(3)
    for (const amount of [raw(5e3, 6), raw(1.5e5, 6), raw(6e5, 6)]) {
      const plan = findRoute({ pools, tokenIn: T0, tokenOut: T1, connectors: [], maxHops: 1, gasCostInOutput: 0 }, amount)!
      let grid = 0n
      const steps = 100n
      for (let i = 0n; i <= steps; i++)
        for (let j = 0n; i + j <= steps; j++) {
          const first = (amount * i) / steps
          const second = (amount * j) / steps
          const legs = [
            { path: paths[0]!, amountIn: first },
            { path: paths[1]!, amountIn: second },
            { path: paths[2]!, amountIn: amount - first - second },
          ].filter((leg) => leg.amountIn > 0n)
          const out = simulatePlan(legs)?.amountOut
          if (out !== undefined && out > grid) grid = out
        }
      expect(plan.amountOut).toBeGreaterThanOrEqual(grid)
      const certificate = plan.certificate!
      expect(certificate.upperBound).toBeGreaterThanOrEqual(plan.amountOut)
      expect(certificate.gapBps).toBeGreaterThanOrEqual(0)
      expect(certificate.gapBps).toBeLessThan(0.01)
    }
  })

  it('certifies small trades from a 6-decimal token at or above their exact output (the fee floor credited), stable and volatile', () => {
    for (const stable of [true, false]) {
      let below = 0
      for (let trial = 0; trial < 40; trial++) {
        const pools = [stablePool(raw(2e6, 6), raw(2e6, 18), 6, 18, 5, stable), stablePool(raw(4e5, 6), raw(3.7e5, 18), 6, 18, 30, stable)]
        // About one token, where one raw unit of the fee's rounding is a relative 1e-6.
        const amount = 1_000_000n + BigInt(trial) * 7919n
        const plan = findRoute({ pools, tokenIn: T0, tokenOut: T1, connectors: [], maxHops: 1, gasCostInOutput: 0 }, amount)!
        if (plan.certificate!.gapBps < 0 || plan.certificate!.upperBound < plan.amountOut) below++
      }
      expect(below).toBe(0)
    }
  })
  it('models dust on a volatile pool exactly where the fee rounds to nothing', () => {
    const pool = stablePool(raw(2e6, 6), raw(1e3, 18), 6, 18, 30, false)
    const curve = getCurve(pool, T0, T1, 1e6)
    for (const amountIn of [1n, 7n, 100n, 333n, 334n, 5_000n, 1_000_000n]) {
      const exact = Number(pool.quoteExactIn(T0, T1, amountIn)!.amountOut)
      const model = curve.amountOut(Number(amountIn))
      expect(model).toBeGreaterThanOrEqual(exact * (1 - 1e-12))
      expect(model).toBeLessThanOrEqual(exact * (1 + 1e-12) + 2 + curve.marginal(0))
    }
    // Its marginal at the rate it has past the kink gives that input back.
    const rate = curve.marginal(1e9)
    expect(Math.abs(curve.atRate(rate, point()).input - 1e9) / 1e9).toBeLessThan(1e-6)
  })
})
