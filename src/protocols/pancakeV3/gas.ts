import type { V3ForkGas } from './v3ForkPool.js'

/**
 * What a PancakeSwap V3 swap costs in weft's executor beyond the same swap on a Uniswap V3 pool in
 * the same state, measured on anvil against the real PancakeV3Pool bytecode (aged pools, as on a
 * live chain: test/pancakeV3.gas.test.ts). The swap itself is Uniswap's; Pancake adds its protocol
 * fee (32% of the swap fee by default: a mulDiv per loop step and a write of `protocolFees`), a
 * wider slot0 and Swap event, and a check for a farming (LM) pool on every tick crossed. Measured:
 * 10,490-10,527 gas more with no tick crossed, and about 385-420 more per further loop step.
 *
 * Not covered: a pool with an LM pool attached (PancakeSwap farms) calls it on every tick crossed;
 * the devnet has none, so that cost is not in these figures.
 *
 * @example
 * // gas of a Pancake swap = estimateSwapGas(crossed, steps) + 10_600n + (steps - 1) * 450n
 */
export const PANCAKE_V3_EXTRA_GAS: V3ForkGas = { base: 10_600n, perTickCrossed: 0n, perExtraStep: 450n }
