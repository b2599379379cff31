// Fitted on anvil against the real PoolManager (v4-core 1.0.2) through weft's executor: fills of one
// V4 step (ERC-20 and native on either side, 0-2 initialized ticks crossed, with and without a
// protocol fee), the tightest constants that never under-estimate them given the order model of
// src/quote/estimateGas.ts. test/uniswapV4.quotes.test.ts checks every executed quote's estimate.

/**
 * Gas of one V4 step in weft's executor, no tick crossed and one bitmap word
 * searched: the unlock, the callback, the swap, paying the input (sync +
 * transfer + settle, or unwrap + settle with ether, which costs the same) and
 * taking the output.
 * @example estimateSwapGas({ initializedTicksCrossed: 0, stepsTaken: 1 }) === SWAP_BASE_GAS // true
 */
export const SWAP_BASE_GAS = 80_250n

/**
 * Extra gas per initialized tick crossed (the tick's two fee-growth words
 * written, its liquidityNet read, the active liquidity updated).
 * @example estimateSwapGas({ initializedTicksCrossed: 2, stepsTaken: 3 }) // SWAP_BASE_GAS + 2n * TICK_CROSSED_GAS
 */
export const TICK_CROSSED_GAS = 33_750n

/**
 * Extra gas per swap step that ends at a bitmap word boundary without
 * crossing an initialized tick (one more bitmap word read).
 * @example estimateSwapGas({ initializedTicksCrossed: 0, stepsTaken: 3 }) // SWAP_BASE_GAS + 2n * EXTRA_WORD_GAS
 */
export const EXTRA_WORD_GAS = 5_000n

/**
 * Taking native output: the ether sent to the executor and wrapped, instead of a token transfer.
 * @example estimateSwapGas({ initializedTicksCrossed: 0, stepsTaken: 1, nativeOut: true }) // SWAP_BASE_GAS + NATIVE_OUT_GAS
 */
export const NATIVE_OUT_GAS = 3_750n

/**
 * A swap that owes the protocol a fee: the PoolManager adds it to
 * `protocolFeesAccrued` of the input currency, a fresh storage slot until
 * the fees are first collected (the estimate assumes the fresh write).
 * @example estimateSwapGas({ initializedTicksCrossed: 0, stepsTaken: 1, protocolFee: true }) // SWAP_BASE_GAS + PROTOCOL_FEE_GAS
 */
export const PROTOCOL_FEE_GAS = 19_500n

/**
 * A swap that writes the pool's fee growth of its input from zero (the pool's first swap that
 * way): a fresh 20,000-gas store instead of a 2,900-gas rewrite.
 * @example estimateSwapGas({ initializedTicksCrossed: 0, stepsTaken: 1, freshFeeGrowth: true }) // SWAP_BASE_GAS + FRESH_FEE_GROWTH_GAS
 */
export const FRESH_FEE_GROWTH_GAS = 17_100n

/** What a V4 swap did, as far as its gas is concerned. */
export type SwapGasParameters = {
  /** From `simulateSwap`. */
  initializedTicksCrossed: number
  /** From `simulateSwap`. */
  stepsTaken: number
  /** The output is the pool's native currency. */
  nativeOut?: boolean
  /** The direction's protocol fee is not 0. */
  protocolFee?: boolean
  /** The pool's fee growth of the input is still zero (and the pool charges an LP fee). */
  freshFeeGrowth?: boolean
  /**
   * Fee-growth-outside words the crossings write from zero beyond the one per crossing that
   * TICK_CROSSED_GAS prices: +1 for a crossing that writes both, -1 for one that only rewrites.
   */
  extraFreshWrites?: number
  /** The protocol fee's accrual writes a slot from zero (default; false: the currency has fees accrued). */
  protocolFeeFresh?: boolean
}

/**
 * The gas one V4 step costs in the executor, from what the swap loop did.
 *
 * @example
 * estimateSwapGas({ initializedTicksCrossed: 1, stepsTaken: 2, nativeOut: true }) // SWAP_BASE_GAS + TICK_CROSSED_GAS + NATIVE_OUT_GAS
 */
export function estimateSwapGas({
  initializedTicksCrossed,
  stepsTaken,
  nativeOut = false,
  protocolFee = false,
  freshFeeGrowth = false,
  extraFreshWrites = 0,
  protocolFeeFresh = true,
}: SwapGasParameters): bigint {
  const extraWords = Math.max(0, stepsTaken - 1 - initializedTicksCrossed)
  return (
    SWAP_BASE_GAS +
    BigInt(initializedTicksCrossed) * TICK_CROSSED_GAS +
    BigInt(extraWords) * EXTRA_WORD_GAS +
    (nativeOut ? NATIVE_OUT_GAS : 0n) +
    (protocolFee ? (protocolFeeFresh ? PROTOCOL_FEE_GAS : PROTOCOL_FEE_GAS - FRESH_FEE_GROWTH_GAS) : 0n) +
    (freshFeeGrowth ? FRESH_FEE_GROWTH_GAS : 0n) +
    // TICK_CROSSED_GAS covers one outside word written from zero (as on the pools it was fitted on).
    BigInt(extraFreshWrites) * FRESH_FEE_GROWTH_GAS
  )
}
