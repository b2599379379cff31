import type { Address } from 'viem'
import { hostError, QuoteError } from '../../errors/QuoteError.js'
import type { CurveModel, ExecutorStep, Pool, PoolContext, PoolLimits, SwapResult } from '../types.js'
import { EXTRA_WORD_GAS, FRESH_SLOT_GAS, SWAP_BASE_GAS, TICK_CROSSED_GAS } from '../uniswapV3/gas.js'
import { UniswapV3Pool } from '../uniswapV3/pool.js'
import type { UniswapV3PoolState } from '../uniswapV3/state.js'
import { countFreshOutsideWrites, countTicksAtOrBelow, type FreshOutside } from '../uniswapV3/freshOutside.js'

/**
 * What a Uniswap V3 fork's swap costs in weft's executor beyond the same swap on a Uniswap V3
 * pool (`estimateSwapGas` in uniswapV3/gas.ts).
 */
export type V3ForkGas = {
  /** Once per swap. */
  base: bigint
  /** Per initialized tick crossed. */
  perTickCrossed: bigint
  /** Per iteration of the swap loop after the first (a tick crossed or a bitmap word walked). */
  perExtraStep: bigint
  /** Once per swap that crosses an initialized tick (work the pool does on its first crossing); absent: 0. */
  firstTickCrossed?: bigint
  /** More on a pool with a gauge (`UniswapV3PoolState.gauge`); absent: the fork has no gauges. */
  gauge?: V3ForkGaugeGas
}

/**
 * What a pool with a gauge (Slipstream) costs beyond the same pool without one, besides the words
 * written from zero (`FRESH_SLOT_GAS` each: a tick's reward growth outside, the pool's reward growth).
 */
export type V3ForkGaugeGas = {
  /** Once per swap: the gauge's share of the fee, looked up and booked. */
  perSwap: bigint
  /** Once per swap that crosses an initialized tick: the reward growth brought up to date. */
  firstTickCrossed: bigint
  /** Per initialized tick crossed: its reward growth outside rewritten, its staked liquidity applied. */
  perTickCrossed: bigint
}

/** A gauged pool's reward words as the state says (`UniswapV3PoolState.gauge`), for the gas. */
type PoolGauge = { readonly rewardGrowthFresh: boolean; readonly freshRewardOutside: ReadonlySet<number> }

const NO_TICKS: ReadonlySet<number> = new Set()

/** The state's `gauge`, or undefined without one; throws a 500 QuoteError naming the fork on a malformed one. */
function parseGauge(state: Pick<UniswapV3PoolState, 'gauge'>, label: string): PoolGauge | undefined {
  const { gauge } = state
  if (gauge === undefined) return undefined
  if (gauge === null || typeof gauge !== 'object' || typeof gauge.rewardGrowthFresh !== 'boolean' || !Array.isArray(gauge.freshRewardOutside)) {
    throw hostError(`Invalid ${label}: gauge must be { rewardGrowthFresh: boolean, freshRewardOutside: number[] }`)
  }
  return { rewardGrowthFresh: gauge.rewardGrowthFresh, freshRewardOutside: new Set(gauge.freshRewardOutside.filter(Number.isInteger)) }
}

/** How a Uniswap V3 fork differs from Uniswap V3 for weft, given the swap math is the same. */
export type V3ForkSpec = {
  /** `Pool.family` and the `family` its states carry. */
  family: string
  /** Names the fork in errors, e.g. `PancakeSwap V3`. */
  label: string
  /** What its executor step puts in bits 0-23 of `Step.param` (the pool's key in its CREATE2 salt). */
  stepKey: 'fee' | 'tickSpacing'
  gas: V3ForkGas
}

/** What the swap loop did, recovered from the states around a swap and the V3 gas estimate. */
export type V3SwapShape = { ticksCrossed: number; extraWords: number }

/**
 * A pool of a Uniswap V3 fork whose swap is Uniswap V3's, bit for bit: every amount comes from
 * the {@link UniswapV3Pool} it wraps (the same `simulateSwap`); this adds only what differs, the
 * family, the executor step's key and the gas. Build it with {@link V3ForkPool.fromState}.
 *
 * @example
 * const pool = V3ForkPool.fromState(state, context, pancakeV3Spec)
 * pool.quoteExactIn(pool.tokens[0], pool.tokens[1], 10n ** 18n)
 */
export class V3ForkPool implements Pool {
  readonly key: string
  readonly address: Address
  readonly protocol: string
  readonly fork: string
  readonly family: string
  readonly tokens: readonly Address[]

