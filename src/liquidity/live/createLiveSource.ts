import type { AbiEvent, Address, Hex, Log, PublicClient, Transport } from 'viem'
import type { ChainConfig, DexConfig } from '../../chains/types.js'
import { QuoteError, guarded, hostError, unavailable } from '../../errors/QuoteError.js'
import { defaultFamilies } from '../../protocols/defaultFamilies.js'
import type { PoolFamily, PoolStateBase } from '../../protocols/types.js'
import type { Liquidity, LiquiditySource, TokenMetadata } from '../types.js'
import { type DiscoveryOutcome, type LiveFamily, poolKeyOf, tokensOfDiscovered } from './liveFamily.js'
import { defaultLiveFamilies } from './liveFamilies.js'
import { readTokenMetadata } from '../readTokenMetadata.js'
import { readTrackedPools } from './readTrackedPools.js'
import type { DiscoveredPool, LogOutcome, TrackedPool } from './trackedPool.js'

/**
 * Which discovered pools the live source reads and follows:
 * - `all`: every pool the factories created (on mainnet, hundreds of thousands);
 * - `tokens`: pools whose two tokens are both in the list;
 * - `onDemand`: pools whose two tokens are both among the chain's major tokens and the tokens
 *   quotes have asked for (plus `tokens`). A quote naming a token not asked for before answers
 *   503 and the token's pools are read with the next block (or the next `sync()`): retry then.
 *
 * @example
 * const tracking: LiveTrackingPolicy = { mode: 'tokens', tokens: [weth, usdc, dai] }
 */
export type LiveTrackingPolicy =
  | { mode: 'all' }
  | { mode: 'tokens'; tokens: readonly Address[] }
  | { mode: 'onDemand'; tokens?: readonly Address[] }

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
  delivered: number
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
  /** Follows new blocks with viem's `watchBlockNumber` (polling or subscription) until `stop()`. */
  start(options?: { pollingInterval?: number }): void
  stop(): void
  /** Adds tokens to the tracking list (`tokens` and `onDemand` policies); their pools are read at the next sync. */
  track(tokens: readonly Address[]): void
  /** The state at the source's block, as JSON-safe data (see {@link LiveCheckpoint}). Throws a 503 before the first sync. */
  checkpoint(): LiveCheckpoint
  stats(): LiveSourceStats
}

/** The answer getLiquidity hands out, rebuilt once per block. */
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

