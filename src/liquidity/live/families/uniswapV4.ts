import { type Address, zeroAddress } from 'viem'
import { isDynamicFee } from '../../../protocols/uniswapV4/fees.js'
import { getUniswapV4PoolId, type UniswapV4PoolKey } from '../../../protocols/uniswapV4/poolKey.js'
import type { UniswapV4PoolState } from '../../../protocols/uniswapV4/state.js'
import type { LiveFamily } from '../liveFamily.js'
import { createEventDecoder } from '../poolEvents.js'
import type { DiscoveredPool } from '../trackedPool.js'
import { applyUniswapV4Log, uniswapV4PoolIdOfLog, uniswapV4PoolManagerEventsAbi } from './applyUniswapV4Log.js'
import { readUniswapV4Extras } from './readUniswapV4Extras.js'

const initializeAbi = uniswapV4PoolManagerEventsAbi.filter((event) => event.name === 'Initialize')
const decodeInitialize = createEventDecoder(initializeAbi)
const lower = (address: string) => address.toLowerCase() as Address

/**
 * The key of a discovered V4 pool (hooks: none), recovered from its id: discovery names native
 * currency0 by the wrapped native token, so each reading of the two tokens is tried.
 */
function keyOfDiscovered(pool: DiscoveredPool): UniswapV4PoolKey | undefined {
  if (pool.fee === undefined || pool.tickSpacing === undefined) return undefined
  const shape = { fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: zeroAddress }
  const candidates: UniswapV4PoolKey[] = [
    { currency0: pool.token0, currency1: pool.token1, ...shape },
    { currency0: zeroAddress, currency1: pool.token1, ...shape },
    { currency0: zeroAddress, currency1: pool.token0, ...shape },
  ]
  return candidates.find((key) => getUniswapV4PoolId(key) === pool.id)
}

/**
 * Uniswap V4 in the live source. Pools live in the PoolManager (`dex.factory`): they are
 * discovered from its `Initialize` (the id recomputed from the key the event carries), filed by
 * pool id, read narrowed to their one key (`poolKeys: [key]`) with each tick's liquidityGross, and
 * followed through the PoolManager's logs (applyUniswapV4Log). Pools with hooks, a dynamic fee, or
 * native and wrapped native as their two currencies are reported skipped, as the reader skips them.
 * A pool with a protocol fee is re-read every block (its state says whether the PoolManager's
 * accrued fees of its currencies are zero, which no log of the pool reports; see readUniswapV4Extras).
 *
 * @example
 * createLiveSource({ client, chain, fromBlock: 0n, liveFamilies: [...defaultLiveFamilies, uniswapV4LiveFamily] })
 */
export const uniswapV4LiveFamily: LiveFamily = {
  id: 'uniswapV4',
  creationEvents: initializeAbi,
  discover(log, dex, blockNumber, chain) {
    const decoded = decodeInitialize(log)
    if (decoded?.eventName !== 'Initialize') return undefined
    const { id, currency0, currency1, fee, tickSpacing, hooks } = decoded.args
    const key: UniswapV4PoolKey = { currency0: lower(currency0), currency1: lower(currency1), fee, tickSpacing, hooks: lower(hooks) }
    const poolId = getUniswapV4PoolId(key)
    if (poolId !== id.toLowerCase()) return { skipped: 'V4 pool id is not the hash of its key', address: id.toLowerCase() as Address }
    if (isDynamicFee(fee)) return { skipped: `Uniswap V4 pool with a dynamic fee set by its hooks ${key.hooks}: the fee is not in its state`, address: poolId as Address }
    if (key.hooks !== zeroAddress) return { skipped: `Uniswap V4 pool with hooks ${key.hooks}: their behaviour is unknown to weft`, address: poolId as Address }
    // Native currency is traded as the wrapped native token, as the reader names it.
    const token0 = key.currency0 === zeroAddress ? lower(chain.wrappedNative.address) : key.currency0
    if (token0 === key.currency1) return { skipped: 'Uniswap V4 pool of native and wrapped native: not routable', address: poolId as Address }
    return {
      pool: { address: lower(dex.factory), id: poolId, family: dex.family, dex: dex.id, token0, token1: key.currency1, fee, tickSpacing, createdAt: blockNumber },
    }
  },
  sharedEmitter: (dex) => dex.factory,
  keyOfLog: (log) => uniswapV4PoolIdOfLog(log)?.toLowerCase(),
  applyLog: applyUniswapV4Log,
  narrow(dex, pool) {
    const key = keyOfDiscovered(pool)
    return { ...dex, feeTiers: {}, poolKeys: key ? [key] : [] }
  },
  matches: (state, pool) => (state as UniswapV4PoolState).id === pool.id,
  readExtras: readUniswapV4Extras,
}