  private constructor(
    /** The same pool as a Uniswap V3 pool: its math, state and limits. */
    readonly inner: UniswapV3Pool,
    readonly spec: V3ForkSpec,
    /** Its gauge's reward words, when it has one (gas only). */
    private readonly gauge?: PoolGauge,
  ) {
    this.key = inner.key
    this.address = inner.address
    this.protocol = inner.protocol
    this.fork = inner.fork
    this.family = spec.family
    this.tokens = inner.tokens
  }

  /**
   * Validates a fork's JSON state (the Uniswap V3 state shape, tagged with the fork's family) and
   * builds the pool; throws a 500 QuoteError naming the fork and the problem on a malformed state.
   *
   * @example
   * V3ForkPool.fromState({ ...state, family: 'pancakeV3' }, context, pancakeV3Spec)
   */
  static fromState(state: Omit<UniswapV3PoolState, 'family'> & { family: string }, context: PoolContext, spec: V3ForkSpec): V3ForkPool {
    if (state === null || typeof state !== 'object') throw hostError(`Invalid ${spec.label} pool state: not an object`)
    const label = typeof state.address === 'string' ? state.address : '(no address)'
    if (state.family !== spec.family) {
      throw hostError(`Invalid ${spec.label} pool state ${label}: family is ${String(state.family)}, expected ${spec.family}`)
    }
    const gauge = spec.gas.gauge === undefined ? undefined : parseGauge(state, `${spec.label} pool state ${label}`)
    try {
      return new V3ForkPool(UniswapV3Pool.fromState({ ...state, family: 'uniswapV3' }, context), spec, gauge)
    } catch (error) {
      if (error instanceof QuoteError && error.message.startsWith('Invalid Uniswap V3 pool state')) {
        throw hostError(error.message.replace('Invalid Uniswap V3 pool state', `Invalid ${spec.label} pool state`), error)
      }
      throw error
    }
  }

  /** @example pool.spotPrice(pool.tokens[0], pool.tokens[1]) */
  spotPrice(tokenIn: Address, tokenOut: Address): number {
    return this.inner.spotPrice(tokenIn, tokenOut)
  }

