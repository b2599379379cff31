import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { ChainConfig } from '../chains/types.js'
import type { Pool } from '../protocols/types.js'
import { greedySplit } from './greedySplit.js'
import { simulatePlan } from './simulatePlan.js'
import { createSwapMemo, quoteMemoized } from './swapMemo.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const A = '0x000000000000000000000000000000000000000a' as Address
const B = '0x000000000000000000000000000000000000000b' as Address
const C = '0x000000000000000000000000000000000000000c' as Address
const E18 = 10n ** 18n
const chain: ChainConfig = { ...base, dexes: [{ ...base.dexes[0]!, id: 'v2', feeBps: 30 }] }

const pair = createV2Pairs({ chain, nextAddress: createAddressCounter(0) })

/** A pool that counts its simulations. */
function counted(pool: Pool): { pool: Pool; calls: () => number } {
  let calls = 0
  const wrapped: Pool = Object.create(pool)
  wrapped.quoteExactIn = (tokenIn, tokenOut, amountIn) => {
    calls++
    return pool.quoteExactIn(tokenIn, tokenOut, amountIn)
  }
  return { pool: wrapped, calls: () => calls }
}

describe('swapMemo', () => {
  it('simulates a swap on a state once per direction and input', () => {
    const { pool, calls } = counted(pair(A, B, 1000n * E18, 2000n * E18))
    const memo = createSwapMemo()
    const first = quoteMemoized(pool, A, B, E18, memo)
    expect(quoteMemoized(pool, A, B, E18, memo)).toBe(first)
    expect(calls()).toBe(1)
    expect(quoteMemoized(pool, B, A, E18, memo)?.amountOut).toBe(pool.quoteExactIn(B, A, E18)?.amountOut)
    expect(quoteMemoized(pool, A, B, 2n * E18, memo)).not.toBe(first)
    expect(calls()).toBe(4) // two new entries, and the direct call above
    // Both directions at the first amount are still found once the state holds a second amount.
    const reverse = quoteMemoized(pool, B, A, E18, memo)
    expect(quoteMemoized(pool, A, B, E18, memo)).toBe(first)
    expect(quoteMemoized(pool, B, A, E18, memo)).toBe(reverse)
    expect(quoteMemoized(pool, A, B, 3n * E18, memo)).toBe(quoteMemoized(pool, A, B, 3n * E18, memo))
    expect(calls()).toBe(5)
    // Without a memo: every call simulates.
    quoteMemoized(pool, A, B, E18, undefined)
    expect(calls()).toBe(6)
  })

  it('leaves plans unchanged: greedy split and shared-pool plans, with and without a memo', () => {
    const shared = pair(A, B, 500n * E18, 1000n * E18)
    const paths = [
      [{ pool: shared, tokenIn: A, tokenOut: B }],
      [
        { pool: pair(A, C, 800n * E18, 800n * E18), tokenIn: A, tokenOut: C },
        { pool: pair(C, B, 900n * E18, 1800n * E18), tokenIn: C, tokenOut: B },
      ],
      [
        { pool: shared, tokenIn: A, tokenOut: B },
        { pool: pair(B, C, 300n * E18, 150n * E18), tokenIn: B, tokenOut: C },
        { pool: pair(C, B, 400n * E18, 800n * E18), tokenIn: C, tokenOut: B },
      ],
    ]
    const amountIn = 123n * E18 + 456n
    const plain = greedySplit(paths, amountIn, 1e9)
    const memoized = greedySplit(paths, amountIn, 1e9, createSwapMemo())
    expect(memoized).toEqual(plain)
    const allocations = paths.map((path, p) => ({ path, amountIn: BigInt(p + 1) * 10n * E18 }))
    const memo = createSwapMemo()
    expect(simulatePlan(allocations, { memo })).toEqual(simulatePlan(allocations))
    expect(simulatePlan(allocations, { memo })).toEqual(simulatePlan(allocations))
  })
})
