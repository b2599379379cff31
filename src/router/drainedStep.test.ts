// A split that drains a pool to its end, its capacity held by the path that pays most for it: the
// pairwise balance cannot move it (the better feeder cannot take more, the pool is full; the worse
// feeder's rate beats the free path's), and stopped there (hard bench 100:123 H16->H19 30% at 6
// hops, USDT -> H19 drained: 2.35 bp below Tines). The drained move gives the capacity to the
// better feeder, the input it frees to the free path.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool, v3Pool } from '../../test/support/randomMarkets.js'
import { polishSplit } from './polishSplit.js'
import { simulatePlan } from './simulatePlan.js'
import type { Path, Plan } from './types.js'

const [A, B, M, N] = ['a1', 'b2', 'c3', 'd4'].map((suffix) => `0x${suffix.padStart(40, '0')}` as Address) as [Address, Address, Address, Address]
const E18 = 10n ** 18n

describe('polishSplit on a drained pool', () => {
  // M -> B in one narrow range (it runs dry), fed from A directly (rate ~0.997) or through N (~3%
  // worse); the deep A -> B pair at ~0.9, below either feeder's route at the drained pool's end.
  const drained = v3Pool(M, B, { fee: 3000, spacing: 60 }, 0, [[-600, 600, 2n * 10n ** 22n]], false)
  const good: Path = [
    { pool: v2Pool(A, M, 1_000_000n * E18, 1_000_000n * E18), tokenIn: A, tokenOut: M },
    { pool: drained, tokenIn: M, tokenOut: B },
  ]
  const poor: Path = [
    { pool: v2Pool(A, N, 1_000_000n * E18, 1_000_000n * E18), tokenIn: A, tokenOut: N },
    { pool: v2Pool(N, M, 1_000_000n * E18, 970_000n * E18), tokenIn: N, tokenOut: M },
    { pool: drained, tokenIn: M, tokenOut: B },
  ]
  const free: Path = [{ pool: v2Pool(A, B, 1_000_000n * E18, 900_000n * E18), tokenIn: A, tokenOut: B }]
  const capacity = drained.limits(M, B).maxIn
  const amountIn = 3n * capacity
  /** The plan with `poorIn` on the poor feeder, the good feeder filling the drained pool, the rest on the free pair. */
  const drainedPlan = (poorIn: bigint): Plan => {
    // The most the good feeder can add before the pool runs dry (bisection on exact simulation).
    let lo = 0n
    let hi = capacity * 2n
    const plan = (goodIn: bigint) =>
      simulatePlan([
        { path: poor, amountIn: poorIn },
        { path: good, amountIn: goodIn },
        { path: free, amountIn: amountIn - poorIn - goodIn },
      ])
    while (hi - lo > 1n) {
      const middle = (lo + hi) / 2n
      if (plan(middle)) lo = middle
      else hi = middle
    }
    return plan(lo)!
  }

  it('moves the pool from the worse feeder to the better one', () => {
    expect(capacity).toBeGreaterThan(100n * E18)
    // The worse feeder holds most of the pool.
    const start = drainedPlan((capacity * 7n) / 10n)
    const polished = polishSplit(start, 0)
    expect(polished.amountIn).toBe(amountIn)
    // The best such plan on a 1% grid of the worse feeder's input: the polish ends within 0.1 bp
    // of it (the pairwise balance alone stays at the start, 40 bp below).
    let best = 0n
    for (let k = 0n; k <= 100n; k++) {
      const out = drainedPlan((capacity * k) / 100n).amountOut
      if (out > best) best = out
    }
    expect(Number(best)).toBeGreaterThan(Number(start.amountOut) * (1 + 20e-4))
    expect(Number(polished.amountOut)).toBeGreaterThanOrEqual(Number(best) * (1 - 1e-5))
  })
})
