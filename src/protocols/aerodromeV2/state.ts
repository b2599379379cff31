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
}
