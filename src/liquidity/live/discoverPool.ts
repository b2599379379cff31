import { type Address, type Log, decodeEventLog } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import { getUniswapV2PairAddress } from '../../protocols/uniswapV2/readPools.js'
import { getUniswapV3PoolAddress } from '../../protocols/uniswapV3/readPools.js'
import { creationEventsAbi } from './poolEvents.js'
import type { DiscoveredPool } from './trackedPool.js'

/**
 * Families whose pools the live source discovers from creation events so far: V2 `PairCreated`
 * and V3 `PoolCreated`, emitted by `DexConfig.factory`. V4 `Initialize`, Balancer
 * `PoolRegistered` and the other V3 forks are not discovered yet.
 *
 * @example
 * DISCOVERABLE_FAMILIES.has('uniswapV2') // true
 */
export const DISCOVERABLE_FAMILIES: ReadonlySet<string> = new Set(['uniswapV2', 'uniswapV3'])

/**
 * The pool a creation log announces, or why it is not one weft discovers: the event must come
 * from the dex's factory, a V3 fee tier must be one of the dex's with the same tick spacing, and
 * the announced address must equal the CREATE2 derivation (never trusted from the log).
 *
 * @example
 * const found = discoverPool(log, dexesByFactory, 123)
 */
export function discoverPool(
  log: Pick<Log, 'address' | 'topics' | 'data'>,
  dexesByFactory: ReadonlyMap<Address, readonly DexConfig[]>,
  blockNumber: number,
): { pool: DiscoveredPool } | { skipped: string; address?: Address } | undefined {
  const dexes = dexesByFactory.get(log.address.toLowerCase() as Address)
  if (!dexes) return undefined
  let decoded
  try {
    decoded = decodeEventLog({ abi: creationEventsAbi, topics: log.topics as never, data: log.data })
  } catch {
    return undefined
  }
  const token0 = decoded.args.token0.toLowerCase() as Address
  const token1 = decoded.args.token1.toLowerCase() as Address
  if (decoded.eventName === 'PairCreated') {
    const address = decoded.args.pair.toLowerCase() as Address
    const dex = dexes.find((d) => d.family === 'uniswapV2')
    if (!dex) return undefined
    if (getUniswapV2PairAddress(dex, token0, token1) !== address) return { skipped: 'pair address is not the CREATE2 derivation', address }
    return { pool: { address, family: dex.family, dex: dex.id, token0, token1, createdAt: blockNumber } }
  }
  const { fee, tickSpacing, pool } = decoded.args
  const address = pool.toLowerCase() as Address
  const dex = dexes.find((d) => d.family === 'uniswapV3')
  if (!dex) return undefined
  if (dex.feeTiers?.[fee] !== tickSpacing) return { skipped: `fee tier ${fee} / spacing ${tickSpacing} is not configured`, address }
  if (getUniswapV3PoolAddress(dex, token0, token1, fee) !== address) return { skipped: 'pool address is not the CREATE2 derivation', address }
  return { pool: { address, family: dex.family, dex: dex.id, token0, token1, fee, tickSpacing, createdAt: blockNumber } }
}
