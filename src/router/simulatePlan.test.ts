import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { ChainConfig } from '../chains/types.js'
import { getAmountOut } from '../protocols/uniswapV2/math.js'
import type { Pool } from '../protocols/types.js'
import { FLOW_SEGMENT_GAS, simulatePlan } from './simulatePlan.js'
import { createSwapMemo } from './swapMemo.js'
import type { Plan } from './types.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const A = '0x000000000000000000000000000000000000000a' as Address
const B = '0x000000000000000000000000000000000000000b' as Address
const C = '0x000000000000000000000000000000000000000c' as Address
const E18 = 10n ** 18n
const chain: ChainConfig = { ...base, dexes: [{ ...base.dexes[0]!, id: 'v2', feeBps: 30 }] }

const pair = createV2Pairs({ chain, nextAddress: createAddressCounter(0) })
const hop = (pool: Pool, tokenIn: Address, tokenOut: Address) => ({ pool, tokenIn, tokenOut })
/** Constant-product output with a 0.3% fee, written out here rather than taken from the pool. */
const v2Out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) => (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)

/** Each pool's total over the wire paths, which must equal what the executor's segments trade. */
function poolTotals(plan: Plan, from: 'paths' | 'segments') {
  const totals = new Map<string, [bigint, bigint]>()
  for (const p of plan[from])
    for (const h of p.hops) {
      const [i, o] = totals.get(h.pool.key) ?? [0n, 0n]
      totals.set(h.pool.key, [i + h.amountIn, o + h.amountOut])
    }
  return totals
}

