import { describe, expect, it } from 'vitest'
import type { DexConfig } from '../../chains/types.js'
import { QuoteError } from '../../errors/QuoteError.js'
import { slipstreamFamily } from '../slipstream/family.js'
import { SLIPSTREAM_EXTRA_GAS } from '../slipstream/gas.js'
import type { SlipstreamPoolState } from '../slipstream/state.js'
import { uniswapV3Family } from '../uniswapV3/family.js'
import { UniswapV3Pool } from '../uniswapV3/pool.js'
import type { UniswapV3PoolState } from '../uniswapV3/state.js'
import { simulateSwap } from '../uniswapV3/swap.js'
import { MAX_TICK, MIN_TICK } from '../uniswapV3/tickMath.js'
import { pancakeV3Family } from './family.js'
import { PANCAKE_V3_EXTRA_GAS } from './gas.js'
import type { PancakeV3PoolState } from './state.js'
import { getV3SwapShape, V3ForkPool } from './v3ForkPool.js'

const token0 = '0x1000000000000000000000000000000000000001' as const
const token1 = '0x2000000000000000000000000000000000000002' as const
const dexOf = (id: string, family: string, extra: Partial<DexConfig> = {}): DexConfig => ({
  id, family, protocol: 'Uniswap V3', fork: id, factory: '0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9', initCodeHash: '0x00', ...extra,
})
const pancakeDex = dexOf('pancakeV3', 'pancakeV3', { fork: 'PancakeV3', feeTiers: { 100: 1, 500: 10, 2500: 50, 10000: 200 } })
const slipstreamDex = dexOf('aerodromeSlipstream', 'slipstream', { fork: 'AeroDromeCL', tickSpacings: [1, 50, 100, 200, 2000] })
const uniswapDex = dexOf('uniswapV3', 'uniswapV3', { fork: 'UniswapV3' })
const chain = { dexes: [uniswapDex, pancakeDex, slipstreamDex] } as never

// Price 1, liquidity in nested ranges: swaps of growing size cross 0..6 initialized ticks.
const base = {
  address: '0x3000000000000000000000000000000000000003',
  token0,
  token1,
  sqrtPriceX96: '79228162514264337593543950336',
  tick: 0,
  liquidity: String(6n * 10n ** 21n),
  ticks: [
    { index: -3000, liquidityNet: String(10n ** 21n) },
    { index: -2000, liquidityNet: String(2n * 10n ** 21n) },
    { index: -500, liquidityNet: String(3n * 10n ** 21n) },
    { index: 500, liquidityNet: String(-3n * 10n ** 21n) },
    { index: 2000, liquidityNet: String(-2n * 10n ** 21n) },
    { index: 3000, liquidityNet: String(-(10n ** 21n)) },
  ],
  tickLower: MIN_TICK,
  tickUpper: MAX_TICK,
} as const
const pancakeState: PancakeV3PoolState = { ...base, ticks: [...base.ticks], family: 'pancakeV3', dex: 'pancakeV3', fee: 2500, tickSpacing: 50 }
const slipstreamState: SlipstreamPoolState = { ...base, ticks: [...base.ticks], family: 'slipstream', dex: 'aerodromeSlipstream', fee: 420, tickSpacing: 100 }
const uniswapState: UniswapV3PoolState = { ...base, ticks: [...base.ticks], family: 'uniswapV3', dex: 'uniswapV3', fee: 2500, tickSpacing: 50 }

