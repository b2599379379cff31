import { type Abi, type Hex, decodeErrorResult, parseAbi } from 'viem'
import { weftExecutorAbi } from '../executor/artifacts.js'

/** Where a decoded revert comes from. */
export type FillRevertSource = 'executor' | 'pool' | 'token' | 'solidity' | 'unknown'

/** A revert of the approval or the fill, decoded. */
export type FillRevert = {
  /** The error's name (`InsufficientOutput`, `Error` for a revert string, `Panic`), or null when nothing matched. */
  errorName: string | null
  /** The error's arguments, decoded (bigints and addresses), in ABI order. */
  args: readonly unknown[]
  /** Which ABI matched: the executor's, a pool's, a token's, Solidity's built-in Error/Panic, or none. */
  source: FillRevertSource
  /** The raw revert data. */
  data: Hex
}

/**
 * Custom errors of the pools and tokens a fill touches that do not come as revert strings
 * (Uniswap V2/V3 and Balancer revert with strings, which decode as `Error`).
 */
const poolErrorsAbi = parseAbi([
  // Uniswap V4 PoolManager
  'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)',
  'error CurrencyNotSettled()',
  'error PoolNotInitialized()',
  'error PriceLimitAlreadyExceeded(uint160 sqrtPriceCurrentX96, uint160 sqrtPriceLimitX96)',
  'error PriceLimitOutOfBounds(uint160 sqrtPriceLimitX96)',
  'error SwapAmountCannotBeZero()',
  'error NoLiquidityToReceiveFees()',
  'error ManagerLocked()',
  'error AlreadyUnlocked()',
])
const tokenErrorsAbi = parseAbi([
  // OpenZeppelin 5 ERC-20 (ERC-6093)
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
])

// Order matters only where two ABIs share a selector; the executor's own errors win.
const sources: readonly [FillRevertSource, Abi][] = [
  ['executor', weftExecutorAbi],
  ['pool', poolErrorsAbi],
  ['token', tokenErrorsAbi],
]

/**
 * Decodes the revert data of a fill or its approval: the executor's custom errors (read from the
 * generated executor ABI, so every error the contract declares is covered), the Uniswap V4
 * PoolManager's and ERC-20 (ERC-6093) errors, and Solidity's `Error(string)` and `Panic(uint256)`.
 * Never throws: data nothing matches comes back with `errorName: null`.
 *
 * @example
 * const revert = decodeFillRevert('0x…')
 * if (revert.errorName === 'InsufficientOutput') console.log('received', revert.args[0], 'minimum', revert.args[1])
 */
export function decodeFillRevert(data: Hex): FillRevert {
  for (const [source, abi] of sources) {
    try {
      const decoded = decodeErrorResult({ abi, data })
      // viem adds Error(string) and Panic(uint256) to every ABI it decodes with.
      const builtIn = decoded.errorName === 'Error' || decoded.errorName === 'Panic'
      return { errorName: decoded.errorName, args: decoded.args ?? [], source: builtIn ? 'solidity' : source, data }
    } catch {
      // Not this ABI's: try the next.
    }
  }
  return { errorName: null, args: [], source: 'unknown', data }
}

/**
 * One line for people: `InsufficientOutput(2019, 2020)` or `Error("SPL")`.
 *
 * @example
 * console.log(describeFillRevert(decodeFillRevert(data))) // 'InsufficientOutput(2019, 2020)'
 */
export function describeFillRevert(revert: FillRevert): string {
  if (revert.errorName === null) return revert.data === '0x' ? 'reverted without data' : `unknown revert ${revert.data.slice(0, 10)}`
  const args = revert.args.map((a) => (typeof a === 'string' && !a.startsWith('0x') ? JSON.stringify(a) : String(a)))
  return `${revert.errorName}(${args.join(', ')})`
}
