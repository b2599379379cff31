// Calibrated on anvil against the real Vault (20210418-vault) and WeightedPool (20230206-weighted-pool-v3
// bytecode, the pool the live v4 factory deploys) through weft's executor, within the quote's gas
// model (src/quote/estimateGas.ts: order base, payments, ×1.06, and a 45,500 discount for a pool
// traded again in the same fill). Measured, as the step constant that makes a single-step fill's
// estimate equal its gas used: 76.0–76.6k (two tokens, fast-path weight ratio), 78.0k (two tokens,
// LogExpMath.pow), 79.4–80.1k (three tokens). A second visit to the same pool saves only ~35k, not
// 45.5k: a fill that trades one pool twice needs 81.5k (two tokens) and 83.8k (three tokens) per step,
// which the constants below cover (test/balancerV2.quotes.test.ts: 1.04–1.15 × gas used).
import { divDown, ONE } from './fixedPoint.js'

/**
 * Gas of one weighted-pool step in weft's executor on a two-token pool whose weight ratio has a
 * fast path (1, 2 or 4: 50/50, 80/20 and 20/80 in that direction): the exact approve, Vault.swap
 * (pool lookup, onSwap, balance update, transferFrom in, transfer out) and the allowance check,
 * net of the refund for clearing the allowance.
 * @example estimateBalancerV2StepGas(2, ONE / 2n, ONE / 2n) === BALANCER_V2_STEP_GAS // true
 */
export const BALANCER_V2_STEP_GAS = 86_000n

/** More for a pool of three or more tokens (MINIMAL_SWAP_INFO: balances in separate slots, longer token lookups). */
export const BALANCER_V2_MULTI_TOKEN_GAS = 4_000n

/** More when the weight ratio needs LogExpMath.pow (ln and exp) instead of a fast path. */
export const BALANCER_V2_POW_GAS = 2_000n

/**
 * The gas one weighted-pool swap costs in the executor.
 *
 * @param tokenCount - tokens in the pool
 * @param weightIn - normalized weight of the input token
 * @param weightOut - normalized weight of the output token
 * @example
 * estimateBalancerV2StepGas(3, 4n * 10n ** 17n, 2n * 10n ** 17n) // BALANCER_V2_STEP_GAS + BALANCER_V2_MULTI_TOKEN_GAS
 */
export function estimateBalancerV2StepGas(tokenCount: number, weightIn: bigint, weightOut: bigint): bigint {
  const exponent = divDown(weightIn, weightOut)
  const fastPath = exponent === ONE || exponent === 2n * ONE || exponent === 4n * ONE
  return BALANCER_V2_STEP_GAS + (tokenCount > 2 ? BALANCER_V2_MULTI_TOKEN_GAS : 0n) + (fastPath ? 0n : BALANCER_V2_POW_GAS)
}
