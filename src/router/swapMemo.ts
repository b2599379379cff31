import type { Address } from 'viem'
import type { Pool, SwapResult } from '../protocols/types.js'
import type { PlanShapes } from './planShape.js'

/**
 * Exact swaps already simulated during one route search, by pool state, input amount and
 * direction. Pool states are immutable and a swap returns its next state, so the same swap on the
 * same state object gives the same result, and the plans a search tries (splits that move a little
 * input between paths, a greedy pass that re-prices every path per part) repeat most of their
 * swaps on the same states. Meant to live for one search: it holds every result it was given.
 *
 * Most states are asked one swap only (each swap makes a new state: a greedy pass over 10 pools
 * makes ~50 per quote, with ~1.1 swaps each), so a state holds its first swap as one entry, and a
 * map by amount only from its second amount on; a map per state, direction and amount was three
 * maps per state, a tenth of a small quote's allocation.
 *
 * It also carries the search's plan shapes (see findPlanShape): what simulatePlan knows of a set of
 * paths whatever their amounts, kept for the search's life as the swaps are.
 */
export type SwapMemo = {
  /** Swaps by pool state: its first swap, or by amount from its second amount on. */
  swaps: Map<Pool, SwapMemoEntry | Map<bigint, SwapMemoEntry>>
  /** The plan shapes of the paths simulated in this search (see findPlanShape). */
  shapes: PlanShapes
}

/** One swap remembered on a state; `other`: one on the same state and amount in another direction (a multi-token pool). */
type SwapMemoEntry = { tokenIn: Address; tokenOut: Address; amountIn: bigint; result: SwapResult | undefined; other: SwapMemoEntry | undefined }

/**
 * An empty memo, for one route search.
 *
 * @example
 * const memo = createSwapMemo()
 * quoteMemoized(pool, weth, usdc, 10n ** 18n, memo) // simulated
 * quoteMemoized(pool, weth, usdc, 10n ** 18n, memo) // the same result, from the memo
 */
export function createSwapMemo(): SwapMemo {
  return { swaps: new Map(), shapes: new Map() }
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
  const held = memo.swaps.get(pool)
  const sameAmount = held instanceof Map ? held.get(amountIn) : held?.amountIn === amountIn ? held : undefined
  for (let entry = sameAmount; entry; entry = entry.other) if (entry.tokenIn === tokenIn && entry.tokenOut === tokenOut) return entry.result
  const result = pool.quoteExactIn(tokenIn, tokenOut, amountIn)
  const entry: SwapMemoEntry = { tokenIn, tokenOut, amountIn, result, other: sameAmount }
  if (held instanceof Map) held.set(amountIn, entry)
  else if (held === undefined || sameAmount) memo.swaps.set(pool, entry)
  else {
    // A second amount on this state: from now on by amount.
    const byAmount = new Map<bigint, SwapMemoEntry>()
    byAmount.set(held.amountIn, held)
    byAmount.set(amountIn, entry)
    memo.swaps.set(pool, byAmount)
  }
  return result
}
