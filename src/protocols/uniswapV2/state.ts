import type { Address } from 'viem'
import type { PoolStateBase } from '../types.js'

/** A Uniswap V2 pair (or fork) at one block. Integers as base-10 strings. */
export type UniswapV2PoolState = PoolStateBase & {
  family: 'uniswapV2'
  token0: Address
  token1: Address
  reserve0: string
  reserve1: string
  /**
   * True when the pair's price accumulators are still zero (no swap or sync since its first mint):
   * its next swap writes them to fresh storage, about 34k gas more. Absent: they are not.
   */
  accumulatorsZero?: boolean
}
