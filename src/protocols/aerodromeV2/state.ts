import type { Address } from 'viem'
import type { PoolStateBase } from '../types.js'

/**
 * An Aerodrome V2 (Solidly) pool at one block: its reserves, whether it is stable, its tokens'
 * decimals (what the stable curve scales by) and the fee its factory reports for it
 * (`PoolFactory.getFee(pool, stable)`: a custom fee, or the factory's stable or volatile default).
 * Integers as base-10 strings.
 */
export type AerodromeV2PoolState = PoolStateBase & {
  family: 'aerodromeV2'
  token0: Address
  token1: Address
  /** Stable (x³y + xy³) or volatile (x·y) curve; part of the pool's CREATE2 salt. */
  stable: boolean
  reserve0: string
  reserve1: string
  /** `decimals()` of token0 and token1 (the pool stores 10 ** decimals). */
  decimals0: number
  decimals1: number
  /** The swap fee in basis points, as the factory's `getFee(pool, stable)` answered. */
  feeBps: number
  /**
   * Storage the next swap writes from zero (each about 17k gas more than a rewrite), for the gas
   * estimate. Absent: false. `accumulatorsZero`: the reserve accumulators were never written (no
   * swap, sync or second mint since creation). `feesUnaccrued0`/`1`: no fee was ever taken in that
   * token (its fee index is zero, so the index and the PoolFees balance are written fresh).
   */
  accumulatorsZero?: boolean
  feesUnaccrued0?: boolean
  feesUnaccrued1?: boolean
  /**
   * The last price observation is older than the pool's 30-minute period (with a margin for the time
   * until the fill lands): the next swap appends an observation, three fresh storage slots.
   */
  observationDue?: boolean
}
