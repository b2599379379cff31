import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../../chains/base.js'
import { aerodromeV2Family } from './family.js'
import { getAerodromeAmountOut, getAerodromeSwapRefusal } from './math.js'
import type { AerodromeV2Pool } from './pool.js'
import type { AerodromeV2PoolState } from './state.js'

const T0 = '0x00000000000000000000000000000000000000a0' as Address
const T1 = '0x00000000000000000000000000000000000000b0' as Address
const dexIndex = base.dexes.findIndex((d) => d.family === 'aerodromeV2')
const context = { chain: base, dex: base.dexes[dexIndex]!, dexIndex }
const poolOf = (stable: boolean, reserve0: bigint, reserve1: bigint, decimals0 = 18, decimals1 = 18, feeBps = stable ? 5 : 30) =>
  aerodromeV2Family.fromState(
    {
      family: 'aerodromeV2',
      dex: 'aerodromeV2',
      address: '0x00000000000000000000000000000000000000c0',
      token0: T0,
      token1: T1,
      stable,
      reserve0: reserve0.toString(),
      reserve1: reserve1.toString(),
      decimals0,
      decimals1,
      feeBps,
    } satisfies AerodromeV2PoolState,
    context,
  ) as AerodromeV2Pool

describe('Aerodrome V2 math', () => {
  it('volatile: the fee comes off the input, then x·y', () => {
    const curve = { stable: false, decimals0: 10n ** 18n, decimals1: 10n ** 18n }
    // 10000 in, 30 bps: 9970 credited; out = 9970 * 1e6 / (1e6 + 9970).
    expect(getAerodromeAmountOut(curve, true, 10_000n, 10n ** 6n, 10n ** 6n, 30n)).toBe((9_970n * 10n ** 6n) / (10n ** 6n + 9_970n))
  })
  it('stable: a balanced 6/18-decimal pool pays nearly 1:1 after its fee, and swap refuses one more', () => {
    const curve = { stable: true, decimals0: 10n ** 6n, decimals1: 10n ** 18n }
    const reserve0 = 10n ** 12n // 1M at 6 decimals
    const reserve1 = 10n ** 24n // 1M at 18 decimals
    const out = getAerodromeAmountOut(curve, true, 1_000_000n, reserve0, reserve1, 5n)!
    expect(out).toBeGreaterThan(999_000_000_000_000_000n)
    expect(out).toBeLessThan(10n ** 18n)
    expect(getAerodromeSwapRefusal(curve, true, 1_000_000n, out, reserve0, reserve1, 5n)).toBeUndefined()
  })
  it('names the refusals swap makes', () => {
    const curve = { stable: false, decimals0: 10n ** 18n, decimals1: 10n ** 18n }
    expect(getAerodromeSwapRefusal(curve, true, 1n, 0n, 100n, 100n, 30n)).toBe('InsufficientOutputAmount')
    expect(getAerodromeSwapRefusal(curve, true, 1n, 100n, 100n, 100n, 30n)).toBe('InsufficientLiquidity')
    expect(getAerodromeSwapRefusal(curve, true, 0n, 1n, 100n, 100n, 30n)).toBe('InsufficientInputAmount')
    expect(getAerodromeSwapRefusal(curve, true, 1n, 50n, 100n, 100n, 30n)).toBe('K')
  })
  it('overflowing stable math has no result (the pool reverts with Panic 0x11)', () => {
    const curve = { stable: true, decimals0: 10n ** 18n, decimals1: 10n ** 18n }
    expect(getAerodromeAmountOut(curve, true, 10n ** 40n, 10n ** 24n, 10n ** 24n, 5n)).toBeUndefined()
  })
})

