// Pruning a split's paths on exact simulation, gas priced in: the float gas search drops one pool
// at a time, so a path that splits off for a sliver of the trade through extra pools could stay
// although its gas is worth more than it adds (hard bench, 100 pools seed 10 H9->H13 30% at 6 hops
// and 20 gwei: a 6-path flow 0.68 bp below the 5% grid's 2 paths).
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool } from '../../test/support/randomMarkets.js'
import { prunePaths } from './prunePaths.js'
import { simulatePlan } from './simulatePlan.js'
import type { Path } from './types.js'

const token = (n: number) => `0x${(0xc8 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X, Y] = [0, 1, 2, 3].map(token) as [Address, Address, Address, Address]
const E18 = 10n ** 18n

describe('prunePaths', () => {
  // Two direct pairs A -> B of the same depth, and a detour A -> X -> Y -> B with a sliver of the trade.
  const first: Path = [{ pool: v2Pool(A, B, 10_000n * E18, 10_000n * E18), tokenIn: A, tokenOut: B }]
  const second: Path = [{ pool: v2Pool(A, B, 10_000n * E18, 10_000n * E18), tokenIn: A, tokenOut: B }]
  const detour: Path = [
    { pool: v2Pool(A, X, 10_000n * E18, 10_000n * E18), tokenIn: A, tokenOut: X },
    { pool: v2Pool(X, Y, 10_000n * E18, 10_000n * E18), tokenIn: X, tokenOut: Y },
    { pool: v2Pool(Y, B, 10_000n * E18, 10_000n * E18), tokenIn: Y, tokenOut: B },
  ]
  const plan = simulatePlan([
    { path: first, amountIn: 49n * E18 },
    { path: second, amountIn: 49n * E18 },
    { path: detour, amountIn: 2n * E18 },
  ])!

  it('takes out a path whose gas is worth more than it adds, and the value net of gas rises', () => {
    // 195,300 gas of the detour worth about 0.1 B: more than the sliver adds over the pairs.
    const gasCost = 0.1e18 / 195_300
    const value = (p: typeof plan) => Number(p.amountOut) - gasCost * Number(p.gas)
    const pruned = prunePaths(plan, gasCost)
    expect(pruned.paths.map((p) => p.path)).toEqual([first, second])
    expect(pruned.amountIn).toBe(plan.amountIn)
    expect(value(pruned)).toBeGreaterThan(value(plan))
  })

  it('keeps the plan gas-free, or when every path pays its gas', () => {
    expect(prunePaths(plan, 0)).toBe(plan)
    expect(prunePaths(plan, 1)).toBe(plan)
  })
})
