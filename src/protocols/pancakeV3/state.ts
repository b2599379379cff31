import type { UniswapV3PoolState } from '../uniswapV3/state.js'

/**
 * A PancakeSwap V3 pool at one block: the Uniswap V3 state shape (integers as base-10 strings,
 * the initialized ticks of a known range), tagged `pancakeV3`. `fee` is the pool's fee tier and
 * `tickSpacing` its factory's spacing for that tier.
 */
export type PancakeV3PoolState = Omit<UniswapV3PoolState, 'family'> & { family: 'pancakeV3' }
