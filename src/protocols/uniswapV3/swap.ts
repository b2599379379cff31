import { QuoteError } from '../../errors/QuoteError.js'
import { MAX_INT256, MAX_UINT128, MIN_INT256 } from './constants.js'
import { UniswapV3RevertError } from './revertError.js'
import { jumpEmptyWords } from './emptyWordRun.js'
import { computeSwapStepInto, type SwapStep } from './swapMath.js'
import { type SwapCheckpoint, type SwapTrail, TRAIL_LIMIT, trailStart } from './swapTrail.js'
import {
  findInitializedTickWithinOneWord,
  getSearchWord,
  isWordKnown,
  type InitializedTick,
} from './tickBitmap.js'
import { getBoundarySqrtPrice, getInitializedTickSqrtPrice } from './tickSqrtPrice.js'
import {
  defaultLimitTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from './tickMath.js'

/** The pool state a swap reads (integers as bigint, ticks sorted ascending). */
export type SimulateSwapPool = {
  /** Fee in hundredths of a bip (3000 = 0.3%). */
  readonly fee: number
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

/** What UniswapV3Pool.swap returns and leaves behind. */
export type SimulateSwapReturnType = {
  /** Signed token0 delta from the pool's side: positive is paid into the pool. */
  amount0: bigint
  /** Signed token1 delta from the pool's side: positive is paid into the pool. */
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

// Unchecked int256 arithmetic: wrap into [-2^255, 2^255).
function wrapInt256(value: bigint): bigint {
  return value > MAX_INT256 || value < MIN_INT256 ? BigInt.asIntN(256, value) : value
}

// `(a + b).toInt256()` with unchecked uint256 addition, as the swap loop does.
function sumToInt256(a: bigint, b: bigint): bigint {
  let sum = a + b
  if (sum >= UINT256_MODULUS) sum -= UINT256_MODULUS
  if (sum >= TWO_POW_255) throw new UniswapV3RevertError('int256 overflow')
  return sum
}

/** Appends a checkpoint to the trail within TRAIL_LIMIT; whether the swap goes on recording. */
function record(trail: SwapTrail, checkpoint: SwapCheckpoint): boolean {
  if (trail.length >= TRAIL_LIMIT) return false
  trail.push(checkpoint)
  return true
}

/**
 * Runs UniswapV3Pool.swap's loop off-chain, bit for bit (v3-core 1.0.1): one
 * computeSwapStep per initialized tick or bitmap-word boundary, each rounded
 * on its own, liquidityNet applied on every initialized tick crossed, and the
 * tick updated as the contract does.
 *
 * A positive `amountSpecified` is an exact input, a negative one an exact
 * output. The swap stops when the amount is used up or the price reaches
 * `sqrtPriceLimitX96` (default: the furthest a swap may go, MIN_SQRT_RATIO + 1
 * or MAX_SQRT_RATIO - 1), so the amounts returned may be less than asked.
 *
 * Returns `undefined` when a step must search a bitmap word the state does
 * not hold (see `isWordKnown` in tickBitmap.ts): liquidity beyond the known range is
 * never invented. Pure: `pool` is not modified.
 *
 * With `trail` (this state's exact-input swaps in this direction, at the default limit: see
 * SwapTrail), an exact input starts at the trail's last checkpoint below its amount instead of the
 * state's price, and a swap that starts at the trail's end appends the checkpoints it walks past:
 * the result is the same, bit for bit.
 *
 * @param pool - the state before the swap
 * @param zeroForOne - token0 in, token1 out (price goes down), or the reverse
 * @param amountSpecified - int256: > 0 exact input, < 0 exact output
 * @param sqrtPriceLimitX96 - the price the swap may not pass
 * @param trail - checkpoints of this state's exact-input swaps in this direction (ignored with a limit or an exact output)
 * @throws UniswapV3RevertError where the contract reverts: `'AS'` (zero amount), `'SPL'` (limit on the wrong
 *   side of the price or out of range), `'LS'`/`'LA'` (liquidity under/overflow), math overflows.
 * @throws RangeError when `amountSpecified` is not an int256.
 * @example
 * const result = simulateSwap(pool, true, 10n ** 18n) // sell 1e18 token0
 * if (result) console.log(-result.amount1) // token1 out
 */
export function simulateSwap(
  pool: SimulateSwapPool,
  zeroForOne: boolean,
  amountSpecified: bigint,
  sqrtPriceLimitX96?: bigint,
  trail?: SwapTrail,
): SimulateSwapReturnType | undefined {
  if (amountSpecified > MAX_INT256 || amountSpecified < MIN_INT256) {
    throw new QuoteError({ statusCode: 400, message: `amountSpecified is not an int256: ${amountSpecified}` })
  }
  if (amountSpecified === 0n) throw new UniswapV3RevertError('AS')
  const limit = sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n)
  const startPrice = pool.sqrtPriceX96
  if (
    zeroForOne
      ? !(limit < startPrice && limit > MIN_SQRT_RATIO)
      : !(limit > startPrice && limit < MAX_SQRT_RATIO)
  ) {
    throw new UniswapV3RevertError('SPL')
  }

  const { ticks, tickSpacing, tickLower, tickUpper } = pool
  const fee = BigInt(pool.fee)
  // With a fee below 100% (the fee's complement, a divisor, is then positive), a step over a range
  // without liquidity is free: see the loop.
  const emptyStepsFree = pool.fee >= 0 && pool.fee < 1_000_000
  const exactInput = amountSpecified > 0n
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
  // A trail is only kept of exact inputs at the default limit (the steps' inputs do not depend on
  // the amount there: see SwapTrail). The swap starts at its last checkpoint below the amount, and
  // records the checkpoints past the trail's end when it started there.
  const kept = trail !== undefined && exactInput && sqrtPriceLimitX96 === undefined ? trail : undefined
  let recording = false
  if (kept) {
    const at = trailStart(kept, amountSpecified)
    if (at >= 0) {
      const checkpoint = kept[at]!
      amountRemaining = amountSpecified - checkpoint.used
      amountCalculated = checkpoint.amountCalculated
      sqrtPriceX96 = checkpoint.sqrtPriceX96
      tick = checkpoint.tick
      liquidity = checkpoint.liquidity
      initializedTicksCrossed = checkpoint.initializedTicksCrossed
      stepsTaken = checkpoint.stepsTaken
    }
    recording = at === kept.length - 1
  }

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
        if (recording) recording = record(kept!, { used: amountSpecified - amountRemaining, amountCalculated, sqrtPriceX96, tick, liquidity, initializedTicksCrossed, stepsTaken })
        continue
      }
    }
    let tickNext =
      position >= 0
        ? (ticks[position] as InitializedTick).index
        : (zeroForOne ? word * 256 : word * 256 + 255) * tickSpacing
    if (tickNext < MIN_TICK) tickNext = MIN_TICK
    else if (tickNext > MAX_TICK) tickNext = MAX_TICK

    const sqrtPriceNextX96 =
      position >= 0 ? getInitializedTickSqrtPrice(ticks[position] as InitializedTick) : getBoundarySqrtPrice(tickNext)
    const target = (zeroForOne ? sqrtPriceNextX96 < limit : sqrtPriceNextX96 > limit) ? limit : sqrtPriceNextX96
    stepsTaken++
    // Whether the step ended on its target with input left (or none, exactly): then any larger
    // amount takes the same step (see SwapTrail).
    let reached = true
    if (liquidity === 0n && emptyStepsFree) {
      // No liquidity in this range: computeSwapStep moves the price to the target and takes no
      // input, gives no output and charges no fee, so the amounts stay as they are. (Drained and
      // gapped pools walk many such words; this skips the step's big-integer math, not the step.)
      sqrtPriceX96 = target
    } else {
      computeSwapStepInto(step, sqrtPriceX96, target, liquidity, amountRemaining, fee)
      sqrtPriceX96 = step.sqrtRatioNextX96
      reached = sqrtPriceX96 === target
      if (exactInput) {
        // `-=` is unchecked in the contract; amountCalculated uses LowGasSafeMath.
        amountRemaining = wrapInt256(amountRemaining - sumToInt256(step.amountIn, step.feeAmount))
        if (step.amountOut >= TWO_POW_255) throw new UniswapV3RevertError('int256 overflow')
        amountCalculated -= step.amountOut
        if (amountCalculated < MIN_INT256) throw new UniswapV3RevertError('int256 underflow')
      } else {
        if (step.amountOut >= TWO_POW_255) throw new UniswapV3RevertError('int256 overflow')
        amountRemaining = wrapInt256(amountRemaining + step.amountOut)
        amountCalculated += sumToInt256(step.amountIn, step.feeAmount)
        if (amountCalculated > MAX_INT256) throw new UniswapV3RevertError('int256 overflow')
      }
    }

    if (sqrtPriceX96 === sqrtPriceNextX96) {
      if (position >= 0) {
        const liquidityNet = (ticks[position] as InitializedTick).liquidityNet
        // Moving down, a tick's liquidityNet applies with the opposite sign.
        const delta = zeroForOne ? -liquidityNet : liquidityNet
        liquidity += delta
        if (delta < 0n) {
          if (liquidity < 0n) throw new UniswapV3RevertError('LS')
        } else if (liquidity > MAX_UINT128) {
          throw new UniswapV3RevertError('LA')
        }
        initializedTicksCrossed++
      }
      tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (sqrtPriceX96 !== stepStartPrice) {
      // Stopped inside the range: the tick follows the price.
      tick = getTickAtSqrtRatio(sqrtPriceX96)
    }
    if (recording) {
      // A step that landed on its target with less input than that takes (the price rounding onto
      // it) leaves the remainder negative: no larger amount's step, and the trail ends here.
      recording = reached && amountRemaining >= 0n && record(kept!, { used: amountSpecified - amountRemaining, amountCalculated, sqrtPriceX96, tick, liquidity, initializedTicksCrossed, stepsTaken })
    }
  }

  const amountUsed = wrapInt256(amountSpecified - amountRemaining)
  return {
    amount0: zeroForOne === exactInput ? amountUsed : amountCalculated,
    amount1: zeroForOne === exactInput ? amountCalculated : amountUsed,
    sqrtPriceX96,
    tick,
    liquidity,
    initializedTicksCrossed,
    stepsTaken,
  }
}
