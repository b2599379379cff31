// The greedy split with gas priced in: its parts go to the path giving most output, and half-part
// moves leave both paths trading, so a path with a little more output for much more gas stayed in
// the split where a cheaper one belonged (hard bench, 100 pools seed 8 H11->H12 1% at 6 hops and
// 20 gwei: 1.49 bp below the 5% grid, whose split took the 5-hop path beside the direct pool).
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool, v3Pool } from '../../test/support/randomMarkets.js'
import { greedySplit } from './greedySplit.js'
import { simulatePlan } from './simulatePlan.js'
import type { Path, Plan } from './types.js'

const token = (n: number) => `0x${(0xd0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X, Y] = [0, 1, 2, 3].map(token) as [Address, Address, Address, Address]
const E18 = 10n ** 18n
const DEEP = 1_000_000n * E18

describe('greedySplit with gas', () => {
  it('moves a path’s whole amount to a cheaper path when the gas saved beats the output lost', () => {
    // A shallow direct pair (the split needs a second path), and two deep ways: through X with a
    // 0.05% V3 pool (most output, more gas), through Y with two V2 pairs (0.25% less, 18,400 less gas).
    const direct = v2Pool(A, B, 1000n * E18, 1000n * E18)
    const viaX: Path = [
      { pool: v2Pool(A, X, DEEP, DEEP), tokenIn: A, tokenOut: X },
      { pool: v3Pool(X, B, { fee: 500, spacing: 10 }, 0, [[-1000, 1000, 100n * DEEP]], false), tokenIn: X, tokenOut: B },
    ]
    const viaY: Path = [
      { pool: v2Pool(A, Y, DEEP, DEEP), tokenIn: A, tokenOut: Y },
      { pool: v2Pool(Y, B, DEEP, DEEP), tokenIn: Y, tokenOut: B },
    ]
    const paths = [[{ pool: direct, tokenIn: A, tokenOut: B }], viaX, viaY]
    const amountIn = 100n * E18
    // Nearly all of it takes a deep way; 18,400 gas is worth 1% of the trade here, 4 times what Y's
    // rate loses against X's: the path through Y wins.
    const gasCost = (1e-2 * 100 * 1e18) / 18_400
    const value = (plan: Plan | undefined) => (plan ? Number(plan.amountOut) - gasCost * Number(plan.gas) : -Infinity)
    const plan = greedySplit(paths, amountIn, gasCost)!
    const usesX = plan.paths.some((p) => p.path === viaX)
    expect(usesX).toBe(false)
    // At least the same shares with X's path swapped for Y's, and either deep path beside the direct pair gas-free.
    const gasFree = greedySplit(paths, amountIn, 0)!
    const shares = paths.map((path) => gasFree.paths.find((p) => p.path === path)?.amountIn ?? 0n)
    const swapped = simulatePlan(
      [
        { path: paths[0]!, amountIn: shares[0]! },
        { path: viaY, amountIn: shares[1]! + shares[2]! },
      ].filter((a) => a.amountIn > 0n),
      { gasCostInOutput: gasCost },
    )
    expect(value(plan)).toBeGreaterThanOrEqual(value(swapped))
    expect(gasFree.paths.some((p) => p.path === viaX)).toBe(true)
  })

  it('prices a path that trades one pool twice on the state its first visit left', () => {
    // A→B on a shallow pair, back to A on a deep one, A→B on the shallow pair again: its second
    // visit sees the price its first left. Priced on the pair's state before the path (a trial
    // that forgot its own first hop), the greedy pass hands it the first part whole and ends
    // 1.9e15 lower with 5e18 on it (the figures below are the split before the greedy pass priced
    // trials in place, unchanged by it).
    const shallow = v2Pool(A, B, 1000n * E18, 1000n * E18)
    const twice: Path = [
      { pool: shallow, tokenIn: A, tokenOut: B },
      { pool: v2Pool(B, A, DEEP, DEEP), tokenIn: B, tokenOut: A },
      { pool: shallow, tokenIn: A, tokenOut: B },
    ]
    const direct: Path = [{ pool: v2Pool(A, B, DEEP, (DEEP * 950n) / 1000n), tokenIn: A, tokenOut: B }]
    const plan = greedySplit([twice, direct], 100n * E18, 0)!
    expect(plan.paths.find((p) => p.path === twice)?.amountIn).toBe(5_781_250_000_000_000_000n)
    expect(plan.amountOut).toBe(94_830_498_155_515_813_627n)
  })
})

describe('greedySplit on paths sharing a pool', () => {
  it('fits its parts to the pools when the path chosen last cannot run first', () => {
    // Two paths through one shallow A/X pair: X sells dearer through a V3 pool taking ~0.46 X at
    // most than through a deep pair. Each of the first 19 parts yields more X than that pool takes,
    // so they go the deep way; the last, priced after them, yields less and takes the dearer pool.
    // Path by path the capped path runs first, on the fresh pair, and overfills it; as a flow its
    // share of the pair's output does too. The split is fitted to the pools instead of dropped.
    const shared = v2Pool(A, X, 100n * E18, 100n * E18)
    const amountIn = 1000n * E18
    const part = amountIn / 20n
    let state = shared
    const partOutputs: bigint[] = []
    for (let k = 0; k < 20; k++) {
      const quote = state.quoteExactIn(A, X, part)!
      partOutputs.push(quote.amountOut)
      state = quote.next
    }
    // Between what the 19th and the 20th part yield.
    const capacity = (partOutputs[18]! + partOutputs[19]!) / 2n
    const tier = { fee: 500, spacing: 10 }
    const probe = v3Pool(X, B, tier, 0, [[-600, 600, DEEP]], false)
    const capped = v3Pool(X, B, tier, 0, [[-600, 600, (DEEP * capacity) / probe.limits(X, B).maxIn]], false)
    const viaCapped: Path = [
      { pool: shared, tokenIn: A, tokenOut: X },
      { pool: capped, tokenIn: X, tokenOut: B },
    ]
    const viaDeep: Path = [
      { pool: shared, tokenIn: A, tokenOut: X },
      { pool: v2Pool(X, B, DEEP, (DEEP * 9n) / 10n), tokenIn: X, tokenOut: B },
    ]
    const plan = greedySplit([viaCapped, viaDeep], amountIn, 0)
    expect(plan).toBeDefined()
    const alone = simulatePlan([{ path: viaDeep, amountIn }])!
    expect(plan!.amountOut > alone.amountOut).toBe(true)
    expect(plan!.paths.find((p) => p.path === viaCapped)!.amountIn > 0n).toBe(true)
  })
})
