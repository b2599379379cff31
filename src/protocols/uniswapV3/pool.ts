import type { Address } from 'viem'
import { QuoteError, hostError } from '../../errors/QuoteError.js'
import type { CurveModel, ExecutorStep, Pool, PoolContext, PoolLimits, SwapResult } from '../types.js'
import { MAX_INT256 } from './constants.js'
import { EXTRA_WORD_GAS, estimateSwapGas, FRESH_SLOT_GAS, SWAP_BASE_GAS, TICK_CROSSED_GAS } from './gas.js'
import { type CrossedRange, type FreshOutside, NOTHING_CROSSED, parseFreshOutside, countFreshOutsideWrites, extendCrossed } from './freshOutside.js'
import { UniswapV3RevertError } from './revertError.js'
import { parseAddress, parseTickState } from './parseTickState.js'
import type { UniswapV3PoolState } from './state.js'
import { simulateSwap, type SimulateSwapPool, type SimulateSwapReturnType } from './swap.js'
import type { SwapTrail } from './swapTrail.js'
import { getKnownPriceLimit, type InitializedTick } from './tickBitmap.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from './tickMath.js'

/** What every state of one pool shares; swaps change only price, tick and liquidity. */
type PoolConstants = {
  address: Address
  protocol: string
  fork: string
  token0: Address
  token1: Address
  fee: number
  tickSpacing: number
  ticks: readonly InitializedTick[]
  tickLower: number
  tickUpper: number
  dexIndex: number
  /** [token0, token1], one array for every state (a swap makes a state). */
  tokens?: readonly Address[]
  /**
   * Ticks whose fee growth outside is zero in token0 / token1, as read (see
   * `UniswapV3PoolState.freshOutside0`); undefined when the state does not say.
   */
  freshOutside: FreshOutside | undefined
}

const TWO_POW_255 = 1n << 255n
// UniswapV3Factory accepts tick spacings in (0, 16384).
const MAX_TICK_SPACING = 16383

/** Which of a pool's slots its next swap writes from zero (see `UniswapV3PoolState.freshSlots`). */
export type FreshSlots = { readonly feeGrowth0: boolean; readonly feeGrowth1: boolean; readonly protocolFees: boolean }
/** Gas of 0, 1 or 2 slots written from zero, by count (constants: no bigint per swap). */
const FRESH_SLOTS_GAS = [0n, FRESH_SLOT_GAS, 2n * FRESH_SLOT_GAS] as const
const NO_FRESH_SLOTS: FreshSlots = { feeGrowth0: false, feeGrowth1: false, protocolFees: false }

/**
 * A Uniswap V3 pool (or a fork with the same swap) at one block, as an
 * immutable, simulatable {@link Pool}. Quotes run {@link simulateSwap}, the
 * contract's swap loop bit for bit; a swap returns the next state as a new
 * instance sharing the tick array. Build it with {@link UniswapV3Pool.fromState}.
 *
 * @example
 * const pool = UniswapV3Pool.fromState(state, { chain, dex, dexIndex: 1 })
 * const quote = pool.quoteExactIn(weth, usdc, 10n ** 18n)
 * if (quote) console.log(quote.amountOut, quote.next.spotPrice(weth, usdc))
 */
export class UniswapV3Pool implements Pool, SimulateSwapPool {
  readonly key: string
  readonly address: Address
  readonly protocol: string
  readonly fork: string
  readonly family = 'uniswapV3'
  readonly tokens: readonly Address[]
  readonly token0: Address
  readonly token1: Address
  /** Fee in hundredths of a bip (3000 = 0.3%). */
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  /** Active liquidity. */
  readonly liquidity: bigint
  /** Every initialized tick in [`tickLower`, `tickUpper`], sorted ascending (shared between states). */
  readonly ticks: readonly InitializedTick[]
  /** Lower bound of the known tick range. */
  readonly tickLower: number
  /** Upper bound of the known tick range. */
  readonly tickUpper: number
  /** Index of the pool's dex in the executor's dex table. */
  readonly dexIndex: number