describe('AerodromeV2Pool', () => {
  it('exact out gives the least input whose exact-in output reaches the target', () => {
    for (const stable of [false, true]) {
      const pool = poolOf(stable, 3n * 10n ** 24n, 2n * 10n ** 24n)
      for (const target of [1n, 12_345n, 10n ** 18n, 10n ** 23n]) {
        const quote = pool.quoteExactOut(T0, T1, target)!
        expect(quote.amountOut).toBeGreaterThanOrEqual(target)
        expect(pool.quoteExactIn(T0, T1, quote.amountIn)!.amountOut).toBe(quote.amountOut)
        expect(pool.quoteExactIn(T0, T1, quote.amountIn - 1n)?.amountOut ?? 0n).toBeLessThan(target)
      }
    }
  })
  it('finds the capacity of a stable pool whose math reverts on 1 wei', () => {
    const pool = poolOf(true, 277150397070000000000000n, 282966112105n, 18, 6, 1)
    expect(getAerodromeAmountOut(pool.curve, true, 1n, pool.reserve0, pool.reserve1, 1n)).toBeUndefined()
    const { maxIn } = pool.limits(T0, T1)
    expect(maxIn).toBeGreaterThan(10n ** 24n)
    expect(pool.quoteExactIn(T0, T1, 349_000_000_000_000n)!.amountOut).toBe(348n)
  })
  it('moves the fee out of the pool: the input reserve grows by the rest', () => {
    const pool = poolOf(false, 10n ** 24n, 10n ** 24n)
    const result = pool.quoteExactIn(T0, T1, 10_000n)!
    const next = result.next as AerodromeV2Pool
    expect([next.reserve0, next.reserve1]).toEqual([10n ** 24n + 9_970n, 10n ** 24n - result.amountOut])
    expect(pool.reserve0).toBe(10n ** 24n)
  })
  it('prices a balanced stable pool at 1 and builds the stable bit into its step', () => {
    const pool = poolOf(true, 10n ** 12n, 10n ** 24n, 6, 18)
    expect(pool.spotPrice(T0, T1)).toBeCloseTo(1e12, 0)
    expect(pool.buildStep(T0, T1)).toEqual({ dex: dexIndex, tokenIn: T0, tokenOut: T1, param: 1n })
    expect(poolOf(false, 1n, 1n).buildStep(T1, T0).param).toBe(0n)
    // Its float model for the router: the stable curve on the raw reserves and their decimal scales.
    expect(pool.curveModel(T0, T1)).toMatchObject({ kind: 'stable', reserveIn: 1e12, reserveOut: 1e24, scaleIn: 1e6, scaleOut: 1e18, fee: 0.0005 })
  })
  it('adds the gas of storage the next swap writes from zero, and only for that swap', () => {
    const steady = poolOf(false, 10n ** 24n, 10n ** 24n).quoteExactIn(T0, T1, 10n ** 18n)!
    const young = aerodromeV2Family.fromState(
      { family: 'aerodromeV2', dex: 'aerodromeV2', address: '0x00000000000000000000000000000000000000c0', token0: T0, token1: T1, stable: false, reserve0: '1000000000000000000000000', reserve1: '1000000000000000000000000', decimals0: 18, decimals1: 18, feeBps: 30, accumulatorsZero: true, feesUnaccrued0: true, observationDue: true },
      context,
    )
    const first = young.quoteExactIn(T0, T1, 10n ** 18n)!
    expect(first.gas).toBeGreaterThan(steady.gas)
    expect(first.next.quoteExactIn(T0, T1, 10n ** 18n)!.gas).toBe(steady.gas)
  })
  it('prices a swap whose fee rounds down to zero as a fee-free one: no PoolFees transfer, no fee slot written from zero', () => {
    const young = aerodromeV2Family.fromState(
      { family: 'aerodromeV2', dex: 'aerodromeV2', address: '0x00000000000000000000000000000000000000c0', token0: T0, token1: T1, stable: true, reserve0: '1000000000000000000000000', reserve1: '1000000000000000000000000', decimals0: 18, decimals1: 18, feeBps: 5, feesUnaccrued0: true },
      context,
    )
    const feeFree = poolOf(true, 10n ** 24n, 10n ** 24n, 18, 18, 0)
    // 5 bps of 1999 rounds down to 0; of 2000 it is 1.
    const dust = young.quoteExactIn(T0, T1, 1999n)!
    expect(dust.gas).toBe(feeFree.quoteExactIn(T0, T1, 1999n)!.gas)
    expect(young.quoteExactOut(T0, T1, dust.amountOut)!.gas).toBe(dust.gas)
    const paying = young.quoteExactIn(T0, T1, 2000n)!
    expect(paying.gas).toBeGreaterThan(dust.gas)
    // The dust swap left the fee slots zero: the next swap that pays a fee still writes them from zero.
    expect(dust.next.quoteExactIn(T0, T1, 2000n)!.gas).toBe(paying.gas)
  })
  it('rejects malformed states', () => {
    expect(() => poolOf(false, 1n, 1n, 78)).toThrow(/decimals0/)
    expect(() => poolOf(false, 1n, 1n, 18, 18, 301)).toThrow(/feeBps/)
    expect(() => poolOf(false, -1n, 1n)).toThrow(/base-10/)
  })
})
