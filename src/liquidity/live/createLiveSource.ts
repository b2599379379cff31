import type { AbiEvent, Address, Hex, Log, PublicClient, Transport } from 'viem'
import type { ChainConfig, DexConfig } from '../../chains/types.js'
import { QuoteError, guarded, hostError, unavailable } from '../../errors/QuoteError.js'
import { defaultFamilies } from '../../protocols/defaultFamilies.js'
import type { PoolFamily, PoolStateBase } from '../../protocols/types.js'
import type { Liquidity, LiquiditySource, TokenMetadata } from '../types.js'
import { type DiscoveryOutcome, type LiveFamily, poolKeyOf, tokensOfDiscovered } from './liveFamily.js'
import { defaultLiveFamilies } from './liveFamilies.js'
import { readTokenMetadata } from '../readTokenMetadata.js'
import { measurePool, poolValue, priceMajors } from './poolValue.js'
import { readTrackedPools } from './readTrackedPools.js'
import type { DiscoveredPool, LogOutcome, TrackedPool } from './trackedPool.js'

/**
 * Which discovered pools the live source reads and follows:
 * - `all`: every pool the factories created (on mainnet, hundreds of thousands);
 * - `tokens`: pools whose two tokens are both in the list;
 * - `onDemand`: pools whose two tokens are both among the chain's major tokens and the tokens
 *   quotes have asked for (plus `tokens`). A quote naming a token not asked for before answers
 *   503 and the token's pools are read with the next block (or the next `sync()`): retry then.
 * - `liquidity`: pools worth at least `minValue` whole units of `valueToken` (default the chain's
 *   wrapped native token). A pool's value is what it can pay out of each of its tokens within the
 *   state it holds (`Pool.limits`), priced through the majors (see docs/guides/live-source.md);
 *   a held pool is dropped only below `minValue × exitRatio` (default 0.5), so pools near the
 *   threshold do not flap. Pools between two majors (or a major and the value token) are always
 *   held: they price the rest.
 *
 * @example
 * const tracking: LiveTrackingPolicy = { mode: 'tokens', tokens: [weth, usdc, dai] }
 * const deep: LiveTrackingPolicy = { mode: 'liquidity', minValue: 10 } // pools worth ≥ 10 WETH
 */
export type LiveTrackingPolicy =
  | { mode: 'all' }
  | { mode: 'tokens'; tokens: readonly Address[] }
  | { mode: 'onDemand'; tokens?: readonly Address[] }
  | { mode: 'liquidity'; minValue: number; valueToken?: Address; exitRatio?: number }

export type CreateLiveSourceParameters = {
  /** A viem PublicClient (HTTP polling or WebSocket). Any viem chain, as createRpcSource takes. */
  client: PublicClient<Transport, any>
  chain: ChainConfig
  /** Families to read pools with (default `defaultFamilies`). */
  families?: readonly PoolFamily[]
  /** How each family is discovered and followed (default `defaultLiveFamilies`). A dex whose family has none is not followed (`stats().unfollowedDexes`). */
  liveFamilies?: readonly LiveFamily[]
  /** First block scanned for creation events (the factories' deployment block, or later). */
  fromBlock: bigint | number
  /** Default `{ mode: 'all' }`. */
  tracking?: LiveTrackingPolicy
  /** Quotes are refused (503) when the last head seen is more than this many blocks past the source's block. Default 2. */
  maxLagBlocks?: number
  /** Quotes are refused (503) when the last successful sync is older than this. Default 30,000 ms. */
  maxAgeMs?: number
  /** Blocks of undo history kept for reorgs; a deeper reorg re-discovers and re-reads everything. Default 64. */
  reorgDepth?: number
  /** Blocks per `eth_getLogs` while discovering. Default 10,000. */
  logsBlockRange?: number
  /**
   * The most pool states the source holds. A read that would exceed it keeps the most valuable
   * pools (value as the `liquidity` policy measures it; a pool already held counts double, so the
   * set does not flap) and turns the rest into compact records that are not quoted, counted in
   * `stats().capEvictions` / `capRefusals`. Default 100,000.
   */
  maxTrackedPools?: number
  /**
   * Untracked pools with activity in a block (`liquidity` policy, or refused by the cap) are read
   * again to re-evaluate them, at most this many per block (the rest wait in
   * `stats().evaluationsPending`). Default 32.
   */
  evaluationsPerBlock?: number
  /**
   * A sync that gets no answer from the node for this long fails with a 503 (a node that stopped
   * answering); the next sync starts afresh, and the abandoned one changes nothing if its answers
   * come later. Measured from the last answer, so a long initial discovery is not cut short.
   * Default 20,000 ms.
   */
  syncTimeoutMs?: number
  /** Start from a saved state instead of discovering from `fromBlock` (which is still used if the checkpoint's block was reorged away). */
  checkpoint?: LiveCheckpoint
}

/**
 * The source's state at one block as plain JSON (`JSON.stringify` it as is), to restart warm:
 * pass it back as `createLiveSource({ checkpoint })`. The first sync after a load checks the
 * checkpoint's block against the chain (a checkpoint on a block the chain dropped starts over from
 * discovery); quotes are refused until that sync succeeds.
 *
 * @example
 * localStorage.setItem('weft-live', JSON.stringify(live.checkpoint()))
 */
export type LiveCheckpoint = {
  /** The checkpoint format (1); a checkpoint of another version is refused. */
  version: 1
  chainId: number
  blockNumber: number
  blockHash: Hex
  /** Tokens added to the tracking list (`tokens` and `onDemand` policies). */
  tracked: Address[]
  tokens: TokenMetadata[]
  pools: { pool: DiscoveredPool; state: PoolStateBase | null | undefined; liquidityGross?: [tick: number, gross: string][]; rereadAt?: number }[]
}

