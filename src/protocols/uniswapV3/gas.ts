// Fitted on anvil against the real UniswapV3Pool through weft's executor (see src/quote/estimateGas.ts),
// then re-fitted on the random universes of test/gas/gasRatio.e2e.test.ts: a pool that has traded
// both ways costs SWAP_BASE_GAS; the slots a young pool's swap writes from zero are FRESH_SLOT_GAS
// each (the RPC source reads which, `UniswapV3PoolState.freshSlots` and `freshOutside0/1`).

/**
 * Gas of one V3 swap step in weft's executor with no tick crossed and one
 * bitmap word read (the pool call, its callback and the token transfers).
 * @example estimateSwapGas(0, 1) === SWAP_BASE_GAS // true
 */
export const SWAP_BASE_GAS = 75_500n

/**
 * More for each slot a swap writes from zero instead of rewriting it: a fresh 20,000-gas store
 * instead of a 2,900-gas one (the input's fee growth on a pool's first swap that way, the protocol
 * fees owed on the first accrual). `UniswapV3Pool.freshSlotGas` adds it from the pool's state.
 * @example pool.freshSlotGas(tokenIn) // 0n, FRESH_SLOT_GAS or 2n * FRESH_SLOT_GAS
 */
export const FRESH_SLOT_GAS = 17_100n

/**
 * Extra gas per initialized tick crossed (Tick.cross writes, the oracle
 * observation on the first crossing, liquidity update), with one of the tick's
 * two fee-growth-outside words written from zero. A state that lists its ticks'
 * zero words (`freshOutside0`/`freshOutside1`) adds or takes FRESH_SLOT_GAS per
 * word more or fewer (`countFreshOutsideWrites`). Measured on the real pool
 * (test/v3TickCrossing.gas.test.ts): ~21.5k for a crossing that only rewrites,
 * ~53k for one writing both words from zero; priced 25.1k and 59.3k.
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
  // Summed as numbers (exact: far below 2^53), one bigint at the end: a bigint per product and sum
  // was six allocations on every simulated swap.
  return BigInt(SWAP_BASE_UNITS + initializedTicksCrossed * TICK_CROSSED_UNITS + extraWords * EXTRA_WORD_UNITS)
}

const SWAP_BASE_UNITS = Number(SWAP_BASE_GAS)
const TICK_CROSSED_UNITS = Number(TICK_CROSSED_GAS)
const EXTRA_WORD_UNITS = Number(EXTRA_WORD_GAS)
