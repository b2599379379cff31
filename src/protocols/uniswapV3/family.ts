import type { PoolFamily } from '../types.js'
import { UniswapV3Pool } from './pool.js'
import { readUniswapV3Pools } from './readPools.js'
import type { UniswapV3PoolState } from './state.js'

/**
 * The Uniswap V3 pool family: concentrated-liquidity pools swapped through
 * executor dex kind 2. `fromState` validates the JSON state and returns an
 * immutable {@link UniswapV3Pool}.
 *
 * @example
 * const pool = uniswapV3Family.fromState(state, { chain, dex, dexIndex: 1 })
 * pool.quoteExactIn(pool.tokens[0], pool.tokens[1], 10n ** 18n)
 */
export const uniswapV3Family: PoolFamily<UniswapV3PoolState> = {
  id: 'uniswapV3',
  executorKind: 2,
  fromState: (state, context) => UniswapV3Pool.fromState(state, context),
  readPools: readUniswapV3Pools,
}