/** Counters of what the live source did, for tests, benchmarks and monitoring. */
export type LiveSourceStats = {
  blockNumber: number | undefined
  blockHash: Hex | undefined
  /** The newest head the source has seen. */
  observedHead: number | undefined
  discovered: number
  /** Pools whose state the source holds (tracked; `null` states included). */
  tracked: number
  delivered: number
  maxTrackedPools: number
  /** Held pools evicted, and read pools refused, to stay within `maxTrackedPools`. */
  capEvictions: number
  capRefusals: number
  /** `liquidity` policy: read pools below `minValue`, and held pools that fell below `minValue × exitRatio`. */
  belowThreshold: number
  droppedBelowExit: number
  /** Pools read for a value that could not be measured through the majors (no priced token, no spot price). */
  unmeasurable: number
  /** Untracked pools with activity waiting to be re-evaluated. */
  evaluationsPending: number
  /** Token metadata entries held (bounded: tokens of held pools and the chain's own, pruned as pools go). */
  tokensKnown: number
  blocksApplied: number
  /** Logs applied exactly, logs that change nothing the state holds, pools re-read (with why). */
  logsApplied: number
  logsUnchanged: number
  rereads: number
  rereadReasons: Record<string, number>
  reorgs: number
  deepestReorg: number
  fullResyncs: number
  /** Dexes of the chain the source does not follow (no live family, or no pool family, for them). */
  unfollowedDexes: string[]
  /** Creation events of configured factories that were not taken, with why. */
  skipped: { address: string; reason: string }[]
  /** The last block applied: its logs, the pools it changed, the pools re-read, and the in-memory time (ms, round trips excluded). */
  lastBlock: { number: number; logs: number; poolsChanged: number; reads: number; applyMs: number } | undefined
}

/**
 * A liquidity source that follows the chain. `getLiquidity` answers from memory (0 round trips).
 *
 * @example
 * const live = createLiveSource({ client, chain: base, fromBlock: 0n })
 * await live.sync()
 */
export type LiveSource = LiquiditySource & {
  /** Discovers (first call), then follows the chain to its head; resolves to the source's block. Node failures reject with a 503 QuoteError. */
  sync(): Promise<number>
  /** Follows new blocks with viem's `watchBlockNumber` (polling or subscription) until `stop()` (a block announced during a sync is synced to right after it), and syncs every `maxAgeMs / 3` besides, so a chain without new blocks keeps the source fresh while its node answers. */
  start(options?: { pollingInterval?: number }): void
  stop(): void
  /** Adds tokens to the tracking list (`tokens` and `onDemand` policies; on demand, only tokens some discovered pool names); their pools are read at the next sync. */
  track(tokens: readonly Address[]): void
  /** The state at the source's block, as JSON-safe data (see {@link LiveCheckpoint}). Throws a 503 before the first sync. */
  checkpoint(): LiveCheckpoint
  stats(): LiveSourceStats
}

/** The answer getLiquidity hands out, made on the first quote after each block. */
type View = { blockNumber: number; pools: PoolStateBase[]; tokens: TokenMetadata[] }
/** The header fields the source follows. */
type Header = { number: bigint; hash: Hex; parentHash: Hex; timestamp: bigint }
/** One applied block and how to undo it: the record of every pool it changed, as it was before (undefined: none). */
type JournalEntry = { number: number; hash: Hex; undo: Map<string, TrackedPool | undefined> }

const CHECKPOINT_VERSION = 1
const DEFAULT_MAX_LAG_BLOCKS = 2
const DEFAULT_MAX_AGE_MS = 30_000
const DEFAULT_REORG_DEPTH = 64
const DEFAULT_LOGS_BLOCK_RANGE = 10_000
const DEFAULT_MAX_TRACKED_POOLS = 100_000
const DEFAULT_EVALUATIONS_PER_BLOCK = 32
const DEFAULT_SYNC_TIMEOUT_MS = 20_000
const DEFAULT_EXIT_RATIO = 0.5
/** A pool already held counts this much more than a newcomer when the cap chooses (hysteresis). */
const CAP_HELD_BONUS = 2
/** Pools read per step of the initial read: the cap applies after each, so memory stays bounded. */
const INITIAL_READ_CHUNK = 1_024
/** `liquidity` policy: every held pool is valued again this often (blocks), so a move of the majors' prices alone can drop it. */
const REVALUE_EVERY_BLOCKS = 64

/**
 * A liquidity source that follows the chain: it discovers the pools of the chain's dexes from
 * their creation events since `fromBlock` (each family's `LiveFamily`, see `defaultLiveFamilies`),
 * reads each tracked pool once with its family's reader, then follows every block through its
 * logs (`eth_getLogs` by block hash), applying each log exactly where its family can (V2 `Sync`;
 * V3 `Swap`, `Mint`, `Burn`) and re-reading a pool at the block where a log cannot be applied
 * exactly (see docs/guides/live-source.md). Reorgs are detected
 * through the parent-hash chain: the source rolls back to the common ancestor and re-reads every
 * pool the dropped blocks touched. `getLiquidity` answers from memory at the source's block with
 * 0 round trips; behind the head by more than `maxLagBlocks`, older than `maxAgeMs`, after a
 * failed or timed-out sync, or while its node answers a head behind the source's block, it throws
 * a 503 QuoteError instead of a stale answer.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { createLiveSource, getQuote, base } from 'weft'
 * const live = createLiveSource({ client: createPublicClient({ transport: http(url) }), chain: base, fromBlock: 20_000_000n })
 * await live.sync()
 * live.start({ pollingInterval: 1_000 })
 * const quote = await getQuote(intent, { source: live })
 */
export function createLiveSource(parameters: CreateLiveSourceParameters): LiveSource {
  return guarded(() => buildLiveSource(parameters))
}

/** Thrown inside a sync that was abandoned (timed out) when it comes back: it must change nothing. */
class AbandonedSync extends Error {}

