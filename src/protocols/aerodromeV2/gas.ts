/**
 * Gas of one Aerodrome V2 step in weft's executor, volatile pool: deriving the pool, the pool's
 * `getAmountOut` (a call to the factory's `getFee`), the transfer to the pool, and `swap` (the
 * factory's `isPaused` and `getFee`, the output transfer, two balance reads, the fee's transfer to
 * the pool's PoolFees and its fee index, the reserves and accumulators). Measured on anvil against
 * Pool.sol compiled from sphere-mezo-solidity-files with solc 0.8.20 (test/aerodromeV2.execution.test.ts).
 *
 * @example
 * AERODROME_V2_VOLATILE_STEP_GAS // added per volatile step to the order's fixed overhead
 */
export const AERODROME_V2_VOLATILE_STEP_GAS = 110_000n

/**
 * Gas of one Aerodrome V2 step on a stable pool: the volatile step's work plus the stable curve's
 * Newton solve in `getAmountOut` and the x³y + xy³ check in `swap`.
 *
 * @example
 * AERODROME_V2_STABLE_STEP_GAS // added per stable step to the order's fixed overhead
 */
export const AERODROME_V2_STABLE_STEP_GAS = 130_000n
