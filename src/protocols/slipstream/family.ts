import type { V3ForkSpec } from '../pancakeV3/v3ForkPool.js'
import { V3ForkPool } from '../pancakeV3/v3ForkPool.js'
import type { PoolFamily } from '../types.js'
import { SLIPSTREAM_EXTRA_GAS } from './gas.js'
import { readSlipstreamPools } from './readPools.js'
import type { SlipstreamPoolState } from './state.js'

/** How Aerodrome Slipstream differs from Uniswap V3 for weft: its family id, step key and gas. */
export const slipstreamSpec: V3ForkSpec = {
  family: 'slipstream',
  label: 'Slipstream',
  stepKey: 'tickSpacing',
  gas: SLIPSTREAM_EXTRA_GAS,
}

/**
 * The Aerodrome Slipstream (CL) pool family: Uniswap V3's swap math on pools keyed by tick
 * spacing, EIP-1167 clones CREATE2-deployed by the CLFactory (`DexConfig.factory`, with
 * `DexConfig.tickSpacings`), each pool's fee read from the pool. Swapped through executor dex
 * kind 6 (Step.param = tick spacing), paid from the shared `uniswapV3SwapCallback`.
 *
 * @example
 * slipstreamFamily.fromState(state, { chain: base, dex: slipstreamDex, dexIndex }).quoteExactIn(weth, usdc, 10n ** 18n)
 */
export const slipstreamFamily: PoolFamily<SlipstreamPoolState> = {
  id: 'slipstream',
  executorKind: 6,
  fromState: (state, context) => V3ForkPool.fromState(state, context, slipstreamSpec),
  readPools: readSlipstreamPools,
}
