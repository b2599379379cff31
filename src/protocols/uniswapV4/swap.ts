import { QuoteError } from '../../errors/QuoteError.js'
import { MAX_INT128, MAX_INT256, MAX_UINT128, MIN_INT128, MIN_INT256 } from '../uniswapV3/constants.js'
import { jumpEmptyWords } from '../uniswapV3/emptyWordRun.js'
import {
  findInitializedTickWithinOneWord,
  getSearchWord,
  isWordKnown,
  type InitializedTick,
} from '../uniswapV3/tickBitmap.js'
import { getBoundarySqrtPrice, getInitializedTickSqrtPrice } from '../uniswapV3/tickSqrtPrice.js'
import {
  defaultLimitTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from '../uniswapV3/tickMath.js'
import { MAX_LP_FEE } from './fees.js'
import { UniswapV4RevertError } from './revertError.js'
import { computeSwapStepInto, type SwapStep } from './swapMath.js'

/** The pool state a V4 swap reads (integers as bigint, ticks sorted ascending). */
export type SimulateSwapPool = {
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  /** Active liquidity (uint128). */
  readonly liquidity: bigint
  /** Every initialized tick in [`tickLower`, `tickUpper`], sorted ascending. */
  readonly ticks: readonly InitializedTick[]
  /** Lower bound of the known tick range (at or below MIN_TICK: known to the end). */
  readonly tickLower: number
  /** Upper bound of the known tick range (at or above MAX_TICK: known to the end). */
  readonly tickUpper: number
}

/** What PoolManager.swap returns (the caller's BalanceDelta) and leaves behind. */
export type SimulateSwapReturnType = {
  /** Signed currency0 delta from the swapper's side: negative is owed to the pool, positive is paid out. */
  amount0: bigint
  /** Signed currency1 delta from the swapper's side. */
  amount1: bigint
  /** slot0.sqrtPriceX96 after the swap. */
  sqrtPriceX96: bigint
  /** slot0.tick after the swap. */
  tick: number
  /** Active liquidity after the swap. */
  liquidity: bigint
  /** Initialized ticks crossed (liquidityNet applied). */
  initializedTicksCrossed: number
  /** Iterations of the swap loop (one per bitmap search). */
  stepsTaken: number
}

const UINT256_MODULUS = 1n << 256n
const TWO_POW_255 = 1n << 255n
const MAX_SWAP_FEE = MAX_LP_FEE

// Unchecked int256 arithmetic: wrap into [-2^255, 2^255).
function wrapInt256(value: bigint): bigint {
  return value > MAX_INT256 || value < MIN_INT256 ? BigInt.asIntN(256, value) : value
}

// SafeCast.toInt256 of a uint256.
function toInt256(value: bigint): bigint {
  if (value >= TWO_POW_255) throw new UniswapV4RevertError('SafeCastOverflow')
  return value
}

// SafeCast.toInt128 of an int256.
function toInt128(value: bigint): bigint {
  if (value > MAX_INT128 || value < MIN_INT128) throw new UniswapV4RevertError('SafeCastOverflow')
  return value
}

/**
 * Runs v4-core's Pool.swap loop off-chain, bit for bit (v4-core 1.0.2, a pool
 * without hooks): one SwapMath.computeSwapStep per initialized tick or bitmap
 * word boundary, liquidityNet applied on every initialized tick crossed, the
 * tick updated as the contract does, and the final BalanceDelta cast to int128
 * as PoolManager.swap does.
 *
 * V4's sign convention: a NEGATIVE `amountSpecified` is an exact input, a
 * positive one an exact output, and the returned deltas are the swapper's
 * (negative: owed to the pool). `swapFee` is the total fee of this direction
 * in hundredths of a bip (LP fee composed with the protocol fee, see
 * `getSwapFee`). The swap stops when the amount is used up or the price
 * reaches `sqrtPriceLimitX96` (default: MIN_SQRT_PRICE + 1 or MAX_SQRT_PRICE - 1).
 *
 * Returns `undefined` when a step must search a bitmap word the state does
 * not hold: liquidity beyond the known range is never invented. Pure.
 *
 * @throws UniswapV4RevertError where PoolManager.swap reverts: `SwapAmountCannotBeZero`,
 *   `InvalidFeeForExactOut`, `PriceLimitAlreadyExceeded`, `PriceLimitOutOfBounds`, `SafeCastOverflow`.
 * @throws QuoteError (400) when `amountSpecified` is not an int256.
 * @example
 * const result = simulateSwap(pool, true, -(10n ** 18n), 3000) // sell 1e18 of currency0
 * if (result) console.log(result.amount1) // currency1 paid out
 */
export function simulateSwap(
  pool: SimulateSwapPool,
  zeroForOne: boolean,
  amountSpecified: bigint,
  swapFee: number,
  sqrtPriceLimitX96?: bigint,
): SimulateSwapReturnType | undefined {
  if (amountSpecified > MAX_INT256 || amountSpecified < MIN_INT256) {
    throw new QuoteError({ statusCode: 400, message: `amountSpecified is not an int256: ${amountSpecified}` })
  }
  if (amountSpecified === 0n) throw new UniswapV4RevertError('SwapAmountCannotBeZero')
  if (swapFee >= MAX_SWAP_FEE && amountSpecified > 0n) throw new UniswapV4RevertError('InvalidFeeForExactOut')
  const limit = sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n)
  const startPrice = pool.sqrtPriceX96
  if (zeroForOne) {
    if (limit >= startPrice) throw new UniswapV4RevertError('PriceLimitAlreadyExceeded')
    if (limit <= MIN_SQRT_RATIO) throw new UniswapV4RevertError('PriceLimitOutOfBounds')
  } else {
    if (limit <= startPrice) throw new UniswapV4RevertError('PriceLimitAlreadyExceeded')
    if (limit >= MAX_SQRT_RATIO) throw new UniswapV4RevertError('PriceLimitOutOfBounds')
  }

  const { ticks, tickSpacing, tickLower, tickUpper } = pool
  const fee = BigInt(swapFee)
  // With a fee below 100% (the fee's complement, a divisor, is then positive), a step over a range
  // without liquidity is free: see the loop.
  const emptyStepsFree = swapFee >= 0 && swapFee < MAX_SWAP_FEE
  const exactOutput = amountSpecified > 0n
  const step: SwapStep = { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n }

  let amountRemaining = amountSpecified
  let amountCalculated = 0n
  let sqrtPriceX96 = startPrice
  let tick = pool.tick
  let liquidity = pool.liquidity
  let initializedTicksCrossed = 0
  let stepsTaken = 0
  /** The tick of the price limit (asked only when a run of empty words is skipped). */
  let limitTick: number | undefined

  while (amountRemaining !== 0n && sqrtPriceX96 !== limit) {
    const stepStartPrice = sqrtPriceX96

    const word = getSearchWord(tick, tickSpacing, zeroForOne)
    if (!isWordKnown(word, tickSpacing, tickLower, tickUpper)) return undefined
    const position = findInitializedTickWithinOneWord(ticks, tick, tickSpacing, zeroForOne)
    if (position < 0 && liquidity === 0n && emptyStepsFree) {
      // A run of empty words (no liquidity, no initialized tick): each is one free step that moves
      // the price to the word's boundary. The whole run is taken at once, ending where the last
      // step would: see jumpEmptyWords.
      limitTick ??= sqrtPriceLimitX96 === undefined ? defaultLimitTick(zeroForOne) : getTickAtSqrtRatio(limit)
      const jump = jumpEmptyWords(pool, tick, word, zeroForOne, limit, limitTick, getBoundarySqrtPrice)
      if (jump) {
        stepsTaken += jump.steps
        sqrtPriceX96 = jump.sqrtPriceX96
        tick = jump.tick
        continue
      }
    }
    let tickNext =
      position >= 0
        ? (ticks[position] as InitializedTick).index
        : (zeroForOne ? word * 256 : word * 256 + 255) * tickSpacing
    if (tickNext <= MIN_TICK) tickNext = MIN_TICK
    else if (tickNext >= MAX_TICK) tickNext = MAX_TICK

    const sqrtPriceNextX96 =
      position >= 0 && tickNext === (ticks[position] as InitializedTick).index
        ? getInitializedTickSqrtPrice(ticks[position] as InitializedTick)
        : getBoundarySqrtPrice(tickNext)
    // SwapMath.getSqrtPriceTarget: the next tick's price, unless the limit comes first.
    const target = (zeroForOne ? sqrtPriceNextX96 < limit : sqrtPriceNextX96 > limit) ? limit : sqrtPriceNextX96
    stepsTaken++
    if (liquidity === 0n && emptyStepsFree) {
      // No liquidity in this range: computeSwapStep moves the price to the target and takes no
      // input, gives no output and charges no fee, so the amounts stay as they are. (Drained and
      // gapped pools walk many such words; this skips the step's big-integer math, not the step.)
      sqrtPriceX96 = target
    } else {
      computeSwapStepInto(step, sqrtPriceX96, target, liquidity, amountRemaining, fee)
      sqrtPriceX96 = step.sqrtRatioNextX96
      if (exactOutput) {
        // `-=` is unchecked in Pool.swap; amountCalculated is checked.
        amountRemaining = wrapInt256(amountRemaining - toInt256(step.amountOut))
        amountCalculated -= toInt256(step.amountIn + step.feeAmount)
        if (amountCalculated < MIN_INT256) throw new UniswapV4RevertError('int256 underflow')
      } else {
        // `(amountIn + feeAmount)` and `+=` are unchecked here.
        let paid = step.amountIn + step.feeAmount
        if (paid >= UINT256_MODULUS) paid -= UINT256_MODULUS
        amountRemaining = wrapInt256(amountRemaining + toInt256(paid))
        amountCalculated += toInt256(step.amountOut)
        if (amountCalculated > MAX_INT256) throw new UniswapV4RevertError('int256 overflow')
      }
    }

    if (sqrtPriceX96 === sqrtPriceNextX96) {
      if (position >= 0) {
        const liquidityNet = (ticks[position] as InitializedTick).liquidityNet
        // Moving down, a tick's liquidityNet applies with the opposite sign.
        liquidity += zeroForOne ? -liquidityNet : liquidityNet
        // LiquidityMath.addDelta.
        if (liquidity < 0n || liquidity > MAX_UINT128) throw new UniswapV4RevertError('SafeCastOverflow')
        initializedTicksCrossed++
      }
      tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (sqrtPriceX96 !== stepStartPrice) {
      // Stopped inside the range: the tick follows the price.
      tick = getTickAtSqrtRatio(sqrtPriceX96)
    }
  }

  // "if currency1 is specified": the specified side is currency1 for exact-in oneForZero and
  // exact-out zeroForOne.
  const specified = toInt128(wrapInt256(amountSpecified - amountRemaining))
  const calculated = toInt128(amountCalculated)
  const currency1Specified = zeroForOne === exactOutput
  return {
    amount0: currency1Specified ? calculated : specified,
    amount1: currency1Specified ? specified : calculated,
    sqrtPriceX96,
    tick,
    liquidity,
    initializedTicksCrossed,
    stepsTaken,
  }
}
