import { QuoteError } from '../../errors/QuoteError.js'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../chains/types.js'
import type { PoolContext } from '../types.js'
import { MAX_INT256, MAX_UINT128 } from './constants.js'
import { estimateSwapGas, FRESH_SLOT_GAS } from './gas.js'
import { UniswapV3Pool } from './pool.js'
import type { UniswapV3PoolState } from './state.js'
import { simulateSwap } from './swap.js'
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from './tickMath.js'
import { createBareChain } from '../../../test/support/bareChain.js'
import { type Position, mintedLiquidity } from '../../../test/support/v3Positions.js'

const TOKEN0 = '0x1111111111111111111111111111111111111111' as Address
const TOKEN1 = '0x2222222222222222222222222222222222222222' as Address
const OTHER = '0x3333333333333333333333333333333333333333' as Address
const POOL = '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8' as Address

const dex: DexConfig = {
  id: 'uniswapV3',
  family: 'uniswapV3',
  protocol: 'Uniswap V3',
  fork: 'UniswapV3',
  factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
  initCodeHash: '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54',
  feeTiers: { 100: 1, 500: 10, 3000: 60, 10000: 200 },
}
const chain: ChainConfig = createBareChain({ id: 1, name: 'Ethereum', wrappedNative: TOKEN0, dexes: [dex] })
const context: PoolContext = { chain, dex, dexIndex: 3 }

const E18 = 10n ** 18n
const PRICE_1_1 = 2n ** 96n
const minTick = (tickSpacing: number) => Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
const maxTick = (tickSpacing: number) => Math.floor(MAX_TICK / tickSpacing) * tickSpacing


/** The JSON state of a pool initialized at a price with these positions minted. */
function stateOf(
  positions: Position[],
  options: { sqrtPriceX96?: bigint; fee?: number; tickSpacing?: number; tickLower?: number; tickUpper?: number } = {},
): UniswapV3PoolState {
  const { sqrtPriceX96 = PRICE_1_1, fee = 3000, tickSpacing = 60, tickLower = MIN_TICK, tickUpper = MAX_TICK } = options
  const tick = getTickAtSqrtRatio(sqrtPriceX96)
  const { ticks, liquidity } = mintedLiquidity(positions, tick)
  return {
    family: 'uniswapV3',
    dex: 'uniswapV3',
    address: POOL,
    token0: TOKEN0,
    token1: TOKEN1,
    fee,
    tickSpacing,
    sqrtPriceX96: String(sqrtPriceX96),
    tick,
    liquidity: String(liquidity),
    ticks: ticks
      .filter(({ index }) => index >= tickLower && index <= tickUpper)
      .map(({ index, liquidityNet }) => ({ index, liquidityNet: String(liquidityNet) })),
    tickLower,
    tickUpper,
  }
}

const POSITIONS: Position[] = [
  { tickLower: minTick(60), tickUpper: maxTick(60), liquidity: 2n * E18 },
  { tickLower: -600, tickUpper: 600, liquidity: 5n * E18 },
  { tickLower: -1200, tickUpper: -60, liquidity: 3n * E18 },
  { tickLower: 120, tickUpper: 1800, liquidity: 7n * E18 },
]
const pool = UniswapV3Pool.fromState(stateOf(POSITIONS), context)

/** The observable state of a pool, for "unchanged" checks. */
const observe = (p: UniswapV3Pool) => ({
  sqrtPriceX96: p.sqrtPriceX96,
  tick: p.tick,
  liquidity: p.liquidity,
  ticks: p.ticks.map((t) => ({ ...t })),
  tickLower: p.tickLower,
  tickUpper: p.tickUpper,
  spot: p.spotPrice(TOKEN0, TOKEN1),
})

