import { type Address, type Hex, zeroAddress } from 'viem'
import { QuoteError, hostError } from '../../errors/QuoteError.js'
import type { CurveModel, ExecutorStep, Pool, PoolContext, PoolLimits, SwapResult } from '../types.js'
import { MAX_INT128 } from '../uniswapV3/constants.js'
import { parseAddress, parseTickState } from '../uniswapV3/parseTickState.js'
import { UniswapV3RevertError } from '../uniswapV3/revertError.js'
import { type CrossedRange, type FreshOutside, NOTHING_CROSSED, parseFreshOutside, countFreshOutsideWrites, extendCrossed } from '../uniswapV3/freshOutside.js'
import { getKnownPriceLimit, type InitializedTick } from '../uniswapV3/tickBitmap.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../uniswapV3/tickMath.js'
import { assertProtocolFee, getDirectionalProtocolFee, getSwapFee, isDynamicFee, MAX_LP_FEE } from './fees.js'
import { estimateSwapGas, SWAP_BASE_GAS, TICK_CROSSED_GAS } from './gas.js'
import { getUniswapV4PoolId } from './poolKey.js'
import { UniswapV4RevertError } from './revertError.js'
import type { UniswapV4PoolState } from './state.js'
import { simulateSwap, type SimulateSwapPool, type SimulateSwapReturnType } from './swap.js'

/** What every state of one pool shares; swaps change only price, tick and liquidity. */
type PoolConstants = {
  id: Hex
  manager: Address
  protocol: string
  fork: string
  token0: Address
  token1: Address
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  protocolFee: number
  ticks: readonly InitializedTick[]
  tickLower: number
  tickUpper: number
  dexIndex: number
  /**
   * Ticks whose fee growth outside is zero in currency0 / currency1, as read (see
   * `UniswapV4PoolState.freshOutside0`); undefined when the state does not say.
   */
  freshOutside: FreshOutside | undefined
}

/** What a V4 pool state knows about the storage its next swap writes from zero. */
export type FreshState = {
  readonly zeroForOne: boolean
  readonly oneForZero: boolean
  /** The protocol fees accrued in currency0 / currency1 are zero (or unknown): an accrual writes fresh. */
  readonly accrual0?: boolean
  readonly accrual1?: boolean
  /** Ticks an earlier swap of the same fill already crossed (their outside words are written). */
  readonly crossed: CrossedRange
}
const NOT_FRESH: FreshState = { zeroForOne: false, oneForZero: false, crossed: NOTHING_CROSSED }

// PoolManager.initialize accepts tick spacings in [1, 32767].
const MAX_TICK_SPACING = 32767
// Step.param: the native flags and the price limit's offset (contracts/steps/UniswapV4Step.sol).
const PARAM_NATIVE_IN = 1n << 48n
const PARAM_NATIVE_OUT = 1n << 49n
const PARAM_LIMIT_SHIFT = 56n

/**
 * A Uniswap V4 pool without hooks and with a static fee, at one block, as an
 * immutable, simulatable {@link Pool}. Its `key` is the pool id and its
 * `address` the PoolManager. A pool whose currency0 is native trades, as the
 * router sees it, the chain's wrapped native token: the executor step unwraps
 * to pay it and wraps what it takes. Quotes run {@link simulateSwap}, v4-core's
 * swap loop bit for bit, with the LP fee composed with the direction's
 * protocol fee. Build it with {@link UniswapV4Pool.fromState}.
 *
 * @example
 * const pool = UniswapV4Pool.fromState(state, { chain, dex, dexIndex: 2 })
 * const quote = pool.quoteExactIn(weth, usdc, 10n ** 18n)
 * if (quote) console.log(quote.amountOut, quote.next.spotPrice(weth, usdc))
 */
