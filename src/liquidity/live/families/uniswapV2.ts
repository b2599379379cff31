import { type Address, parseAbi } from 'viem'
import { getUniswapV2PairAddress } from '../../../protocols/uniswapV2/readPools.js'
import { applyUniswapV2Log } from '../applyUniswapV2Log.js'
import type { LiveFamily } from '../liveFamily.js'
import { createEventDecoder } from '../poolEvents.js'

const pairCreatedAbi = parseAbi(['event PairCreated(address indexed token0, address indexed token1, address pair, uint256 pairCount)'])
const decodeCreation = createEventDecoder(pairCreatedAbi)

/**
 * Uniswap V2 in the live source: pairs are discovered from the factory's `PairCreated` (the pair
 * address checked against its CREATE2 derivation) and followed through their `Sync` logs
 * (applyUniswapV2Log).
 *
 * @example
 * createLiveSource({ client, chain, fromBlock: 0n, liveFamilies: [uniswapV2LiveFamily] })
 */
export const uniswapV2LiveFamily: LiveFamily = {
  id: 'uniswapV2',
  creationEvents: pairCreatedAbi,
  discover(log, dex, blockNumber) {
    const decoded = decodeCreation(log)
    if (!decoded) return undefined
    const token0 = decoded.args.token0.toLowerCase() as Address
    const token1 = decoded.args.token1.toLowerCase() as Address
    const address = decoded.args.pair.toLowerCase() as Address
    if (getUniswapV2PairAddress(dex, token0, token1) !== address) return { skipped: 'pair address is not the CREATE2 derivation', address }
    return { pool: { address, family: dex.family, dex: dex.id, token0, token1, createdAt: blockNumber } }
  },
  applyLog: applyUniswapV2Log,
  narrow: (dex) => dex,
}
