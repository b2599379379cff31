// One chain's live source in the server's main thread: it follows the node, saves its state to a
// checkpoint file now and then (and on close), and loads it on start, so a restart is warm.
import { readFileSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { type PublicClient, createPublicClient, http, webSocket } from 'viem'
import { type ChainConfig, type LiveCheckpoint, type LiveSource, type LiveTrackingPolicy, createLiveSource } from '../../src/index.js'
import type { LogEntry } from './config.js'

/** Settings of {@link followLiveChain}. */
export type FollowLiveChainParameters = {
  chain: ChainConfig
  rpcUrl: string
  fromBlock: number
  tracking?: LiveTrackingPolicy
  /** Where the checkpoint is kept (null: none; every start discovers from `fromBlock`). */
  checkpointFile: string | null
  /** Save the checkpoint after this many new blocks. */
  checkpointEveryBlocks: number
  pollingIntervalMs: number
  maxLagBlocks?: number
  maxAgeMs?: number
  timeoutMs?: number
  retryCount?: number
  log: (level: LogEntry['level'], msg: string, fields?: Record<string, unknown>) => void
}

/** What /healthz tells of one followed chain. */
export type LiveChainHealth = {
  blockNumber: number | null
  head: number | null
  /** The block of the checkpoint this process started from; null: it discovered from `fromBlock`. */
  resumedFrom: number | null
  pools: number
  lastError: string | null
  lastCheckpoint: { blockNumber: number; bytes: number; ms: number } | null
}

/** A followed chain: its source, its health, and how to stop it. */
export type LiveChain = {
  source: LiveSource
  health(): LiveChainHealth
  /** Stops following and writes a last checkpoint. */
  close(): Promise<void>
}

/**
 * Creates the chain's live source (from its checkpoint file when there is a usable one), then
 * syncs it every `pollingIntervalMs` (the first sync at once), writing the checkpoint every
 * `checkpointEveryBlocks` blocks. Over a WebSocket (`ws://`, `wss://`) each new head the node
 * announces starts a sync at once (one announced during a sync starts another right after it), and
 * the poll is the fallback. A failed sync is logged; the source answers 503 meanwhile.
 *
 * @example
 * const live = followLiveChain({ chain, rpcUrl, fromBlock: 0, checkpointFile: 'live-8453.json', checkpointEveryBlocks: 50, pollingIntervalMs: 1000, log })
 */
export function followLiveChain(parameters: FollowLiveChainParameters): LiveChain {
  const { chain, rpcUrl, fromBlock, tracking, checkpointFile, checkpointEveryBlocks, pollingIntervalMs, maxLagBlocks, maxAgeMs, timeoutMs, retryCount, log } = parameters
  // Over a WebSocket the node announces new heads (eth_subscribe), which drive the syncs.
  const socketClient = /^wss?:/.test(rpcUrl) ? createPublicClient({ transport: webSocket(rpcUrl, { timeout: timeoutMs ?? 10_000 }) }) : undefined
  const client = (socketClient ?? createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs ?? 10_000, retryCount: retryCount ?? 2 }) })) as PublicClient
  const settings = { client, chain, fromBlock: BigInt(fromBlock), ...(tracking ? { tracking } : {}), ...(maxLagBlocks !== undefined ? { maxLagBlocks } : {}), ...(maxAgeMs !== undefined ? { maxAgeMs } : {}) }

  let checkpoint: LiveCheckpoint | undefined
  if (checkpointFile !== null) {
    try {
      checkpoint = JSON.parse(readFileSync(checkpointFile, 'utf8')) as LiveCheckpoint
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log('warn', 'live checkpoint unreadable: discovering instead', { chainId: chain.id, file: checkpointFile, error: String(error) })
    }
  }
  let source: LiveSource
  let resumedFrom: number | null = null
  try {
    source = createLiveSource({ ...settings, ...(checkpoint ? { checkpoint } : {}) })
    if (checkpoint) {
      resumedFrom = checkpoint.blockNumber
      log('info', 'live checkpoint loaded', { chainId: chain.id, blockNumber: checkpoint.blockNumber, pools: checkpoint.pools.length })
    }
  } catch (error) {
    // A checkpoint of another chain or format: start over rather than refuse to start.
    log('warn', 'live checkpoint refused: discovering instead', { chainId: chain.id, error: String(error) })
    source = createLiveSource(settings)
  }

  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let busy = false
  /** A new head was announced while a sync was in flight: that sync may have read the head before it. */
  let again = false
  let lastError: string | null = null
  let savedBlock = resumedFrom ?? -1
  let lastCheckpoint: LiveChainHealth['lastCheckpoint'] = null

  const save = async () => {
    if (checkpointFile === null) return
    const blockNumber = source.stats().blockNumber
    if (blockNumber === undefined || blockNumber === savedBlock) return
    const started = performance.now()
    const text = JSON.stringify(source.checkpoint())
    // Written beside, then renamed: a crash mid-write never leaves half a checkpoint.
    await writeFile(`${checkpointFile}.tmp`, text)
    await rename(`${checkpointFile}.tmp`, checkpointFile)
    savedBlock = blockNumber
    lastCheckpoint = { blockNumber, bytes: text.length, ms: Math.round(performance.now() - started) }
  }

  const tick = async () => {
    try {
      const started = performance.now()
      const before = source.stats().blockNumber
      const blockNumber = await source.sync()
      if (lastError !== null || before === undefined) log('info', 'live source synced', { chainId: chain.id, blockNumber, pools: source.stats().delivered, ms: Math.round(performance.now() - started) })
      lastError = null
      if (blockNumber - savedBlock >= checkpointEveryBlocks) await save()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (message !== lastError) log('warn', 'live source sync failed', { chainId: chain.id, error: message })
      lastError = message
    }
  }
  const loop = () => {
    if (stopped) return
    if (busy) {
      // Sync once more right after this one: dropping the announcement would leave the block
      // unfollowed until the fallback poll, a whole polling interval on a quiet chain.
      again = true
      return
    }
    clearTimeout(timer)
    busy = true
    again = false
    running = tick().finally(() => {
      busy = false
      if (stopped) return
      if (again) loop()
      else timer = setTimeout(loop, pollingIntervalMs)
    })
  }
  loop()
  // New heads drive the syncs; the poll stays as the fallback when a subscription goes quiet. The
  // first sync started before the subscription was live, so one more runs once it is: a block made
  // in between is announced to nobody.
  let unsubscribe: (() => Promise<unknown>) | undefined
  socketClient?.transport
    .subscribe({ params: ['newHeads'], onData: loop })
    .then((subscription) => {
      unsubscribe = subscription.unsubscribe
      if (stopped) subscription.unsubscribe().catch(() => undefined)
      else loop()
    })
    .catch((error: unknown) => log('warn', 'live new-heads subscription failed: following by polling only', { chainId: chain.id, error: String(error) }))

  return {
    source,
    health() {
      const stats = source.stats()
      return {
        blockNumber: stats.blockNumber ?? null,
        head: stats.observedHead ?? null,
        resumedFrom,
        pools: stats.delivered,
        lastError,
        lastCheckpoint,
      }
    },
    async close() {
      stopped = true
      // Not awaited: a node already gone never answers it, and the close must not wait for one.
      unsubscribe?.().catch(() => undefined)
      clearTimeout(timer)
      await running
      await save().catch((error: unknown) => log('warn', 'live checkpoint not written', { chainId: chain.id, error: String(error) }))
    },
  }
}
