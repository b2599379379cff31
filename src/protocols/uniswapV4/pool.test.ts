import { type Address, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../chains/types.js'
import { QuoteError } from '../../errors/QuoteError.js'
import type { PoolContext } from '../types.js'
import { MAX_INT128, MAX_UINT128 } from '../uniswapV3/constants.js'
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from '../uniswapV3/tickMath.js'
import { getSwapFee } from './fees.js'
import { estimateSwapGas, NATIVE_OUT_GAS, PROTOCOL_FEE_GAS, SWAP_BASE_GAS } from './gas.js'
import { UniswapV4Pool } from './pool.js'
import { getUniswapV4PoolId } from './poolKey.js'
import type { UniswapV4PoolState } from './state.js'
import { simulateSwap } from './swap.js'
import { createBareChain } from '../../../test/support/bareChain.js'

const WETH = '0x4200000000000000000000000000000000000006' as Address
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address
const DAI = '0x50c5725949a6f0c72e6c4a641f24049a917db0cb' as Address
const MANAGER = '0x498581ff718922c3f8e6a244956af099b2652b2b' as Address
const E18 = 10n ** 18n
const Q96 = 2n ** 96n

const dex: DexConfig = {
  id: 'uniswapV4',
  family: 'uniswapV4',
  protocol: 'Uniswap V4',
  fork: 'UniswapV4',
  factory: MANAGER,
  initCodeHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
  feeTiers: { 100: 1, 500: 10, 3000: 60, 10000: 200 },
}
const chain: ChainConfig = createBareChain({ id: 8453, name: 'Base', wrappedNative: WETH, dexes: [dex] })
const context: PoolContext = { chain, dex, dexIndex: 7 }
const full = (spacing: number): [number, number] => [Math.ceil(MIN_TICK / spacing) * spacing, Math.floor(MAX_TICK / spacing) * spacing]

/** A pool at price 1 with one full-range position of `liquidity` (and optional extra ticks). */
function stateOf(options: Partial<UniswapV4PoolState> & { liquidityAmount?: bigint } = {}): UniswapV4PoolState {
  const { currency0 = zeroAddress, currency1 = USDC, fee = 500, tickSpacing = 10, hooks = zeroAddress, liquidityAmount = 10n ** 21n } = options
  const [lower, upper] = full(tickSpacing)
  const base: UniswapV4PoolState = {
    family: 'uniswapV4',
    dex: 'uniswapV4',
    address: MANAGER,
    id: getUniswapV4PoolId({ currency0, currency1, fee, tickSpacing, hooks }),
    currency0,
    currency1,
    fee,
    tickSpacing,
    hooks,
    sqrtPriceX96: Q96.toString(),
    tick: 0,
    protocolFee: 0,
    lpFee: fee,
    liquidity: liquidityAmount.toString(),
    ticks: liquidityAmount === 0n ? [] : [
      { index: lower, liquidityNet: liquidityAmount.toString() },
      { index: upper, liquidityNet: (-liquidityAmount).toString() },
    ],
    tickLower: MIN_TICK,
    tickUpper: MAX_TICK,
  }
  const { liquidityAmount: _, ...rest } = options
  return { ...base, ...rest }
}

describe('UniswapV4Pool.fromState', () => {
  it('builds a native pool as a pool of the wrapped native token, keyed by pool id at the PoolManager', () => {
    const state = stateOf()
    const pool = UniswapV4Pool.fromState(state, context)
    expect(pool.key).toBe(state.id)
    expect(pool.address).toBe(MANAGER)
    expect(pool.tokens).toEqual([WETH, USDC])
    expect(pool.native).toBe(true)
    expect([pool.protocol, pool.fork, pool.family]).toEqual(['Uniswap V4', 'UniswapV4', 'uniswapV4'])
    const erc20 = UniswapV4Pool.fromState(stateOf({ currency0: WETH, currency1: USDC }), context)
    expect(erc20.native).toBe(false)
    expect(erc20.tokens).toEqual([WETH, USDC])
    expect(erc20.key).not.toBe(pool.key)
  })

  const bad: [string, Partial<UniswapV4PoolState> & { liquidityAmount?: bigint }][] = [
    ['hooks', { hooks: '0x4444000000000000000000000000000000000080' }],
    ['a dynamic fee', { fee: 0x800000, lpFee: 0x800000 }],
    ['a fee above 100%', { fee: 1_000_001, lpFee: 1_000_001 }],
    ['a tick spacing of 0', { tickSpacing: 0 }],
    ['a tick spacing above 32767', { tickSpacing: 32768 }],
    ['unsorted currencies', { currency0: USDC, currency1: zeroAddress }],
    ['another PoolManager', { address: '0x000000000004444c5dc75cb358380d2e3de08a90' }],
    ['an id that is not the key’s hash', { id: `0x${'ab'.repeat(32)}` }],
    ['an LP fee other than the static fee', { lpFee: 3000 }],
    ['a protocol fee above 0.1%', { protocolFee: 1001 }],
    ['a native pool of the wrapped native token', { currency1: WETH }],
    ['a wrong family', { family: 'uniswapV3' as 'uniswapV4' }],
    ['a liquidity that is not the ticks’ sum', { liquidity: '5' }],
    ['a tick that does not match the price', { tick: 100 }],
    ['a price out of range', { sqrtPriceX96: (MAX_SQRT_RATIO + 1n).toString() }],
    ['a liquidity past uint128', { liquidity: (MAX_UINT128 + 1n).toString() }],
  ]
  it.each(bad)('throws a host QuoteError (500) on %s', (_, patch) => {
    // Keep the id consistent with the patched key unless the id itself is under test.
    const state = { ...stateOf(), ...patch }
    if (!('id' in patch) && typeof state.fee === 'number') {
      try {
        state.id = getUniswapV4PoolId({ currency0: state.currency0, currency1: state.currency1, fee: state.fee, tickSpacing: state.tickSpacing, hooks: state.hooks })
      } catch {
        // An invalid key has no id; the state is refused either way.
      }
    }
    let error: unknown
    try {
      UniswapV4Pool.fromState(state, context)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).statusCode).toBe(500)
  })
})

