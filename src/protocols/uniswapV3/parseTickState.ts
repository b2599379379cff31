import { type Address, isAddress } from 'viem'
import { MAX_INT128, MAX_UINT128, MIN_INT128 } from './constants.js'
import type { InitializedTick } from './tickBitmap.js'
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tickMath.js'

/** Reports a malformed field of a pool state (throws; the pool names itself in the message). */
export type FailParse = (reason: string) => never

/** A concentrated-liquidity state's price, liquidity and ticks, as a JSON state carries them (integers as base-10 strings). */
export type TickStateFields = {
  sqrtPriceX96: unknown
  tick: number
  liquidity: unknown
  tickLower: number
  tickUpper: number
  ticks: readonly { index: number; liquidityNet: unknown }[]
}

/** The fields of {@link TickStateFields}, checked and as the swap math reads them (the tick array frozen). */
export type TickState = {
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
  tickLower: number
  tickUpper: number
  ticks: readonly InitializedTick[]
}

/**
 * Checks the price, tick, liquidity, known range and initialized ticks of a
 * Uniswap V3 or V4 pool state (the two share the tick math, so one state is
 * valid for both on the same rules) and returns them as bigints and frozen
 * ticks. Calls `fail` on: a price or tick out of range or inconsistent, a
 * negative or oversized liquidity, an inverted known range, unsorted,
 * duplicated, unspaced or out-of-range ticks, and (when the state covers the
 * whole range below the price) a liquidity that does not match the ticks'
 * liquidityNet. `tickSpacing` must have been checked already.
 *
 * @example
 * const { sqrtPriceX96, ticks } = parseTickState(state, state.tickSpacing, (reason) => { throw new Error(reason) })
 */
export function parseTickState(state: TickStateFields, tickSpacing: number, fail: FailParse): TickState {
  const sqrtPriceX96 = parseInteger(state.sqrtPriceX96, 'sqrtPriceX96', fail)
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    fail(`sqrtPriceX96 ${sqrtPriceX96} is not in [MIN_SQRT_RATIO, MAX_SQRT_RATIO)`)
  }
  const { tick } = state
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) {
    fail(`tick ${tick} is not an integer in [MIN_TICK, MAX_TICK]`)
  }
  // After crossing a tick downward the pool sits at its price with tick one below it.
  if (tick !== getTickAtSqrtRatio(sqrtPriceX96) && !(tick < MAX_TICK && sqrtPriceX96 === getSqrtRatioAtTick(tick + 1))) {
    fail(`tick ${tick} does not match sqrtPriceX96 ${sqrtPriceX96}`)
  }

  const liquidity = parseInteger(state.liquidity, 'liquidity', fail)
  if (liquidity < 0n) fail(`liquidity ${liquidity} is negative`)
  if (liquidity > MAX_UINT128) fail(`liquidity ${liquidity} exceeds uint128`)

  const { tickLower, tickUpper } = state
  if (!Number.isSafeInteger(tickLower) || !Number.isSafeInteger(tickUpper) || tickLower > tickUpper) {
    fail(`known range [${tickLower}, ${tickUpper}] is not a range of integer ticks`)
  }

  if (!Array.isArray(state.ticks)) fail('ticks is not an array')
  const ticks: InitializedTick[] = new Array(state.ticks.length)
  let previous = -Infinity
  for (let i = 0; i < state.ticks.length; i++) {
    const raw = state.ticks[i]!
    const index = raw?.index
    if (!Number.isInteger(index) || index < MIN_TICK || index > MAX_TICK) {
      fail(`ticks[${i}].index ${index} is not an integer in [MIN_TICK, MAX_TICK]`)
    }
    if (index % tickSpacing !== 0) fail(`ticks[${i}].index ${index} is not a multiple of tickSpacing ${tickSpacing}`)
    if (index <= previous) fail(`ticks[${i}].index ${index} is not above the previous tick ${previous}`)
    if (index < tickLower || index > tickUpper) {
      fail(`ticks[${i}].index ${index} is outside the known range [${tickLower}, ${tickUpper}]`)
    }
    const liquidityNet = parseInteger(raw.liquidityNet, `ticks[${i}].liquidityNet`, fail)
    // |liquidityNet| <= liquidityGross < 2^127 (V4: the spacing's max liquidity per tick), so int128 min never occurs.
    if (liquidityNet <= MIN_INT128 || liquidityNet > MAX_INT128) {
      fail(`ticks[${i}].liquidityNet ${liquidityNet} is out of range`)
    }
    ticks[i] = Object.freeze({ index, liquidityNet })
    previous = index
  }

  // With every tick below the price known, the active liquidity is the sum of their liquidityNet.
  if (tickLower <= MIN_TICK) {
    let below = 0n
    let total = 0n
    for (const { index, liquidityNet } of ticks) {
      if (index <= tick) below += liquidityNet
      total += liquidityNet
    }
    if (below !== liquidity) fail(`liquidity ${liquidity} differs from the ticks' sum ${below}`)
    if (tickUpper >= MAX_TICK && total !== 0n) fail(`the ticks' liquidityNet sums to ${total}, not 0`)
  }
  return { sqrtPriceX96, tick, liquidity, tickLower, tickUpper, ticks: Object.freeze(ticks) }
}

/**
 * A pool state's address field, lowercased; `fail` when it is not an address.
 *
 * @example
 * const token0 = parseAddress(state.token0, 'token0', fail)
 */
export function parseAddress(value: unknown, field: string, fail: FailParse): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) fail(`${field} ${String(value)} is not an address`)
  return (value as string).toLowerCase() as Address
}

/**
 * A pool state's integer field (a base-10 string) as a bigint; `fail` on anything else.
 *
 * @example
 * const liquidity = parseInteger(state.liquidity, 'liquidity', fail)
 */
export function parseInteger(value: unknown, field: string, fail: FailParse): bigint {
  if (typeof value !== 'string' || !/^-?[0-9]+$/.test(value)) fail(`${field} ${String(value)} is not a base-10 integer string`)
  return BigInt(value as string)
}