  /** Exact-in quote: the Uniswap V3 amounts, this fork's gas. @example pool.quoteExactIn(a, b, 10n ** 18n) */
  quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): SwapResult | undefined {
    return this.wrap(tokenIn, this.inner.quoteExactIn(tokenIn, tokenOut, amountIn))
  }

  /** Exact-out quote: the Uniswap V3 amounts, this fork's gas. @example pool.quoteExactOut(a, b, 10n ** 6n) */
  quoteExactOut(tokenIn: Address, tokenOut: Address, amountOut: bigint): SwapResult | undefined {
    return this.wrap(tokenIn, this.inner.quoteExactOut(tokenIn, tokenOut, amountOut))
  }

  /** @example pool.limits(pool.tokens[0], pool.tokens[1]) */
  limits(tokenIn: Address, tokenOut: Address): PoolLimits {
    return this.inner.limits(tokenIn, tokenOut)
  }

  /**
   * The Uniswap V3 step (dex index, price limit above bit 24) with this fork's pool key in bits
   * 0-23: the fee (PancakeSwap V3) or the tick spacing (Slipstream).
   *
   * @example
   * pool.buildStep(pool.tokens[0], pool.tokens[1]) // { dex, tokenIn, tokenOut, param: key | (limit << 24n) }
   */
  buildStep(tokenIn: Address, tokenOut: Address): ExecutorStep {
    const step = this.inner.buildStep(tokenIn, tokenOut)
    const key = this.spec.stepKey === 'fee' ? this.inner.fee : this.inner.tickSpacing
    return { ...step, param: ((step.param >> 24n) << 24n) | BigInt(key) }
  }

  /** The Uniswap V3 float model with this fork's gas. @example pool.curveModel(a, b) */
  curveModel(tokenIn: Address, tokenOut: Address): CurveModel | undefined {
    const model = this.inner.curveModel?.(tokenIn, tokenOut)
    if (model?.kind !== 'concentrated') return model
    const { base, perTickCrossed, perExtraStep, gauge } = this.spec.gas
    const gauged = this.gauge !== undefined && gauge !== undefined
    return {
      ...model,
      gasBase: model.gasBase + Number(base + (gauged ? gauge.perSwap : 0n)),
      gasPerTick: model.gasPerTick + Number(perTickCrossed + perExtraStep + (gauged ? gauge.perTickCrossed : 0n)),
    }
  }

  private wrap(tokenIn: Address, result: SwapResult | undefined): SwapResult | undefined {
    if (result === undefined) return undefined
    const next = result.next
    if (!(next instanceof UniswapV3Pool)) throw new Error('UniswapV3Pool returned a next state of another kind')
    // The shape comes from the loop's part of the gas, without the storage written from zero.
    const shape = getV3SwapShape(this.inner, next, next.loopGas)
    const { base, perTickCrossed, perExtraStep, firstTickCrossed = 0n } = this.spec.gas
    const gas =
      result.gas +
      base +
      (shape.ticksCrossed > 0 ? firstTickCrossed : 0n) +
      BigInt(shape.ticksCrossed) * perTickCrossed +
      BigInt(shape.ticksCrossed + shape.extraWords) * perExtraStep
    const gauged = this.gaugeGas(next, shape.ticksCrossed)
    return { ...result, gas: gas + gauged.gas, next: new V3ForkPool(next, this.spec, gauged.next) }
  }

  /**
   * What the pool's gauge adds to a swap that leads to `next`, and its reward words after it: the
   * fee's gauge share each swap; on a swap that crosses, the reward growth brought up to date (its
   * first update from zero once) and each crossed tick's reward growth outside set to global -
   * outside (Tick.cross), from zero where the state lists it and no earlier swap of the fill
   * crossed it. Rewards flow on a gauged pool, so a zero word is priced as written from zero.
   */
  private gaugeGas(next: UniswapV3Pool, ticksCrossed: number): { gas: bigint; next: PoolGauge | undefined } {
    const gaugeGas = this.spec.gas.gauge
    const gauge = this.gauge
    if (gauge === undefined || gaugeGas === undefined) return { gas: 0n, next: gauge }
    if (ticksCrossed === 0) return { gas: gaugeGas.perSwap, next: gauge }
    const rewardOnly: FreshOutside = [gauge.freshRewardOutside, NO_TICKS]
    // countFreshOutsideWrites counts each crossing's fresh words minus one: one word per tick here.
    const freshRewardWords =
      ticksCrossed +
      countFreshOutsideWrites({
        ticks: this.inner.ticks,
        tickBefore: this.inner.tick,
        tickAfter: next.tick,
        freshOutside: rewardOnly,
        // Rewards flow on a gauged pool: its reward growth counts as nonzero at every crossing.
        zeroForOne: true,
        lpFee: true,
        feeGrowthZero0: false,
        feeGrowthZero1: false,
        crossedBefore: this.inner.ticksCrossed,
      })
    const gas =
      gaugeGas.perSwap +
      gaugeGas.firstTickCrossed +
      (gauge.rewardGrowthFresh ? FRESH_SLOT_GAS : 0n) +
      BigInt(ticksCrossed) * gaugeGas.perTickCrossed +
      BigInt(freshRewardWords) * FRESH_SLOT_GAS
    return { gas, next: gauge.rewardGrowthFresh ? { ...gauge, rewardGrowthFresh: false } : gauge }
  }
}

/**
 * What a swap from `before` to `after` did: the initialized ticks it crossed (every one between
 * the two ticks: the loop crosses each it reaches, and a tick reached exactly is crossed), and the
 * further loop steps that only walked a bitmap word, recovered from the Uniswap V3 loop's gas
 * `SWAP_BASE_GAS + ticksCrossed * TICK_CROSSED_GAS + extraWords * EXTRA_WORD_GAS` (the next
 * state's `loopGas`: without the storage written from zero).
 *
 * @example
 * const quote = pool.quoteExactIn(a, b, amount)
 * if (quote) getV3SwapShape(pool, quote.next as UniswapV3Pool, (quote.next as UniswapV3Pool).loopGas) // { ticksCrossed: 2, extraWords: 0 }
 */
export function getV3SwapShape(before: UniswapV3Pool, after: UniswapV3Pool, uniswapGas: bigint): V3SwapShape {
  const low = Math.min(before.tick, after.tick)
  const high = Math.max(before.tick, after.tick)
  const ticksCrossed = countTicksAtOrBelow(before.ticks, high) - countTicksAtOrBelow(before.ticks, low)
  const rest = uniswapGas - SWAP_BASE_GAS - BigInt(ticksCrossed) * TICK_CROSSED_GAS
  const extraWords = rest > 0n ? Number(rest / EXTRA_WORD_GAS) : 0
  return { ticksCrossed, extraWords }
}
