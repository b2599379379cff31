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
   * True when the pair's price accumulators are still zero (no swap or sync in a later second than
   * its first mint): its next swap in a later second than its last update writes them to fresh
   * storage, about 34k gas more. Absent: they are not.
   */
  accumulatorsZero?: boolean
  /**
   * True when the pair's last update (`blockTimestampLast`) is in the second of the block read:
   * `_update` writes no accumulator in that second, so a fill landing in it does not pay the
   * fresh writes (a devnet mining many blocks a second, a pair minted a moment ago). Set only with
   * `accumulatorsZero`. Holds at that second only: a source carrying the state into later blocks
   * drops it (the live source does). Absent: the fresh writes are charged.
   */
  updatedInReadSecond?: boolean
}
