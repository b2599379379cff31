import type { Snapshot } from './liquidity/createSnapshotSource.js'
import data from './liquidity/defaultSnapshot.json'

/**
 * The embedded default liquidity: SYNTHETIC snapshots of Ethereum and Base
 * (invented pool states at the real addresses and pool ids of Uniswap V2, V3
 * and V4, PancakeSwap V3, Aerodrome Slipstream and Balancer V2, shaped like
 * mainnet depth — not market data), so weft quotes with no network and no
 * configuration. A separate entry point (`weft/default-snapshot`) so the core
 * bundle stays small.
 *
 * @example
 * import { getQuote, createSnapshotSource } from 'weft'
 * import { defaultSnapshot } from 'weft/default-snapshot'
 * const quote = await getQuote(intent, createSnapshotSource(defaultSnapshot))
 */
export const defaultSnapshot: readonly Snapshot[] = data as unknown as Snapshot[]
