// The live source's state against a fresh full read, field for field: the check the live tests
// and the long run (scripts/soakLive.ts) make after every block.
import type { Address } from 'viem'
import type { ChainConfig, LiveSource, PoolStateBase } from '../../src/index.js'
import type { LiveActivity } from './liveActivity.js'

/** One pool whose live state differs from the fresh read (either side may be missing). */
export type LiveMismatch = { block: number; pool: string; live: string | undefined; fresh: string | undefined }

/**
 * JSON with object keys sorted: equal strings mean equal states, field for field.
 *
 * @example
 * canonicalState({ b: 1, a: '2' }) // '{"a":"2","b":1}'
 */
export function canonicalState(value: unknown): string {
  return JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  )
}

/**
 * The key a state is compared under: its pool id for shared-contract families (V4, Balancer),
 * else its address. Lowercase.
 *
 * @example
 * stateKey(v2PairState) // '0x…pair'
 */
export function stateKey(state: PoolStateBase): string {
  // V4 names its pool id `id`, Balancer `poolId`.
  const { id, poolId } = state as { id?: unknown; poolId?: unknown }
  return (typeof id === 'string' ? id : typeof poolId === 'string' ? poolId : state.address).toLowerCase()
}

/** What checkLiveState needs. `keep` filters the fresh read to what the source's tracking policy follows. */
export type CheckLiveStateParameters = {
  source: LiveSource
  activity: LiveActivity
  chain: ChainConfig
  /** Any two tokens: getLiquidity hands out every tracked pool whatever they are. */
  pair: readonly [Address, Address]
  keep?: (state: PoolStateBase) => boolean
}

/**
 * Syncs `source`, then compares every pool it hands out with a fresh read at its block by the
 * families' own readers. Resolves to the block and the mismatches (none expected); throws when
 * the answer is not at the synced block or cost a round trip.
 *
 * @example
 * const { block, mismatches } = await checkLiveState({ source: live, activity, chain, pair: [weth, usdc] })
 */
export async function checkLiveState({ source, activity, chain, pair, keep = () => true }: CheckLiveStateParameters): Promise<{ block: number; mismatches: LiveMismatch[]; pools: number }> {
  const block = await source.sync()
  const liquidity = await source.getLiquidity({ chain, tokenIn: pair[0], tokenOut: pair[1] })
  if (liquidity.blockNumber !== block) throw new Error(`getLiquidity answered at block ${liquidity.blockNumber}, the source synced to ${block}`)
  if (liquidity.report.roundTrips !== 0) throw new Error(`getLiquidity cost ${liquidity.report.roundTrips} round trips`)
  const expected = (await activity.freshRead(BigInt(block))).filter(keep)
  const byKey = (list: readonly PoolStateBase[]) => new Map(list.map((state) => [stateKey(state), canonicalState(state)]))
  const mine = byKey(liquidity.pools)
  const theirs = byKey(expected)
  const mismatches: LiveMismatch[] = []
  for (const pool of new Set([...mine.keys(), ...theirs.keys()])) {
    if (mine.get(pool) !== theirs.get(pool)) mismatches.push({ block, pool, live: mine.get(pool), fresh: theirs.get(pool) })
  }
  return { block, mismatches, pools: theirs.size }
}
