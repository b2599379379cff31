// The greedy split's whole-path moves over shared pools go unsimulated when the moved plan's paths,
// each run alone, do not reach the current value (issue 9: CPU of heavy quotes, about 10,000
// unsimulated-before trials per 1,000-pool bench). A bound below the plan's exact output would skip
// a move that wins, so it must hold however simulatePlan runs the plan, path by path or as a flow,
// on random gapped markets with paths sharing pools; and it must decline when a pool trades both ways.
import { describe, expect, it } from 'vitest'
import { createRandom } from '../../test/support/random.js'
import { randomMarket, v2Pool } from '../../test/support/randomMarkets.js'
import { findPaths } from './findPaths.js'
import { simulatePlan } from './simulatePlan.js'
import { standaloneBound } from './standaloneBound.js'

describe('standaloneBound', () => {
  it('bounds the exact output of random plans over paths that share pools', () => {
    const random = createRandom(91)
    let shared = 0
    let bounded = 0
    for (let market = 0; market < 60; market++) {
      const { pools, tokenIn, tokenOut, connectors, others, amountIn } = randomMarket(random, { tokens: 6, density: 0.8 })
      const paths = findPaths(pools, tokenIn, tokenOut, { connectors: [...connectors, ...others], maxHops: 3 })
      if (paths.length < 2) continue
      for (let trial = 0; trial < 12; trial++) {
        // Up to four paths in use, with random shares of the amount.
        const amounts = paths.map(() => 0n)
        for (let k = 0; k < 4; k++) amounts[Math.floor(random() * paths.length)] = (amountIn * BigInt(1 + Math.floor(random() * 1000))) / 2000n
        const plan = simulatePlan(paths.map((path, p) => ({ path, amountIn: amounts[p]! })))
        const most = standaloneBound(paths, amounts)
        if (!plan || most === undefined) continue
        bounded++
        if (plan.paths.length > 1 && new Set(plan.paths.flatMap((p) => p.hops.map((hop) => hop.pool.key))).size < plan.paths.reduce((n, p) => n + p.hops.length, 0)) shared++
        expect(plan.amountOut).toBeLessThanOrEqual(most)
      }
    }
    // The check ran on many plans, among them plans whose paths share a pool.
    expect(bounded).toBeGreaterThan(200)
    expect(shared).toBeGreaterThan(50)
  })

  it('declines when paths trade one pool both ways', () => {
    const [a, b, x, y] = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000b1', '0x00000000000000000000000000000000000000c1', '0x00000000000000000000000000000000000000d1'] as const
    const e18 = 10n ** 18n
    const deep = (t: `0x${string}`, u: `0x${string}`) => v2Pool(t, u, 1000n * e18, 1000n * e18)
    const between = deep(x, y)
    // X -> Y through `between` on the first path makes Y -> X through it cheaper on the second.
    const paths = [
      [
        { pool: deep(a, x), tokenIn: a, tokenOut: x },
        { pool: between, tokenIn: x, tokenOut: y },
        { pool: deep(y, b), tokenIn: y, tokenOut: b },
      ],
      [
        { pool: deep(a, y), tokenIn: a, tokenOut: y },
        { pool: between, tokenIn: y, tokenOut: x },
        { pool: deep(x, b), tokenIn: x, tokenOut: b },
      ],
    ]
    expect(standaloneBound(paths, [e18, e18])).toBeUndefined()
    expect(standaloneBound(paths, [e18, 0n])).toBeGreaterThan(0n)
  })
})
