import { hostError } from '../../errors/QuoteError.js'
import type { PoolFamily } from '../types.js'
import { MAX_UINT112 } from './math.js'
import { UniswapV2Pool } from './pool.js'
import { readUniswapV2Pools } from './readPools.js'
import type { UniswapV2PoolState } from './state.js'

const toReserve = (value: string, field: string): bigint => {
  if (!/^\d+$/.test(value)) throw hostError(`uniswapV2 state: ${field} must be a base-10 integer`)
  const reserve = BigInt(value)
  if (reserve > MAX_UINT112) throw hostError(`uniswapV2 state: ${field} exceeds uint112`)
  return reserve
}

/**
 * The Uniswap V2 family: constant-product pairs with a per-deployment fee
 * (`DexConfig.feeBps`). Executor kind 1.
 *
 * @example
 * const quote = await getQuote(intent, source, { families: [uniswapV2Family] })
 */
export const uniswapV2Family: PoolFamily<UniswapV2PoolState> = {
  id: 'uniswapV2',
  executorKind: 1,
  transferFees: true,
  fromState(state, context) {
    const token0 = state.token0.toLowerCase() as UniswapV2PoolState['token0']
    const token1 = state.token1.toLowerCase() as UniswapV2PoolState['token1']
    if (token0 >= token1) throw hostError('uniswapV2 state: token0 must sort below token1')
    const feeBps = context.dex.feeBps ?? 30
    if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps >= 10_000) throw hostError('uniswapV2 dex: feeBps must be 0..9999')
    return new UniswapV2Pool(
      state.address.toLowerCase() as UniswapV2PoolState['address'],
      token0,
      token1,
      toReserve(state.reserve0, 'reserve0'),
      toReserve(state.reserve1, 'reserve1'),
      feeBps,
      context,
      state.accumulatorsZero === true,
    )
  },
  readPools: readUniswapV2Pools,
}
