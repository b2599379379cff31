import type { Address, Hex } from 'viem'
import type { Pool } from '../protocols/types.js'
import { UniswapV4Pool } from '../protocols/uniswapV4/pool.js'

// The executor's gas, outside the pools' own steps (each pool family reports
// those), fitted on anvil against the real Uniswap bytecode: 712 fills of
// 1–15 hops, native in and out, fees to empty and funded accounts; the model
// is the tightest one that never under-estimates those fills (a linear
// program), times ESTIMATE_MARGIN. Regenerate the data with
// test/calibration/gasData.calibrate.ts and fit with scripts/fitGasModel.py
// when the executor changes.

/**
 * Decoding, the pull, the output measurement, the Fill event and the lock: 38,000 as fitted, plus
 * 2,500 for the ledger and for measuring what the pull delivered (two balanceOf calls), added
 * after the fit.
 */
export const ORDER_BASE_GAS = 40_500n
/** A pool already traded earlier in the same fill is warm: its step costs this much less. */
export const WARM_POOL_DISCOUNT = 45_500n
/**
 * A Balancer pool traded again in the same fill saves far less (measured: a three-token pool
 * visited twice on the random universes of test/gas/gasRatio.e2e.test.ts needed ~27k more than
 * WARM_POOL_DISCOUNT allows): its second Vault.swap still reads and writes the pool's balances.
 */
export const WARM_BALANCER_POOL_DISCOUNT = 15_000n
/**
 * A step into a singleton contract (Uniswap V4's PoolManager, Balancer's Vault) that an earlier
 * step of the same fill already called for another pool: the contract and its slots are warm.
 */
export const SHARED_CONTRACT_DISCOUNT = 2_500n
/**
 * A V4 step owing a protocol fee in a currency an earlier step of the fill already accrued: the
 * pools price each accrual as a fresh write (`PROTOCOL_FEE_GAS`), the second one only rewrites.
 */
export const REPEATED_ACCRUAL_DISCOUNT = 17_000n
/** Unwrapping for native output (WETH.withdraw). */
export const UNWRAP_GAS = 6_300n
/** Paying a token to an account with an empty balance (a fresh storage slot). */
export const TOKEN_TRANSFER_FRESH_GAS = 23_900n
/** Paying a token to an account that already holds some. */
export const TOKEN_TRANSFER_FUNDED_GAS = 7_000n
/** Sending native to an account that does not exist yet (new-account surcharge). */
export const NATIVE_TRANSFER_FRESH_GAS = 32_800n
/** Sending native to an existing account. */
export const NATIVE_TRANSFER_FUNDED_GAS = 6_200n
/**
 * Head-room on the modelled execution gas, in percent. 106 as fitted; 108 since the executor
 * measures every step's output (two balanceOf calls per step, about 2-3% of a step's gas), which
 * the per-step figures of the fit do not include yet.
 */
export const ESTIMATE_MARGIN_PERCENT = 108n

/**
 * Intrinsic gas of a transaction with this calldata: 21000, plus 4 per zero
 * byte and 16 per non-zero byte, or the EIP-7623 floor (10 per token) when higher.
 */
export function intrinsicGas(data: Hex, executionGas: bigint): bigint {
  // Counted in numbers (exact far past any calldata length): a bigint per byte was most of a small quote's garbage.
  let zero = 0
  let nonZero = 0
  for (let i = 2; i < data.length; i += 2) {
    if (data[i] === '0' && data[i + 1] === '0') zero++
    else nonZero++
  }
  const tokens = BigInt(zero) + 4n * BigInt(nonZero)
  const standard = 21_000n + 4n * tokens + executionGas
  const floor = 21_000n + 10n * tokens
  return standard > floor ? standard : floor
}

/** One payment the fill makes: native or token, to an account that may hold nothing yet. */
export type Payment = { native: boolean; funded: boolean }

/**
 * A fill's gas: intrinsic cost of its calldata plus the executor's work.
 * Unknown balances count as empty, so the estimate errs high, never low.
 */
export function estimateFillGas(parameters: {
  data: Hex
  /** Sum of the steps' gas as the pools report it. */
  stepGas: bigint
  /** Steps that trade a pool an earlier step of the same fill already traded (Balancer pools excepted). */
  warmSteps: number
  /** Steps that trade a Balancer pool an earlier step of the same fill already traded. */
  warmBalancerSteps?: number
  /** Steps into a singleton contract an earlier step already called for another pool. */
  sharedSteps?: number
  /** V4 steps accruing a protocol fee in a currency an earlier step already accrued. */
  repeatedAccruals?: number
  nativeOut: boolean
  payments: readonly Payment[]
}): bigint {
  let execution =
    ORDER_BASE_GAS +
    parameters.stepGas -
    BigInt(parameters.warmSteps) * WARM_POOL_DISCOUNT -
    BigInt(parameters.warmBalancerSteps ?? 0) * WARM_BALANCER_POOL_DISCOUNT -
    BigInt(parameters.sharedSteps ?? 0) * SHARED_CONTRACT_DISCOUNT -
    BigInt(parameters.repeatedAccruals ?? 0) * REPEATED_ACCRUAL_DISCOUNT
  if (parameters.nativeOut) execution += UNWRAP_GAS
  for (const p of parameters.payments) {
    if (p.native) execution += p.funded ? NATIVE_TRANSFER_FUNDED_GAS : NATIVE_TRANSFER_FRESH_GAS
    else execution += p.funded ? TOKEN_TRANSFER_FUNDED_GAS : TOKEN_TRANSFER_FRESH_GAS
  }
  if (execution < 0n) execution = 0n
  return intrinsicGas(parameters.data, (execution * ESTIMATE_MARGIN_PERCENT + 99n) / 100n)
}

/** A step as the executor runs it: which pool, from which token. */
export type GasStep = { pool: Pool; tokenIn: Address }

/**
 * What the steps of a fill, in executor order, share with earlier ones, for `estimateFillGas`:
 * pools traded again, singleton contracts called again for another pool, and V4 protocol fees
 * accrued again in the same currency.
 *
 * @example
 * countWarmSteps(plan.segments.flatMap((segment) => segment.hops)) // { warmSteps: 0, warmBalancerSteps: 0, sharedSteps: 1, repeatedAccruals: 0 }
 */
export function countWarmSteps(steps: readonly GasStep[]): {
  warmSteps: number
  warmBalancerSteps: number
  sharedSteps: number
  repeatedAccruals: number
} {
  const pools = new Set<string>()
  const singletons = new Set<string>()
  const accrued = new Set<string>()
  let warmSteps = 0
  let warmBalancerSteps = 0
  let sharedSteps = 0
  let repeatedAccruals = 0
  for (const { pool, tokenIn } of steps) {
    if (pools.has(pool.key)) {
      if (pool.family === 'balancerV2') warmBalancerSteps++
      else warmSteps++
    }
    else if (pool.address !== pool.key && singletons.has(pool.address)) sharedSteps++
    pools.add(pool.key)
    // A pool whose key is not its address lives in a singleton (V4 PoolManager, Balancer Vault).
    if (pool.address !== pool.key) singletons.add(pool.address)
    if (pool instanceof UniswapV4Pool && pool.accruesFreshProtocolFee(tokenIn)) {
      const currency = `${pool.address}:${tokenIn.toLowerCase()}`
      if (accrued.has(currency)) repeatedAccruals++
      accrued.add(currency)
    }
  }
  return { warmSteps, warmBalancerSteps, sharedSteps, repeatedAccruals }
}
