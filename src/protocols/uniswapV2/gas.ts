/**
 * Gas of one V2 step in weft's executor (transfer to the pair, getReserves,
 * balanceOf, swap with its two balance reads and the oracle update), measured
 * on anvil against UniswapV2Pair with cold pair storage (see src/quote/estimateGas.ts);
 * raised 4,000 to cover every V2 fill of the random universes of test/gas/gasRatio.e2e.test.ts
 * (time passing between fills, so the accumulators are rewritten).
 */
export const V2_STEP_GAS = 65_100n

/**
 * More for the first swap of a pair whose price accumulators are still zero (a pair nobody has
 * swapped or synced since its first mint): `_update` writes both accumulators from zero, two
 * fresh 20,000-gas stores instead of two 2,900-gas rewrites.
 * @example V2_STEP_GAS + V2_FIRST_ACCUMULATION_GAS // a young pair's first step
 */
export const V2_FIRST_ACCUMULATION_GAS = 34_200n
