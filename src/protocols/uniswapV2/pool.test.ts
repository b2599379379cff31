import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { ethereum } from '../../chains/ethereum.js'
import { uniswapV2Family } from './family.js'
import { MAX_UINT112, getAmountIn, getAmountOut } from './math.js'
import type { UniswapV2Pool } from './pool.js'
import type { UniswapV2PoolState } from './state.js'

const T0 = '0x00000000000000000000000000000000000000a0' as Address
const T1 = '0x00000000000000000000000000000000000000b0' as Address
const context = { chain: ethereum, dex: ethereum.dexes[0]!, dexIndex: 0 }
const pairOf = (reserve0: bigint, reserve1: bigint) =>
  uniswapV2Family.fromState(
    { family: 'uniswapV2', dex: 'uniswapV2', address: '0x00000000000000000000000000000000000000c0', token0: T0, token1: T1, reserve0: reserve0.toString(), reserve1: reserve1.toString() } satisfies UniswapV2PoolState,
    context,
  ) as UniswapV2Pool

describe('Uniswap V2 math', () => {
  it.each([
    // amountIn, reserveIn, reserveOut, expected (UniswapV2Library.getAmountOut with 997/1000)
    [10n ** 18n, 100n * 10n ** 18n, 300_000n * 10n ** 6n, (10n ** 18n * 997n * 300_000n * 10n ** 6n) / (100n * 10n ** 18n * 1000n + 10n ** 18n * 997n)],
    [1n, 1_000n, 1_000n, 0n],
    [1_000n, 1_000n, 1_000n, 499n],
  ])('getAmountOut(%s, %s, %s) = %s', (amountIn, rIn, rOut, expected) => {
    expect(getAmountOut(amountIn, rIn, rOut, 30)).toBe(expected)
  })
  it('inverts: getAmountIn gives the least input whose output reaches the target', () => {
    for (const out of [1n, 7n, 12_345n, 10n ** 9n]) {
      const rIn = 987_654_321_000n
      const rOut = 123_456_789_000n
      const input = getAmountIn(out, rIn, rOut, 30)!
      expect(getAmountOut(input, rIn, rOut, 30)).toBeGreaterThanOrEqual(out)
      expect(getAmountOut(input - 1n, rIn, rOut, 30)).toBeLessThan(out)
    }
  })
  it('refuses what the pair would revert on', () => {
    expect(getAmountOut(0n, 1n, 1n, 30)).toBe(0n)
    expect(getAmountIn(100n, 1_000n, 100n, 30)).toBeUndefined()
    expect(getAmountIn(0n, 1_000n, 100n, 30)).toBeUndefined()
  })
})

describe('UniswapV2Pool', () => {
  it('returns the next reserves and leaves the old state unchanged', () => {
    const pair = pairOf(10n ** 21n, 3n * 10n ** 12n)
    const result = pair.quoteExactIn(T0, T1, 10n ** 18n)!
    const next = result.next as UniswapV2Pool
    expect(next.reserve0).toBe(10n ** 21n + 10n ** 18n)
    expect(next.reserve1).toBe(3n * 10n ** 12n - result.amountOut)
    expect(pair.reserve0).toBe(10n ** 21n)
    expect(pair.quoteExactIn(T0, T1, 10n ** 18n)!.amountOut).toBe(result.amountOut)
  })
  it('has zero-reserve pairs quote nothing', () => {
    const empty = pairOf(0n, 0n)
    expect(empty.quoteExactIn(T0, T1, 10n ** 18n)).toBeUndefined()
    expect(empty.limits(T0, T1)).toEqual({ maxIn: 0n, maxOut: 0n })
    expect(empty.spotPrice(T0, T1)).toBe(0)
  })
  it('refuses amounts past the uint112 reserve limit and outputs the pair cannot hold', () => {
    const pair = pairOf(MAX_UINT112 - 10n, 10n ** 18n)
    expect(pair.quoteExactIn(T0, T1, 11n)).toBeUndefined()
    expect(pair.limits(T0, T1).maxIn).toBe(10n)
    expect(pair.quoteExactOut(T1, T0, MAX_UINT112)).toBeUndefined()
  })
  it('rejects malformed states', () => {
    expect(() => uniswapV2Family.fromState({ family: 'uniswapV2', dex: 'uniswapV2', address: T0, token0: T1, token1: T0, reserve0: '1', reserve1: '1' }, context)).toThrow(/token0/)
    expect(() => pairOf(MAX_UINT112 + 1n, 1n)).toThrow(/uint112/)
    expect(() => uniswapV2Family.fromState({ family: 'uniswapV2', dex: 'uniswapV2', address: T0, token0: T0, token1: T1, reserve0: '-1', reserve1: '1' }, context)).toThrow(/base-10/)
  })
  it('prices fee-free at the reserves ratio and builds its executor step', () => {
    const pair = pairOf(2n * 10n ** 18n, 6_000n * 10n ** 6n)
    expect(pair.spotPrice(T0, T1)).toBeCloseTo(3e-9, 15)
    expect(pair.buildStep(T0, T1)).toEqual({ dex: 0, tokenIn: T0, tokenOut: T1, param: 0n })
  })
})