  private readonly constants: PoolConstants
  // Memoised limits per direction: a pure function of this immutable state.
  private limitsZeroForOne: PoolLimits | undefined
  private limitsOneForZero: PoolLimits | undefined
  /**
   * The checkpoints of this state's exact-input swaps per direction (see SwapTrail): none before
   * its first such swap, null after it, kept from its second (most states, made by a swap, are
   * swapped once; a source's states and a plan's first hops, many times at nearby amounts).
   */
  private trailZeroForOne: SwapTrail | null | undefined
  private trailOneForZero: SwapTrail | null | undefined

  /** Storage the next swap writes from zero (see `UniswapV3PoolState.freshSlots`), for its gas. */
  readonly freshSlots: FreshSlots
  /** Ticks the swaps that led from the read state to this one crossed: their outside words are written. */
  readonly ticksCrossed: CrossedRange
  /**
   * What `estimateSwapGas` gave the swap that made this state (0n for a state read from JSON):
   * the loop's gas without the storage written from zero, from which forks recover its shape.
   */
  readonly loopGas: bigint

  private constructor(
    constants: PoolConstants,
    sqrtPriceX96: bigint,
    tick: number,
    liquidity: bigint,
    freshSlots: FreshSlots = NO_FRESH_SLOTS,
    ticksCrossed: CrossedRange = NOTHING_CROSSED,
    loopGas = 0n,
  ) {
    this.freshSlots = freshSlots
    this.ticksCrossed = ticksCrossed
    this.loopGas = loopGas
    this.constants = constants
    this.key = constants.address
    this.address = constants.address
    this.protocol = constants.protocol
    this.fork = constants.fork
    this.token0 = constants.token0
    this.token1 = constants.token1
    this.tokens = constants.tokens ??= [constants.token0, constants.token1]
    this.fee = constants.fee
    this.tickSpacing = constants.tickSpacing
    this.ticks = constants.ticks
    this.tickLower = constants.tickLower
    this.tickUpper = constants.tickUpper
    this.dexIndex = constants.dexIndex
    this.sqrtPriceX96 = sqrtPriceX96
    this.tick = tick
    this.liquidity = liquidity
  }

  /**
   * Validates a JSON pool state and builds the pool. Throws a plain `Error`
   * naming the problem on a malformed state: wrong family or dex, bad
   * addresses or token order, fee or tick spacing out of range or not the
   * dex's tier, price or tick out of range or inconsistent, negative or
   * oversized liquidity, unsorted, duplicated, unspaced or out-of-range
   * ticks, and (when the state covers the whole range below the price) a
   * liquidity that does not match the ticks' liquidityNet.
   *
   * @example
   * const pool = UniswapV3Pool.fromState(
   *   { family: 'uniswapV3', dex: 'uniswapV3', address, token0, token1, fee: 3000, tickSpacing: 60,
   *     sqrtPriceX96: '79228162514264337593543950336', tick: 0, liquidity: '0', ticks: [],
   *     tickLower: -887272, tickUpper: 887272 },
   *   { chain, dex, dexIndex: 1 },
   * )
   */
  static fromState(state: UniswapV3PoolState, context: PoolContext): UniswapV3Pool {
    const label = typeof state?.address === 'string' ? state.address : '(no address)'
    const fail = (reason: string): never => {
      throw hostError(`Invalid Uniswap V3 pool state ${label}: ${reason}`)
    }
    if (state === null || typeof state !== 'object') fail('not an object')
    if (state.family !== 'uniswapV3') fail(`family is ${String(state.family)}, expected uniswapV3`)
    if (state.dex !== context.dex.id) fail(`dex is ${String(state.dex)}, but the context's dex is ${context.dex.id}`)

    const address = parseAddress(state.address, 'address', fail)
    const token0 = parseAddress(state.token0, 'token0', fail)
    const token1 = parseAddress(state.token1, 'token1', fail)
    if (!(token0 < token1)) fail('token0 must sort strictly below token1')

    const { fee, tickSpacing } = state
    if (!Number.isInteger(fee) || fee < 0 || fee >= 1_000_000) fail(`fee ${fee} is not in [0, 1000000)`)
    if (!Number.isInteger(tickSpacing) || tickSpacing < 1 || tickSpacing > MAX_TICK_SPACING) {
      fail(`tickSpacing ${tickSpacing} is not in [1, ${MAX_TICK_SPACING}]`)
    }
    const tierSpacing = context.dex.feeTiers?.[fee]
    if (tierSpacing !== undefined && tierSpacing !== tickSpacing) {
      fail(`tickSpacing ${tickSpacing} does not match the dex's ${tierSpacing} for fee ${fee}`)
    }

    const { sqrtPriceX96, tick, liquidity, tickLower, tickUpper, ticks } = parseTickState(state, tickSpacing, fail)

    const constants: PoolConstants = {
      address,
      protocol: context.dex.protocol,
      fork: context.dex.fork,
      token0,
      token1,
      fee,
      tickSpacing,
      ticks,
      tickLower,
      tickUpper,
      dexIndex: context.dexIndex,
      freshOutside: parseFreshOutside(state),
    }
    const fresh = state.freshSlots
    const freshSlots: FreshSlots =
      fresh && typeof fresh === 'object'
        ? { feeGrowth0: fresh.feeGrowth0 === true, feeGrowth1: fresh.feeGrowth1 === true, protocolFees: fresh.protocolFees === true }
        : NO_FRESH_SLOTS
    return new UniswapV3Pool(constants, sqrtPriceX96, tick, liquidity, freshSlots)
  }

