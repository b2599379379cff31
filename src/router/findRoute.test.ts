import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { ChainConfig } from '../chains/types.js'
import type { Pool } from '../protocols/types.js'
import { createRandom } from '../../test/support/random.js'
import { findPaths } from './findPaths.js'
import { findRoute } from './findRoute.js'
import { simulatePlan } from './simulatePlan.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const A = '0x000000000000000000000000000000000000000a' as Address
const B = '0x000000000000000000000000000000000000000b' as Address
const C = '0x000000000000000000000000000000000000000c' as Address
const D = '0x000000000000000000000000000000000000000d' as Address
/** Tokens that are not connectors (six: the router takes up to eight beyond the connectors). */
const X = '0x00000000000000000000000000000000000000f1' as Address
const Y = '0x00000000000000000000000000000000000000f2' as Address
const OTHERS = [X, Y, ...[3, 4, 5, 6].map((i) => `0x00000000000000000000000000000000000000f${i}` as Address)]

const chain: ChainConfig = {
  ...base,
  dexes: [
    { ...base.dexes[0]!, id: 'v2a', feeBps: 30 },
    { ...base.dexes[0]!, id: 'v2b', feeBps: 5 },
  ],
}

const pair = createV2Pairs({ chain, nextAddress: createAddressCounter(0) })

const E18 = 10n ** 18n

describe('findPaths', () => {
  it('finds direct and connector paths up to maxHops, never revisiting a token', () => {
    const pools = [pair(A, B, E18, E18), pair(A, C, E18, E18), pair(C, B, E18, E18), pair(C, D, E18, E18), pair(D, B, E18, E18)]
    expect(findPaths(pools, A, B, { connectors: [C, D], maxHops: 1 })).toHaveLength(1)
    expect(findPaths(pools, A, B, { connectors: [C, D], maxHops: 2 })).toHaveLength(2)
    const three = findPaths(pools, A, B, { connectors: [C, D], maxHops: 3 })
    expect(three).toHaveLength(3)
    for (const path of three) {
      const tokens = [path[0]!.tokenIn, ...path.map((h) => h.tokenOut)]
      expect(new Set(tokens).size).toBe(tokens.length)
    }
  })
  it('only passes through connectors', () => {
    const pools = [pair(A, C, E18, E18), pair(C, B, E18, E18)]
    expect(findPaths(pools, A, B, { connectors: [], maxHops: 3 })).toHaveLength(0)
  })
})

describe('findRoute', () => {
  const params = (pools: Pool[], gasCostInOutput = 0) => ({ pools, tokenIn: A, tokenOut: B, connectors: [C], gasCostInOutput })

  it('splits across parallel pools in proportion to depth when gas is free', () => {
    const pools = [pair(A, B, 1000n * E18, 1000n * E18), pair(A, B, 3000n * E18, 3000n * E18)]
    const plan = findRoute(params(pools), 100n * E18)!
    expect(plan.paths).toHaveLength(2)
    const [small, large] = [...plan.paths].sort((x, y) => (x.amountIn < y.amountIn ? -1 : 1))
    // Optimal split equalises marginal prices: a 1:3 depth ratio gets about a 1:3 share.
    const share = Number(large!.amountIn) / Number(plan.amountIn)
    expect(share).toBeGreaterThan(0.72)
    expect(share).toBeLessThan(0.78)
    expect(small!.amountIn + large!.amountIn).toBe(100n * E18)
  })

  it('is never worse than the best single path', () => {
    const pools = [pair(A, B, 50n * E18, 60n * E18), pair(A, C, 500n * E18, 500n * E18), pair(C, B, 400n * E18, 500n * E18), pair(A, B, 10n * E18, 9n * E18, 1)]
    for (const amount of [E18 / 1000n, E18, 10n * E18, 100n * E18]) {
      const plan = findRoute(params(pools), amount)!
      for (const path of findPaths(pools, A, B, { connectors: [C], maxHops: 3 })) {
        const single = simulatePlan([{ path, amountIn: amount }])
        if (single) expect(plan.amountOut).toBeGreaterThanOrEqual(single.amountOut)
      }
    }
  })

  it('takes one path for a small trade when a second path does not pay for its gas', () => {
    const pools = [pair(A, B, 1000n * E18, 1000n * E18), pair(A, B, 1000n * E18, 1000n * E18)]
    // 1 gas = 1e9 raw output units: the 61k-gas second step costs 6.1e13, more than splitting gains on 1e15.
    const small = findRoute(params(pools, 1e9), E18 / 1000n)!
    expect(small.paths).toHaveLength(1)
    const large = findRoute(params(pools, 1e9), 100n * E18)!
    expect(large.paths).toHaveLength(2)
  })

  it('is deterministic', () => {
    const make = () => [pair(A, B, 70n * E18, 80n * E18), pair(A, C, 500n * E18, 500n * E18), pair(C, B, 400n * E18, 500n * E18)]
    const a = findRoute(params(make()), 30n * E18)!
    const b = findRoute(params(make()), 30n * E18)!
    expect(a.paths.map((p) => p.amountIn)).toEqual(b.paths.map((p) => p.amountIn))
    expect(a.amountOut).toBe(b.amountOut)
  })

  it('keeps two-way crossings between two hubs (C -> D through one pool, D -> C through another)', () => {
    // Each hub is shallow toward B, and the two C/D pools disagree by about 10% in opposite ways:
    // the optimum sends A -> C -> D -> B through one and A -> D -> C -> B through the other.
    const cheapD = pair(C, D, 100_000n * E18, 110_000n * E18)
    const cheapC = pair(C, D, 110_000n * E18, 100_000n * E18)
    const pools = [pair(A, C, 1_000_000n * E18, 1_000_000n * E18), pair(A, D, 1_000_000n * E18, 1_000_000n * E18), pair(C, B, 10_000n * E18, 10_000n * E18), pair(D, B, 10_000n * E18, 10_000n * E18), cheapD, cheapC]
    const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors: [C, D], maxHops: 3, gasCostInOutput: 0 }, 1_000n * E18)!
    const steps = plan.paths.flatMap((p) => p.hops.map((h) => `${h.pool.key}:${h.tokenIn}>${h.tokenOut}`))
    expect(steps).toContain(`${cheapD.key}:${C}>${D}`)
    expect(steps).toContain(`${cheapC.key}:${D}>${C}`)
    // Executed path by path (no flow order exists), exactly as simulated.
    expect(plan.mode).toBe('paths')
    expect(plan.amountOut).toBe(simulatePlan(plan.paths.map((p) => ({ path: p.path, amountIn: p.amountIn })))!.amountOut)
  })

  it('returns undefined when nothing connects the tokens or the amount is zero', () => {
    expect(findRoute(params([pair(A, C, E18, E18)]), E18)).toBeUndefined()
    expect(findRoute(params([pair(A, B, E18, E18)]), 0n)).toBeUndefined()
  })
})