describe('UniswapV4Pool quotes', () => {
  const pool = UniswapV4Pool.fromState(stateOf(), context)

  it('quotes exact input with V4 signs: simulateSwap with a negative amount, the composed fee, the gas model', () => {
    const quote = pool.quoteExactIn(WETH, USDC, E18)!
    const direct = simulateSwap(pool, true, -E18, 500)!
    expect(direct.amount0).toBe(-E18)
    expect(quote.amountIn).toBe(E18)
    expect(quote.amountOut).toBe(direct.amount1)
    // Starting exactly on tick 0 and moving down, the loop first steps to the word below.
    expect([direct.initializedTicksCrossed, direct.stepsTaken]).toEqual([0, 2])
    expect(quote.gas).toBe(estimateSwapGas({ initializedTicksCrossed: 0, stepsTaken: 2 }))
    expect((quote.next as UniswapV4Pool).sqrtPriceX96).toBe(direct.sqrtPriceX96)
    // Buying the native side: the output is native, and the gas says so.
    expect(pool.quoteExactIn(USDC, WETH, E18)!.gas).toBe(SWAP_BASE_GAS + NATIVE_OUT_GAS)
  })

  it('quotes exact output: the least input, all of the output delivered', () => {
    const quote = pool.quoteExactOut(USDC, WETH, E18)!
    expect(quote.amountOut).toBe(E18)
    const back = pool.quoteExactIn(USDC, WETH, quote.amountIn)!
    expect(back.amountOut).toBeGreaterThanOrEqual(E18)
    expect(pool.quoteExactIn(USDC, WETH, quote.amountIn - 1n)!.amountOut).toBeLessThan(E18)
  })

  it('leaves the old state unchanged after a quote, and chains from the next one', () => {
    const before = [pool.sqrtPriceX96, pool.tick, pool.liquidity]
    const first = pool.quoteExactIn(WETH, USDC, 10n * E18)!
    expect([pool.sqrtPriceX96, pool.tick, pool.liquidity]).toEqual(before)
    const second = first.next.quoteExactIn(WETH, USDC, 10n * E18)!
    expect(second.amountOut).toBeLessThan(first.amountOut)
  })

  it('charges the protocol fee of the swap’s direction on top of the LP fee', () => {
    const withFee = UniswapV4Pool.fromState(stateOf({ protocolFee: (1000 << 12) | 0 }), context)
    // zeroForOne has no protocol fee; oneForZero pays 0.1% more.
    expect(withFee.quoteExactIn(WETH, USDC, E18)!.amountOut).toBe(pool.quoteExactIn(WETH, USDC, E18)!.amountOut)
    expect(withFee.quoteExactIn(USDC, WETH, E18)!.amountOut).toBeLessThan(pool.quoteExactIn(USDC, WETH, E18)!.amountOut)
    expect(withFee.getSwapFee(USDC, WETH)).toBe(getSwapFee(1000 << 12, 500, false))
    expect(withFee.quoteExactIn(USDC, WETH, E18)!.gas).toBe(SWAP_BASE_GAS + NATIVE_OUT_GAS + PROTOCOL_FEE_GAS)
    expect(withFee.curveModel(USDC, WETH).fee).toBeCloseTo(0.0015, 6)
  })

  it('returns undefined for zero, negative and past-int128 amounts, and past the liquidity', () => {
    expect(pool.quoteExactIn(WETH, USDC, 0n)).toBeUndefined()
    expect(pool.quoteExactIn(WETH, USDC, -1n)).toBeUndefined()
    expect(pool.quoteExactIn(WETH, USDC, MAX_INT128 + 1n)).toBeUndefined()
    expect(pool.quoteExactOut(WETH, USDC, MAX_INT128 + 1n)).toBeUndefined()
    const empty = UniswapV4Pool.fromState(stateOf({ liquidityAmount: 0n }), context)
    expect(empty.quoteExactIn(WETH, USDC, E18)).toBeUndefined()
    expect(empty.quoteExactOut(WETH, USDC, 1n)).toBeUndefined()
    expect(empty.limits(WETH, USDC)).toEqual({ maxIn: 0n, maxOut: 0n })
    // More output than the whole range holds.
    expect(pool.quoteExactOut(WETH, USDC, 10n ** 22n)).toBeUndefined()
  })

  it('does not overflow with the largest liquidity: amounts past int128 are refused, not wrapped', () => {
    const huge = UniswapV4Pool.fromState(stateOf({ liquidityAmount: 2n ** 100n }), context)
    const quote = huge.quoteExactIn(WETH, USDC, MAX_INT128)
    if (quote) expect(quote.amountOut).toBeLessThanOrEqual(MAX_INT128)
    expect(huge.quoteExactOut(WETH, USDC, MAX_INT128)).toBeUndefined()
  })

  it('refuses exact outputs at a 100% fee (InvalidFeeForExactOut) and gives nothing for exact inputs', () => {
    const all = UniswapV4Pool.fromState(stateOf({ fee: 1_000_000, lpFee: 1_000_000 }), context)
    expect(all.quoteExactOut(WETH, USDC, 1n)).toBeUndefined()
    const quote = all.quoteExactIn(WETH, USDC, E18)!
    expect(quote.amountOut).toBe(0n)
    expect((quote.next as UniswapV4Pool).sqrtPriceX96).toBe(all.sqrtPriceX96)
  })

  it('limits: the swap to the known edge; maxIn fills and refuses one more past a narrowed state', () => {
    const narrowed = UniswapV4Pool.fromState({ ...stateOf(), ticks: [], tickLower: -2560, tickUpper: 2559, liquidity: (10n ** 21n).toString() }, context)
    const { maxIn, maxOut } = narrowed.limits(WETH, USDC)
    expect(maxIn).toBeGreaterThan(0n)
    expect(narrowed.quoteExactIn(WETH, USDC, maxIn)!.amountOut).toBe(maxOut)
    expect(narrowed.quoteExactIn(WETH, USDC, maxIn + 1n)).toBeUndefined()
    expect(narrowed.limits(WETH, USDC)).toBe(narrowed.limits(WETH, USDC))
  })

  it('builds the executor step: fee, spacing, native flag of the side that is native, and the known edge as limit', () => {
    const [sell, buy] = [pool.buildStep(WETH, USDC), pool.buildStep(USDC, WETH)]
    expect(sell).toEqual({ dex: 7, tokenIn: WETH, tokenOut: USDC, param: 500n | (10n << 24n) | (1n << 48n) })
    expect(buy).toEqual({ dex: 7, tokenIn: USDC, tokenOut: WETH, param: 500n | (10n << 24n) | (1n << 49n) })
    const erc20 = UniswapV4Pool.fromState(stateOf({ currency0: DAI, currency1: USDC, fee: 100, tickSpacing: 1 }), context)
    expect(erc20.buildStep(DAI, USDC).param).toBe(100n | (1n << 24n))
    const narrowed = UniswapV4Pool.fromState({ ...stateOf(), ticks: [], tickLower: -2560, tickUpper: 2559, liquidity: (10n ** 21n).toString() }, context)
    expect(narrowed.buildStep(WETH, USDC).param >> 56n).toBe(getSqrtRatioAtTick(-2560))
    expect(narrowed.buildStep(USDC, WETH).param >> 56n).toBe(getSqrtRatioAtTick(2550))
  })

  it('gives the fee-free mid price both ways, and refuses tokens it does not trade (500: a router mistake)', () => {
    expect(pool.spotPrice(WETH, USDC)).toBe(1)
    expect(pool.spotPrice('0x4200000000000000000000000000000000000006' as Address, USDC)).toBe(1)
    expect(() => pool.quoteExactIn(DAI, USDC, E18)).toThrow(QuoteError)
  })

  it('estimates gas from what the loop did', () => {
    expect(estimateSwapGas({ initializedTicksCrossed: 0, stepsTaken: 1 })).toBe(SWAP_BASE_GAS)
    expect(estimateSwapGas({ initializedTicksCrossed: 1, stepsTaken: 3, nativeOut: true })).toBeGreaterThan(SWAP_BASE_GAS + NATIVE_OUT_GAS)
    expect(MIN_SQRT_RATIO).toBe(4295128739n)
  })
})
