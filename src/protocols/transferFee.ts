/**
 * Fee-on-transfer arithmetic: a token that keeps `floor(amount * bps / 10000)` of every transfer
 * (the model the RPC source's probe checks a token against before it reports a fee).
 */

/** What arrives when `amount` is sent. */
export function afterTransferFee(amount: bigint, bps: number): bigint {
  return bps === 0 ? amount : amount - (amount * BigInt(bps)) / 10_000n
}

/**
 * The least amount to send so that at least `wanted` arrives; undefined when no amount can (a
 * fee of 100% or more).
 *
 * @example
 * sentForReceived(99n, 100) // 100n: 1% of 100 is kept
 */
export function sentForReceived(wanted: bigint, bps: number): bigint | undefined {
  if (bps === 0 || wanted <= 0n) return wanted
  if (bps >= 10_000) return undefined
  // ceil(wanted * 10000 / (10000 - bps)) always delivers enough; the floor in the fee can make a
  // smaller amount deliver enough too, so step down while it still does.
  let sent = (wanted * 10_000n + BigInt(9_999 - bps)) / BigInt(10_000 - bps)
  while (sent > 0n && afterTransferFee(sent - 1n, bps) >= wanted) sent--
  return sent
}
