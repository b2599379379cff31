/**
 * How long a quote's transaction stays valid by default: 30 minutes after the quote was made (by
 * the host's clock, `getQuote`'s `now` option, else `Date.now()`). Long enough for a user to read
 * and sign it, short enough that a transaction held back (by a wallet, a relayer or a mempool) cannot
 * execute days later on prices it was never meant for. `getQuote`'s `deadlineSeconds` changes it.
 *
 * @example
 * const deadline = getFillDeadline(Date.now(), DEFAULT_DEADLINE_SECONDS) // 30 minutes from now, in seconds
 */
export const DEFAULT_DEADLINE_SECONDS = 1800

/** The longest `deadlineSeconds` accepted: one year. */
export const MAX_DEADLINE_SECONDS = 365 * 24 * 3600

/**
 * The executor order's `deadline`: Unix seconds `seconds` after `nowMs`; the executor refuses the
 * fill once a block's timestamp is past it (`Expired`). A clock before 1970 counts as 1970.
 *
 * @example
 * getFillDeadline(Date.UTC(2026, 0, 1), 1800) // 1767227400n
 */
export function getFillDeadline(nowMs: number, seconds: number = DEFAULT_DEADLINE_SECONDS): bigint {
  return BigInt(Math.max(0, Math.floor(nowMs / 1000)) + seconds)
}