export class UniswapV4Pool implements Pool, SimulateSwapPool {
  readonly key: string
  readonly address: Address
  readonly protocol: string
  readonly fork: string
  readonly family = 'uniswapV4'
  /** The tokens as the router trades them: the wrapped native token for a native currency. */
  readonly tokens: readonly Address[]
  readonly token0: Address
  readonly token1: Address
  /** The pool id. */
  readonly id: Hex
  /** The key's currencies (address(0): native). */
  readonly currency0: Address
  readonly currency1: Address
  /** LP fee in hundredths of a bip. */
  readonly fee: number
  readonly tickSpacing: number
  /** slot0's packed protocol fee (zeroForOne in bits 0-11, oneForZero in 12-23). */
  readonly protocolFee: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  /** Every initialized tick in [`tickLower`, `tickUpper`], sorted ascending (shared between states). */
  readonly ticks: readonly InitializedTick[]
  readonly tickLower: number
  readonly tickUpper: number
  /** Index of the pool's dex in the executor's dex table. */
  readonly dexIndex: number

  private readonly constants: PoolConstants
  private limitsZeroForOne: PoolLimits | undefined
  private limitsOneForZero: PoolLimits | undefined

  /** Fee growth the next swap writes from zero, by direction (see `UniswapV4PoolState.freshSlots`), and fresh ticks crossed. */
  readonly freshFeeGrowth: FreshState

  private constructor(constants: PoolConstants, sqrtPriceX96: bigint, tick: number, liquidity: bigint, freshFeeGrowth: FreshState = NOT_FRESH) {
    this.freshFeeGrowth = freshFeeGrowth
    this.constants = constants
    this.key = constants.id
    this.id = constants.id
    this.address = constants.manager
    this.protocol = constants.protocol
    this.fork = constants.fork
    this.token0 = constants.token0
    this.token1 = constants.token1
    this.tokens = [constants.token0, constants.token1]
    this.currency0 = constants.currency0
    this.currency1 = constants.currency1
    this.fee = constants.fee
    this.tickSpacing = constants.tickSpacing
    this.protocolFee = constants.protocolFee
    this.ticks = constants.ticks
    this.tickLower = constants.tickLower
    this.tickUpper = constants.tickUpper
    this.dexIndex = constants.dexIndex
    this.sqrtPriceX96 = sqrtPriceX96
    this.tick = tick
    this.liquidity = liquidity
  }

