// The floor's single paths through any token: searched for the whole amount and for half of it,
// so a shallow path with the better price (best for part of a split) becomes a candidate too.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { findRoute } from './findRoute.js'
import { findSinglePaths } from './findSinglePaths.js'
import { simulatePlan } from './simulatePlan.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const token = (n: number) => `0x${(0xc0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X, Y] = [0, 1, 2, 3].map(token) as [Address, Address, Address, Address]
const E18 = 10n ** 18n
const v2Pair = createV2Pairs({ nextAddress: createAddressCounter(0xd000) })
/** A V2 pair (0.3%) holding `reserveA` of a and `reserveB` of b (whole tokens × 1e15). */
const pair = (a: Address, b: Address, reserveA: bigint, reserveB: bigint) => v2Pair(a, b, reserveA * 10n ** 15n, reserveB * 10n ** 15n)

// Through X: price 1, shallow (100,000 units a pool). Through Y: 1% worse, deep (10,000,000).
// Selling 800 units: Y is the best single path; for 400, X is; the split takes both.
const viaX = [pair(A, X, 100_000n, 100_000n), pair(X, B, 100_000n, 100_000n)]
const viaY = [pair(A, Y, 10_000_000n, 9_900_000n), pair(Y, B, 10_000_000n, 10_000_000n)]
const pools = [...viaX, ...viaY]
const amountIn = 800n * 10n ** 15n

describe('findSinglePaths', () => {
  it('finds the best path for the whole amount first, and the best for half of it', () => {
    const paths = findSinglePaths(pools, A, B, Number(amountIn), 2)
    expect(paths.map((path) => path.map((hop) => hop.tokenOut).join())).toEqual([`${Y},${B}`, `${X},${B}`])
    const out = (path: (typeof paths)[number], amount: bigint) => simulatePlan([{ path, amountIn: amount }])!.amountOut
    expect(out(paths[0]!, amountIn)).toBeGreaterThan(out(paths[1]!, amountIn))
    expect(out(paths[1]!, amountIn / 2n)).toBeGreaterThan(out(paths[0]!, amountIn / 2n))
  })

  it('a route with no connectors splits over both, above either alone', () => {
    const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors: [], maxHops: 2, gasCostInOutput: 0 }, amountIn)!
    expect(new Set(plan.paths.map((p) => p.hops[0]!.tokenOut))).toEqual(new Set([X, Y]))
    for (const path of findSinglePaths(pools, A, B, Number(amountIn), 2)) expect(plan.amountOut).toBeGreaterThan(simulatePlan([{ path, amountIn }])!.amountOut)
  })
})
