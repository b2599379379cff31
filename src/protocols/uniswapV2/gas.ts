/**
 * Gas of one V2 step in weft's executor (transfer to the pair, getReserves,
 * balanceOf, swap with its two balance reads and the oracle update), measured
 * on anvil against UniswapV2Pair with cold pair storage (see src/quote/estimateGas.ts).
 */
export const V2_STEP_GAS = 61_100n
