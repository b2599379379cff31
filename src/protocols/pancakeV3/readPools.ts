import type { ReadPoolsParameters } from '../types.js'
import { readUniswapV3Pools } from '../uniswapV3/readPools.js'
import type { PancakeV3PoolState } from './state.js'

/**
 * Reads every PancakeSwap V3 pool among `tokens` on the given dexes (every pair, every fee tier of
 * `DexConfig.feeTiers`) at one block, exactly as the Uniswap V3 reader does: the pools' getters
 * answer in the same layout for every word the lens decodes (Pancake's `slot0` differs only after
 * the tick). A dex's `factory` is the PancakeV3PoolDeployer, the address pools are CREATE2-derived
 * from. One `eth_call` of the undeployed lens per 128 candidates.
 *
 * @example
 * const states = await readPancakeV3Pools({ client, chain: base, blockNumber, tokens: [weth, usdc], dexes: [pancakeDex] })
 */
export async function readPancakeV3Pools(parameters: ReadPoolsParameters): Promise<PancakeV3PoolState[]> {
  const states = await readUniswapV3Pools(parameters)
  return states.map((state) => ({ ...state, family: 'pancakeV3' }))
}
