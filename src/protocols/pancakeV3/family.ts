import type { PoolFamily } from '../types.js'
import { PANCAKE_V3_EXTRA_GAS } from './gas.js'
import { readPancakeV3Pools } from './readPools.js'
import type { PancakeV3PoolState } from './state.js'
import { V3ForkPool, type V3ForkSpec } from './v3ForkPool.js'

/** How PancakeSwap V3 differs from Uniswap V3 for weft: its family id, step key and gas. */
export const pancakeV3Spec: V3ForkSpec = {
  family: 'pancakeV3',
  label: 'PancakeSwap V3',
  stepKey: 'fee',
  gas: PANCAKE_V3_EXTRA_GAS,
}

/**
 * The PancakeSwap V3 pool family: Uniswap V3's swap math on pools CREATE2-deployed by the
 * PancakeV3PoolDeployer (`DexConfig.factory`), swapped through executor dex kind 3, whose step
 * pays the pool from `pancakeV3SwapCallback`.
 *
 * @example
 * const quote = await getQuote(intent, source, { families: [...defaultFamilies] }) // pancakeV3Family is among them
 * pancakeV3Family.fromState(state, { chain, dex, dexIndex }).quoteExactIn(weth, usdc, 10n ** 18n)
 */
export const pancakeV3Family: PoolFamily<PancakeV3PoolState> = {
  id: 'pancakeV3',
  executorKind: 3,
  fromState: (state, context) => V3ForkPool.fromState(state, context, pancakeV3Spec),
  readPools: readPancakeV3Pools,
}