  /**
   * Validates a JSON pool state and builds the pool. Throws a 500 QuoteError
   * naming the problem on a malformed state: wrong family or dex, an address
   * that is not the dex's PoolManager, unsorted currencies, hooks, a dynamic
   * or out-of-range fee, an id that is not the key's hash, a native pool of
   * the wrapped native token itself, an LP or protocol fee the pool could not
   * hold, and the tick and liquidity checks of the V3 family.
   *
   * @example
   * const pool = UniswapV4Pool.fromState(
   *   { family: 'uniswapV4', dex: 'uniswapV4', address: poolManager, id, currency0: zeroAddress, currency1: usdc,
   *     fee: 500, tickSpacing: 10, hooks: zeroAddress, sqrtPriceX96: '79228162514264337593543950336', tick: 0,
   *     protocolFee: 0, lpFee: 500, liquidity: '0', ticks: [], tickLower: -887272, tickUpper: 887272 },
   *   { chain, dex, dexIndex: 2 },
   * )
   */
  static fromState(state: UniswapV4PoolState, context: PoolContext): UniswapV4Pool {
    const label = typeof state?.id === 'string' ? state.id : '(no id)'
    const fail = (reason: string): never => {
      throw hostError(`Invalid Uniswap V4 pool state ${label}: ${reason}`)
    }
    if (state === null || typeof state !== 'object') fail('not an object')
    if (state.family !== 'uniswapV4') fail(`family is ${String(state.family)}, expected uniswapV4`)
    if (state.dex !== context.dex.id) fail(`dex is ${String(state.dex)}, but the context's dex is ${context.dex.id}`)

    const manager = parseAddress(state.address, 'address', fail)
    if (manager !== context.dex.factory.toLowerCase()) fail(`address ${manager} is not the dex's PoolManager ${context.dex.factory}`)
    const currency0 = parseAddress(state.currency0, 'currency0', fail)
    const currency1 = parseAddress(state.currency1, 'currency1', fail)
    if (!(currency0 < currency1)) fail('currency0 must sort strictly below currency1')
    const hooks = parseAddress(state.hooks, 'hooks', fail)
    if (hooks !== zeroAddress) fail(`hooks ${hooks}: pools with hooks are not priced`)

    const { fee, tickSpacing } = state
    if (!Number.isInteger(fee) || isDynamicFee(fee)) fail(`fee ${fee} is not a static fee`)
    if (fee < 0 || fee > MAX_LP_FEE) fail(`fee ${fee} is not in [0, ${MAX_LP_FEE}]`)
    if (!Number.isInteger(tickSpacing) || tickSpacing < 1 || tickSpacing > MAX_TICK_SPACING) {
      fail(`tickSpacing ${tickSpacing} is not in [1, ${MAX_TICK_SPACING}]`)
    }
    if (typeof state.id !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(state.id)) fail(`id ${String(state.id)} is not a bytes32`)
    const id = getUniswapV4PoolId({ currency0, currency1, fee, tickSpacing, hooks })
    if (state.id.toLowerCase() !== id) fail(`id is not the key's hash ${id}`)

    const weth = context.chain.wrappedNative.address.toLowerCase() as Address
    const token0 = currency0 === zeroAddress ? weth : currency0
    if (token0 === currency1) fail('a native pool of the wrapped native token cannot be routed')

    if (state.lpFee !== fee) fail(`lpFee ${state.lpFee} differs from the static fee ${fee}`)
    try {
      assertProtocolFee(state.protocolFee)
    } catch {
      fail(`protocolFee ${state.protocolFee} is not a valid packed protocol fee`)
    }

    const { sqrtPriceX96, tick, liquidity, tickLower, tickUpper, ticks } = parseTickState(state, tickSpacing, fail)

    const constants: PoolConstants = {
      id,
      manager,
      protocol: context.dex.protocol,
      fork: context.dex.fork,
      token0,
      token1: currency1,
      currency0,
      currency1,
      fee,
      tickSpacing,
      protocolFee: state.protocolFee,
      ticks,
      tickLower,
      tickUpper,
      dexIndex: context.dexIndex,
      freshOutside: parseFreshOutside(state),
    }
    const fresh = state.freshSlots
    return new UniswapV4Pool(constants, sqrtPriceX96, tick, liquidity, {
      zeroForOne: fresh?.feeGrowth0 === true,
      oneForZero: fresh?.feeGrowth1 === true,
      accrual0: fresh?.protocolFees0 !== false,
      accrual1: fresh?.protocolFees1 !== false,
      crossed: NOT_FRESH.crossed,
    })
  }

  /** Whether currency0 is the native token (traded as the wrapped native token). */
  get native(): boolean {
    return this.currency0 === zeroAddress
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
   * The total fee of one direction in hundredths of a bip: the LP fee
   * composed with that direction's protocol fee.
   *
   * @example
   * pool.getSwapFee(pool.token0, pool.token1) // 3000 when no protocol fee is set
   */
  getSwapFee(tokenIn: Address, tokenOut: Address): number {
    return getSwapFee(this.protocolFee, this.fee, this.isZeroForOne(tokenIn, tokenOut))
  }

  /**
   * Exact-input quote: `undefined` unless the pool takes the whole `amountIn`
   * (at most 2^127 - 1, the PoolManager's delta width) within the known state
   * and price range, and on any condition where the PoolManager reverts.
   *
   * @example
   * const quote = pool.quoteExactIn(pool.token0, pool.token1, 10n ** 18n)
   */
  quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): SwapResult | undefined {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    if (amountIn <= 0n || amountIn > MAX_INT128) return undefined
    const result = this.trySwap(zeroForOne, -amountIn, undefined)
    if (result === undefined) return undefined
    const [paid, received] = zeroForOne ? [result.amount0, result.amount1] : [result.amount1, result.amount0]
    if (paid !== -amountIn || received < 0n) return undefined
    return this.toSwapResult(result, zeroForOne, amountIn, received)
  }

