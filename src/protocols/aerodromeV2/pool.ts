import type { Address } from 'viem'
import { QuoteError } from '../../errors/QuoteError.js'
import type { CurveModel, ExecutorStep, Pool, PoolContext, PoolLimits, SwapResult } from '../types.js'
import {
  AERODROME_V2_FRESH_SLOT_GAS,
  AERODROME_V2_NO_FEE_SAVING,
  AERODROME_V2_OBSERVATION_GAS,
  AERODROME_V2_STABLE_EXTRA_GAS,
  AERODROME_V2_VOLATILE_STEP_GAS,
} from './gas.js'
import { type AerodromeV2Curve, getAerodromeAmountOut, getAerodromeFee, getAerodromeSwapOutput } from './math.js'

/** Which of a pool's storage its next swap writes from zero (see AerodromeV2PoolState). */
export type AerodromeV2FreshStorage = { accumulators: boolean; fees0: boolean; fees1: boolean; observation: boolean }
const NO_FRESH_STORAGE: AerodromeV2FreshStorage = { accumulators: false, fees0: false, fees1: false, observation: false }

/** Step.param bit 0: the pool is stable (part of its CREATE2 salt, so the executor derives the right pool). */
const STABLE_FLAG = 1n
/** The largest uint256 (no pool input can exceed it). */
const MAX_UINT256 = (1n << 256n) - 1n
/** Bits of a uint256. */
const UINT256_BITS = 256

/**
 * An Aerodrome V2 (Solidly) pool at one block, stable or volatile. Immutable: a swap returns the
 * pool's next reserves as a new pool. Exact-in is the pool's own `getAmountOut` (fee taken off the
 * input, then the curve), which is what weft's executor asks the pool for; exact-out is the least
 * input found by bisection whose exact-in output reaches the target (the output reported is what
 * that input really gets, which can exceed the target by the curve's rounding).
 *
 * @example
 * const pool = aerodromeV2Family.fromState(state, context)
 * pool.quoteExactIn(usdc, usdt, 1_000_000n) // { amountOut, gas, next }
 */
export class AerodromeV2Pool implements Pool {
  readonly family = 'aerodromeV2'
  readonly key: string
  readonly protocol: string
  readonly fork: string
  readonly tokens: readonly Address[]
  readonly curve: AerodromeV2Curve
  private maxInCache: [bigint | undefined, bigint | undefined] = [undefined, undefined]

  constructor(
    readonly address: Address,
    readonly token0: Address,
    readonly token1: Address,
    readonly stable: boolean,
    readonly reserve0: bigint,
    readonly reserve1: bigint,
    readonly decimals0: number,
    readonly decimals1: number,
    readonly feeBps: number,
    private readonly context: PoolContext,
    /** Storage the next swap writes from zero, and whether it appends an observation (gas only). */
    readonly fresh: AerodromeV2FreshStorage = NO_FRESH_STORAGE,
  ) {
    this.key = address
    this.protocol = context.dex.protocol
    this.fork = context.dex.fork
    this.tokens = [token0, token1]
    this.curve = { stable, decimals0: 10n ** BigInt(decimals0), decimals1: 10n ** BigInt(decimals1) }
  }

  private zeroForOne(tokenIn: Address, tokenOut: Address): boolean {
    if (tokenIn === this.token0 && tokenOut === this.token1) return true
    if (tokenIn === this.token1 && tokenOut === this.token0) return false
    throw new QuoteError({ statusCode: 500, message: `pool ${this.address} does not trade ${tokenIn} -> ${tokenOut}` }) // the router's mistake, not the request's
  }

  /**
   * The step's gas in this direction: the steady-state step, and what this pool's fresh storage
   * adds. `feeCharged`: the swap's fee (amountIn x fee / 10000, rounded down) is not zero; `swap`
   * moves nothing to PoolFees and leaves the fee index otherwise (`_update0` returns at once), as
   * on a pool without a fee, whatever dust it trades.
   */
  private stepGas(zeroForOne: boolean, feeCharged: boolean): bigint {
    let gas = AERODROME_V2_VOLATILE_STEP_GAS + (this.stable ? AERODROME_V2_STABLE_EXTRA_GAS : 0n)
    if (!feeCharged) gas -= AERODROME_V2_NO_FEE_SAVING
    else if (zeroForOne ? this.fresh.fees0 : this.fresh.fees1) gas += 2n * AERODROME_V2_FRESH_SLOT_GAS
    if (this.fresh.accumulators) gas += 2n * AERODROME_V2_FRESH_SLOT_GAS
    if (this.fresh.observation) gas += AERODROME_V2_OBSERVATION_GAS
    return gas
  }

