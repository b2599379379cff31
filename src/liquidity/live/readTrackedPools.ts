import type { PublicClient, Transport } from 'viem'
import type { ChainConfig } from '../../chains/types.js'
import type { PoolFamily, PoolStateBase, ReadPoolsResult } from '../../protocols/types.js'
import type { LiveFamily } from './liveFamily.js'
import type { DiscoveredPool, TrackedPool } from './trackedPool.js'

const READ_CONCURRENCY = 32

/** What readTrackedPools needs: the node, the chain, and the pool and live families by id. */
export type ReadTrackedPoolsParameters = {
  client: PublicClient<Transport, any>
  chain: ChainConfig
  families: ReadonlyMap<string, PoolFamily>
  liveFamilies: ReadonlyMap<string, LiveFamily>
  pools: readonly DiscoveredPool[]
  blockNumber: bigint
  /** Called after each wave of reads answered (the live source's sync timeout counts from the last answer). */
  onWave?: () => void
}

/**
 * Reads `pools` at one block with their families' own readers (`PoolFamily.readPools`), each pool
 * asked for by its tokens on its dex narrowed to it alone (`LiveFamily.narrow`), 32 at a time;
 * then what each live family keeps besides the state (`LiveFamily.readExtras`, e.g. V3 tick
 * gross), per family. A pool the reader does not deliver gets the state `null`. Node errors propagate.
 *
 * @example
 * const records = await readTrackedPools({ client, chain, families, liveFamilies, pools: [discovered], blockNumber })
 */
export async function readTrackedPools({ client, chain, families, liveFamilies, pools, blockNumber, onWave }: ReadTrackedPoolsParameters): Promise<TrackedPool[]> {
  const readOne = async (pool: DiscoveredPool): Promise<PoolStateBase | null> => {
    const family = families.get(pool.family)
    const live = liveFamilies.get(pool.family)
    const dex = chain.dexes.find((d) => d.id === pool.dex)
    if (!family?.readPools || !live || !dex) return null
    const tokens = pool.tokens ?? [pool.token0, pool.token1]
    const found: PoolStateBase[] | ReadPoolsResult = await family.readPools({ client, chain, blockNumber, tokens, dexes: [live.narrow(dex, pool)] })
    const list = Array.isArray(found) ? found : found.pools
    const matches = live.matches ?? ((state: PoolStateBase, wanted: DiscoveredPool) => state.address.toLowerCase() === wanted.address)
    return list.find((state) => matches(state, pool)) ?? null
  }
  // In waves, so an initial read of thousands of pools does not open thousands of requests at once.
  const states: (PoolStateBase | null)[] = []
  for (let start = 0; start < pools.length; start += READ_CONCURRENCY) {
    states.push(...(await Promise.all(pools.slice(start, start + READ_CONCURRENCY).map(readOne))))
    onWave?.()
  }
  const records: TrackedPool[] = pools.map((pool, index) => ({ pool, state: states[index] ?? null }))
  // Each family's extras in one batch: the records of one family, read together, then put back in place.
  const byFamily = new Map<string, number[]>()
  records.forEach((record, index) => {
    if (!record.state || !liveFamilies.get(record.pool.family)?.readExtras) return
    byFamily.set(record.pool.family, [...(byFamily.get(record.pool.family) ?? []), index])
  })
  await Promise.all(
    [...byFamily].map(async ([familyId, indices]) => {
      const withExtras = await liveFamilies.get(familyId)!.readExtras!(client, indices.map((i) => records[i]!), blockNumber)
      indices.forEach((recordIndex, i) => (records[recordIndex] = withExtras[i]!))
    }),
  )
  return records
}