  /**
   * Exact-output quote (the least input that delivers `amountOut`):
   * `undefined` unless the pool delivers all of it within the known state and
   * price range. A pool with a 100% fee cannot quote exact outputs.
   *
   * @example
   * const quote = pool.quoteExactOut(pool.token1, pool.token0, 10n ** 18n)
   */
  quoteExactOut(tokenIn: Address, tokenOut: Address, amountOut: bigint): SwapResult | undefined {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    if (amountOut <= 0n || amountOut > MAX_INT128) return undefined
    const result = this.trySwap(zeroForOne, amountOut, undefined)
    if (result === undefined) return undefined
    const [paid, received] = zeroForOne ? [result.amount0, result.amount1] : [result.amount1, result.amount0]
    if (received !== amountOut || paid > 0n) return undefined
    return this.toSwapResult(result, zeroForOne, -paid, amountOut)
  }

  /**
   * The most this direction can take within the known state (and within the
   * PoolManager's int128 deltas): the input that moves the price to the edge
   * of the known bitmap words, or to the price extreme when the state is
   * known to the end, and the output it gives. `quoteExactIn(maxIn)` fills.
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
      const result = this.trySwap(zeroForOne, -MAX_INT128, priceLimit)
      if (result !== undefined) {
        const [paid, received] = zeroForOne ? [result.amount0, result.amount1] : [result.amount1, result.amount0]
        if (received >= 0n) limits = { maxIn: -paid, maxOut: received }
      }
    }
    if (zeroForOne) this.limitsZeroForOne = limits
    else this.limitsOneForZero = limits
    return limits
  }

  /**
   * The executor step: the dex index, and a param holding the fee, the tick
   * spacing (from which, with hooks = 0, the executor rebuilds the pool key),
   * the native flags (bit 48: the input is native, bit 49: the output), and
   * above bit 56 a price limit at the edge of the ticks this state knows
   * (0: none), which bounds the swap's gas when the pool was drained first.
   *
   * @example
   * pool.buildStep(weth, usdc) // { dex: 2, tokenIn: weth, tokenOut: usdc, param: 500n | (10n << 24n) | (1n << 48n) }
   */
  buildStep(tokenIn: Address, tokenOut: Address): ExecutorStep {
    const zeroForOne = this.isZeroForOne(tokenIn, tokenOut)
    const known = this.getKnownPriceLimit(zeroForOne)
    const limit = known === undefined || known === MIN_SQRT_RATIO + 1n || known === MAX_SQRT_RATIO - 1n ? 0n : known
    let param = BigInt(this.fee) | (BigInt(this.tickSpacing) << 24n) | (limit << PARAM_LIMIT_SHIFT)
    // Native is always currency0: the input when selling token0, the output when buying it.
    if (this.native) param |= zeroForOne ? PARAM_NATIVE_IN : PARAM_NATIVE_OUT
    return {
      dex: this.dexIndex,
      tokenIn: zeroForOne ? this.token0 : this.token1,
      tokenOut: zeroForOne ? this.token1 : this.token0,
      param,
    }
  }

