/** Largest reserve a V2 pair can hold (reserves are uint112). */
export const MAX_UINT112 = (1n << 112n) - 1n

/**
 * Output of a V2-style pair for an exact input, as UniswapV2Library.getAmountOut
 * computes it, generalised to a fee in bps of 10000 (30 bps gives the same
 * floor as Uniswap's 997/1000, since numerator and denominator both scale by 10).
 * Returns 0n where the library would revert (zero input or reserves).
 *
 * @example
 * getAmountOut(10n ** 18n, 100n * 10n ** 18n, 300_000n * 10n ** 6n, 30) // 2961_... USDC units
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n
  const amountInWithFee = amountIn * BigInt(10_000 - feeBps)
  return (amountInWithFee * reserveOut) / (reserveIn * 10_000n + amountInWithFee)
}

/**
 * Least input that yields `amountOut`: the pair's K check (the fee withheld
 * from the input) rounded up. UniswapV2Library's `floor + 1` is the same except
 * when the division is exact, where it asks one wei more than the pair needs.
 * Returns undefined when the pair cannot deliver it (amountOut >= reserveOut).
 *
 * @example
 * getAmountIn(1_000_000n, 10n ** 21n, 3n * 10n ** 12n, 30)
 */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint | undefined {
  if (amountOut <= 0n || reserveIn <= 0n || reserveOut <= 0n || amountOut >= reserveOut) return undefined
  const numerator = reserveIn * amountOut * 10_000n
  const denominator = (reserveOut - amountOut) * BigInt(10_000 - feeBps)
  return (numerator + denominator - 1n) / denominator
}
