import type { Address, Hex } from 'viem'
import type { UniswapV3Tick } from '../uniswapV3/state.js'
import type { PoolStateBase } from '../types.js'

/** An initialized tick: its index and signed liquidityNet (base-10 string). */
export type UniswapV4Tick = UniswapV3Tick

/**
 * A Uniswap V4 pool (hooks: none, static fee) at one block. Integers as
 * base-10 strings; `address` is the PoolManager, `id` the pool id.
 *
 * `currency0`/`currency1` are the key's currencies (address(0) for native);
 * the pool trades them as weft's router names tokens, with the chain's wrapped
 * native token standing for native. `ticks` holds every initialized tick in
 * [`tickLower`, `tickUpper`], sorted ascending, and nothing outside is known:
 * a swap that would need to search beyond is refused, as for V3.
 */
export type UniswapV4PoolState = PoolStateBase & {
  family: 'uniswapV4'
  /** keccak256(abi.encode(PoolKey)), lowercase. */
  id: Hex
  currency0: Address
  currency1: Address
  /** The key's fee: the LP fee in hundredths of a bip (static fees only). */
  fee: number
  tickSpacing: number
  /** The key's hooks: address(0) (pools with hooks are not priced). */
  hooks: Address
  sqrtPriceX96: string
  tick: number
  /** slot0's packed protocol fee: zeroForOne in bits 0-11, oneForZero in bits 12-23 (hundredths of a bip). */
  protocolFee: number
  /** slot0's LP fee (equal to `fee` for a static-fee pool). */
  lpFee: number
  liquidity: string
  ticks: UniswapV4Tick[]
  tickLower: number
  tickUpper: number
  /**
   * Storage the pool's next swap writes from zero, which costs more gas (~17k a slot): the fee
   * growth of currency0 / currency1 (no swap yet that way), and the PoolManager's protocol fees
   * accrued in currency0 / currency1 (nothing accrued since the last collection; false when the
   * pool's protocol fee that way is 0: its swaps accrue nothing). Absent: no fee growth is fresh,
   * and a protocol fee's accrual is assumed fresh.
   */
  freshSlots?: { feeGrowth0: boolean; feeGrowth1: boolean; protocolFees0?: boolean; protocolFees1?: boolean }
  /**
   * Initialized ticks whose fee growth outside is zero in currency0 / currency1: crossing one
   * writes that word from zero once the pool has fee growth in the currency (~17k more); a tick
   * in neither list only rewrites its words. Absent (a state that does not say): every crossing is
   * priced as writing one word from zero.
   */
  freshOutside0?: number[]
  freshOutside1?: number[]
}