  /** Whether `swap` takes a fee from this input: the pool's fee on it rounds down to more than zero. */
  private chargesFee(amountIn: bigint): boolean {
    return getAerodromeFee(amountIn, BigInt(this.feeBps)) > 0n
  }

  /** What an exact input gets from the pool through the executor, or undefined where the pool refuses. */
  private output(zeroForOne: boolean, amountIn: bigint): bigint | undefined {
    return getAerodromeSwapOutput(this.curve, zeroForOne, amountIn, this.reserve0, this.reserve1, BigInt(this.feeBps))
  }

  // The fee leaves the pool for its PoolFees contract: the input reserve grows by the rest.
  private after(zeroForOne: boolean, amountIn: bigint, amountOut: bigint): AerodromeV2Pool {
    const fee = getAerodromeFee(amountIn, BigInt(this.feeBps))
    const credited = amountIn - fee
    const reserve0 = zeroForOne ? this.reserve0 + credited : this.reserve0 - amountOut
    const reserve1 = zeroForOne ? this.reserve1 - amountOut : this.reserve1 + credited
    // This swap wrote the accumulators, the input's fee slots (when it paid a fee) and any due observation.
    const fresh = {
      accumulators: false,
      fees0: this.fresh.fees0 && !(zeroForOne && fee > 0n),
      fees1: this.fresh.fees1 && !(!zeroForOne && fee > 0n),
      observation: false,
    }
    return new AerodromeV2Pool(this.address, this.token0, this.token1, this.stable, reserve0, reserve1, this.decimals0, this.decimals1, this.feeBps, this.context, fresh)
  }

  /**
   * Fee-free marginal price in raw units. Volatile: rOut / rIn. Stable: the slope of x³y + xy³ on
   * 18-decimal reserves, (3x²y + y³) / (x³ + 3xy²), scaled back to raw units.
   */
  spotPrice(tokenIn: Address, tokenOut: Address): number {
    const zeroForOne = this.zeroForOne(tokenIn, tokenOut)
    const [reserveIn, reserveOut] = zeroForOne ? [this.reserve0, this.reserve1] : [this.reserve1, this.reserve0]
    if (reserveIn === 0n || reserveOut === 0n) return 0
    if (!this.stable) return Number(reserveOut) / Number(reserveIn)
    const [decimalsIn, decimalsOut] = zeroForOne ? [this.decimals0, this.decimals1] : [this.decimals1, this.decimals0]
    const x = Number(reserveIn) / 10 ** decimalsIn
    const y = Number(reserveOut) / 10 ** decimalsOut
    return ((3 * x * x * y + y * y * y) / (x * x * x + 3 * x * y * y)) * 10 ** (decimalsOut - decimalsIn)
  }

  quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): SwapResult | undefined {
    const zeroForOne = this.zeroForOne(tokenIn, tokenOut)
    const amountOut = this.output(zeroForOne, amountIn)
    if (amountOut === undefined) return undefined
    return { amountIn, amountOut, gas: this.stepGas(zeroForOne, this.chargesFee(amountIn)), next: this.after(zeroForOne, amountIn, amountOut) }
  }

  /**
   * The least input (by doubling, then bisection on the exact-in output) whose output reaches
   * `amountOut`; undefined when no input the pool takes does.
   */
  quoteExactOut(tokenIn: Address, tokenOut: Address, amountOut: bigint): SwapResult | undefined {
    const zeroForOne = this.zeroForOne(tokenIn, tokenOut)
    const reserveOut = zeroForOne ? this.reserve1 : this.reserve0
    if (amountOut <= 0n || amountOut >= reserveOut) return undefined
    const maxIn = this.maxIn(zeroForOne)
    const reaches = (amountIn: bigint) => (this.output(zeroForOne, amountIn) ?? 0n) >= amountOut
    if (maxIn === 0n || !reaches(maxIn)) return undefined
    let high = 1n
    while (high < maxIn && !reaches(high)) high *= 2n
    if (high > maxIn) high = maxIn
    let low = high / 2n // does not reach (or is 0)
    while (high - low > 1n) {
      const middle = (low + high) / 2n
      if (reaches(middle)) high = middle
      else low = middle
    }
    const delivered = this.output(zeroForOne, high) as bigint
    return { amountIn: high, amountOut: delivered, gas: this.stepGas(zeroForOne, this.chargesFee(high)), next: this.after(zeroForOne, high, delivered) }
  }

  /**
   * The largest input the pool's math takes without overflowing uint256 (or, on a stable pool,
   * without asking for its whole reserve): found once per direction by bisection.
   */
  private maxIn(zeroForOne: boolean): bigint {
    const slot = zeroForOne ? 0 : 1
    const cached = this.maxInCache[slot]
    if (cached !== undefined) return cached
    const reserveOut = zeroForOne ? this.reserve1 : this.reserve0
    // Within the math's range: getAmountOut computes, and its output (possibly 0 for dust) is one swap would take.
    const computes = (amountIn: bigint) => {
      const out = getAerodromeAmountOut(this.curve, zeroForOne, amountIn, this.reserve0, this.reserve1, BigInt(this.feeBps))
      return out !== undefined && out < reserveOut && (out === 0n || this.output(zeroForOne, amountIn) !== undefined)
    }
    // A stable pool's math can revert on dust (seen: 1 wei into a 277k/283k-token pool of 18/6
    // decimals) yet compute every larger input: the search starts at the first power of 16 that computes.
    const empty = this.reserve0 === 0n || this.reserve1 === 0n
    let bits = 0
    while (!empty && bits < UINT256_BITS && !computes(1n << BigInt(bits))) bits += 4
    let result = 0n
    if (!empty && bits < UINT256_BITS) {
      // The highest power of two that computes, by bisection on the exponent (a few steps, where a
      // bisection on the amount from 2^256 down spends one step per bit above it), then the amount.
      let highBits = UINT256_BITS
      while (highBits - bits > 1) {
        const middle = (bits + highBits) >> 1
        if (computes(1n << BigInt(middle))) bits = middle
        else highBits = middle
      }
      let low = 1n << BigInt(bits)
      let high = highBits === UINT256_BITS ? MAX_UINT256 : 1n << BigInt(highBits)
      if (computes(high)) low = high
      while (high - low > 1n) {
        const middle = (low + high) / 2n
        if (computes(middle)) low = middle
        else high = middle
      }
      result = low
    }
    this.maxInCache[slot] = result
    return result
  }

  limits(tokenIn: Address, tokenOut: Address): PoolLimits {
    const zeroForOne = this.zeroForOne(tokenIn, tokenOut)
    const maxIn = this.maxIn(zeroForOne)
    if (maxIn === 0n) return { maxIn: 0n, maxOut: 0n }
    return { maxIn, maxOut: this.output(zeroForOne, maxIn) ?? 0n }
  }

  buildStep(tokenIn: Address, tokenOut: Address): ExecutorStep {
    this.zeroForOne(tokenIn, tokenOut)
    return { dex: this.context.dexIndex, tokenIn, tokenOut, param: this.stable ? STABLE_FLAG : 0n }
  }

  /**
   * The curve in floats for the router: volatile pools their constant-product curve, stable pools
   * the x³y + xy³ curve on their reserves in whole tokens (both with the fee off the input).
   */
  curveModel(tokenIn: Address, tokenOut: Address): CurveModel | undefined {
    const zeroForOne = this.zeroForOne(tokenIn, tokenOut)
    const [reserveIn, reserveOut] = zeroForOne ? [this.reserve0, this.reserve1] : [this.reserve1, this.reserve0]
    const maxIn = this.maxIn(zeroForOne)
    const fee = this.feeBps / 10_000
    const gas = Number(this.stepGas(zeroForOne, this.feeBps > 0))
    // The pool floors its fee (getAerodromeFee): both models credit that rounding.
    if (!this.stable) return { kind: 'constantProduct', reserveIn: Number(reserveIn), reserveOut: Number(reserveOut), fee, maxIn: Number(maxIn), gas, feeRoundsDown: true }
    const [scaleIn, scaleOut] = zeroForOne ? [this.curve.decimals0, this.curve.decimals1] : [this.curve.decimals1, this.curve.decimals0]
    return { kind: 'stable', reserveIn: Number(reserveIn), reserveOut: Number(reserveOut), scaleIn: Number(scaleIn), scaleOut: Number(scaleOut), fee, maxIn: Number(maxIn), gas }
  }
}