function buildLiveSource({
  client,
  chain,
  families = defaultFamilies,
  liveFamilies = defaultLiveFamilies,
  fromBlock,
  tracking = { mode: 'all' },
  maxLagBlocks = DEFAULT_MAX_LAG_BLOCKS,
  maxAgeMs = DEFAULT_MAX_AGE_MS,
  reorgDepth = DEFAULT_REORG_DEPTH,
  logsBlockRange = DEFAULT_LOGS_BLOCK_RANGE,
  maxTrackedPools = DEFAULT_MAX_TRACKED_POOLS,
  evaluationsPerBlock = DEFAULT_EVALUATIONS_PER_BLOCK,
  syncTimeoutMs = DEFAULT_SYNC_TIMEOUT_MS,
  checkpoint,
}: CreateLiveSourceParameters): LiveSource {
  if (!(typeof fromBlock === 'bigint' || Number.isSafeInteger(fromBlock)) || BigInt(fromBlock) < 0n) throw hostError('createLiveSource: fromBlock must be a block number')
  for (const [name, value] of Object.entries({ maxLagBlocks, maxAgeMs, reorgDepth, logsBlockRange, maxTrackedPools, evaluationsPerBlock, syncTimeoutMs })) {
    if (!Number.isSafeInteger(value) || value < (name === 'maxLagBlocks' ? 0 : 1)) throw hostError(`createLiveSource: ${name} must be a positive integer`)
  }
  const byValue = tracking.mode === 'liquidity'
  if (byValue && !(Number.isFinite(tracking.minValue) && tracking.minValue >= 0)) throw hostError('createLiveSource: tracking.minValue must be a number ≥ 0')
  const exitRatio = byValue ? (tracking.exitRatio ?? DEFAULT_EXIT_RATIO) : DEFAULT_EXIT_RATIO
  if (!(exitRatio > 0 && exitRatio <= 1)) throw hostError('createLiveSource: tracking.exitRatio must be in (0, 1]')
  const familiesById = new Map(families.map((f) => [f.id, f]))
  const liveFamiliesById = new Map(liveFamilies.map((f) => [f.id, f]))
  const followed = chain.dexes.filter((d) => liveFamiliesById.has(d.family) && familiesById.has(d.family))
  const unfollowedDexes = chain.dexes.filter((d) => !followed.includes(d)).map((d) => d.id)
  /** Creation emitters (factories, the PoolManager, the Vault) and the dexes whose pools they announce. */
  const creators = new Map<Address, { dex: DexConfig; live: LiveFamily }[]>()
  /** Shared contracts (the PoolManager, the Vault) whose logs carry their pools' changes. */
  const sharedEmitters = new Map<Address, LiveFamily>()
  const creationEvents = new Map<string, AbiEvent>()
  for (const dex of followed) {
    const live = liveFamiliesById.get(dex.family)!
    for (const emitter of live.creationEmitters?.(dex) ?? [dex.factory]) creators.set(lower(emitter), [...(creators.get(lower(emitter)) ?? []), { dex, live }])
    for (const event of live.creationEvents) creationEvents.set(`${event.name}(${event.inputs.map((i) => i.type).join(',')})`, event)
    if (live.sharedEmitter) sharedEmitters.set(lower(live.sharedEmitter(dex)), live)
  }
  // Token addresses, one string each however many pools name them (discovery decodes a new string per log).
  const interned = new Map<string, Address>()
  const intern = (address: Address): Address => {
    const known = interned.get(address)
    if (known !== undefined) return known
    interned.set(address, address)
    return address
  }
  /** A discovered pool as the source keeps it: its token addresses shared with every other pool naming them. */
  const compactPool = (pool: DiscoveredPool): DiscoveredPool => ({
    ...pool,
    token0: intern(pool.token0),
    token1: intern(pool.token1),
    ...(pool.tokens ? { tokens: pool.tokens.map(intern) } : {}),
  })
  /** Families whose pools logs of other contracts change (fee modules, factories' fee settings). */
  const watchers = followed.flatMap((dex) => {
    const live = liveFamiliesById.get(dex.family)!
    return live.poolsChangedBy ? [{ dex, live }] : []
  })
  const discoverPool = (log: Log, blockNumber: number): DiscoveryOutcome => {
    for (const { dex, live } of creators.get(lower(log.address)) ?? []) {
      const outcome = live.discover(log, dex, blockNumber, chain)
      if (outcome && 'pool' in outcome) return { pool: compactPool(outcome.pool) }
      if (outcome) return outcome
    }
    return undefined
  }
  /** The record key of a pool: the pool's own address string when that is the key (one string, not two). */
  const keyOf = (pool: DiscoveredPool): string => {
    const key = poolKeyOf(pool)
    return key === pool.address ? pool.address : key
  }
  /** The record key a state log belongs to: the pool id for a shared contract's log, else the emitter. */
  const keyOfLog = (log: Log): string | undefined => {
    const shared = sharedEmitters.get(lower(log.address))
    return shared ? shared.keyOfLog?.(log)?.toLowerCase() : (ownEmitterKeys.get(lower(log.address)) ?? lower(log.address))
  }
  const majors = new Set(chain.majorTokens.map(lower))
  const valueToken = lower(byValue && tracking.valueToken ? tracking.valueToken : chain.wrappedNative.address)
  /** Tokens whose pools among each other price every other pool (the majors and the value token). */
  const anchorTokens = new Set([...majors, valueToken])
  const wanted = new Set<Address>('tokens' in tracking && tracking.tokens ? tracking.tokens.map(lower) : [])
  /**
   * Whether the policy wants a pool by its tokens. The `liquidity` policy decides on its value,
   * later; a pool without a major (or the value token) has none, so it is never read.
   */
  const eligible = (pool: DiscoveredPool): boolean => {
    if (tracking.mode === 'all') return true
    if (tracking.mode === 'liquidity') return tokensOfDiscovered(pool).some((t) => anchorTokens.has(t))
    const known = (token: Address) => wanted.has(token) || (tracking.mode === 'onDemand' && majors.has(token))
    return tokensOfDiscovered(pool).every(known)
  }
  const isAnchor = (pool: DiscoveredPool): boolean => tokensOfDiscovered(pool).filter((t) => anchorTokens.has(t)).length >= 2

  /** Every discovered pool: its state while tracked (held), a compact `{ pool, state: undefined }` otherwise. */
  const records = new Map<string, TrackedPool>()
  /** The records with a state (`null` included): the tracked pools. */
  const held = new Map<string, TrackedPool>()
  /** Keys of the pools between two anchor tokens (they price the rest; never dropped by value or cap). */
  const anchors = new Set<string>()
  /** Keys of the held records with a `rereadAt` (state that changes with time alone): checked each block without a pass over every record. */
  const timed = new Set<string>()
  /** How many discovered pools name each token (`onDemand`: a token no pool names is not remembered). */
  const poolsOfToken = new Map<Address, number>()
  const countPools = (token: Address, change: number) => {
    const count = (poolsOfToken.get(token) ?? 0) + change
    if (count > 0) poolsOfToken.set(token, count)
    else poolsOfToken.delete(token)
  }
  /** Shared-contract pools' own contracts (`LiveFamily.ownEmitter`: a Balancer pool contract) to their record keys. */
  const ownEmitterKeys = new Map<Address, string>()
  const setRecord = (key: string, record: TrackedPool | undefined) => {
    const pool = (record ?? records.get(key))?.pool
    const own = pool && liveFamiliesById.get(pool.family)?.ownEmitter?.(pool)
    if (own && record) ownEmitterKeys.set(lower(own), key)
    else if (own) ownEmitterKeys.delete(lower(own))
    if (!record) {
      const gone = records.get(key)
      if (gone) for (const token of tokensOfDiscovered(gone.pool)) countPools(token, -1)
      records.delete(key)
      held.delete(key)
      anchors.delete(key)
      timed.delete(key)
      return
    }
    if (!records.has(key)) {
      if (isAnchor(record.pool)) anchors.add(key)
      for (const token of tokensOfDiscovered(record.pool)) countPools(token, 1)
    }
    records.set(key, record)
    if (record.state !== undefined) held.set(key, record)
    else held.delete(key)
    if (record.state !== undefined && record.rereadAt !== undefined) timed.add(key)
    else timed.delete(key)
  }
  const clearRecords = () => {
    poolsOfToken.clear()
    ownEmitterKeys.clear()
    records.clear()
    held.clear()
    anchors.clear()
    timed.clear()
  }
  const tokens = new Map<Address, TokenMetadata>()
  const chainTokens = [...chain.tokens, chain.wrappedNative].map((t) => ({ ...t, address: lower(t.address), transferFeeBps: 0 }))
  for (const t of chainTokens) tokens.set(t.address, t)
  /** Token metadata is pruned to the tokens of held pools when it grows past twice its size after the last prune. */
  let tokensAfterPrune = tokens.size
  let journal: JournalEntry[] = []
  /** Tracked pools to read at the next block (new to the tracking list, or touched by a reorg). */
  const needsRead = new Set<string>()
  /** Untracked pools that showed activity, waiting to be read and valued (at most `evaluationsPerBlock` a block). */
  const pendingEvaluation = new Set<string>()
  let initialized = false
  let view: View | undefined
  let observedHead: number | undefined
  let lastSyncAt = 0
  let lastError: unknown
  let gasPriceWei: bigint | undefined
  let running: Promise<number> | undefined
  let unwatch: (() => void) | undefined
  /** Bumped when a sync is abandoned (timed out): a sync of an older epoch must change nothing when it comes back. */
  let epoch = 0
  /** The block at which every held pool was last valued (`liquidity` policy). */
  let lastRevalued = -Infinity
  const counters = {
    blocksApplied: 0,
    logsApplied: 0,
    logsUnchanged: 0,
    rereads: 0,
    reorgs: 0,
    deepestReorg: 0,
    fullResyncs: 0,
    capEvictions: 0,
    capRefusals: 0,
    belowThreshold: 0,
    droppedBelowExit: 0,
    unmeasurable: 0,
  }
  const rereadReasons: Record<string, number> = {}
  let lastBlock: LiveSourceStats['lastBlock']
  const skipped: { address: string; reason: string }[] = []

  if (checkpoint !== undefined) {
    if (checkpoint?.version !== CHECKPOINT_VERSION || checkpoint.chainId !== chain.id || !Array.isArray(checkpoint.pools) || !Array.isArray(checkpoint.tokens)) {
      throw hostError(`createLiveSource: the checkpoint is not a version ${CHECKPOINT_VERSION} checkpoint of chain ${chain.id}`)
    }
    for (const token of checkpoint.tracked ?? []) wanted.add(lower(token))
    for (const meta of checkpoint.tokens) tokens.set(intern(lower(meta.address)), meta)
    for (const { pool, state, liquidityGross, rereadAt } of checkpoint.pools) {
      const kept = compactPool(pool)
      setRecord(keyOf(kept), {
        pool: kept,
        state,
        ...(liquidityGross ? { liquidityGross: new Map(liquidityGross.map(([tick, gross]) => [tick, BigInt(gross)])) } : {}),
        ...(rereadAt !== undefined ? { rereadAt } : {}),
      })
    }
    journal = [{ number: checkpoint.blockNumber, hash: checkpoint.blockHash, undo: new Map() }]
    initialized = true
  }

  const top = () => journal[journal.length - 1]
  /** A block's number and hashes (viem's block type varies with the client's chain). */
  const getHeader = async (block: bigint | 'latest'): Promise<Header> => {
    const { number, hash, parentHash, timestamp } = answered(await client.getBlock(block === 'latest' ? { blockTag: 'latest' } : { blockNumber: block }))
    return { number: number as bigint, hash: hash as Hex, parentHash: parentHash as Hex, timestamp }
  }
  const applied = () => top()?.number ?? -1
  /** When the node last answered a request of a sync (the sync timeout counts from it). */
  let lastAnswerAt = 0
  const answered = <T,>(value: T): T => {
    lastAnswerAt = Date.now()
    return value
  }
  /** Throws in a sync that was abandoned, before it changes anything. */
  const stillCurrent = (mine: number) => {
    if (mine !== epoch) throw new AbandonedSync('This sync was abandoned after a timeout')
  }

  /** What getLiquidity hands out at the source's block: every held pool with a state, the same objects while unchanged. */
  const currentView = (): View | undefined => {
    const entry = top()
    if (!entry) return undefined
    if (view?.blockNumber === entry.number && view.pools !== undefined) return view
    const pools: PoolStateBase[] = []
    const touched = new Set<Address>()
    for (const record of held.values()) {
      if (!record.state) continue
      pools.push(record.state)
      for (const token of tokensOfDiscovered(record.pool)) touched.add(token)
    }
    view = { blockNumber: entry.number, pools, tokens: [...touched].flatMap((t) => tokens.get(t) ?? []) }
    return view
  }

  /** The pool's value in whole units of the value token at `prices`, or undefined when it cannot be measured. */
  const valueOf = (state: PoolStateBase, prices: ReadonlyMap<Address, number>, blockNumber: number): number | undefined => {
    const family = familiesById.get(state.family)
    const dexIndex = chain.dexes.findIndex((d) => d.id === state.dex && d.family === state.family)
    if (!family || dexIndex < 0) return undefined
    const transferFeeBps = (token: Address) => tokens.get(token)?.transferFeeBps ?? 0
    const measure = measurePool(family, state, { chain, dex: chain.dexes[dexIndex]!, dexIndex, transferFeeBps }, blockNumber)
    const raw = measure ? poolValue(measure, prices) : undefined
    return raw === undefined ? undefined : raw / 10 ** (tokens.get(valueToken)?.decimals ?? 18)
  }
  /** Prices of the majors from the anchor pools as `changes` leaves them. */
  const priceAnchors = (changes: ReadonlyMap<string, TrackedPool | undefined>, blockNumber: number): Map<Address, number> => {
    const measures = [...anchors].flatMap((key) => {
      const record = changes.has(key) ? changes.get(key) : records.get(key)
      const family = record?.state ? familiesById.get(record.state.family) : undefined
      const dexIndex = record?.state ? chain.dexes.findIndex((d) => d.id === record.state!.dex && d.family === record.state!.family) : -1
      if (!record?.state || !family || dexIndex < 0) return []
      const transferFeeBps = (token: Address) => tokens.get(token)?.transferFeeBps ?? 0
      const measure = measurePool(family, record.state, { chain, dex: chain.dexes[dexIndex]!, dexIndex, transferFeeBps }, blockNumber)
      return measure ? [measure] : []
    })
    return priceMajors(valueToken, [...majors], measures)
  }

  /**
   * The tracking policy's and the cap's decisions on a block's changes, before they are committed:
   * `liquidity` policy: a read or changed pool below its threshold (`minValue`, or
   * `minValue × exitRatio` while held) becomes a compact record; over `maxTrackedPools`: the least
   * valuable pools go (held ones counting `CAP_HELD_BONUS` times their value). Anchors always stay.
   */
  const decide = (changes: Map<string, TrackedPool | undefined>, blockNumber: number) => {
    const wasHeld = (key: string) => records.get(key)?.state !== undefined
    const compact = (record: TrackedPool): TrackedPool => ({ pool: record.pool, state: undefined })
    let heldAfter = held.size
    for (const [key, record] of changes) heldAfter += (record?.state !== undefined ? 1 : 0) - (wasHeld(key) ? 1 : 0)
    if (!byValue && heldAfter <= maxTrackedPools) return
    const prices = priceAnchors(changes, blockNumber)
    const valued = new Map<string, number>()
    const value = (key: string, state: PoolStateBase | null): number => {
      let found = valued.get(key)
      if (found === undefined) {
        const measured = state ? valueOf(state, prices, blockNumber) : undefined
        if (state && measured === undefined) counters.unmeasurable++
        valued.set(key, (found = measured ?? -1))
      }
      return found
    }
    if (byValue && blockNumber - lastRevalued >= REVALUE_EVERY_BLOCKS) {
      // Unchanged held pools too, now and then: their value moves with the majors' prices (their measure is cached per state).
      lastRevalued = blockNumber
      for (const [key, record] of held) {
        if (changes.has(key) || anchors.has(key) || value(key, record.state ?? null) >= tracking.minValue * exitRatio) continue
        changes.set(key, compact(record))
        heldAfter--
        counters.droppedBelowExit++
      }
    }
    if (byValue) {
      for (const [key, record] of changes) {
        if (record?.state === undefined || anchors.has(key)) continue
        const before = wasHeld(key)
        if (value(key, record.state) >= (before ? tracking.minValue * exitRatio : tracking.minValue)) continue
        changes.set(key, compact(record))
        heldAfter--
        if (before) counters.droppedBelowExit++
        else counters.belowThreshold++
      }
    }
    const excess = heldAfter - maxTrackedPools
    if (excess <= 0) return
    // The `excess` lowest scores among every pool held after the block (anchors exempt), newcomers first on ties.
    const ranked: { key: string; record: TrackedPool; score: number; before: boolean }[] = []
    const consider = (key: string, record: TrackedPool) => {
      if (anchors.has(key)) return
      const before = wasHeld(key)
      const worth = value(key, record.state!)
      // The bonus only scales a real value (an unmeasurable pool's -1 stays the lowest, held or not).
      ranked.push({ key, record, score: worth > 0 && before ? worth * CAP_HELD_BONUS : worth, before })
    }
    for (const [key, record] of held) if (!changes.has(key)) consider(key, record)
    for (const [key, record] of changes) if (record?.state !== undefined) consider(key, record)
    ranked.sort((a, b) => a.score - b.score || Number(a.before) - Number(b.before))
    for (const { key, record, before } of ranked.slice(0, excess)) {
      changes.set(key, compact(record))
      if (before) counters.capEvictions++
      else counters.capRefusals++
    }
  }

  /** Reads `pools` at `blockNumber` and the metadata of tokens not described yet (or whose fee could not be measured before they had this pool). */
  const readPools = async (pools: readonly DiscoveredPool[], blockNumber: number): Promise<TrackedPool[]> => {
    if (pools.length === 0) return []
    const read = answered(
      await readTrackedPools({ client, chain, families: familiesById, liveFamilies: liveFamiliesById, pools, blockNumber: BigInt(blockNumber), onWave: () => answered(undefined) }),
    )
    const delivered = read.filter((r) => r.state)
    // A token whose transfer fee was unmeasurable (no pool to borrow it from) is measured again when a pool of it is newly delivered.
    const newlyDelivered = delivered.filter((r) => !records.get(keyOf(r.pool))?.state)
    const remeasure = newlyDelivered.flatMap((r) => tokensOfDiscovered(r.pool)).filter((t) => tokens.get(t)?.transferFeeBps === null)
    const unknown = [...new Set([...delivered.flatMap((r) => tokensOfDiscovered(r.pool)).filter((t) => !tokens.has(t)), ...remeasure])]
    if (unknown.length > 0) {
      const partners = [...new Set([...delivered.flatMap((r) => tokensOfDiscovered(r.pool)), ...majors])]
      for (const meta of answered(await readTokenMetadata(client, chain, unknown, partners, BigInt(blockNumber)))) tokens.set(intern(meta.address), meta)
    }
    counters.rereads += pools.length
    return read
  }

  /** Drops the metadata of tokens no held pool touches (the chain's own tokens stay). */
  const pruneTokens = () => {
    if (tokens.size <= 2 * tokensAfterPrune + 256) return
    const keep = new Set<Address>(chainTokens.map((t) => t.address))
    for (const record of held.values()) for (const token of tokensOfDiscovered(record.pool)) keep.add(token)
    for (const token of tokens.keys()) if (!keep.has(token)) tokens.delete(token)
    tokensAfterPrune = tokens.size
  }

  /** Makes `changes` the state at block `number`, after the policy's decisions: one synchronous step, so a quote never sees half a block. */
  const commit = (number: number, hash: Hex, changes: Map<string, TrackedPool | undefined>, mergeIntoTop: boolean) => {
    decide(changes, number)
    const entry: JournalEntry = mergeIntoTop && top()?.number === number ? top()! : { number, hash, undo: new Map() }
    for (const [key, record] of changes) {
      if (!entry.undo.has(key)) entry.undo.set(key, records.get(key))
      setRecord(key, record)
    }
    if (entry !== top()) journal.push(entry)
    if (journal.length > reorgDepth + 1) journal = journal.slice(journal.length - reorgDepth - 1)
    view = undefined
    pruneTokens()
  }

  const discoverRange = async (from: bigint, to: bigint): Promise<DiscoveredPool[]> => {
    const found: DiscoveredPool[] = []
    if (creators.size === 0) return found
    for (let start = from; start <= to; start += BigInt(logsBlockRange)) {
      const end = start + BigInt(logsBlockRange) - 1n < to ? start + BigInt(logsBlockRange) - 1n : to
      const logs = answered(await client.getLogs({ address: [...creators.keys()], events: [...creationEvents.values()], fromBlock: start, toBlock: end }))
      logs.sort((a, b) => Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n)) || (a.logIndex ?? 0) - (b.logIndex ?? 0))
      for (const log of logs) {
        const outcome = discoverPool(log as Log, Number(log.blockNumber))
        if (outcome && 'pool' in outcome) found.push(outcome.pool)
        else if (outcome) skipped.push({ address: outcome.address ?? log.address, reason: outcome.skipped })
      }
    }
    return found
  }

  /**
   * Discovery from `fromBlock` to the head, then one read of every eligible pool at the head, in
   * chunks (the anchors first, so the others can be valued), each chunk committed through the
   * policy and the cap: memory stays bounded however many pools the factories created.
   */
  const initialize = async (mine: number) => {
    const head = await getHeader('latest')
    const pools = await discoverRange(BigInt(fromBlock), head.number)
    stillCurrent(mine)
    initialized = false
    clearRecords()
    journal = []
    needsRead.clear()
    pendingEvaluation.clear()
    for (const pool of pools) setRecord(keyOf(pool), { pool, state: undefined })
    commit(Number(head.number), head.hash, new Map(), false)
    const toRead = pools.filter(eligible).sort((a, b) => Number(isAnchor(b)) - Number(isAnchor(a)))
    for (let start = 0; start < toRead.length; start += INITIAL_READ_CHUNK) {
      const read = await readPools(toRead.slice(start, start + INITIAL_READ_CHUNK), Number(head.number))
      stillCurrent(mine)
      commit(Number(head.number), head.hash, new Map(read.map((r) => [keyOf(r.pool), r])), true)
    }
    // Nothing before the initial read can be rolled back to: its undo is dead weight.
    top()!.undo.clear()
    initialized = true
  }

  const applyLog = (record: TrackedPool, log: Log): LogOutcome =>
    liveFamiliesById.get(record.pool.family)?.applyLog(record, log) ?? { kind: 'reread', reason: `${record.pool.family} logs are not applied` }

  /** Applies block `block` (whose parent is the source's block) through its logs. */
  const advance = async (block: Header, mine: number) => {
    const number = Number(block.number)
    const logs = answered(await client.getLogs({ blockHash: block.hash }))
    // In-memory work only (applying logs, committing): what a block costs besides its round trips.
    const applyStarted = performance.now()
    logs.sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0))
    const changes = new Map<string, TrackedPool | undefined>()
    const current = (key: string) => (changes.has(key) ? changes.get(key) : records.get(key))
    const consumed = [...needsRead]
    const reread = new Set<string>(consumed)
    /** A followed pool re-read at this block because of a log of another contract, or of time. */
    const rereadFor = (key: string, reason: string) => {
      const record = current(key)
      if (!record || !(eligible(record.pool) && record.state !== undefined) || reread.has(key)) return
      reread.add(key)
      rereadReasons[reason] = (rereadReasons[reason] ?? 0) + 1
    }
    /** Not a pool's log: another contract (a fee module, a factory) may change pools' states. */
    const watch = (log: Log) => {
      for (const { dex, live } of watchers) {
        const changed = live.poolsChangedBy!(log, dex)
        if (!changed) continue
        const keys = changed.pools === 'all' ? [...held.values()].filter((r) => r.pool.dex === dex.id).map((r) => keyOf(r.pool)) : changed.pools.map(lower)
        for (const key of keys) rereadFor(key, changed.reason)
      }
    }
    const evaluate = new Set<string>()
    for (const log of logs) {
      const created = discoverPool(log, number)
      if (created) {
        if ('pool' in created && !current(keyOf(created.pool))) {
          changes.set(keyOf(created.pool), { pool: created.pool, state: undefined })
          if (eligible(created.pool)) reread.add(keyOf(created.pool))
        } else if ('skipped' in created) skipped.push({ address: created.address ?? lower(log.address), reason: created.skipped })
        continue
      }
      const key = keyOfLog(log)
      const record = key === undefined ? undefined : current(key)
      if (!record && watchers.length > 0) watch(log)
      if (!record || !eligible(record.pool) || reread.has(key!)) continue
      if (record.state === undefined) {
        // Untracked (below the threshold, or refused by the cap) and active: valued again, within the budget.
        if (!pendingEvaluation.has(key!)) evaluate.add(key!)
        continue
      }
      const outcome = applyLog(record, log)
      if (outcome.kind === 'next') {
        changes.set(key!, outcome.record)
        counters.logsApplied++
      } else if (outcome.kind === 'unchanged') counters.logsUnchanged++
      else {
        reread.add(key!)
        rereadReasons[outcome.reason] = (rereadReasons[outcome.reason] ?? 0) + 1
      }
    }
    // States that change with time alone (an Aerodrome V2 observation falling due): re-read once the time comes.
    for (const key of timed) if (records.get(key)!.rereadAt! <= Number(block.timestamp)) rereadFor(key, 'state due to change with time')
    let applyMs = performance.now() - applyStarted
    const evaluating = [...pendingEvaluation, ...evaluate].filter((key) => !reread.has(key) && records.has(key)).slice(0, evaluationsPerBlock)
    const toRead = [...reread, ...evaluating].flatMap((key) => {
      const record = current(key)
      return record && eligible(record.pool) ? [record.pool] : []
    })
    const read = await readPools(toRead, number)
    stillCurrent(mine)
    for (const record of read) changes.set(keyOf(record.pool), record)
    const commitStarted = performance.now()
    commit(number, block.hash, changes, false)
    applyMs += performance.now() - commitStarted
    lastBlock = { number, logs: logs.length, poolsChanged: changes.size, reads: toRead.length, applyMs }
    for (const key of consumed) needsRead.delete(key)
    for (const key of evaluate) pendingEvaluation.add(key)
    for (const key of evaluating) pendingEvaluation.delete(key)
    counters.blocksApplied++
  }

  /** Rolls back to the newest journal block still on the chain; every pool the dropped blocks touched is re-read next. */
  const rollBack = async (head: number, mine: number) => {
    let index = journal.length - 1
    for (; index >= 0; index--) {
      const entry = journal[index]!
      if (entry.number > head) continue
      const canonical = await getHeader(BigInt(entry.number))
      if (canonical.hash === entry.hash) break
    }
    stillCurrent(mine)
    // The newest block still canonical: nothing to undo (the chain moved on between two calls).
    if (index === journal.length - 1) return
    counters.reorgs++
    if (index < 0) {
      // Deeper than the journal: start over from discovery.
      counters.fullResyncs++
      initialized = false
      return
    }
    counters.deepestReorg = Math.max(counters.deepestReorg, journal.length - 1 - index)
    for (let i = journal.length - 1; i > index; i--) {
      for (const [key, previous] of journal[i]!.undo) {
        setRecord(key, previous)
        needsRead.add(key)
      }
    }
    journal = journal.slice(0, index + 1)
    // Only pools the restored state tracks are read again; the others were untracked before the dropped blocks too.
    for (const key of needsRead) if (records.get(key)?.state === undefined) needsRead.delete(key)
    view = undefined
  }

  const follow = async (mine: number): Promise<number> => {
    if (!initialized) await initialize(mine)
    for (;;) {
      const [head, gasPrice] = await Promise.all([getHeader('latest'), client.getGasPrice()])
      stillCurrent(mine)
      observedHead = Number(head.number)
      gasPriceWei = gasPrice
      const known = journal.find((e) => e.number === observedHead)
      if (known?.hash === head.hash && observedHead === applied()) break
      if ((known?.hash === head.hash || observedHead < (journal[0]?.number ?? 0)) && observedHead < applied()) {
        // The node answers a head behind the source's block on the source's own branch: a lagging
        // node (or a chain cut shorter, which looks the same). Never serve the older state as the
        // head; wait until the node is at the source's block again or shows another branch.
        throw unavailable(`The node's head ${observedHead} is behind the live source's block ${applied()}`)
      }
      if (known || observedHead < applied()) {
        await rollBack(observedHead, mine)
        if (!initialized) await initialize(mine)
        continue
      }
      // Forward, one block at a time, each checked against its parent.
      while (applied() < observedHead) {
        const next: Header = applied() + 1 === observedHead ? head : await getHeader(BigInt(applied() + 1))
        if (next.parentHash !== top()!.hash) {
          await rollBack(applied(), mine)
          if (!initialized) await initialize(mine)
          break
        }
        await advance(next, mine)
      }
    }
    if (needsRead.size > 0) {
      // Newly tracked pools while no block arrived: read at the source's block.
      const entry = top()!
      const consumed = [...needsRead]
      const pools = consumed.flatMap((key) => (records.get(key) && eligible(records.get(key)!.pool) ? [records.get(key)!.pool] : []))
      const read = await readPools(pools, entry.number)
      stillCurrent(mine)
      commit(entry.number, entry.hash, new Map(read.map((r) => [keyOf(r.pool), r])), true)
      for (const key of consumed) needsRead.delete(key)
    }
    return applied()
  }

  /** One sync at a time; one that gets no answer for `syncTimeoutMs` is abandoned (it can change nothing after) and fails with a 503. */
  const sync = (): Promise<number> => {
    if (running) return running
    const mine = epoch
    let timer: ReturnType<typeof setInterval> | undefined
    lastAnswerAt = Date.now()
    const timeout = new Promise<never>((_, reject) => {
      timer = setInterval(
        () => {
          if (Date.now() - lastAnswerAt <= syncTimeoutMs) return
          epoch++
          reject(new Error(`The node gave no answer for ${syncTimeoutMs} ms`))
        },
        Math.max(5, Math.ceil(syncTimeoutMs / 4)),
      )
    })
    running = Promise.race([follow(mine), timeout])
      .then(
        (block) => {
          lastError = undefined
          lastSyncAt = Date.now()
          return block
        },
        (error: unknown) => {
          lastError = error
          if (error instanceof QuoteError) throw error
          throw unavailable('The live source could not follow the chain', error)
        },
      )
      .finally(() => {
        clearInterval(timer)
        running = undefined
      })
    return running
  }

  /**
   * Adds tokens to the tracking list and schedules their pools' reads; returns the tokens added.
   * On demand, a token no discovered pool names is not remembered (quotes can name any address:
   * the list stays bounded by the discovered tokens); its first pool is tracked when a quote asks again.
   */
  const track = (list: readonly Address[]): Address[] => {
    const added: Address[] = []
    for (const token of list.map(lower)) {
      if (wanted.has(token) || (tracking.mode === 'onDemand' && !poolsOfToken.has(token))) continue
      wanted.add(token)
      added.push(token)
      for (const [key, record] of records) if (record.state === undefined && eligible(record.pool)) needsRead.add(key)
    }
    return added
  }

  return {
    async getLiquidity({ chain: requested, tokenIn, tokenOut }): Promise<Liquidity> {
      if (requested?.id !== chain.id) throw unavailable(`This live source serves chain ${chain.id}, not ${requested?.id}`)
      if (tracking.mode === 'onDemand') {
        const asked = [tokenIn, tokenOut].map(lower)
        const fresh = asked.filter((t) => !wanted.has(t) && !majors.has(t))
        const added = fresh.length > 0 ? track(fresh) : []
        const warming = [...needsRead].some((a) => {
          const pool = records.get(a)?.pool
          return pool && tokensOfDiscovered(pool).some((t) => asked.includes(t))
        })
        if (added.length > 0 || warming) throw unavailable('The live source starts tracking these tokens with the next block: retry then')
      }
      const answer = initialized ? currentView() : undefined
      if (!answer) throw unavailable('The live source has not synced yet')
      if (lastError !== undefined) throw unavailable('The live source lost its node', lastError)
      if (observedHead !== undefined && observedHead - answer.blockNumber > maxLagBlocks) {
        throw unavailable(`The live source is ${observedHead - answer.blockNumber} blocks behind the head`)
      }
      if (Date.now() - lastSyncAt > maxAgeMs) throw unavailable('The live source has not reached its node recently')
      return {
        chainId: chain.id,
        blockNumber: answer.blockNumber,
        // The same arrays (and state objects) until the next block: getQuote builds each unchanged pool once (buildPoolCached).
        tokens: answer.tokens,
        pools: answer.pools,
        ...(gasPriceWei !== undefined ? { gasPriceWei } : {}),
        report: { roundTrips: 0, requests: 0, skipped: [] },
      }
    },
    sync,
    start({ pollingInterval } = {}) {
      if (unwatch) return
      // A head announced while a sync runs may be newer than the head that sync read: one more sync
      // runs after it (however many heads come meanwhile). Joining the running sync instead would
      // leave the block unfollowed until the next head or heartbeat.
      let queued = false
      let watching = true
      const followHead = () => {
        if (running === undefined) return void sync().catch(() => undefined)
        if (queued) return
        queued = true
        void running
          .catch(() => undefined)
          .finally(() => {
            queued = false
            if (watching) void sync().catch(() => undefined)
          })
      }
      const stopWatching = client.watchBlockNumber({
        emitOnBegin: true,
        ...(pollingInterval !== undefined ? { pollingInterval } : {}),
        onBlockNumber: followHead,
        onError: (error) => (lastError = error),
      })
      // watchBlockNumber speaks only when the head moves. On a chain that makes no block for longer
      // than maxAgeMs (a quiet devnet or L2), a sync that finds the same head still proves the node
      // answers and renews the source's freshness, instead of turning every quote into a 503.
      const heartbeat = setInterval(() => void sync().catch(() => undefined), Math.max(250, Math.floor(maxAgeMs / 3)))
      unwatch = () => {
        watching = false
        stopWatching()
        clearInterval(heartbeat)
      }
    },
    stop() {
      unwatch?.()
      unwatch = undefined
    },
    track,
    checkpoint() {
      const entry = top()
      if (!entry || !initialized) throw unavailable('The live source has not synced yet')
      return {
        version: CHECKPOINT_VERSION,
        chainId: chain.id,
        blockNumber: entry.number,
        blockHash: entry.hash,
        tracked: [...wanted],
        tokens: [...tokens.values()],
        pools: [...records.values()].map(({ pool, state, liquidityGross, rereadAt }) => ({
          pool,
          state,
          ...(liquidityGross ? { liquidityGross: [...liquidityGross].map(([tick, gross]): [number, string] => [tick, gross.toString()]) } : {}),
          ...(rereadAt !== undefined ? { rereadAt } : {}),
        })),
      }
    },
    stats: () => ({
      blockNumber: top()?.number,
      blockHash: top()?.hash,
      observedHead,
      discovered: records.size,
      tracked: held.size,
      delivered: initialized ? (currentView()?.pools.length ?? 0) : 0,
      maxTrackedPools,
      evaluationsPending: pendingEvaluation.size,
      tokensKnown: tokens.size,
      ...counters,
      rereadReasons: { ...rereadReasons },
      unfollowedDexes: [...unfollowedDexes],
      skipped: [...skipped],
      lastBlock,
    }),
  }
}

const lower = (address: string) => address.toLowerCase() as Address
