import { type Address, type Hex, parseAbi, toEventSelector } from 'viem'
import { getBalancerV2PoolAddress } from '../../../protocols/balancerV2/readPools.js'
import type { BalancerV2PoolState } from '../../../protocols/balancerV2/state.js'
import type { LiveFamily } from '../liveFamily.js'
import { createEventDecoder } from '../poolEvents.js'
import { applyBalancerV2Log, balancerV2PoolIdOfLog, balancerV2VaultPoolEventsAbi } from './applyBalancerV2Log.js'

const tokensRegisteredAbi = balancerV2VaultPoolEventsAbi.filter((event) => event.name === 'TokensRegistered')
const decodeTokensRegistered = createEventDecoder(tokensRegisteredAbi)

// The Vault's pause: every pool of the Vault is delivered or not with it.
const VAULT_PAUSED_TOPIC: Hex = toEventSelector(parseAbi(['event PausedStateChanged(bool paused)'])[0])

/**
 * Balancer V2 in the live source. Pools live in the Vault (`dex.factory`): they are discovered
 * from its `TokensRegistered` (the pool id names the pool contract in its first 20 bytes, and the
 * event lists every token, in the pool's order), filed by pool id, read narrowed to that id
 * (`pools: [poolId]`) by `readBalancerV2Pools`, whose check that one of `dex.poolFactories`
 * created the pool (`isPoolFromFactory`) decides whether it is delivered; then followed through
 * the Vault's `Swap` and `PoolBalanceChanged` and the pool contract's own `SwapFeePercentageChanged`
 * (the pool contract is the pool's own emitter; applyBalancerV2Log). The Vault's
 * `PausedStateChanged` re-reads every pool of the Vault.
 *
 * @example
 * createLiveSource({ client, chain, fromBlock: 0n, liveFamilies: [...defaultLiveFamilies, balancerV2LiveFamily] })
 */
export const balancerV2LiveFamily: LiveFamily = {
  id: 'balancerV2',
  creationEvents: tokensRegisteredAbi,
  discover(log, dex, blockNumber) {
    const decoded = decodeTokensRegistered(log)
    if (decoded?.eventName !== 'TokensRegistered') return undefined
    const poolId = decoded.args.poolId.toLowerCase() as Hex
    const tokens = decoded.args.tokens.map((token) => token.toLowerCase() as Address)
    if (tokens.length < 2) return { skipped: 'Balancer pool of fewer than two tokens', address: getBalancerV2PoolAddress(poolId) }
    return {
      pool: {
        address: dex.factory.toLowerCase() as Address,
        id: poolId,
        family: dex.family,
        dex: dex.id,
        token0: tokens[0]!,
        token1: tokens[1]!,
        ...(tokens.length > 2 ? { tokens } : {}),
        createdAt: blockNumber,
      },
    }
  },
  sharedEmitter: (dex) => dex.factory,
  keyOfLog: (log) => balancerV2PoolIdOfLog(log)?.toLowerCase(),
  ownEmitter: (pool) => (pool.id ? getBalancerV2PoolAddress(pool.id) : undefined),
  poolsChangedBy(log, dex) {
    if (log.topics[0] !== VAULT_PAUSED_TOPIC || log.address.toLowerCase() !== dex.factory.toLowerCase()) return undefined
    return { pools: 'all', reason: 'Balancer Vault paused or unpaused' }
  },
  applyLog: applyBalancerV2Log,
  narrow: (dex, pool) => ({ ...dex, pools: pool.id ? [pool.id] : [] }),
  matches: (state, pool) => (state as BalancerV2PoolState).poolId === pool.id,
}
