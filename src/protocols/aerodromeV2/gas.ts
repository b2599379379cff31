/**
 * Gas of one Aerodrome V2 step in weft's executor on a volatile pool in its steady state (its
 * accumulators and fee indexes already written, no observation due): deriving the pool, the pool's
 * `getAmountOut` (a call to the factory's `getFee`), the transfer to the pool, and `swap` (the
 * factory's `isPaused` and `getFee`, the output transfer, balance reads, the fee's transfer to the
 * pool's PoolFees and its fee index, the reserves and accumulators). Measured on anvil against
 * Pool.sol compiled from sphere-mezo-solidity-files with solc 0.8.20
 * (test/aerodromeV2.execution.test.ts asserts gasEstimate / gasUsed within [1.0, 1.3]).
 *
 * @example
 * AERODROME_V2_VOLATILE_STEP_GAS // added per volatile step to the order's fixed overhead
 */
export const AERODROME_V2_VOLATILE_STEP_GAS = 110_000n

/**
 * More on a stable pool: the stable curve's Newton solve in `getAmountOut` and the x³y + xy³ check
 * in `swap`.
 * @example AERODROME_V2_VOLATILE_STEP_GAS + AERODROME_V2_STABLE_EXTRA_GAS // a stable step
 */
export const AERODROME_V2_STABLE_EXTRA_GAS = 22_000n

/**
 * Less on a swap whose fee is zero (a fee-free pool, or dust whose amountIn x fee / 10000 rounds
 * down to zero): `swap` then moves no fee to PoolFees and leaves its index.
 * @example AERODROME_V2_VOLATILE_STEP_GAS - AERODROME_V2_NO_FEE_SAVING // a zero-fee volatile step
 */
export const AERODROME_V2_NO_FEE_SAVING = 17_000n

/**
 * More for a swap that writes storage from zero: per slot, a fresh store (20,000) instead of a
 * rewrite (2,900). The first accumulation writes both reserve accumulators, a token's first fee its
 * index and its PoolFees balance, a due observation three slots of a new array entry.
 * @example AERODROME_V2_FRESH_SLOT_GAS * 2n // a young pool's first accumulation
 */
export const AERODROME_V2_FRESH_SLOT_GAS = 17_100n

/**
 * More for a swap that appends a price observation (the last one is older than the pool's 30-minute
 * period): a new array entry of three fresh slots, and the reads around it. Measured on anvil at
 * 83k (a pool that has appended before) to 138k (a pool's first append after its first swap); the
 * upper value is taken, so an estimate is never low.
 * @example AERODROME_V2_VOLATILE_STEP_GAS + AERODROME_V2_OBSERVATION_GAS // a step that appends an observation
 */
export const AERODROME_V2_OBSERVATION_GAS = 117_100n
