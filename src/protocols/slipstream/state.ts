import type { UniswapV3PoolState } from '../uniswapV3/state.js'

/**
 * An Aerodrome Slipstream (CL) pool at one block: the Uniswap V3 state shape, tagged `slipstream`.
 * `tickSpacing` is the pool's key (its CREATE2 salt); `fee` is what the pool's `fee()` answered at
 * that block (the factory's default for the spacing, or its fee module's value).
 */
export type SlipstreamPoolState = Omit<UniswapV3PoolState, 'family'> & { family: 'slipstream' }