  /**
   * The pool's liquidity ranges as a float model, for the router's optimiser.
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
      fee: getSwapFee(this.protocolFee, this.fee, zeroForOne) / MAX_LP_FEE,
      zeroForOne,
      sqrtPrice,
      tick: this.tick,
      liquidity: Number(this.liquidity),
      exactLiquidity: this.liquidity,
      ticks: this.ticks,
      limitSqrtPrice: limit === undefined ? sqrtPrice : Number(limit) / 2 ** 96,
      gasBase: Number(SWAP_BASE_GAS),
      gasPerTick: Number(TICK_CROSSED_GAS),
    }
  }

  private isZeroForOne(tokenIn: Address, tokenOut: Address): boolean {
    if (tokenIn === this.token0 && tokenOut === this.token1) return true
    if (tokenIn === this.token1 && tokenOut === this.token0) return false
    const tokenInLower = tokenIn.toLowerCase()
    const tokenOutLower = tokenOut.toLowerCase()
    if (tokenInLower === this.token0 && tokenOutLower === this.token1) return true
    if (tokenInLower === this.token1 && tokenOutLower === this.token0) return false
    throw new QuoteError({ statusCode: 500, message: `Uniswap V4 pool ${this.id} does not trade ${tokenIn} for ${tokenOut}` }) // the router's mistake, not the request's
  }

  // A swap the PoolManager would revert on cannot be filled.
  private trySwap(
    zeroForOne: boolean,
    amountSpecified: bigint,
    sqrtPriceLimitX96: bigint | undefined,
  ): SimulateSwapReturnType | undefined {
    try {
      return simulateSwap(this, zeroForOne, amountSpecified, getSwapFee(this.protocolFee, this.fee, zeroForOne), sqrtPriceLimitX96)
    } catch (error) {
      if (error instanceof UniswapV4RevertError || error instanceof UniswapV3RevertError) return undefined
      throw error
    }
  }

  /**
   * Whether a swap from `tokenIn` accrues a protocol fee into a slot it writes from zero (priced
   * `PROTOCOL_FEE_GAS`); false when the direction owes none or the currency has fees accrued.
   *
   * @example
   * pool.accruesFreshProtocolFee(pool.token0) // false on a pool without a protocol fee
   */
  accruesFreshProtocolFee(tokenIn: Address): boolean {
    const zeroForOne = tokenIn.toLowerCase() === this.token0
    return getDirectionalProtocolFee(this.protocolFee, zeroForOne) !== 0 && (zeroForOne ? this.freshFeeGrowth.accrual0 : this.freshFeeGrowth.accrual1) !== false
  }

  private toSwapResult(result: SimulateSwapReturnType, zeroForOne: boolean, amountIn: bigint, amountOut: bigint): SwapResult {
    // Each crossing flips both fee-growth-outside words; TICK_CROSSED_GAS prices one of them
    // written from zero, and the state's per-tick reads say how many are (countFreshOutsideWrites).
    const { freshOutside } = this.constants
    let extraFreshWrites = 0
    let { crossed } = this.freshFeeGrowth
    if (result.initializedTicksCrossed > 0 && freshOutside !== undefined) {
      extraFreshWrites = countFreshOutsideWrites({ ticks: this.ticks, tickBefore: this.tick, tickAfter: result.tick, freshOutside, zeroForOne, lpFee: this.fee > 0, feeGrowthZero0: this.freshFeeGrowth.zeroForOne, feeGrowthZero1: this.freshFeeGrowth.oneForZero, crossedBefore: crossed })
      crossed = extendCrossed(crossed, this.tick, result.tick)
    }
    return {
      amountIn,
      amountOut,
      gas: estimateSwapGas({
        initializedTicksCrossed: result.initializedTicksCrossed,
        stepsTaken: result.stepsTaken,
        nativeOut: this.native && !zeroForOne,
        protocolFee: getDirectionalProtocolFee(this.protocolFee, zeroForOne) !== 0,
        protocolFeeFresh: (zeroForOne ? this.freshFeeGrowth.accrual0 : this.freshFeeGrowth.accrual1) !== false,
        // Fee growth grows only with an LP fee: the pool's first swap that way writes it fresh.
        freshFeeGrowth: this.fee > 0 && (zeroForOne ? this.freshFeeGrowth.zeroForOne : this.freshFeeGrowth.oneForZero),
        extraFreshWrites,
      }),
      next: new UniswapV4Pool(this.constants, result.sqrtPriceX96, result.tick, result.liquidity, {
        ...this.freshFeeGrowth,
        zeroForOne: zeroForOne ? false : this.freshFeeGrowth.zeroForOne,
        oneForZero: zeroForOne ? this.freshFeeGrowth.oneForZero : false,
        crossed,
      }),
    }
  }

  private getKnownPriceLimit(zeroForOne: boolean): bigint | undefined {
    return getKnownPriceLimit(this.tickSpacing, this.tickLower, this.tickUpper, zeroForOne)
  }
}
