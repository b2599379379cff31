// Routes of up to MAX_HOPS (6) hops, and the all-pools bound honouring the hop limit: a deep
// route of 5 hops between tokens that each sit one hop from both ends is out of reach at 4 hops,
// and the bound at 4 hops must say so (a layered relaxation) while staying above every plan of 4.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { defaultSnapshot } from '../defaultSnapshot.js'
import { createSnapshotSource } from '../liquidity/createSnapshotSource.js'
import { getQuote } from '../quote/getQuote.js'
import { allPoolsBound } from './allPoolsBound.js'
import { findRoute } from './findRoute.js'
import { simulatePlan } from './simulatePlan.js'
import { MAX_HOPS } from './types.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const token = (n: number) => `0x${(0xb0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X1, X2, X3, X4] = [0, 1, 2, 3, 4, 5].map(token) as [Address, Address, Address, Address, Address, Address]
const E18 = 10n ** 18n
const v2Pair = createV2Pairs({ nextAddress: createAddressCounter(0xe000) })
/** A V2 pair (0.3%) at price 1 holding `reserve` whole tokens of each side. */
const pair = (a: Address, b: Address, reserve: bigint) => v2Pair(a, b, reserve * E18, reserve * E18)

// The deep route A -> X1 -> X2 -> X3 -> X4 -> B (1,000,000 each), and every Xi pooled shallowly
// (1,000) with both ends: each Xi is one hop from A and from B, so no distance rule excludes the
// deep pools at 4 hops; only the route's length does.
const deep = [pair(A, X1, 1_000_000n), pair(X1, X2, 1_000_000n), pair(X2, X3, 1_000_000n), pair(X3, X4, 1_000_000n), pair(X4, B, 1_000_000n)]
const shallow = [X1, X2, X3, X4].flatMap((x) => [pair(A, x, 1_000n), pair(x, B, 1_000n)])
const pools = [...deep, ...shallow]
const connectors = [X1, X2, X3, X4]
const amountIn = 5_000n * E18

describe('hop limit', () => {
  it('routes through 5 and 6 hops when maxHops allows, never longer than it', () => {
    const deepRoute = simulatePlan([{ path: deep.map((pool, k) => ({ pool, tokenIn: [A, X1, X2, X3, X4][k]!, tokenOut: [X1, X2, X3, X4, B][k]! })), amountIn }])!
    const byLimit = new Map<number, bigint>()
    for (const maxHops of [4, 5, MAX_HOPS]) {
      const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors, maxHops, gasCostInOutput: 0 }, amountIn)!
      for (const path of plan.paths) expect(path.hops.length).toBeLessThanOrEqual(maxHops)
      byLimit.set(maxHops, plan.amountOut)
    }
    // At 4 hops only the shallow pools fill (5,000 through 1,000-deep pairs: a heavy loss); at 5 the deep route carries it.
    expect(byLimit.get(4)!).toBeLessThan((deepRoute.amountOut * 9n) / 10n)
    expect(byLimit.get(5)!).toBeGreaterThanOrEqual(deepRoute.amountOut)
    expect(byLimit.get(MAX_HOPS)!).toBeGreaterThanOrEqual(byLimit.get(5)!)
  })

  it('bounds the routes within the limit: above every plan of 4 hops, below the 5-hop route it cannot take', () => {
    const within = findRoute({ pools, tokenIn: A, tokenOut: B, connectors, maxHops: 4, gasCostInOutput: 0 }, amountIn)!
    const longer = findRoute({ pools, tokenIn: A, tokenOut: B, connectors, maxHops: 5, gasCostInOutput: 0 }, amountIn)!
    const at4 = allPoolsBound(pools, A, B, Number(amountIn), 4, new Map())
    expect(at4.bound).toBeGreaterThanOrEqual(Number(within.amountOut))
    expect(at4.bound).toBeLessThan(Number(longer.amountOut))
    // The certificate reports that figure.
    expect(Number(within.certificate!.allPoolsUpperBound!)).toBeGreaterThanOrEqual(Number(within.amountOut))
    expect(Number(within.certificate!.allPoolsUpperBound!)).toBeLessThan(Number(longer.amountOut))
    // At 5 hops the bound holds the deep route.
    expect(allPoolsBound(pools, A, B, Number(amountIn), 5, new Map()).bound).toBeGreaterThanOrEqual(Number(longer.amountOut))
  })
})

describe('getQuote maxHops', () => {
  const source = createSnapshotSource(defaultSnapshot)
  const intent = { chainId: 8453, sellToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address, buyToken: '0x4200000000000000000000000000000000000006' as Address, sellAmount: 10n ** 9n }
  const id = '01900000-0000-7000-8000-000000000000'

  it(`takes 1 to ${MAX_HOPS}, and names the range when a host passes more (a 500: the host's option, not the request)`, async () => {
    for (const maxHops of [1, 5, MAX_HOPS]) expect(BigInt((await getQuote(intent, source, { id, maxHops })).route.amountOut)).toBeGreaterThan(0n)
    for (const maxHops of [0, MAX_HOPS + 1, 4.5])
      await expect(getQuote(intent, source, { id, maxHops })).rejects.toMatchObject({ statusCode: 500, message: `Invalid getQuote option maxHops: must be an integer from 1 to ${MAX_HOPS}` })
  })
})
