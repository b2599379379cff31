import type { V3ForkGas } from '../pancakeV3/v3ForkPool.js'

/**
 * What a Slipstream swap costs in weft's executor beyond the same swap on a Uniswap V3 pool.
 *
 * NOT CALIBRATED: no Slipstream bytecode is available to this repository (none is published on
 * npm), so these are estimates from CLPool's source, on the high side: every loop step asks the
 * factory for `fee()` and `unstakedFee()` (external calls through the fee modules and the voter,
 * cold on the first step), every initialized tick crossed also updates the gauge's reward growth
 * and the tick's staked liquidity, and a swap ends by adding to `gaugeFees`. Measure on a Base fork
 * before relying on the estimate's upper bound.
 *
 * @example
 * // gas of a Slipstream swap = estimateSwapGas(crossed, steps) + base + crossed * perTickCrossed + (steps - 1) * perExtraStep
 */
export const SLIPSTREAM_EXTRA_GAS: V3ForkGas = { base: 40_000n, perTickCrossed: 12_000n, perExtraStep: 8_000n }
