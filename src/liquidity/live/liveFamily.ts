import type { AbiEvent, Address, Log, PublicClient, Transport } from 'viem'
import type { ChainConfig, DexConfig } from '../../chains/types.js'
import type { PoolStateBase } from '../../protocols/types.js'
import type { DiscoveredPool, LogOutcome, TrackedPool } from './trackedPool.js'

/**
 * The node client the live source reads through: a viem PublicClient of any chain and transport
 * (HTTP polling or WebSocket), as createLiveSource takes it.
 *
 * @example
 * const client: LiveClient = createPublicClient({ transport: webSocket(url) })
 */
export type LiveClient = PublicClient<Transport, any>

/**
 * What a creation log announced: a pool weft follows, a pool it refuses (with why, e.g. an
 * address that is not the CREATE2 derivation), or `undefined` when the log is not a creation
 * event of this family.
 *
 * @example
 * const outcome: DiscoveryOutcome = { skipped: 'pool address is not the CREATE2 derivation', address }
 */
export type DiscoveryOutcome = { pool: DiscoveredPool } | { skipped: string; address?: Address } | undefined

/**
 * How the live source follows one pool family: which creation events announce its pools, how a
 * pool's logs change its state, and how to read one pool alone. One per family id
 * (`PoolFamily.id`); the source follows a dex of `ChainConfig.dexes` when both the pool family and
 * its live family are configured.
 *
 * Families whose pools each have their own contract (V2, V3 and their forks) key a pool by its
 * address. Families whose pools share one contract (the V4 PoolManager, the Balancer Vault) key it
 * by its id (`DiscoveredPool.id`) and say, through `keyOfLog`, which pool a log of the shared
 * contract belongs to.
 *
 * @example
 * const source = createLiveSource({ client, chain, fromBlock: 0n, liveFamilies: [...defaultLiveFamilies, myLiveFamily] })
 */
export type LiveFamily = {
  /** The `PoolFamily.id` this follows. */
  id: string
  /** Events announcing pools, for the `eth_getLogs` filter (topic 0). */
  creationEvents: readonly AbiEvent[]
  /** The contracts that emit a dex's creation events. Default: `dex.factory`. */
  creationEmitters?(dex: DexConfig): readonly Address[]
  /**
   * The pool a log of a creation emitter announces (the address always derived, never trusted from
   * the log). `chain`: for what the dex does not say (V4 names native currency by its wrapped token).
   */
  discover(log: Pick<Log, 'address' | 'topics' | 'data'>, dex: DexConfig, blockNumber: number, chain: ChainConfig): DiscoveryOutcome
  /**
   * Shared-contract families: the contract whose logs carry the pools' changes (`dex.factory` for
   * the PoolManager and the Vault), and the key (`DiscoveredPool.id`) of the pool a log of it
   * belongs to (undefined: no pool's).
   */
  sharedEmitter?(dex: DexConfig): Address
  keyOfLog?(log: Pick<Log, 'topics' | 'data'>): string | undefined
  /**
   * Shared-contract families whose pools also have a contract of their own emitting some of their
   * changes (Balancer: the pool contract's swap fee and pause): that contract, whose logs then go
   * to `applyLog` for the pool, as the shared contract's do. Default: none.
   */
  ownEmitter?(pool: DiscoveredPool): Address | undefined
  /**
   * Logs of other contracts that change this family's pools (Slipstream: the fee module's
   * `CustomFeeSet`, the factory's `SwapFeeModuleChanged`; Aerodrome V2: the factory's
   * `SetCustomFee` and `SetPauseState`): the keys of the pools to re-read at the log's block, or
   * `'all'` for every pool of `dex`, with why. Asked for every log of a block that is neither a
   * creation event nor a tracked pool's (so it should check the topic first). Default: none.
   */
  poolsChangedBy?(log: Pick<Log, 'address' | 'topics' | 'data'>, dex: DexConfig): { pools: readonly string[] | 'all'; reason: string } | undefined
  /** Applies one log of a tracked pool, exactly, or says why the pool must be re-read. */
  applyLog(record: TrackedPool, log: Pick<Log, 'topics' | 'data'>): LogOutcome
  /** The dex config under which `PoolFamily.readPools` reads this pool alone (e.g. narrowed to its fee tier). */
  narrow(dex: DexConfig, pool: DiscoveredPool): DexConfig
  /** Whether a state the family's reader delivered is this pool. Default: same address. */
  matches?(state: PoolStateBase, pool: DiscoveredPool): boolean
  /** What the source keeps besides the state to apply logs exactly (V3: each tick's liquidityGross), read at the same block. */
  readExtras?: (client: LiveClient, records: readonly TrackedPool[], blockNumber: bigint) => Promise<TrackedPool[]>
}

/**
 * The key the live source files a pool under: its id for shared-contract families (V4, Balancer),
 * its address otherwise. Lowercase.
 *
 * @example
 * poolKeyOf({ address: vault, id: poolId, ... }) // poolId
 */
export function poolKeyOf(pool: Pick<DiscoveredPool, 'address' | 'id'>): string {
  return (pool.id ?? pool.address).toLowerCase()
}

/**
 * Every token a discovered pool trades: `tokens` for pools of more than two, else token0 and token1.
 *
 * @example
 * tokensOfDiscovered(pool) // [token0, token1]
 */
export function tokensOfDiscovered(pool: Pick<DiscoveredPool, 'token0' | 'token1' | 'tokens'>): readonly Address[] {
  return pool.tokens ?? [pool.token0, pool.token1]
}
