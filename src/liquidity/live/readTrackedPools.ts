import { type Address, type PublicClient, type Transport, parseAbi } from 'viem'
import type { ChainConfig, DexConfig } from '../../chains/types.js'
import type { PoolFamily, PoolStateBase, ReadPoolsResult } from '../../protocols/types.js'
import type { UniswapV3PoolState } from '../../protocols/uniswapV3/state.js'
import type { DiscoveredPool, TrackedPool } from './trackedPool.js'

const uniswapV3TicksAbi = parseAbi([
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
])

const GROSS_BATCH_BYTES = 1_500
const READ_CONCURRENCY = 32

/** What readTrackedPools needs: the node, the chain and the families by id. */
export type ReadTrackedPoolsParameters = {
  client: PublicClient<Transport, any>
  chain: ChainConfig
  families: ReadonlyMap<string, PoolFamily>
  pools: readonly DiscoveredPool[]
  blockNumber: bigint
}

/**
 * Reads `pools` at one block with their families' own readers (`PoolFamily.readPools`), each pool
 * asked for by its two tokens on its dex only (a V3 dex narrowed to the pool's fee tier), 32 at a
 * time; then, for V3 pools, the liquidityGross of every tick the state holds, in one multicall.
 * A pool the reader does not deliver gets the state `null`. Node errors propagate.
 *
 * @example
 * const records = await readTrackedPools({ client, chain, families, pools: [discovered], blockNumber })
 */
export async function readTrackedPools({ client, chain, families, pools, blockNumber }: ReadTrackedPoolsParameters): Promise<TrackedPool[]> {
  const readOne = async (pool: DiscoveredPool): Promise<PoolStateBase | null> => {
    const family = families.get(pool.family)
    const dex = chain.dexes.find((d) => d.id === pool.dex)
    if (!family?.readPools || !dex) return null
    const narrowed: DexConfig =
      pool.family === 'uniswapV3' && pool.fee !== undefined && pool.tickSpacing !== undefined
        ? { ...dex, feeTiers: { [pool.fee]: pool.tickSpacing } }
        : dex
    const found: PoolStateBase[] | ReadPoolsResult = await family.readPools({ client, chain, blockNumber, tokens: [pool.token0, pool.token1], dexes: [narrowed] })
    const list = Array.isArray(found) ? found : found.pools
    return list.find((state) => state.address.toLowerCase() === pool.address) ?? null
  }
  // In waves, so an initial read of thousands of pools does not open thousands of requests at once.
  const states: (PoolStateBase | null)[] = []
  for (let start = 0; start < pools.length; start += READ_CONCURRENCY) states.push(...(await Promise.all(pools.slice(start, start + READ_CONCURRENCY).map(readOne))))
  const grossQueries: { pool: number; tick: number }[] = []
  states.forEach((state, i) => {
    if (state?.family === 'uniswapV3') for (const tick of (state as UniswapV3PoolState).ticks) grossQueries.push({ pool: i, tick: tick.index })
  })
  const grossResults =
    grossQueries.length === 0
      ? []
      : await client.multicall({
          contracts: grossQueries.map((q) => ({ address: pools[q.pool]!.address as Address, abi: uniswapV3TicksAbi, functionName: 'ticks' as const, args: [q.tick] as const })),
          allowFailure: false,
          blockNumber,
          deployless: true,
          // A deployless call returns its answer as code (limit 24,576 bytes; ~350 bytes per ticks() result): chunks, sent in parallel.
          batchSize: GROSS_BATCH_BYTES,
        })
  const gross = new Map<number, Map<number, bigint>>()
  grossQueries.forEach((q, i) => {
    const [liquidityGross] = grossResults[i] as readonly [bigint, ...unknown[]]
    let map = gross.get(q.pool)
    if (!map) gross.set(q.pool, (map = new Map()))
    map.set(q.tick, liquidityGross)
  })
  return pools.map((pool, i) => {
    const state = states[i] ?? null
    return state?.family === 'uniswapV3' ? { pool, state, liquidityGross: gross.get(i) ?? new Map() } : { pool, state }
  })
}
