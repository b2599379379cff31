import { type Address, parseAbi } from 'viem'
import { getUniswapV3PoolAddress } from '../../../protocols/uniswapV3/readPools.js'
import { applyUniswapV3Log } from '../applyUniswapV3Log.js'
import type { LiveFamily } from '../liveFamily.js'
import { readTickGross } from './readTickGross.js'
import { createEventDecoder } from '../poolEvents.js'

const poolCreatedAbi = parseAbi(['event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)'])
const decodeCreation = createEventDecoder(poolCreatedAbi)

/**
 * Uniswap V3 in the live source: pools are discovered from the factory's `PoolCreated` (the fee
 * tier must be one of the dex's with the same tick spacing, and the address must equal the
 * CREATE2 derivation), read narrowed to their fee tier with each tick's liquidityGross, and
 * followed through their logs (applyUniswapV3Log).
 *
 * @example
 * createLiveSource({ client, chain, fromBlock: 0n, liveFamilies: [uniswapV3LiveFamily] })
 */
export const uniswapV3LiveFamily: LiveFamily = {
  id: 'uniswapV3',
  creationEvents: poolCreatedAbi,
  discover(log, dex, blockNumber) {
    const decoded = decodeCreation(log)
    if (!decoded) return undefined
    const token0 = decoded.args.token0.toLowerCase() as Address
    const token1 = decoded.args.token1.toLowerCase() as Address
    const { fee, tickSpacing } = decoded.args
    const address = decoded.args.pool.toLowerCase() as Address
    if (dex.feeTiers?.[fee] !== tickSpacing) return { skipped: `fee tier ${fee} / spacing ${tickSpacing} is not configured`, address }
    if (getUniswapV3PoolAddress(dex, token0, token1, fee) !== address) return { skipped: 'pool address is not the CREATE2 derivation', address }
    return { pool: { address, family: dex.family, dex: dex.id, token0, token1, fee, tickSpacing, createdAt: blockNumber } }
  },
  applyLog: applyUniswapV3Log,
  narrow: (dex, pool) => (pool.fee !== undefined && pool.tickSpacing !== undefined ? { ...dex, feeTiers: { [pool.fee]: pool.tickSpacing } } : dex),
  readExtras: (client, records, blockNumber) => readTickGross(client, records, blockNumber),
}