describe('pancakeV3Family and slipstreamFamily', () => {
  it('are executor kinds 3 and 6', () => {
    expect([pancakeV3Family.id, pancakeV3Family.executorKind]).toEqual(['pancakeV3', 3])
    expect([slipstreamFamily.id, slipstreamFamily.executorKind]).toEqual(['slipstream', 6])
  })

  it('quote what a Uniswap V3 pool in the same state quotes, and add their own gas', () => {
    const pancake = pancakeV3Family.fromState(pancakeState, { chain, dex: pancakeDex, dexIndex: 1 })
    const uniswap = uniswapV3Family.fromState(uniswapState, { chain, dex: uniswapDex, dexIndex: 0 }) as UniswapV3Pool
    expect(pancake).toBeInstanceOf(V3ForkPool)
    expect([pancake.family, pancake.fork, pancake.protocol]).toEqual(['pancakeV3', 'PancakeV3', 'Uniswap V3'])
    for (const amount of [10n ** 15n, 10n ** 19n, 10n ** 20n, 2n * 10n ** 20n, 4n * 10n ** 20n]) {
      for (const [a, b] of [[token0, token1], [token1, token0]] as const) {
        const p = pancake.quoteExactIn(a, b, amount)!
        const u = uniswap.quoteExactIn(a, b, amount)!
        expect([p.amountIn, p.amountOut]).toEqual([u.amountIn, u.amountOut])
        const shape = getV3SwapShape(uniswap, u.next as UniswapV3Pool, (u.next as UniswapV3Pool).loopGas)
        const { base: extra, perTickCrossed, perExtraStep } = PANCAKE_V3_EXTRA_GAS
        expect(p.gas - u.gas).toBe(extra + BigInt(shape.ticksCrossed) * perTickCrossed + BigInt(shape.ticksCrossed + shape.extraWords) * perExtraStep)
        // The next state is a pool of the same fork, equal to Uniswap's next state.
        expect(p.next).toBeInstanceOf(V3ForkPool)
        expect(p.next.spotPrice(a, b)).toBe(u.next.spotPrice(a, b))
        const po = pancake.quoteExactOut(a, b, u.amountOut)!
        const uo = uniswap.quoteExactOut(a, b, u.amountOut)!
        expect([po.amountIn, po.amountOut]).toEqual([uo.amountIn, uo.amountOut])
      }
    }
    expect(pancake.limits(token0, token1)).toEqual(uniswap.limits(token0, token1))
  })

  it('recover the swap loop’s ticks crossed and steps from the states and the Uniswap gas', () => {
    const uniswap = uniswapV3Family.fromState(uniswapState, { chain, dex: uniswapDex, dexIndex: 0 }) as UniswapV3Pool
    let crossedSome = 0
    let walkedWords = 0
    for (let i = 1; i <= 60; i++) {
      const amount = (44n * 10n ** 19n * BigInt(i * i)) / 3600n
      for (const zeroForOne of [true, false]) {
        const [a, b] = zeroForOne ? [token0, token1] : [token1, token0]
        const quote = uniswap.quoteExactIn(a, b, amount)
        if (!quote) continue
        const simulated = simulateSwap(uniswap, zeroForOne, amount)!
        const shape = getV3SwapShape(uniswap, quote.next as UniswapV3Pool, (quote.next as UniswapV3Pool).loopGas)
        expect(shape.ticksCrossed).toBe(simulated.initializedTicksCrossed)
        expect(shape.extraWords).toBe(Math.max(0, simulated.stepsTaken - 1 - simulated.initializedTicksCrossed))
        if (shape.ticksCrossed >= 2) crossedSome++
        if (shape.extraWords > 0) walkedWords++
      }
    }
    expect(crossedSome).toBeGreaterThanOrEqual(5)
    expect(walkedWords).toBeGreaterThanOrEqual(5)
  })

  it('put the fee (Pancake) or the tick spacing (Slipstream) in the step, price limit bits unchanged', () => {
    const narrow = { ...base, ticks: [...base.ticks], tickLower: -25_600, tickUpper: 25_599 }
    const pancake = pancakeV3Family.fromState({ ...pancakeState, ...narrow }, { chain, dex: pancakeDex, dexIndex: 1 })
    const uniswap = uniswapV3Family.fromState({ ...uniswapState, ...narrow }, { chain, dex: uniswapDex, dexIndex: 0 })
    const slipstream = slipstreamFamily.fromState({ ...slipstreamState, ...narrow, tickLower: -51_200, tickUpper: 51_199 }, { chain, dex: slipstreamDex, dexIndex: 2 })
    const u = uniswap.buildStep(token0, token1)
    const p = pancake.buildStep(token0, token1)
    expect(u.param >> 24n).not.toBe(0n)
    expect(p).toEqual({ ...u, dex: 1 })
    expect(p.param & 0xffffffn).toBe(2500n)
    const s = slipstream.buildStep(token1, token0)
    expect(s.param & 0xffffffn).toBe(100n)
    expect(s.param >> 24n).not.toBe(0n)
    expect([s.dex, s.tokenIn, s.tokenOut]).toEqual([2, token1, token0])
  })

  it('Slipstream swaps at the fee the pool reported, not one implied by its spacing', () => {
    const slipstream = slipstreamFamily.fromState(slipstreamState, { chain, dex: slipstreamDex, dexIndex: 2 })
    const same = uniswapV3Family.fromState({ ...uniswapState, fee: 420, tickSpacing: 100 }, { chain, dex: uniswapDex, dexIndex: 0 })
    const q = slipstream.quoteExactIn(token0, token1, 3n * 10n ** 20n)!
    const r = same.quoteExactIn(token0, token1, 3n * 10n ** 20n)!
    expect(q.amountOut).toBe(r.amountOut)
    expect(q.gas - r.gas).toBeGreaterThanOrEqual(SLIPSTREAM_EXTRA_GAS.base)
  })

  it('refuse malformed states with a 500 naming the fork', () => {
    const context = { chain, dex: pancakeDex, dexIndex: 1 }
    const fail = (state: unknown, message: RegExp) => {
      let error: unknown
      try {
        pancakeV3Family.fromState(state as PancakeV3PoolState, context)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(QuoteError)
      expect((error as QuoteError).statusCode).toBe(500)
      expect((error as QuoteError).message).toMatch(message)
    }
    fail(null, /Invalid PancakeSwap V3 pool state: not an object/)
    fail({ ...pancakeState, family: 'uniswapV3' }, /PancakeSwap V3 pool state 0x3.*family is uniswapV3, expected pancakeV3/)
    fail({ ...pancakeState, tickSpacing: 60 }, /Invalid PancakeSwap V3 pool state 0x3.*tickSpacing 60 does not match the dex's 50 for fee 2500/)
    fail({ ...pancakeState, liquidity: '-1' }, /Invalid PancakeSwap V3 pool state .*negative/)
    expect(() => slipstreamFamily.fromState({ ...slipstreamState, family: 'pancakeV3' } as never, { chain, dex: slipstreamDex, dexIndex: 2 })).toThrow(
      /Invalid Slipstream pool state .*expected slipstream/,
    )
  })
})
