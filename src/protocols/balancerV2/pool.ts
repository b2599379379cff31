import type { Address, Hex } from 'viem'
import { QuoteError } from '../../errors/QuoteError.js'
import type { CurveModel, ExecutorStep, Pool, PoolContext, PoolLimits, SwapResult } from '../types.js'
import { estimateBalancerV2StepGas } from './gas.js'
import { BalancerV2RevertError } from './revertError.js'
import { MAX_IN_RATIO, type WeightedSwapSide, swapGivenIn, swapGivenOut } from './weightedMath.js'
import { mulDown, mulUp } from './fixedPoint.js'

/**
 * The Vault packs each pool balance in 112 bits: a swap may not take a balance to 2^112 or more.
 * @example balanceIn + amountIn <= MAX_VAULT_BALANCE // the Vault accepts the swap's input
 */
export const MAX_VAULT_BALANCE = (1n << 112n) - 1n

/**
 * The immutable parameters of a weighted pool, shared by every state of it.
 * @example pool.parameters.weights // [5e17, 5e17] for a 50/50 pool
 */
export type BalancerV2PoolParameters = {
  poolId: Hex
  /** The pool contract. */
  pool: Address
  /** The Vault (Swap.address; the executor's dex table holds it as the dex's `factory`). */
  vault: Address
  tokens: readonly Address[]
  weights: readonly bigint[]
  scalingFactors: readonly bigint[]
  swapFee: bigint
}

/**
 * A Balancer V2 weighted pool at one block. Immutable: a swap returns the pool with its next
 * balances. Amounts are what the Vault's GIVEN_IN swap does with the real WeightedPool, to the wei.
 *
 * @example
 * const pool = balancerV2Family.fromState(state, context)
 * pool.quoteExactIn(weth, usdc, 10n ** 18n) // { amountOut, gas, next }
 */
export class BalancerV2WeightedPool implements Pool {
  readonly family = 'balancerV2'
  readonly key: string
  readonly address: Address
  readonly protocol: string
  readonly fork: string
  readonly tokens: readonly Address[]
  private readonly maxInCache = new Map<number, bigint>()

  constructor(
    readonly parameters: BalancerV2PoolParameters,
    /** Vault balances, raw units, in token order. */
    readonly balances: readonly bigint[],
    private readonly context: PoolContext,
  ) {
    this.key = parameters.poolId
    this.address = parameters.vault
    this.protocol = context.dex.protocol
    this.fork = context.dex.fork
    this.tokens = parameters.tokens
  }

  private indexes(tokenIn: Address, tokenOut: Address): [number, number] {
    const i = this.tokens.indexOf(tokenIn)
    const o = this.tokens.indexOf(tokenOut)
    if (i < 0 || o < 0 || i === o) {
      throw new QuoteError({ statusCode: 500, message: `Balancer pool ${this.key} does not trade ${tokenIn} -> ${tokenOut}` }) // the router's mistake, not the request's
    }
    return [i, o]
  }

  private side(i: number, o: number): WeightedSwapSide {
    const { weights, scalingFactors, swapFee } = this.parameters
    return {
      balanceIn: this.balances[i]!,
      balanceOut: this.balances[o]!,
      weightIn: weights[i]!,
      weightOut: weights[o]!,
      scalingIn: scalingFactors[i]!,
      scalingOut: scalingFactors[o]!,
      swapFee,
    }
  }

  /** The Vault's GIVEN_IN swap: the pool's answer, or undefined where the pool or the Vault reverts (or it pays nothing). */
  private amountOutOf(i: number, o: number, amountIn: bigint): bigint | undefined {
    // The Vault refuses a zero amount, and its packed balance must stay under 2^112.
    if (amountIn <= 0n || this.balances[i]! + amountIn > MAX_VAULT_BALANCE) return undefined
    let amountOut: bigint
    try {
      amountOut = swapGivenIn(this.side(i, o), amountIn)
    } catch (error) {
      if (error instanceof BalancerV2RevertError) return undefined
      throw error
    }
    // The Vault takes the output from the pool's cash; a swap that pays nothing is of no use.
    if (amountOut <= 0n || amountOut > this.balances[o]!) return undefined
    return amountOut
  }

  private result(i: number, o: number, amountIn: bigint, amountOut: bigint): SwapResult {
    const balances = [...this.balances]
    balances[i] = balances[i]! + amountIn
    balances[o] = balances[o]! - amountOut
    return {
      amountIn,
      amountOut,
      gas: estimateBalancerV2StepGas(this.tokens.length, this.parameters.weights[i]!, this.parameters.weights[o]!),
      next: new BalancerV2WeightedPool(this.parameters, balances, this.context),
    }
  }

  spotPrice(tokenIn: Address, tokenOut: Address): number {
    const [i, o] = this.indexes(tokenIn, tokenOut)
    const { weights } = this.parameters
    const balanceIn = Number(this.balances[i]!)
    if (balanceIn === 0) return 0
    // (bO/wO)/(bI/wI): scaling factors cancel between upscaling the balances and the amounts.
    return (Number(this.balances[o]!) / Number(weights[o]!)) / (balanceIn / Number(weights[i]!))
  }

  quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): SwapResult | undefined {
    const [i, o] = this.indexes(tokenIn, tokenOut)
    const amountOut = this.amountOutOf(i, o, amountIn)
    return amountOut === undefined ? undefined : this.result(i, o, amountIn, amountOut)
  }

  /**
   * The least input whose GIVEN_IN swap (what the executor sends) pays at least `amountOut`. The
   * Vault's own GIVEN_OUT answer (calcInGivenOut plus the fee) seeds the search: both round in the
   * pool's favour, so it lands within a few wei of that least input, on either side. `amountOut` of
   * the result is what that input pays, which may exceed the request by rounding.
   */
  quoteExactOut(tokenIn: Address, tokenOut: Address, amountOut: bigint): SwapResult | undefined {
    const [i, o] = this.indexes(tokenIn, tokenOut)
    if (amountOut <= 0n || amountOut > this.balances[o]!) return undefined
    const out = (x: bigint) => this.amountOutOf(i, o, x) ?? 0n
    const maxIn = this.maxIn(i, o)
    if (maxIn === 0n || out(maxIn) < amountOut) return undefined

    let seed = maxIn
    try {
      const givenOut = swapGivenOut(this.side(i, o), amountOut)
      if (givenOut > 0n && givenOut < maxIn) seed = givenOut
    } catch (error) {
      // Past the 30% output ratio exact-in may still get there (the weights allow it): start at maxIn.
      if (!(error instanceof BalancerV2RevertError)) throw error
    }
    // Gallop from the seed to bracket the answer, out(lo) < amountOut <= out(hi), then bisect.
    let lo: bigint
    let hi: bigint
    let step = 1n
    if (out(seed) >= amountOut) {
      hi = seed
      lo = hi - 1n
      while (lo > 0n && out(lo) >= amountOut) {
        hi = lo
        step *= 2n
        lo = hi > step ? hi - step : 0n
      }
    } else {
      lo = seed
      hi = seed + 1n < maxIn ? seed + 1n : maxIn
      while (out(hi) < amountOut) {
        lo = hi
        step *= 2n
        hi = lo + step < maxIn ? lo + step : maxIn
      }
    }
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n
      if (out(mid) >= amountOut) hi = mid
      else lo = mid
    }
    return this.result(i, o, hi, out(hi))
  }

  /**
   * The largest input the pool accepts in this direction: the fee-reduced, upscaled amount within
   * 30% of the upscaled balance (WeightedMath's MAX_IN_RATIO), and the Vault balance under 2^112.
   */
  private maxIn(i: number, o: number): bigint {
    const cacheKey = i * 16 + o
    const cached = this.maxInCache.get(cacheKey)
    if (cached !== undefined) return cached
    const { scalingFactors, swapFee } = this.parameters
    const scaling = scalingFactors[i]!
    const balance = this.balances[i]!
    const cap = mulDown(mulDown(balance, scaling), MAX_IN_RATIO)
    // Both the fee subtraction and the upscaling are non-decreasing in the amount: bisect.
    const accepted = (amount: bigint) => mulDown(amount - mulUp(amount, swapFee), scaling) <= cap
    let lo = 0n
    let hi = MAX_VAULT_BALANCE - balance + 1n
    if (hi <= 0n) hi = 1n
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n
      if (accepted(mid)) lo = mid
      else hi = mid
    }
    this.maxInCache.set(cacheKey, lo)
    return lo
  }

  limits(tokenIn: Address, tokenOut: Address): PoolLimits {
    const [i, o] = this.indexes(tokenIn, tokenOut)
    const maxIn = this.maxIn(i, o)
    const maxOut = maxIn === 0n ? undefined : this.amountOutOf(i, o, maxIn)
    return maxOut === undefined ? { maxIn: 0n, maxOut: 0n } : { maxIn, maxOut }
  }

  /** param: the pool id (all 256 bits); the executor swaps it through the dex's Vault. */
  buildStep(tokenIn: Address, tokenOut: Address): ExecutorStep {
    this.indexes(tokenIn, tokenOut)
    return { dex: this.context.dexIndex, tokenIn, tokenOut, param: BigInt(this.parameters.poolId) }
  }

  /**
   * Equal weights make the weighted curve a constant product with the fee on the input, which the
   * router models exactly in floats; other weights are sampled from exact quotes.
   */
  curveModel(tokenIn: Address, tokenOut: Address): CurveModel | undefined {
    const [i, o] = this.indexes(tokenIn, tokenOut)
    const { weights, swapFee } = this.parameters
    if (weights[i] !== weights[o]) return undefined
    const maxIn = this.maxIn(i, o)
    return {
      kind: 'constantProduct',
      reserveIn: Number(this.balances[i]!),
      reserveOut: Number(this.balances[o]!),
      fee: Number(swapFee) / 1e18,
      maxIn: Number(maxIn),
      gas: Number(estimateBalancerV2StepGas(this.tokens.length, weights[i]!, weights[o]!)),
    }
  }
}
