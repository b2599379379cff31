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

// Dust through a token of few decimals: 1,000 raw units of an 18-decimal token buy a billionth of a
// raw unit of a 6-decimal one (S), which the pool pays as 0. In floats the path through S is the
// better price (1% above the one through M), so a search on fractional amounts keeps it as the best
// 2-hop path and never the path through M, the only one that fills.
const [S, M] = [4, 5].map(token) as [Address, Address]
const MILLION_E18 = 10n ** 24n
const MILLION_E6 = 10n ** 12n
const viaFewDecimals = [v2Pair(A, S, MILLION_E18, (MILLION_E6 * 101n) / 100n), v2Pair(S, B, MILLION_E6, MILLION_E18)]
const viaM = [v2Pair(A, M, MILLION_E18, MILLION_E18), v2Pair(M, B, MILLION_E18, MILLION_E18)]
const dustMarket = [...viaFewDecimals, ...viaM]
const dust = 1_000n

describe('findSinglePaths at dust amounts', () => {
  it('rounds each hop down to whole raw units, so the path that fills comes first', () => {
    const [first] = findSinglePaths(dustMarket, A, B, Number(dust), 2)
    expect(first?.map((hop) => hop.tokenOut)).toEqual([M, B])
    expect(simulatePlan([{ path: first!, amountIn: dust }])!.amountOut).toBeGreaterThan(0n)
  })

  it('routes the dust through the path that fills, not 404', () => {
    const plan = findRoute({ pools: dustMarket, tokenIn: A, tokenOut: B, connectors: [S], maxHops: 2, gasCostInOutput: 0 }, dust)
    expect(plan?.paths.map((path) => path.hops.map((hop) => hop.tokenOut))).toEqual([[M, B]])
    expect(plan!.amountOut).toBe(simulatePlan([{ path: viaM.map((pool, k) => ({ pool, tokenIn: k === 0 ? A : M, tokenOut: k === 0 ? M : B })), amountIn: dust }])!.amountOut)
  })

  it('keeps the fractions for a probe of mid rates', () => {
    const [first] = findSinglePaths(dustMarket, A, B, Number(dust), 2, 0, { wholeUnits: false })
    expect(first?.map((hop) => hop.tokenOut)).toEqual([S, B])
  })
})
