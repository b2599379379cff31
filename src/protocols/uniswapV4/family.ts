import type { PoolFamily } from '../types.js'
import { UniswapV4Pool } from './pool.js'
import { readUniswapV4Pools } from './readPools.js'
import type { UniswapV4PoolState } from './state.js'

/**
 * The Uniswap V4 pool family: pools without hooks and with a static fee,
 * held by the singleton PoolManager (the dex's `factory`) and swapped through
 * executor dex kind 4. Pools with hooks or a dynamic fee are reported as
 * skipped by `readPools`, never priced.
 *
 * @example
 * const pool = uniswapV4Family.fromState(state, { chain, dex, dexIndex: 2 })
 * pool.quoteExactIn(pool.tokens[0], pool.tokens[1], 10n ** 18n)
 */
export const uniswapV4Family: PoolFamily<UniswapV4PoolState> = {
  id: 'uniswapV4',
  executorKind: 4,
  fromState: (state, context) => UniswapV4Pool.fromState(state, context),
  readPools: readUniswapV4Pools,
}
