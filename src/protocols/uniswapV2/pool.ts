import type { Address } from 'viem'
import { QuoteError } from '../../errors/QuoteError.js'
import type { CurveModel, ExecutorStep, Pool, PoolContext, PoolLimits, SwapResult } from '../types.js'
import { V2_FIRST_ACCUMULATION_GAS, V2_STEP_GAS } from './gas.js'
import { MAX_UINT112, getAmountIn, getAmountOut } from './math.js'
import { afterTransferFee, sentForReceived } from '../transferFee.js'

/**
 * A Uniswap V2 pair (or a fork with another fee) at one block. Immutable:
 * a swap returns the pair's next reserves as a new pool.
 *
 * @example
 * const pool = uniswapV2Family.fromState(state, context)
 * const r = pool.quoteExactIn(weth, usdc, 10n ** 18n) // { amountOut, gas, next }
 */
export class UniswapV2Pool implements Pool {
  readonly family = 'uniswapV2'
  readonly key: string
  readonly protocol: string
  readonly fork: string
  readonly tokens: readonly Address[]

  constructor(
    readonly address: Address,
    readonly token0: Address,
    readonly token1: Address,
    readonly reserve0: bigint,
    readonly reserve1: bigint,
    readonly feeBps: number,
    private readonly context: PoolContext,
    /** The price accumulators are still zero: the next swap writes them fresh (more gas). */
    readonly accumulatorsZero = false,
  ) {
    this.key = address
    this.protocol = context.dex.protocol
    this.fork = context.dex.fork
    this.tokens = [token0, token1]
  }

  private reserves(tokenIn: Address, tokenOut: Address): [bigint, bigint] {
    if (tokenIn === this.token0 && tokenOut === this.token1) return [this.reserve0, this.reserve1]
    if (tokenIn === this.token1 && tokenOut === this.token0) return [this.reserve1, this.reserve0]
    throw new QuoteError({ statusCode: 500, message: `pair ${this.address} does not trade ${tokenIn} -> ${tokenOut}` }) // the router's mistake, not the request's
  }

  private after(tokenIn: Address, amountIn: bigint, amountOut: bigint): UniswapV2Pool {
    const zeroForOne = tokenIn === this.token0
    const r0 = zeroForOne ? this.reserve0 + amountIn : this.reserve0 - amountOut
    const r1 = zeroForOne ? this.reserve1 - amountOut : this.reserve1 + amountIn
    // The swap wrote the accumulators: later swaps in the same fill rewrite them.
    return new UniswapV2Pool(this.address, this.token0, this.token1, r0, r1, this.feeBps, this.context, false)
  }

  /** The step's gas: a young pair's first swap also writes its accumulators from zero. */
  private get stepGas(): bigint {
    return this.accumulatorsZero ? V2_STEP_GAS + V2_FIRST_ACCUMULATION_GAS : V2_STEP_GAS
  }

  spotPrice(tokenIn: Address, tokenOut: Address): number {
    const [rIn, rOut] = this.reserves(tokenIn, tokenOut)
    return rIn === 0n ? 0 : Number(rOut) / Number(rIn)
  }

  /** A token's fee on transfer in bps (0 unless the liquidity source reported one). */
  private transferFee(token: Address): number {
    return this.context.transferFeeBps?.(token) ?? 0
  }

  /**
   * Exact-in. With fee-on-transfer tokens every transfer is priced: the pair credits what arrived
   * of the input, and `amountOut` is what arrives of the output (the executor measures it).
   */
  quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): SwapResult | undefined {
    const [rIn, rOut] = this.reserves(tokenIn, tokenOut)
    const credited = afterTransferFee(amountIn, this.transferFee(tokenIn))
    // The pair reverts on a zero output and on reserves that overflow uint112.
    if (credited <= 0n || rIn + credited > MAX_UINT112) return undefined
    const sent = getAmountOut(credited, rIn, rOut, this.feeBps)
    const amountOut = afterTransferFee(sent, this.transferFee(tokenOut))
    if (sent <= 0n || amountOut <= 0n) return undefined
    return { amountIn, amountOut, gas: this.stepGas, next: this.after(tokenIn, credited, sent) }
  }

  quoteExactOut(tokenIn: Address, tokenOut: Address, amountOut: bigint): SwapResult | undefined {
    const [rIn, rOut] = this.reserves(tokenIn, tokenOut)
    const sent = sentForReceived(amountOut, this.transferFee(tokenOut))
    const credited = sent === undefined ? undefined : getAmountIn(sent, rIn, rOut, this.feeBps)
    const amountIn = credited === undefined ? undefined : sentForReceived(credited, this.transferFee(tokenIn))
    if (sent === undefined || credited === undefined || amountIn === undefined || rIn + credited > MAX_UINT112) return undefined
    return { amountIn, amountOut, gas: this.stepGas, next: this.after(tokenIn, credited, sent) }
  }

  limits(tokenIn: Address, tokenOut: Address): PoolLimits {
    const [rIn, rOut] = this.reserves(tokenIn, tokenOut)
    if (rIn === 0n || rOut === 0n) return { maxIn: 0n, maxOut: 0n }
    const maxIn = MAX_UINT112 - rIn
    return { maxIn, maxOut: getAmountOut(maxIn, rIn, rOut, this.feeBps) }
  }

  /** param bit 0: the output token charges a transfer fee, so the executor measures what arrived. */
  buildStep(tokenIn: Address, tokenOut: Address): ExecutorStep {
    return { dex: this.context.dexIndex, tokenIn, tokenOut, param: this.transferFee(tokenOut) > 0 ? 1n : 0n }
  }

  /**
   * The pair's constant-product curve in floats, for the router's optimiser. A fee on transfer of
   * the input joins the swap fee; one on the output scales what arrives.
   */
  curveModel(tokenIn: Address, tokenOut: Address): CurveModel {
    const [rIn, rOut] = this.reserves(tokenIn, tokenOut)
    const maxIn = rIn === 0n || rOut === 0n ? 0 : Number(MAX_UINT112 - rIn)
    const kept = (1 - this.feeBps / 10_000) * (1 - this.transferFee(tokenIn) / 10_000)
    const arrives = 1 - this.transferFee(tokenOut) / 10_000
    return { kind: 'constantProduct', reserveIn: Number(rIn), reserveOut: Number(rOut) * arrives, fee: 1 - kept, maxIn, gas: Number(this.stepGas) }
  }
}
