// Balancing a split's amounts between its paths on exact simulation.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool } from '../../test/support/randomMarkets.js'
import { polishSplit } from './polishSplit.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { Path } from './types.js'

const token = (n: number) => `0x${(0xe0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, W] = [0, 1, 2].map(token) as [Address, Address, Address]
const E18 = 10n ** 18n

describe('polishSplit', () => {
  // A direct pair, and a path through W, a token of 8 decimals (every raw unit of it is worth
  // about 1e10 raw units of A: its hop rounds the path's output down by up to that much).
  const direct: Path = [{ pool: v2Pool(A, B, 1_000n * E18, 1_000n * E18), tokenIn: A, tokenOut: B }]
  const through: Path = [
    { pool: v2Pool(A, W, 3_000n * E18, 3_000n * 10n ** 8n), tokenIn: A, tokenOut: W },
    { pool: v2Pool(W, B, 3_000n * 10n ** 8n, 3_000n * E18), tokenIn: W, tokenOut: B },
  ]
  const amountIn = 100n * E18
  const output = (share: bigint) => simulatePlan([{ path: direct, amountIn: amountIn - share }, { path: through, amountIn: share }])!.amountOut

  it('moves input to the path that gains more, to within a hair of the best exact split', () => {
    // The model's balance put 40% through W; the exact balance is near 60%.
    const plan = simulatePlan([{ path: direct, amountIn: 60n * E18 }, { path: through, amountIn: 40n * E18 }])!
    const polished = polishSplit(plan, 0)
    expect(polished.amountIn).toBe(amountIn)
    expect(polished.amountOut).toBeGreaterThan(plan.amountOut)
    // The best exact split on a 0.1% grid of the input: the polish ends at or above it, less a
    // millionth of a basis point.
    let best = 0n
    for (let k = 0n; k <= 1000n; k++) {
      const out = output((amountIn * k) / 1000n)
      if (out > best) best = out
    }
    expect(Number(polished.amountOut)).toBeGreaterThanOrEqual(Number(best) * (1 - 1e-10))
  })

  it('keeps a balanced split, and a single path, as they are', () => {
    const single = simulatePlan([{ path: direct, amountIn }])!
    expect(polishSplit(single, 0)).toBe(single)
    const balanced = polishSplit(polishSplit(simulatePlan([{ path: direct, amountIn: 50n * E18 }, { path: through, amountIn: 50n * E18 }])!, 0), 0)
    expect(polishSplit(balanced, 0).amountOut).toBe(balanced.amountOut)
  })

  it('weighs gas: a path whose gas outweighs what it adds gives its amount up', () => {
    const plan = simulatePlan([{ path: direct, amountIn: amountIn - 10n ** 12n }, { path: through, amountIn: 10n ** 12n }])!
    // Gas worth 1e18 raw B per path's gas: emptying the thin path pays.
    const gasCost = 1e18 / Number(plan.gas)
    const value = (p: typeof plan) => getNetOutput(p, gasCost)
    const polished = polishSplit(plan, gasCost)
    expect(value(polished)).toBeGreaterThanOrEqual(value(plan))
  })

  it('keeps balancing a split far from its balance over many hops, round after round while each gains', () => {
    // Five paths of five hops each through tokens of their own (25 hops: one round of the budget),
    // the same pools on each, 60% of the input on the first: the exact balance is an even split.
    const chain = (n: number): Path => {
      const tokens = [A, ...[0, 1, 2, 3].map((k) => token(16 + n * 4 + k)), B]
      return tokens.slice(0, -1).map((from, k) => ({ pool: v2Pool(from, tokens[k + 1]!, 1_000n * E18, 1_000n * E18), tokenIn: from, tokenOut: tokens[k + 1]! }))
    }
    const paths = [0, 1, 2, 3, 4].map(chain)
    const total = 500n * E18
    const skewed = simulatePlan(paths.map((path, n) => ({ path, amountIn: n === 0 ? 300n * E18 : 50n * E18 })))!
    const even = simulatePlan(paths.map((path) => ({ path, amountIn: total / 5n })))!
    const polished = polishSplit(skewed, 0)
    expect(polished.amountIn).toBe(total)
    // One round balances the first path against one other only: 800 bp below the even split. Within
    // 1 bp of it now.
    expect(Number(polished.amountOut)).toBeGreaterThanOrEqual(Number(even.amountOut) * (1 - 1e-4))
  })
})