/**
 * A liquidity source that follows the chain: it discovers the pools of the chain's dexes from
 * their creation events since `fromBlock` (each family's `LiveFamily`, see `defaultLiveFamilies`),
 * reads each tracked pool once with its family's reader, then follows every block through its
 * logs (`eth_getLogs` by block hash), applying each log exactly where its family can (V2 `Sync`;
 * V3 `Swap`, `Mint`, `Burn`) and re-reading a pool at the block where a log cannot be applied
 * exactly (see docs/guides/live-source.md). Reorgs are detected
 * through the parent-hash chain: the source rolls back to the common ancestor and re-reads every
 * pool the dropped blocks touched. `getLiquidity` answers from memory at the source's block with
 * 0 round trips; behind the head by more than `maxLagBlocks`, older than `maxAgeMs`, or after a
 * failed sync, it throws a 503 QuoteError instead of a stale answer.
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
  checkpoint,
}: CreateLiveSourceParameters): LiveSource {
  if (!(typeof fromBlock === 'bigint' || Number.isSafeInteger(fromBlock)) || BigInt(fromBlock) < 0n) throw hostError('createLiveSource: fromBlock must be a block number')
  for (const [name, value] of Object.entries({ maxLagBlocks, maxAgeMs, reorgDepth, logsBlockRange })) {
    if (!Number.isSafeInteger(value) || value < (name === 'maxLagBlocks' ? 0 : 1)) throw hostError(`createLiveSource: ${name} must be a positive integer`)
  }
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
  /** Families whose pools logs of other contracts change (fee modules, factories' fee settings). */
  const watchers = followed.flatMap((dex) => {
    const live = liveFamiliesById.get(dex.family)!
    return live.poolsChangedBy ? [{ dex, live }] : []
  })
  const discoverPool = (log: Log, blockNumber: number): DiscoveryOutcome => {
    for (const { dex, live } of creators.get(lower(log.address)) ?? []) {
      const outcome = live.discover(log, dex, blockNumber)
      if (outcome) return outcome
    }
    return undefined
  }
  /** The record key a state log belongs to: the pool id for a shared contract's log, else the emitter. */
  const keyOfLog = (log: Log): string | undefined => {
    const shared = sharedEmitters.get(lower(log.address))
    return shared ? shared.keyOfLog?.(log)?.toLowerCase() : lower(log.address)
  }
  const majors = new Set(chain.majorTokens.map(lower))
  const wanted = new Set<Address>('tokens' in tracking && tracking.tokens ? tracking.tokens.map(lower) : [])
  const isTracked = (pool: DiscoveredPool): boolean => {
    if (tracking.mode === 'all') return true
    const known = (token: Address) => wanted.has(token) || (tracking.mode === 'onDemand' && majors.has(token))
    return tokensOfDiscovered(pool).every(known)
  }

  const records = new Map<string, TrackedPool>()
  const tokens = new Map<Address, TokenMetadata>()
  for (const t of [...chain.tokens, chain.wrappedNative]) tokens.set(t.address, { ...t, transferFeeBps: 0 })
  let journal: JournalEntry[] = []
  /** Tracked pools to read at the next block (new to the tracking list, or touched by a reorg). */
  const needsRead = new Set<string>()
  let initialized = false
  let view: View | undefined
  let observedHead: number | undefined
  let lastSyncAt = 0
  let lastError: unknown
  let gasPriceWei: bigint | undefined
  let running: Promise<number> | undefined
  let unwatch: (() => void) | undefined
  const counters = { blocksApplied: 0, logsApplied: 0, logsUnchanged: 0, rereads: 0, reorgs: 0, deepestReorg: 0, fullResyncs: 0 }
  const rereadReasons: Record<string, number> = {}
  let lastBlock: LiveSourceStats['lastBlock']
  const skipped: { address: string; reason: string }[] = []

  if (checkpoint !== undefined) {
    if (checkpoint?.version !== CHECKPOINT_VERSION || checkpoint.chainId !== chain.id || !Array.isArray(checkpoint.pools) || !Array.isArray(checkpoint.tokens)) {
      throw hostError(`createLiveSource: the checkpoint is not a version ${CHECKPOINT_VERSION} checkpoint of chain ${chain.id}`)
    }
    for (const token of checkpoint.tracked ?? []) wanted.add(lower(token))
    for (const meta of checkpoint.tokens) tokens.set(lower(meta.address), meta)
    for (const { pool, state, liquidityGross, rereadAt } of checkpoint.pools) {
      records.set(poolKeyOf(pool), {
        pool,
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
    const { number, hash, parentHash, timestamp } = await client.getBlock(block === 'latest' ? { blockTag: 'latest' } : { blockNumber: block })
    return { number: number as bigint, hash: hash as Hex, parentHash: parentHash as Hex, timestamp }
  }
  const applied = () => top()?.number ?? -1

  const rebuildView = () => {
    const entry = top()
    if (!entry) {
      view = undefined
      return
    }
    const pools: PoolStateBase[] = []
    const touched = new Set<Address>()
    for (const record of records.values()) {
      if (!record.state || !isTracked(record.pool)) continue
      pools.push(record.state)
      for (const token of tokensOfDiscovered(record.pool)) touched.add(token)
    }
    view = { blockNumber: entry.number, pools, tokens: [...touched].flatMap((t) => tokens.get(t) ?? []) }
  }

  /** Reads `pools` at `blockNumber` and the metadata of tokens not described yet. */
  const readPools = async (pools: readonly DiscoveredPool[], blockNumber: number): Promise<TrackedPool[]> => {
    if (pools.length === 0) return []
    const read = await readTrackedPools({ client, chain, families: familiesById, liveFamilies: liveFamiliesById, pools, blockNumber: BigInt(blockNumber) })
    const delivered = read.filter((r) => r.state)
    const unknown = [...new Set(delivered.flatMap((r) => tokensOfDiscovered(r.pool)))].filter((t) => !tokens.has(t))
    if (unknown.length > 0) {
      const partners = [...new Set([...delivered.flatMap((r) => tokensOfDiscovered(r.pool)), ...majors])]
      for (const meta of await readTokenMetadata(client, chain, unknown, partners, BigInt(blockNumber))) tokens.set(meta.address, meta)
    }
    counters.rereads += pools.length
    return read
  }

  /** Makes `changes` the state at block `number`: one synchronous step, so a quote never sees half a block. */
  const commit = (number: number, hash: Hex, changes: ReadonlyMap<string, TrackedPool | undefined>, mergeIntoTop: boolean) => {
    const entry: JournalEntry = mergeIntoTop && top()?.number === number ? top()! : { number, hash, undo: new Map() }
    for (const [address, record] of changes) {
      if (!entry.undo.has(address)) entry.undo.set(address, records.get(address))
      if (record) records.set(address, record)
      else records.delete(address)
    }
    if (entry !== top()) journal.push(entry)
    if (journal.length > reorgDepth + 1) journal = journal.slice(journal.length - reorgDepth - 1)
    rebuildView()
  }

  const discoverRange = async (from: bigint, to: bigint): Promise<DiscoveredPool[]> => {
    const found: DiscoveredPool[] = []
    if (creators.size === 0) return found
    for (let start = from; start <= to; start += BigInt(logsBlockRange)) {
      const end = start + BigInt(logsBlockRange) - 1n < to ? start + BigInt(logsBlockRange) - 1n : to
      const logs = await client.getLogs({ address: [...creators.keys()], events: [...creationEvents.values()], fromBlock: start, toBlock: end })
      logs.sort((a, b) => Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n)) || (a.logIndex ?? 0) - (b.logIndex ?? 0))
      for (const log of logs) {
        const outcome = discoverPool(log as Log, Number(log.blockNumber))
        if (outcome && 'pool' in outcome) found.push(outcome.pool)
        else if (outcome) skipped.push({ address: outcome.address ?? log.address, reason: outcome.skipped })
      }
    }
    return found
  }

  /** Discovery from `fromBlock` to the head, then one full read of every tracked pool at the head. */
  const initialize = async () => {
    const head = await getHeader('latest')
    const pools = await discoverRange(BigInt(fromBlock), head.number)
    const read = await readPools(pools.filter(isTracked), Number(head.number))
    records.clear()
    journal = []
    needsRead.clear()
    for (const pool of pools) records.set(poolKeyOf(pool), { pool, state: undefined })
    commit(Number(head.number), head.hash, new Map(read.map((r) => [poolKeyOf(r.pool), r])), false)
    initialized = true
  }

  const applyLog = (record: TrackedPool, log: Log): LogOutcome =>
    liveFamiliesById.get(record.pool.family)?.applyLog(record, log) ?? { kind: 'reread', reason: `${record.pool.family} logs are not applied` }

  /** Applies block `block` (whose parent is the source's block) through its logs. */
  const advance = async (block: Header) => {
    const number = Number(block.number)
    const logs = await client.getLogs({ blockHash: block.hash })
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
      if (!record || !(isTracked(record.pool)) || reread.has(key)) return
      reread.add(key)
      rereadReasons[reason] = (rereadReasons[reason] ?? 0) + 1
    }
    /** Not a pool's log: another contract (a fee module, a factory) may change pools' states. */
    const watch = (log: Log) => {
      for (const { dex, live } of watchers) {
        const changed = live.poolsChangedBy!(log, dex)
        if (!changed) continue
        const keys = changed.pools === 'all' ? [...records.keys()].filter((key) => records.get(key)!.pool.dex === dex.id) : changed.pools.map(lower)
        for (const key of keys) rereadFor(key, changed.reason)
      }
    }
    for (const log of logs) {
      const created = discoverPool(log, number)
      if (created) {
        if ('pool' in created && !current(poolKeyOf(created.pool))) {
          changes.set(poolKeyOf(created.pool), { pool: created.pool, state: undefined })
          if (isTracked(created.pool)) reread.add(poolKeyOf(created.pool))
        } else if ('skipped' in created) skipped.push({ address: created.address ?? lower(log.address), reason: created.skipped })
        continue
      }
      const key = keyOfLog(log)
      const record = key === undefined ? undefined : current(key)
      if (!record && watchers.length > 0) watch(log)
      if (!record || !isTracked(record.pool) || reread.has(key!)) continue
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
    for (const [key, record] of records) {
      if (record.rereadAt !== undefined && record.rereadAt <= Number(block.timestamp)) rereadFor(key, 'state due to change with time')
    }
    let applyMs = performance.now() - applyStarted
    const toRead = [...reread].flatMap((key) => {
      const record = current(key)
      return record && isTracked(record.pool) ? [record.pool] : []
    })
    for (const record of await readPools(toRead, number)) changes.set(poolKeyOf(record.pool), record)
    const commitStarted = performance.now()
    commit(number, block.hash, changes, false)
    applyMs += performance.now() - commitStarted
    lastBlock = { number, logs: logs.length, poolsChanged: changes.size, reads: toRead.length, applyMs }
    for (const address of consumed) needsRead.delete(address)
    counters.blocksApplied++
  }

  /** Rolls back to the newest journal block still on the chain; every pool the dropped blocks touched is re-read next. */
  const rollBack = async (head: number) => {
    let index = journal.length - 1
    for (; index >= 0; index--) {
      const entry = journal[index]!
      if (entry.number > head) continue
      const canonical = await getHeader(BigInt(entry.number))
      if (canonical.hash === entry.hash) break
    }
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
      for (const [address, previous] of journal[i]!.undo) {
        if (previous) records.set(address, previous)
        else records.delete(address)
        needsRead.add(address)
      }
    }
    journal = journal.slice(0, index + 1)
    for (const address of needsRead) if (!records.has(address)) needsRead.delete(address)
    rebuildView()
  }

  const follow = async (): Promise<number> => {
    try {
      if (!initialized) await initialize()
      for (;;) {
        const [head, gasPrice] = await Promise.all([getHeader('latest'), client.getGasPrice()])
        observedHead = Number(head.number)
        gasPriceWei = gasPrice
        const known = journal.find((e) => e.number === observedHead)
        if (known?.hash === head.hash && observedHead === applied()) break
        if (known || observedHead < applied()) {
          await rollBack(observedHead)
          if (!initialized) await initialize()
          continue
        }
        // Forward, one block at a time, each checked against its parent.
        while (applied() < observedHead) {
          const next: Header = applied() + 1 === observedHead ? head : await getHeader(BigInt(applied() + 1))
          if (next.parentHash !== top()!.hash) {
            await rollBack(applied())
            if (!initialized) await initialize()
            break
          }
          await advance(next)
        }
      }
      if (needsRead.size > 0) {
        // Newly tracked pools while no block arrived: read at the source's block.
        const entry = top()!
        const consumed = [...needsRead]
        const pools = consumed.flatMap((a) => (records.get(a) && isTracked(records.get(a)!.pool) ? [records.get(a)!.pool] : []))
        const read = await readPools(pools, entry.number)
        commit(entry.number, entry.hash, new Map(read.map((r) => [poolKeyOf(r.pool), r])), true)
        for (const address of consumed) needsRead.delete(address)
      }
      lastError = undefined
      lastSyncAt = Date.now()
      return applied()
    } catch (error) {
      lastError = error
      if (error instanceof QuoteError) throw error
      throw unavailable('The live source could not follow the chain', error)
    }
  }

  const sync = (): Promise<number> => {
    if (!running) running = follow().finally(() => (running = undefined))
    return running
  }

  const track = (list: readonly Address[]) => {
    for (const token of list.map(lower)) {
      if (wanted.has(token)) continue
      wanted.add(token)
      for (const [key, record] of records) if (record.state === undefined && isTracked(record.pool)) needsRead.add(key)
    }
  }

  if (checkpoint !== undefined) rebuildView()

  return {
    async getLiquidity({ chain: requested, tokenIn, tokenOut }): Promise<Liquidity> {
      if (requested?.id !== chain.id) throw unavailable(`This live source serves chain ${chain.id}, not ${requested?.id}`)
      if (tracking.mode === 'onDemand') {
        const asked = [tokenIn, tokenOut].map(lower)
        const fresh = asked.filter((t) => !wanted.has(t) && !majors.has(t))
        if (fresh.length > 0) track(fresh)
        const warming = [...needsRead].some((a) => {
          const pool = records.get(a)?.pool
          return pool && tokensOfDiscovered(pool).some((t) => asked.includes(t))
        })
        if (fresh.length > 0 || warming) throw unavailable('The live source starts tracking these tokens with the next block: retry then')
      }
      if (!view) throw unavailable('The live source has not synced yet')
      if (lastError !== undefined) throw unavailable('The live source lost its node', lastError)
      if (observedHead !== undefined && observedHead - view.blockNumber > maxLagBlocks) {
        throw unavailable(`The live source is ${observedHead - view.blockNumber} blocks behind the head`)
      }
      if (Date.now() - lastSyncAt > maxAgeMs) throw unavailable('The live source has not reached its node recently')
      return {
        chainId: chain.id,
        blockNumber: view.blockNumber,
        tokens: [...view.tokens],
        pools: [...view.pools],
        ...(gasPriceWei !== undefined ? { gasPriceWei } : {}),
        report: { roundTrips: 0, requests: 0, skipped: [] },
      }
    },
    sync,
    start({ pollingInterval } = {}) {
      if (unwatch) return
      unwatch = client.watchBlockNumber({
        emitOnBegin: true,
        ...(pollingInterval !== undefined ? { pollingInterval } : {}),
        onBlockNumber: () => void sync().catch(() => undefined),
        onError: (error) => (lastError = error),
      })
    },
    stop() {
      unwatch?.()
      unwatch = undefined
    },
    track,
    checkpoint() {
      const entry = top()
      if (!entry) throw unavailable('The live source has not synced yet')
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
      delivered: view?.pools.length ?? 0,
      ...counters,
      rereadReasons: { ...rereadReasons },
      unfollowedDexes: [...unfollowedDexes],
      skipped: [...skipped],
      lastBlock,
    }),
  }
}

const lower = (address: string) => address.toLowerCase() as Address