describe('UniswapV3Pool.fromState', () => {
  it('builds the pool from its JSON state and context', () => {
    const mixedCase = UniswapV3Pool.fromState(
      { ...stateOf(POSITIONS), address: '0x8AD599C3A0FF1DE082011EFDDC58F1908EB6E6D8' },
      context,
    )
    expect(mixedCase.key).toBe(POOL)
    expect(mixedCase.address).toBe(POOL)
    expect(pool.protocol).toBe('Uniswap V3')
    expect(pool.fork).toBe('UniswapV3')
    expect(pool.family).toBe('uniswapV3')
    expect(pool.tokens).toEqual([TOKEN0, TOKEN1])
    expect(pool.fee).toBe(3000)
    expect(pool.tickSpacing).toBe(60)
    expect(pool.sqrtPriceX96).toBe(PRICE_1_1)
    expect(pool.tick).toBe(0)
    expect(pool.liquidity).toBe(7n * E18)
    expect(pool.ticks[0]).toEqual({ index: minTick(60), liquidityNet: 2n * E18 })
    expect(pool.dexIndex).toBe(3)
  })

  it('accepts a pool that just crossed a tick downward (tick one below the price)', () => {
    const state = { ...stateOf(POSITIONS), sqrtPriceX96: String(getSqrtRatioAtTick(-600)), tick: -601 }
    state.liquidity = String(2n * E18 + 3n * E18)
    expect(UniswapV3Pool.fromState(state, context).tick).toBe(-601)
  })

  const base = stateOf(POSITIONS)
  const malformed: [string, Partial<UniswapV3PoolState> | ((s: UniswapV3PoolState) => UniswapV3PoolState), RegExp][] = [
    ['another family', { family: 'uniswapV2' as 'uniswapV3' }, /family/],
    ['another dex', { dex: 'sushiswapV3' }, /dex/],
    ['a bad address', { address: '0x1234' as Address }, /address/],
    ['a bad token', { token1: 'weth' as Address }, /token1/],
    ['tokens out of order', { token0: TOKEN1, token1: TOKEN0 }, /token0 must sort/],
    ['a fee of 100%', { fee: 1_000_000 }, /fee/],
    ['a fractional fee', { fee: 30.5 }, /fee/],
    ['tick spacing 0', { tickSpacing: 0 }, /tickSpacing/],
    ['a tick spacing not matching the fee tier', { tickSpacing: 10 }, /does not match the dex/],
    ['sqrtPrice below MIN_SQRT_RATIO', { sqrtPriceX96: String(MIN_SQRT_RATIO - 1n) }, /sqrtPriceX96/],
    ['sqrtPrice at MAX_SQRT_RATIO', { sqrtPriceX96: String(MAX_SQRT_RATIO) }, /sqrtPriceX96/],
    ['sqrtPrice not an integer', { sqrtPriceX96: '1.5e28' }, /base-10 integer/],
    ['sqrtPrice in hex', { sqrtPriceX96: '0x1000000000000000000000000' }, /base-10 integer/],
    ['a tick out of range', { tick: MAX_TICK + 1 }, /tick/],
    ['a tick not matching the price', { tick: 5 }, /does not match sqrtPriceX96/],
    ['negative liquidity', { liquidity: '-1' }, /negative/],
    ['liquidity above uint128', { liquidity: String(MAX_UINT128 + 1n) }, /uint128/],
    ['liquidity inconsistent with the ticks', { liquidity: String(6n * E18) }, /differs from the ticks/],
    ['an inverted known range', { tickLower: 10, tickUpper: -10 }, /known range/],
    ['unsorted ticks', (s) => ({ ...s, ticks: [...s.ticks].reverse() }), /not above the previous/],
    ['duplicate ticks', (s) => ({ ...s, ticks: [s.ticks[0]!, ...s.ticks] }), /not above the previous/],
    ['a tick off the spacing', (s) => ({ ...s, ticks: [...s.ticks.slice(0, 1), { index: -601, liquidityNet: '0' }, ...s.ticks.slice(1)] }), /multiple of tickSpacing/],
    ['a tick beyond MAX_TICK', (s) => ({ ...s, ticks: [...s.ticks, { index: MAX_TICK + 8, liquidityNet: '0' }] }), /MIN_TICK, MAX_TICK/],
    ['a tick outside the known range', (s) => ({ ...s, tickUpper: 1799 }), /outside the known range/],
    ['liquidityNet above int128', (s) => ({ ...s, ticks: s.ticks.map((t, i) => (i === 0 ? { ...t, liquidityNet: String(2n ** 127n) } : t)) }), /liquidityNet/],
    ['liquidityNet not summing to zero', (s) => ({ ...s, ticks: s.ticks.map((t, i) => (i === s.ticks.length - 1 ? { ...t, liquidityNet: '0' } : t)) }), /sums to/],
    ['ticks not an array', { ticks: undefined as unknown as [] }, /ticks is not an array/],
  ]
  for (const [what, change, message] of malformed) {
    it(`throws a host QuoteError (500) on ${what}`, () => {
      const state = typeof change === 'function' ? change(base) : { ...base, ...change }
      let thrown: unknown
      try {
        UniswapV3Pool.fromState(state, context)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(QuoteError)
      expect((thrown as QuoteError).statusCode).toBe(500)
      expect((thrown as QuoteError).message).toMatch(message)
    })
  }

  it('does not check liquidity against the ticks when the range below the price is not all known', () => {
    const partial = stateOf(POSITIONS, { tickLower: -3 * 15360, tickUpper: 3 * 15360 - 1 })
    expect(UniswapV3Pool.fromState(partial, context).liquidity).toBe(7n * E18)
  })
})

describe('UniswapV3Pool quotes', () => {
  it('quotes exact input with simulateSwap, the gas model and the next state', () => {
    const amountIn = 3n * E18
    const quote = pool.quoteExactIn(TOKEN0, TOKEN1, amountIn)
    const swap = simulateSwap(pool, true, amountIn)!
    expect(quote?.amountIn).toBe(amountIn)
    expect(quote?.amountOut).toBe(-swap.amount1)
    expect(quote?.gas).toBe(estimateSwapGas(swap.initializedTicksCrossed, swap.stepsTaken))
    const next = quote?.next as UniswapV3Pool
    expect(next).toBeInstanceOf(UniswapV3Pool)
    expect([next.sqrtPriceX96, next.tick, next.liquidity]).toEqual([swap.sqrtPriceX96, swap.tick, swap.liquidity])
    expect(next.ticks).toBe(pool.ticks)
    expect(next.key).toBe(pool.key)
  })

  it('quotes exact output: the least input for the amount, all of it delivered', () => {
    const quote = pool.quoteExactOut(TOKEN1, TOKEN0, 2n * E18)
    const swap = simulateSwap(pool, false, -2n * E18)!
    expect(quote?.amountOut).toBe(2n * E18)
    expect(quote?.amountIn).toBe(swap.amount1)
    // Paying that input exact-in buys at least the output.
    expect(pool.quoteExactIn(TOKEN1, TOKEN0, quote!.amountIn)!.amountOut).toBeGreaterThanOrEqual(2n * E18)
  })

  it('leaves the old state unchanged after a quote', () => {
    const before = observe(pool)
    pool.quoteExactIn(TOKEN0, TOKEN1, 10n ** 20n)
    pool.quoteExactOut(TOKEN0, TOKEN1, E18)
    pool.quoteExactIn(TOKEN1, TOKEN0, 1n)
    pool.limits(TOKEN0, TOKEN1)
    expect(observe(pool)).toEqual(before)
  })

  it('chains: a quote on the next state starts where the first ended', () => {
    const first = pool.quoteExactIn(TOKEN0, TOKEN1, E18)!
    const back = first.next.quoteExactIn(TOKEN1, TOKEN0, first.amountOut)!
    // Fees on both legs: less comes back than went in.
    expect(back.amountOut).toBeLessThan(E18)
    expect(back.amountOut).toBeGreaterThan((E18 * 99n) / 100n)
  })

  it('crosses ticks and charges gas for them', () => {
    const small = pool.quoteExactIn(TOKEN0, TOKEN1, 1000n)!
    const large = pool.quoteExactIn(TOKEN0, TOKEN1, 10n ** 20n)!
    expect(large.gas).toBeGreaterThan(small.gas)
  })

  it('returns undefined for a zero, negative or non-int256 amount', () => {
    expect(pool.quoteExactIn(TOKEN0, TOKEN1, 0n)).toBeUndefined()
    expect(pool.quoteExactIn(TOKEN0, TOKEN1, -5n)).toBeUndefined()
    expect(pool.quoteExactIn(TOKEN0, TOKEN1, MAX_INT256 + 1n)).toBeUndefined()
    expect(pool.quoteExactOut(TOKEN0, TOKEN1, 0n)).toBeUndefined()
    expect(pool.quoteExactOut(TOKEN0, TOKEN1, 2n ** 255n + 1n)).toBeUndefined()
  })

  it('returns undefined past the liquidity (zero liquidity, amounts past the limits)', () => {
    const oneSided = UniswapV3Pool.fromState(stateOf([{ tickLower: 0, tickUpper: 6000, liquidity: E18 }]), context)
    // Below the price there is nothing to buy token1 with.
    expect(oneSided.quoteExactIn(TOKEN0, TOKEN1, 1000n)).toBeUndefined()
    expect(oneSided.quoteExactOut(TOKEN0, TOKEN1, 1n)).toBeUndefined()
    expect(oneSided.limits(TOKEN0, TOKEN1)).toEqual({ maxIn: 0n, maxOut: 0n })
    // Above it, the position's token0 and no more.
    const { maxIn, maxOut } = oneSided.limits(TOKEN1, TOKEN0)
    expect(maxOut).toBeGreaterThan(0n)
    expect(oneSided.quoteExactOut(TOKEN1, TOKEN0, maxOut)?.amountIn).toBe(maxIn)
    expect(oneSided.quoteExactOut(TOKEN1, TOKEN0, maxOut + 1n)).toBeUndefined()
    expect(oneSided.quoteExactIn(TOKEN1, TOKEN0, maxIn)?.amountOut).toBe(maxOut)
    // Past the position the price runs through empty ticks to the limit and the rest is not taken.
    expect(oneSided.quoteExactIn(TOKEN1, TOKEN0, maxIn + 1n)).toBeUndefined()
    expect(oneSided.quoteExactIn(TOKEN1, TOKEN0, MAX_INT256)).toBeUndefined()
  })

  it('returns undefined where the contract reverts (price already at the limit)', () => {
    const atMin = UniswapV3Pool.fromState(
      stateOf([{ tickLower: minTick(60), tickUpper: maxTick(60), liquidity: E18 }], { sqrtPriceX96: MIN_SQRT_RATIO }),
      context,
    )
    expect(atMin.quoteExactIn(TOKEN0, TOKEN1, 1000n)).toBeUndefined()
    expect(atMin.limits(TOKEN0, TOKEN1)).toEqual({ maxIn: 0n, maxOut: 0n })
    expect(atMin.quoteExactIn(TOKEN1, TOKEN0, 1000n)).toBeDefined()
  })

  it('does not overflow with the largest liquidity and amounts', () => {
    const maxLiquidity = MAX_UINT128 / BigInt((maxTick(60) - minTick(60)) / 60 + 1)
    const deep = UniswapV3Pool.fromState(
      stateOf([{ tickLower: minTick(60), tickUpper: maxTick(60), liquidity: maxLiquidity }]),
      context,
    )
    const { maxIn, maxOut } = deep.limits(TOKEN0, TOKEN1)
    expect(maxIn).toBeGreaterThan(2n ** 128n)
    expect(deep.quoteExactIn(TOKEN0, TOKEN1, maxIn)?.amountOut).toBe(maxOut)
    expect(deep.quoteExactIn(TOKEN0, TOKEN1, MAX_INT256)).toBeUndefined()
    expect(deep.quoteExactOut(TOKEN0, TOKEN1, 2n ** 255n)).toBeUndefined()
  })
})

describe('UniswapV3Pool.limits', () => {
  it('is the swap to the price extreme when the state is known to the end', () => {
    const down = simulateSwap(pool, true, MAX_INT256, MIN_SQRT_RATIO + 1n)!
    expect(pool.limits(TOKEN0, TOKEN1)).toEqual({ maxIn: down.amount0, maxOut: -down.amount1 })
    const up = simulateSwap(pool, false, MAX_INT256, MAX_SQRT_RATIO - 1n)!
    expect(pool.limits(TOKEN1, TOKEN0)).toEqual({ maxIn: up.amount1, maxOut: -up.amount0 })
  })

  it('is memoised per direction', () => {
    expect(pool.limits(TOKEN0, TOKEN1)).toBe(pool.limits(TOKEN0, TOKEN1))
  })

  it('stops at the edge of the known words: maxIn fills, one more does not', () => {
    // Two bitmap words either side of tick 0, with the range edges not on word boundaries.
    const partial = UniswapV3Pool.fromState(
      stateOf(POSITIONS, { tickLower: -2 * 15360 - 100, tickUpper: 2 * 15360 + 100 }),
      context,
    )
    for (const [tokenIn, tokenOut] of [[TOKEN0, TOKEN1], [TOKEN1, TOKEN0]] as const) {
      const { maxIn, maxOut } = partial.limits(tokenIn, tokenOut)
      expect(maxIn).toBeGreaterThan(0n)
      const quote = partial.quoteExactIn(tokenIn, tokenOut, maxIn)
      expect(quote?.amountOut).toBe(maxOut)
      expect(partial.quoteExactIn(tokenIn, tokenOut, maxIn + 1n)).toBeUndefined()
      expect(partial.quoteExactOut(tokenIn, tokenOut, maxOut)).toBeDefined()
      expect(partial.quoteExactOut(tokenIn, tokenOut, maxOut + 1n)).toBeUndefined()
      // The same amounts as the full state gives up to that price.
      const edge = tokenIn === TOKEN0 ? getSqrtRatioAtTick(-2 * 15360) : getSqrtRatioAtTick(2 * 15360 - 60)
      expect((quote?.next as UniswapV3Pool).sqrtPriceX96).toBe(edge)
      const full = simulateSwap(pool, tokenIn === TOKEN0, maxIn)!
      expect(tokenIn === TOKEN0 ? -full.amount1 : -full.amount0).toBe(maxOut)
    }
  })

  it('is zero when the current word is not known', () => {
    const elsewhere = UniswapV3Pool.fromState(stateOf(POSITIONS, { tickLower: 15360, tickUpper: 30719 }), context)
    expect(elsewhere.limits(TOKEN0, TOKEN1)).toEqual({ maxIn: 0n, maxOut: 0n })
    expect(elsewhere.limits(TOKEN1, TOKEN0)).toEqual({ maxIn: 0n, maxOut: 0n })
    expect(elsewhere.quoteExactIn(TOKEN0, TOKEN1, 1000n)).toBeUndefined()
  })
})

describe('UniswapV3Pool prices and steps', () => {
  it('gives the fee-free mid price in raw units, both ways', () => {
    expect(pool.spotPrice(TOKEN0, TOKEN1)).toBe(1)
    const tenth = UniswapV3Pool.fromState(
      stateOf([], { sqrtPriceX96: 25054144837504793118641380156n }), // encodePriceSqrt(1, 10)
      context,
    )
    expect(tenth.spotPrice(TOKEN0, TOKEN1)).toBeCloseTo(0.1, 12)
    expect(tenth.spotPrice(TOKEN1, TOKEN0)).toBeCloseTo(10, 10)
  })

  it('builds the executor step with the fee tier as param', () => {
    expect(pool.buildStep(TOKEN1, TOKEN0)).toEqual({ dex: 3, tokenIn: TOKEN1, tokenOut: TOKEN0, param: 3000n })
  })

  it('accepts checksummed token addresses and rejects tokens it does not trade', () => {
    const upper = TOKEN0.toUpperCase().replace('0X', '0x') as Address
    expect(pool.spotPrice(upper, TOKEN1)).toBe(1)
    expect(() => pool.quoteExactIn(TOKEN0, OTHER, 1n)).toThrow(/does not trade/)
    expect(() => pool.buildStep(TOKEN0, TOKEN0)).toThrow(/does not trade/)
  })
})

describe('UniswapV3Pool gas of ticks whose fee growth outside is zero', () => {
  // Every tick of POSITIONS listed fresh in both tokens, in none, or the lists absent (an older state).
  const indices = stateOf(POSITIONS).ticks.map((t) => t.index)
  const allFresh = UniswapV3Pool.fromState({ ...stateOf(POSITIONS), freshOutside0: indices, freshOutside1: indices }, context)
  const noneFresh = UniswapV3Pool.fromState({ ...stateOf(POSITIONS), freshOutside0: [], freshOutside1: [] }, context)
  const unsaid = UniswapV3Pool.fromState(stateOf(POSITIONS), context)
  // Selling token1 moves the price up across 120 and 600.
  const amountIn = 40n * E18

  it('prices each crossing by the words it writes from zero: both, none, or one as before the lists', () => {
    const [fresh, rewrite, before] = [allFresh, noneFresh, unsaid].map((p) => p.quoteExactIn(TOKEN1, TOKEN0, amountIn)!)
    const crossed = indices.filter((index) => index > unsaid.tick && index <= (before!.next as UniswapV3Pool).tick).length
    expect(crossed).toBeGreaterThanOrEqual(2)
    expect(fresh!.gas - before!.gas).toBe(BigInt(crossed) * FRESH_SLOT_GAS)
    expect(before!.gas - rewrite!.gas).toBe(BigInt(crossed) * FRESH_SLOT_GAS)
  })

  it('writes no word from zero in a token without fee growth yet, nor at a tick the fill crossed already', () => {
    // Token0's global growth is still zero: crossing upward (token1 in) writes only token1's word
    // from zero at each tick, the one word per crossing the lists' absence is priced with.
    const noGrowth0 = UniswapV3Pool.fromState(
      { ...stateOf(POSITIONS), freshOutside0: indices, freshOutside1: indices, freshSlots: { feeGrowth0: true, feeGrowth1: false, protocolFees: false } },
      context,
    )
    const up = noGrowth0.quoteExactIn(TOKEN1, TOKEN0, amountIn)!
    const before = unsaid.quoteExactIn(TOKEN1, TOKEN0, amountIn)!
    expect(up.gas).toBe(before.gas)
    // Back down across the same ticks in the same fill: their words were written on the way up.
    const there = allFresh.quoteExactIn(TOKEN1, TOKEN0, amountIn)!.next as UniswapV3Pool
    const back = there.quoteExactIn(TOKEN0, TOKEN1, 10n * E18)!
    const recrossed = indices.filter((index) => index > (back.next as UniswapV3Pool).tick && index <= there.tick && index > there.ticksCrossed.low && index <= there.ticksCrossed.high).length
    expect(recrossed).toBeGreaterThanOrEqual(1)
    const fromRead = UniswapV3Pool.fromState({ ...stateOf(POSITIONS, { sqrtPriceX96: there.sqrtPriceX96 }), freshOutside0: indices, freshOutside1: indices }, context)
    expect(fromRead.quoteExactIn(TOKEN0, TOKEN1, 10n * E18)!.gas - back.gas).toBe(2n * BigInt(recrossed) * FRESH_SLOT_GAS)
  })
})
