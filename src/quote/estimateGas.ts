import type { Hex } from 'viem'

/**
 * The executor's gas outside its steps, measured on anvil (test/gas.test.ts):
 * the order's decoding, the pull (transferFrom into an empty executor
 * balance), the output measurement, the receiver's transfer into a zero
 * balance, the Fill event, and the reentrancy lock.
 */
export const ORDER_BASE_GAS = 70_000n
/** Paying one fee share: a transfer that may create the recipient's balance. */
export const FEE_SHARE_GAS = 30_000n
/** Wrapping native input (WETH.deposit). */
export const WRAP_GAS = 25_000n
/** Unwrapping for native output (WETH.withdraw and the ETH send). */
export const UNWRAP_GAS = 22_000n
/** Each extra path: its loop iteration and calldata decoding. */
export const PATH_GAS = 3_000n

/**
 * Intrinsic gas of a transaction with this calldata: 21000, plus 4 per zero
 * byte and 16 per non-zero byte, or the EIP-7623 floor (10 per token) when higher.
 */
export function intrinsicGas(data: Hex, executionGas: bigint): bigint {
  let zero = 0n
  let nonZero = 0n
  for (let i = 2; i < data.length; i += 2) {
    if (data[i] === '0' && data[i + 1] === '0') zero++
    else nonZero++
  }
  const tokens = zero + 4n * nonZero
  const standard = 21_000n + 4n * tokens + executionGas
  const floor = 21_000n + 10n * tokens
  return standard > floor ? standard : floor
}

/**
 * A fill's gas: intrinsic cost of its calldata plus the executor's work,
 * biased to over-estimate (cold storage, fresh balances), never under.
 */
export function estimateFillGas(parameters: {
  data: Hex
  stepGas: bigint
  paths: number
  feeShares: number
  nativeIn: boolean
  nativeOut: boolean
}): bigint {
  const execution =
    ORDER_BASE_GAS +
    parameters.stepGas +
    BigInt(parameters.paths) * PATH_GAS +
    BigInt(parameters.feeShares) * FEE_SHARE_GAS +
    (parameters.nativeIn ? WRAP_GAS : 0n) +
    (parameters.nativeOut ? UNWRAP_GAS : 0n)
  return intrinsicGas(parameters.data, execution)
}
