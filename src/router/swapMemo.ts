import type { Address } from 'viem'
import type { Pool, SwapResult } from '../protocols/types.js'

/**
 * Exact swaps already simulated during one route search, by pool state, direction and input.
 * Pool states are immutable and a swap returns its next state, so the same swap on the same
 * state object gives the same result, and the plans a search tries (splits that move a little
 * input between paths, a greedy pass that re-prices every path per part) repeat most of their
 * swaps on the same states. Meant to live for one search: it holds every result it was given.
 */
export type SwapMemo = Map<Pool, Map<Address, Map<Address, Map<bigint, SwapResult | null>>>>

/**
 * An empty memo, for one route search.
 *
 * @example
 * const memo = createSwapMemo()
 * quoteMemoized(pool, weth, usdc, 10n ** 18n, memo) // simulated
 * quoteMemoized(pool, weth, usdc, 10n ** 18n, memo) // the same result, from the memo
 */
export function createSwapMemo(): SwapMemo {
  return new Map()
}

/**
 * `pool.quoteExactIn(tokenIn, tokenOut, amountIn)`, taken from `memo` when this state has
 * already made that swap (no memo: simulated).
 *
 * @example
 * const result = quoteMemoized(pool, weth, usdc, 10n ** 18n, createSwapMemo())
 * result?.amountOut
 */
export function quoteMemoized(pool: Pool, tokenIn: Address, tokenOut: Address, amountIn: bigint, memo: SwapMemo | undefined): SwapResult | undefined {
  if (!memo) return pool.quoteExactIn(tokenIn, tokenOut, amountIn)
  // By input token, then output token (a multi-token pool trades one input into several), then amount.
  let byInput = memo.get(pool)
  if (!byInput) memo.set(pool, (byInput = new Map()))
  let byOutput = byInput.get(tokenIn)
  if (!byOutput) byInput.set(tokenIn, (byOutput = new Map()))
  let byAmount = byOutput.get(tokenOut)
  if (!byAmount) byOutput.set(tokenOut, (byAmount = new Map()))
  const known = byAmount.get(amountIn)
  if (known !== undefined) return known ?? undefined
  const result = pool.quoteExactIn(tokenIn, tokenOut, amountIn)
  byAmount.set(amountIn, result ?? null)
  return result
}
