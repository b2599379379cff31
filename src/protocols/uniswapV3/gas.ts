// Fitted on anvil against the real UniswapV3Pool through weft's executor (see src/quote/estimateGas.ts).

/**
 * Gas of one V3 swap step in weft's executor with no tick crossed and one
 * bitmap word read (the pool call, its callback and the token transfers).
 * @example estimateSwapGas(0, 1) === SWAP_BASE_GAS // true
 */
export const SWAP_BASE_GAS = 80_500n

/**
 * Extra gas per initialized tick crossed (Tick.cross writes, the oracle
 * observation on the first crossing, liquidity update).
 * @example estimateSwapGas(2, 3) // SWAP_BASE_GAS + 2n * TICK_CROSSED_GAS
 */
export const TICK_CROSSED_GAS = 42_200n

/**
 * Extra gas per swap step that ends at a bitmap word boundary without
 * crossing an initialized tick (one more bitmap word read).
 * @example estimateSwapGas(0, 3) // SWAP_BASE_GAS + 2n * EXTRA_WORD_GAS
 */
export const EXTRA_WORD_GAS = 8_000n

/**
 * The gas one V3 swap costs in the executor, from what the swap loop did:
 * the base, plus each initialized tick crossed, plus each further step that
 * only moved to the next bitmap word.
 *
 * @param initializedTicksCrossed - from `simulateSwap`
 * @param stepsTaken - from `simulateSwap`
 * @example
 * const result = simulateSwap(pool, true, 10n ** 18n)
 * if (result) estimateSwapGas(result.initializedTicksCrossed, result.stepsTaken)
 */
export function estimateSwapGas(initializedTicksCrossed: number, stepsTaken: number): bigint {
  const extraWords = Math.max(0, stepsTaken - 1 - initializedTicksCrossed)
  return SWAP_BASE_GAS + BigInt(initializedTicksCrossed) * TICK_CROSSED_GAS + BigInt(extraWords) * EXTRA_WORD_GAS
}