  /**
   * Gas a swap from `tokenIn` spends beyond `estimateSwapGas` on storage it writes from zero:
   * the input's fee growth (the pool's first swap that way, when it charges a fee) and the
   * protocol fees owed (the first accrual since a protocol fee was switched on or collected).
   *
   * @example
   * pool.freshSlotGas(pool.token0) // 0n on a pool that has traded both ways
   */
  freshSlotGas(tokenIn: Address): bigint {
    return this.freshSlotGasOf(tokenIn.toLowerCase() === this.token0)
  }

  private freshSlotGasOf(zeroForOne: boolean): bigint {
    const feeGrowth = zeroForOne ? this.freshSlots.feeGrowth0 : this.freshSlots.feeGrowth1
    return FRESH_SLOTS_GAS[(feeGrowth && this.fee > 0 ? 1 : 0) + (this.freshSlots.protocolFees ? 1 : 0)]!
  }

  /**
   * Fee-free mid price from `sqrtPriceX96`: raw units of `tokenOut` per raw
   * unit of `tokenIn`, as a float.
   *
   * @example
   * pool.spotPrice(pool.token0, pool.token1) // (sqrtPriceX96 / 2^96)^2
   */
  spotPrice(tokenIn: Address, tokenOut: Address): number {
    const root = Number(this.sqrtPriceX96) / 2 ** 96
    const price = root * root
    return this.isZeroForOne(tokenIn, tokenOut) ? price : 1 / price
  }

