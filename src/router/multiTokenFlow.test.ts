// Flows through multi-token pools (issue 9, bug 8): a 3-token Balancer pool traded A -> B and
// A -> C in one flow must be two executor steps, each priced on the state the other left, and the
// executor's segments, replayed on a token ledger, must give exactly what the plan claims.
import type { Address, Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { ChainConfig, DexConfig } from '../chains/types.js'
import { balancerV2Family } from '../protocols/balancerV2/family.js'
import type { BalancerV2PoolState } from '../protocols/balancerV2/state.js'
import type { Pool } from '../protocols/types.js'
import { createRandom } from '../../test/support/random.js'
import { replaySegments } from '../../test/support/replaySegments.js'
import { findRoute } from './findRoute.js'
import { simulatePlan } from './simulatePlan.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const A = '0x00000000000000000000000000000000000000a1' as Address
const B = '0x00000000000000000000000000000000000000b1' as Address
const C = '0x00000000000000000000000000000000000000c1' as Address
const E18 = 10n ** 18n
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8' as Address
const balancerDex: DexConfig = { id: 'balancerV2', family: 'balancerV2', protocol: 'Balancer V2', fork: 'BalancerV2', factory: VAULT, initCodeHash: `0x${'0'.repeat(64)}` }
const chain: ChainConfig = { ...base, dexes: [{ ...base.dexes[0]!, id: 'v2', feeBps: 30 }, balancerDex] }

const nextAddress = createAddressCounter(0)
const pair = createV2Pairs({ chain, nextAddress })

/** A weighted pool over A, B, C (18 decimals each) with the given balances and weights (summing to 1e18). */
function weighted(balances: [bigint, bigint, bigint], weights: [bigint, bigint, bigint], feeBps = 30n): Pool {
  const pool = nextAddress()
  const state: BalancerV2PoolState = {
    family: 'balancerV2',
    dex: 'balancerV2',
    address: VAULT,
    poolId: `${pool}000100000000000000000001` as Hex,
    pool,
    tokens: [A, B, C],
    balances: balances.map(String),
    weights: weights.map(String),
    scalingFactors: [E18, E18, E18].map(String),
    swapFeePercentage: String(feeBps * 10n ** 14n),
  }
  return balancerV2Family.fromState(state, { chain, dex: balancerDex, dexIndex: 1 })
}


/** A random 3-token pool and a C -> B pair, with two paths A -> B and A -> C -> B sharing the pool. */
function randomMarket(random: () => number) {
  const amount = (scale: number) => BigInt(Math.floor((0.2 + random()) * scale)) * E18
  const weightA = BigInt(Math.floor((0.2 + 0.4 * random()) * 100)) * 10n ** 16n
  const weightB = (E18 - weightA) / 2n
  const pool = weighted([amount(1000), amount(1000), amount(1000)], [weightA, weightB, E18 - weightA - weightB])
  const cb = pair(C, B, amount(5000), amount(5000))
  const total = amount(100)
  const first = (total * BigInt(Math.floor(random() * 1000))) / 1000n
  return { pool, cb, total, first }
}

describe('flows through a multi-token pool', () => {
  it('trades A -> B and A -> C of one 3-token pool as two steps, and the segments replay to amountOut', () => {
    const random = createRandom(9)
    let flows = 0
    let mismatches = 0
    let merged = 0
    for (let i = 0; i < 200; i++) {
      const { pool, cb, total, first } = randomMarket(random)
      if (first === 0n || first === total) continue
      const plan = simulatePlan([
        { path: [{ pool, tokenIn: A, tokenOut: B }], amountIn: first },
        { path: [{ pool, tokenIn: A, tokenOut: C }, { pool: cb, tokenIn: C, tokenOut: B }], amountIn: total - first },
      ])
      if (!plan) continue
      if (plan.mode === 'flow') flows++
      const replayed = replaySegments(plan, A, B)
      if (replayed !== plan.amountOut) mismatches++
      // Every (pool, tokenIn, tokenOut) the paths name appears as its own executor step.
      const steps = plan.segments.flatMap((s) => s.hops.map((h) => `${h.pool.key}:${h.tokenIn}>${h.tokenOut}`))
      if (new Set(steps).size !== 3 || steps.length !== 3) merged++
    }
    expect(flows).toBeGreaterThan(0)
    expect({ mismatches, merged }).toEqual({ mismatches: 0, merged: 0 })
  })

  it('findRoute through a 3-token pool and a pair: the plan replays to its amountOut', () => {
    const random = createRandom(19)
    let mismatches = 0
    let sharedPool = 0
    for (let i = 0; i < 60; i++) {
      const { pool, cb, total } = randomMarket(random)
      const plan = findRoute({ pools: [pool, cb, pair(A, B, 300n * E18, 300n * E18)], tokenIn: A, tokenOut: B, connectors: [C], gasCostInOutput: 0 }, total)
      if (!plan) continue
      const keys = plan.segments.flatMap((s) => s.hops.map((h) => h.pool.key))
      if (keys.filter((k) => k === pool.key).length > 1) sharedPool++
      if (replaySegments(plan, A, B) !== plan.amountOut) mismatches++
    }
    expect(sharedPool).toBeGreaterThan(0)
    expect(mismatches).toBe(0)
  })
})