describe('findRoute beyond the connectors', () => {
  const params = (pools: Pool[], maxHops = 3) => ({ pools, tokenIn: A, tokenOut: B, connectors: [C], maxHops, gasCostInOutput: 0 })

  it('routes through a token with deep pools toward both ends, up to three hops', () => {
    // The only route: A -> C (a connector) -> X -> B, X being no connector.
    const pools = [pair(A, C, 1000n * E18, 1000n * E18), pair(C, X, 1000n * E18, 2000n * E18), pair(X, B, 2000n * E18, 1000n * E18)]
    expect(findPaths(pools, A, B, { connectors: [C], maxHops: 3 })).toHaveLength(0)
    const plan = findRoute(params(pools), E18)!
    expect(plan.paths).toHaveLength(1)
    expect(plan.paths[0]!.path.map((h) => h.tokenOut)).toEqual([C, X, B])
    expect(plan.amountOut).toBe(simulatePlan([{ path: plan.paths[0]!.path, amountIn: E18 }])!.amountOut)
    // Two tokens beyond the connectors in a row, and nothing within two hops.
    const chain = [pair(A, X, 1000n * E18, 1000n * E18), pair(X, Y, 1000n * E18, 1000n * E18), pair(Y, B, 1000n * E18, 1000n * E18)]
    expect(findRoute(params(chain), E18)!.paths[0]!.path.map((h) => h.tokenOut)).toEqual([X, Y, B])
    expect(findRoute(params(chain, 2), E18)).toBeUndefined()
  })

  it('is never worse than the best path of up to three hops through any token (random markets)', () => {
    const random = createRandom(11)
    const tokens = [A, B, C, ...OTHERS]
    for (let round = 0; round < 40; round++) {
      const pools: Pool[] = []
      for (let i = 0; i < tokens.length; i++)
        for (let j = i + 1; j < tokens.length; j++) {
          if (random() < 0.45) continue
          const reserve = BigInt(Math.floor(10 ** (1 + 3 * random()))) * E18
          const price = 0.9 + 0.2 * random()
          pools.push(pair(tokens[i]!, tokens[j]!, reserve, (reserve * BigInt(Math.floor(price * 1e6))) / 1_000_000n, round % 2))
        }
      const paths = findPaths(pools, A, B, { connectors: tokens, maxHops: 3 })
      for (const amount of [E18 / 100n, E18, 30n * E18]) {
        const plan = findRoute(params(pools), amount)
        let best = 0n
        for (const path of paths) {
          const out = simulatePlan([{ path, amountIn: amount }])?.amountOut ?? 0n
          if (out > best) best = out
        }
        if (best === 0n) continue
        expect(plan).toBeDefined()
        expect(plan!.amountOut).toBeGreaterThanOrEqual(best)
      }
    }
  })
})