  /**
   * Exact-input quote: `undefined` unless the pool takes the whole
   * `amountIn` within the known state and the price range (and on any
   * condition where the contract reverts).
   *
   * @example
   * const quote = pool.quoteExactIn(pool.token0, pool.token1, 10n ** 18n)
   */
  quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): SwapResult | undefined {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    if (amountIn <= 0n || amountIn > MAX_INT256) return undefined
    const result = this.trySwap(zeroForOne, amountIn, undefined, this.trailFor(zeroForOne))
    if (result === undefined) return undefined
    if ((zeroForOne ? result.amount0 : result.amount1) !== amountIn) return undefined
    return this.toSwapResult(result, zeroForOne, amountIn, -(zeroForOne ? result.amount1 : result.amount0))
  }

  /**
   * Exact-output quote (the least input that delivers `amountOut`):
   * `undefined` unless the pool delivers all of `amountOut` within the known
   * state and the price range.
   *
   * @example
   * const quote = pool.quoteExactOut(pool.token1, pool.token0, 10n ** 18n)
   */
  quoteExactOut(tokenIn: Address, tokenOut: Address, amountOut: bigint): SwapResult | undefined {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    if (amountOut <= 0n || amountOut > TWO_POW_255) return undefined
    const result = this.trySwap(zeroForOne, -amountOut, undefined)
    if (result === undefined) return undefined
    if (-(zeroForOne ? result.amount1 : result.amount0) !== amountOut) return undefined
    return this.toSwapResult(result, zeroForOne, zeroForOne ? result.amount0 : result.amount1, amountOut)
  }

  /**
   * The most this direction can take within the known state: the input that
   * moves the price to the edge of the known bitmap words (or to the
   * contract's price extreme when the state is known to the end), and the
   * output it gives. Computed exactly by a swap with that price limit;
   * `quoteExactIn(maxIn)` fills and any larger input does not.
   *
   * @example
   * const { maxIn, maxOut } = pool.limits(pool.token0, pool.token1)
   */
  limits(tokenIn: Address, tokenOut: Address): PoolLimits {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    const cached = zeroForOne ? this.limitsZeroForOne : this.limitsOneForZero
    if (cached !== undefined) return cached

    let limits: PoolLimits = { maxIn: 0n, maxOut: 0n }
    const priceLimit = this.getKnownPriceLimit(zeroForOne)
    if (priceLimit !== undefined && (zeroForOne ? priceLimit < this.sqrtPriceX96 : priceLimit > this.sqrtPriceX96)) {
      const result = this.trySwap(zeroForOne, MAX_INT256, priceLimit)
      if (result !== undefined) {
        limits = zeroForOne
          ? { maxIn: result.amount0, maxOut: -result.amount1 }
          : { maxIn: result.amount1, maxOut: -result.amount0 }
      }
    }
    if (zeroForOne) this.limitsZeroForOne = limits
    else this.limitsOneForZero = limits
    return limits
  }

  /**
   * The executor step for this pool: its dex index, the fee tier (from which
   * the executor derives and checks the pool address) and, above bit 24, a
   * price limit at the edge of the ticks this state knows (0: none). The SDK
   * never prices a swap past that edge, so the pool need not go there either;
   * the limit bounds the swap's gas when someone drains the pool first (the
   * executor then reverts on the partial fill).
   *
   * @example
   * pool.buildStep(pool.token0, pool.token1) // { dex: 1, tokenIn, tokenOut, param: 3000n | (limit << 24n) }
   */
  buildStep(tokenIn: Address, tokenOut: Address): ExecutorStep {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    // The word-aligned edge quotes respect; 0 (no limit) when the state knows the whole range.
    const known = this.getKnownPriceLimit(zeroForOne)
    const limit = known === undefined || known === MIN_SQRT_RATIO + 1n || known === MAX_SQRT_RATIO - 1n ? 0n : known
    return {
      dex: this.dexIndex,
      tokenIn: zeroForOne ? this.token0 : this.token1,
      tokenOut: zeroForOne ? this.token1 : this.token0,
      param: BigInt(this.fee) | (limit << 24n),
    }
  }

  /**
   * The pool's liquidity ranges as a float model, for the router's optimiser:
   * the current price and liquidity, the initialized ticks, and the edge of
   * the known state that quotes never pass.
   *
   * @example
   * pool.curveModel(pool.token0, pool.token1) // { kind: 'concentrated', zeroForOne: true, ... }
   */
  curveModel(tokenIn: Address, tokenOut: Address): CurveModel {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    const sqrtPrice = Number(this.sqrtPriceX96) / 2 ** 96
    const limit = this.getKnownPriceLimit(zeroForOne)
    return {
      kind: 'concentrated',
      fee: this.fee / 1_000_000,
      zeroForOne,
      sqrtPrice,
      tick: this.tick,
      liquidity: Number(this.liquidity),
      exactLiquidity: this.liquidity,
      ticks: this.ticks,
      limitSqrtPrice: limit === undefined ? sqrtPrice : Number(limit) / 2 ** 96,
      gasBase: Number(SWAP_BASE_GAS + this.freshSlotGas(tokenIn)),
      gasPerTick: Number(TICK_CROSSED_GAS),
      gasPerWord: Number(EXTRA_WORD_GAS),
      tickSpacing: this.tickSpacing,
    }
  }

  private isZeroForOne(tokenIn: Address, tokenOut: Address): boolean {
    if (tokenIn === this.token0 && tokenOut === this.token1) return true
    if (tokenIn === this.token1 && tokenOut === this.token0) return false
    const tokenInLower = tokenIn.toLowerCase()
    const tokenOutLower = tokenOut.toLowerCase()
    if (tokenInLower === this.token0 && tokenOutLower === this.token1) return true
    if (tokenInLower === this.token1 && tokenOutLower === this.token0) return false
    throw new QuoteError({ statusCode: 500, message: `Uniswap V3 pool ${this.address} does not trade ${tokenIn} for ${tokenOut}` }) // the router's mistake, not the request's
  }

  /** The trail of this state's exact-input swaps in a direction, from its second such swap (see trailZeroForOne). */
  private trailFor(zeroForOne: boolean): SwapTrail | undefined {
    const held = zeroForOne ? this.trailZeroForOne : this.trailOneForZero
    if (held) return held
    const next = held === null ? [] : null
    if (zeroForOne) this.trailZeroForOne = next
    else this.trailOneForZero = next
    return next ?? undefined
  }

  // A swap the contract would revert on cannot be filled.
  private trySwap(
    zeroForOne: boolean,
    amountSpecified: bigint,
    sqrtPriceLimitX96: bigint | undefined,
    trail?: SwapTrail,
  ): SimulateSwapReturnType | undefined {
    try {
      return simulateSwap(this, zeroForOne, amountSpecified, sqrtPriceLimitX96, trail)
    } catch (error) {
      if (error instanceof UniswapV3RevertError) return undefined
      throw error
    }
  }

  private toSwapResult(result: SimulateSwapReturnType, zeroForOne: boolean, amountIn: bigint, amountOut: bigint): SwapResult {
    // The swap leaves the input's fee growth written; the protocol fees stay counted as fresh (a
    // dust swap may accrue none), which can only over-estimate a second swap of the same fill.
    const fresh = this.freshSlots
    // (The same object when that slot was already written: most swaps, and no allocation.)
    const written = zeroForOne ? !fresh.feeGrowth0 : !fresh.feeGrowth1
    const next: FreshSlots = written ? fresh : zeroForOne ? { ...fresh, feeGrowth0: false } : { ...fresh, feeGrowth1: false }
    // Each crossing flips both fee-growth-outside words (Tick.cross: global - outside); the state's
    // per-tick reads say how many are written from zero (countFreshOutsideWrites). A state that
    // does not say prices one word per crossing, as before the lists.
    const { freshOutside } = this.constants
    let extraFreshWrites = 0
    let ticksCrossed = this.ticksCrossed
    if (result.initializedTicksCrossed > 0 && freshOutside !== undefined) {
      extraFreshWrites = countFreshOutsideWrites({ ticks: this.ticks, tickBefore: this.tick, tickAfter: result.tick, freshOutside, zeroForOne, lpFee: this.fee > 0, feeGrowthZero0: fresh.feeGrowth0, feeGrowthZero1: fresh.feeGrowth1, crossedBefore: this.ticksCrossed })
      ticksCrossed = extendCrossed(this.ticksCrossed, this.tick, result.tick)
    }
    const loopGas = estimateSwapGas(result.initializedTicksCrossed, result.stepsTaken)
    return {
      amountIn,
      amountOut,
      gas: this.swapGas(loopGas, zeroForOne, extraFreshWrites),
      next: new UniswapV3Pool(this.constants, result.sqrtPriceX96, result.tick, result.liquidity, next, ticksCrossed, loopGas),
    }
  }

  /** The loop's gas plus the slots written from zero (the loop's own bigint when there are none: most swaps). */
  private swapGas(loopGas: bigint, zeroForOne: boolean, extraFreshWrites: number): bigint {
    const fresh = this.freshSlotGasOf(zeroForOne)
    if (fresh === 0n && extraFreshWrites === 0) return loopGas
    return loopGas + fresh + BigInt(extraFreshWrites) * FRESH_SLOT_GAS
  }

  private getKnownPriceLimit(zeroForOne: boolean): bigint | undefined {
    return getKnownPriceLimit(this.tickSpacing, this.tickLower, this.tickUpper, zeroForOne)
  }
}
