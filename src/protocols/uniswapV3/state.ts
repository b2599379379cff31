import type { Address } from 'viem'
import type { PoolStateBase } from '../types.js'

/** An initialized tick: its index and signed liquidityNet (base-10 string). */
export type UniswapV3Tick = { index: number; liquidityNet: string }

/**
 * A Uniswap V3 pool (or fork) at one block. Integers as base-10 strings.
 *
 * `ticks` holds every initialized tick in the closed range
 * [`tickLower`, `tickUpper`] (sorted ascending) and nothing outside it is
 * known: a swap that would need to move the price below `tickLower` or above
 * `tickUpper` is refused rather than run on invented liquidity. A reader that
 * fetched whole bitmap words sets the range to the words' bounds; a full
 * state uses MIN_TICK/MAX_TICK.
 */
export type UniswapV3PoolState = PoolStateBase & {
  family: 'uniswapV3'
  token0: Address
  token1: Address
  /** Fee in hundredths of a bip (500 = 0.05%). */
  fee: number
  tickSpacing: number
  sqrtPriceX96: string
  tick: number
  liquidity: string
  ticks: UniswapV3Tick[]
  tickLower: number
  tickUpper: number
  /**
   * Storage the pool's next swap writes from zero, which costs more gas (~17k a slot): the fee
   * growth of token0 or token1 (no swap yet in that direction), and the protocol fees owed (a
   * protocol fee is on and nothing has accrued since the last collection). Absent: none.
   */
  freshSlots?: { feeGrowth0: boolean; feeGrowth1: boolean; protocolFees: boolean }
  /**
   * Initialized ticks whose fee growth outside is zero in token0 / token1: crossing one writes that
   * word from zero once the pool has fee growth in the token (~17k more); a tick in neither list
   * only rewrites its words. Absent (a state that does not say, such as an older snapshot): every
   * crossing is priced as writing one word from zero, as before these lists existed.
   */
  freshOutside0?: number[]
  freshOutside1?: number[]
  /**
   * Slipstream only: the pool has a gauge (Base's Voter gave it one), so its swaps book the gauge's
   * share of the fee and a swap that crosses a tick brings the reward growth up to date and sets
   * the tick's reward growth outside to global - outside. `rewardGrowthFresh`: the pool's reward
   * growth is still zero (its first update writes it from zero); `freshRewardOutside`: initialized
   * ticks whose reward growth outside is zero (a crossing writes it from zero, ~17k more). Absent:
   * no gauge, or a state that does not say (an older snapshot), priced as a pool without one.
   */
  gauge?: { rewardGrowthFresh: boolean; freshRewardOutside: number[] }
}