describe('simulatePlan', () => {
  it('runs paths that share no pool one after another, each path one executor segment', () => {
    const p1 = pair(A, B, 1000n * E18, 1000n * E18)
    const p2 = pair(A, B, 500n * E18, 500n * E18)
    const plan = simulatePlan([
      { path: [hop(p1, A, B)], amountIn: 6n * E18 },
      { path: [hop(p2, A, B)], amountIn: 4n * E18 },
    ])!
    expect(plan.mode).toBe('paths')
    expect(plan.segments.map((s) => s.amountIn)).toEqual([6n * E18, 4n * E18])
    expect(plan.amountOut).toBe(v2Out(6n * E18, 1000n * E18, 1000n * E18) + v2Out(4n * E18, 500n * E18, 500n * E18))
  })

  it('trades a pool two paths share once, with their total (a flow), when that gives more', () => {
    const shared = pair(A, B, 1000n * E18, 1000n * E18)
    const path = [hop(shared, A, B)]
    const plan = simulatePlan([
      { path, amountIn: 10n * E18 },
      { path, amountIn: 10n * E18 },
    ])!
    expect(plan.mode).toBe('flow')
    expect(plan.amountOut).toBe(v2Out(20n * E18, 1000n * E18, 1000n * E18))
    // One executor segment spending everything held; the wire paths split the pool's amounts exactly.
    expect(plan.segments).toHaveLength(1)
    expect(plan.segments[0]!.amountIn).toBe(0n)
    expect(poolTotals(plan, 'paths')).toEqual(poolTotals(plan, 'segments'))
    expect(plan.paths.map((p) => p.amountOut).reduce((a, b) => a + b)).toBe(plan.amountOut)
    // Path by path, the second half pays the first half's fee and price move.
    const halves = v2Out(10n * E18, 1000n * E18, 1000n * E18)
    const secondHalf = v2Out(10n * E18, 1010n * E18, 1000n * E18 - halves)
    expect(plan.amountOut).toBeGreaterThan(halves + secondHalf)
  })

  it('splits what a shared first hop produced between the paths that leave its output token', () => {
    const ac = pair(A, C, 1000n * E18, 2000n * E18)
    const cb1 = pair(C, B, 2000n * E18, 1000n * E18)
    const cb2 = pair(C, B, 1000n * E18, 500n * E18)
    const plan = simulatePlan([
      { path: [hop(ac, A, C), hop(cb1, C, B)], amountIn: 30n * E18 },
      { path: [hop(ac, A, C), hop(cb2, C, B)], amountIn: 10n * E18 },
    ])!
    expect(plan.mode).toBe('flow')
    const atC = v2Out(40n * E18, 1000n * E18, 2000n * E18)
    const toFirst = (atC * 30n) / 40n
    const expected = v2Out(toFirst, 2000n * E18, 1000n * E18) + v2Out(atC - toFirst, 1000n * E18, 500n * E18)
    expect(plan.amountOut).toBe(expected)
    // Executor order: A -> C spending all the input, then C -> B explicit, then C -> B with the rest.
    expect(plan.segments.map((s) => [s.amountIn, s.hops.map((h) => h.pool.key)])).toEqual([
      [0n, [ac.key]],
      [toFirst, [cb1.key]],
      [0n, [cb2.key]],
    ])
    expect(plan.paths.map((p) => p.hops[1]!.amountIn)).toEqual([toFirst, atC - toFirst])
    expect(poolTotals(plan, 'paths')).toEqual(poolTotals(plan, 'segments'))
    // Gas: three swaps, plus two segments that start at an intermediate token.
    const swapGas = plan.segments.flatMap((s) => s.hops).reduce((a, h) => a + h.gas, 0n)
    expect(plan.gas).toBe(swapGas + 2n * FLOW_SEGMENT_GAS)
  })

  it('keeps paths in order when they trade a shared pool in opposite directions (no flow exists)', () => {
    const ab = pair(A, B, 1000n * E18, 1000n * E18)
    const ac = pair(A, C, 1000n * E18, 1000n * E18)
    const cb = pair(C, B, 1000n * E18, 1000n * E18)
    // A -> B -> C -> ... is not a path to B; instead: A -> C -> B and A -> B, then a path using cb backwards.
    const plan = simulatePlan([
      { path: [hop(ac, A, C), hop(cb, C, B)], amountIn: E18 },
      { path: [hop(ab, A, B)], amountIn: E18 },
    ])!
    expect(plan.mode).toBe('paths')
    const both = simulatePlan([
      { path: [hop(ac, A, C), hop(cb, C, B)], amountIn: E18 },
      { path: [hop(ab, A, B), hop(cb, B, C), hop(ac, C, A)], amountIn: E18 },
    ])
    expect(both?.mode).toBe('paths')
  })

  it('returns undefined when a pool cannot fill, and leaves the pools unchanged', () => {
    const pool = pair(A, B, 1000n, 1000n)
    const before = pool.quoteExactIn(A, B, 10n)!.amountOut
    expect(simulatePlan([{ path: [hop(pool, A, B)], amountIn: 2n ** 200n }])).toBeUndefined()
    simulatePlan([{ path: [hop(pool, A, B)], amountIn: 500n }])
    expect(pool.quoteExactIn(A, B, 10n)!.amountOut).toBe(before)
    expect(getAmountOut(10n, 1000n, 1000n, 30)).toBe(before)
  })

  it('simulates the same path objects alike in any set, order or amounts (the shapes a memo holds, made once per set of paths)', () => {
    const ac = pair(A, C, 1000n * E18, 2000n * E18)
    const cb1 = pair(C, B, 2000n * E18, 1000n * E18)
    const cb2 = pair(C, B, 1000n * E18, 500n * E18)
    const ab = pair(A, B, 800n * E18, 800n * E18)
    const paths = [[hop(ac, A, C), hop(cb1, C, B)], [hop(ac, A, C), hop(cb2, C, B)], [hop(ab, A, B)], [hop(ab, A, B), hop(cb1, B, C), hop(ac, C, A)]]
    // One memo over every set (its shapes, made once per set of path objects, are reused); fresh
    // path objects and no memo for the plans compared with.
    const memo = createSwapMemo()
    const fresh = (index: number) => paths[index]!.map((h) => ({ ...h }))
    const sets: [number, bigint][][] = [
      [[0, 30n * E18], [1, 10n * E18]],
      [[1, 10n * E18], [0, 30n * E18]],
      [[0, 29n * E18], [1, 11n * E18], [2, 5n * E18]],
      [[0, 30n * E18], [1, 0n], [2, 5n * E18]],
      [[0, 30n * E18], [2, 5n * E18]],
      [[0, 30n * E18], [3, E18]],
      [[0, 7n * E18], [1, 3n * E18], [2, 0n], [3, E18]],
      [[0, 30n * E18], [1, 10n * E18]],
      [[2, 5n * E18], [0, 30n * E18], [1, 10n * E18]],
      [[2, 5n * E18], [0, 30n * E18]],
    ]
    for (const mode of [undefined, 'flow', 'paths'] as const)
      for (const set of sets) {
        const reused = simulatePlan(set.map(([index, amountIn]) => ({ path: paths[index]!, amountIn })), { mode, memo })
        const made = simulatePlan(set.map(([index, amountIn]) => ({ path: fresh(index), amountIn })), { mode })
        const figures = (plan: Plan | undefined) => plan && [plan.mode, plan.amountOut, plan.gas, plan.segments.map((s) => [s.amountIn, s.hops.map((h) => [h.pool.key, h.amountIn, h.amountOut])]), plan.paths.map((p) => p.hops.map((h) => h.amountOut))]
        expect(figures(reused)).toEqual(figures(made))
      }
  })
})
