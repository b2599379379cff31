import { readFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { type AppConfig, type ChainConfig, createBoundedCache, type LiquiditySource, QuoteError, type QuoteIntent, type Snapshot } from '../../src/index.js'
import { createLiquiditySender } from './liquidityRelay.js'
import type { ParentMessage, SerializedError, WorkerMessage } from './quoteWorkerMessages.js'

/** Which queue a quote waits in: heavy quotes may never take the last free worker. */
export type QuoteLane = 'light' | 'heavy'

/** Why the pool refused or cut a quote (the `reason` label of `weft_quote_overload_total`). */
export type OverloadReason = 'queue_full' | 'queue_wait' | 'budget' | 'closing'

/** A 503 `unavailable` from the pool: the server is saturated or the quote ran past its budget. */
export class OverloadError extends QuoteError {
  override readonly name = 'OverloadError'
  constructor(
    readonly reason: OverloadReason,
    message: string,
  ) {
    super({ statusCode: 503, message })
  }
}

/** Settings of {@link createQuotePool}. */
export type CreateQuotePoolParameters = {
  /** Worker threads (at least 2, so heavy quotes always leave one for light ones). */
  workers: number
  /**
   * Time one quote may take in its worker; past it the worker is replaced and the answer is 503.
   * CPU time of the worker thread where Linux reports it (at most 4 times as much wall time),
   * else wall time.
   */
  budgetMs: number
  /** Light quotes waiting at most; one more is refused at once with 503. */
  maxQueue: number
  /** Heavy quotes waiting at most. */
  maxHeavyQueue: number
  /** A quote that waited this long for a worker is refused with 503 (it would be stale anyway). */
  maxQueueWaitMs: number
  /** A request shape or caller whose quotes averaged more than this (ms) goes to the heavy lane. */
  heavyQuoteMs: number
  /** Chains the workers quote on (plain data: it is copied to each worker). */
  chains: readonly ChainConfig[]
  /**
   * Snapshots the workers load themselves (`'default'`: weft's embedded one, imported by each
   * worker rather than copied); null: every liquidity read goes to `source` in this thread.
   */
  snapshots: readonly Snapshot[] | 'default' | null
  /** The liquidity source used for reads when `snapshots` is null. */
  source: LiquiditySource
  /**
   * How answers of `source` reach a worker: `relay` (default) sends only the pool states the
   * worker does not hold yet (liquidityRelay.ts), so a source that hands out the same objects
   * (the live source) costs one copy per changed pool per worker, and the worker's pool builds
   * survive from quote to quote; `copy` clones the whole answer for every quote.
   */
  transfer?: 'relay' | 'copy'
  /** Called when a worker is replaced (budget exceeded or crashed). */
  onWorkerReplaced?: (why: string) => void
}

/** What a finished quote gives back: the Quote as JSON, the worker's compute time, and its lane. */
export type PooledQuote = { body: string; computeMs: number; lane: QuoteLane }

/** A pool of quote workers with two bounded queues. */
export type QuotePool = {
  /** Resolves once every first worker has loaded weft and its liquidity (a few hundred ms each). */
  ready: Promise<void>
  /** Runs `getQuote` in a worker. Rejects with a QuoteError (503 `OverloadError` when saturated or over budget). */
  quote(job: { intent: QuoteIntent; apps: Record<string, AppConfig>; callerKey: string }): Promise<PooledQuote>
  /** Workers busy and quotes waiting, per lane. */
  stats(): { workers: number; busy: number; queued: Record<QuoteLane, number> }
  /** Refuses what waits, terminates the workers. */
  close(): Promise<void>
}

type Job = {
  id: number
  lane: QuoteLane
  message: Extract<ParentMessage, { type: 'quote' }>
  shapeKey: string
  callerKey: string
  resolve: (quote: PooledQuote) => void
  reject: (error: unknown) => void
  timer: ReturnType<typeof setTimeout> | null
}

/**
 * A worker and what it runs. The first is the foreground worker: light quotes only, at
 * normal priority. The others are background workers: light quotes when the foreground
 * one is busy, and every heavy quote, at a lower OS priority (nice 10, set per thread), so
 * under CPU contention a heavy quote yields to the event loop and to light quotes.
 */
type Slot = {
  worker: Worker
  ready: boolean
  job: Job | null
  started: Promise<void>
  background: boolean
  /** The worker thread's schedstat file (Linux): its CPU time, so the budget counts CPU, not waiting for a core. */
  cpuFile: string | null
  /** What this worker holds of the source's answers. */
  sender: ReturnType<typeof createLiquiditySender>
}

/** Weight of the newest measurement in a running average of quote times. */
const COST_SMOOTHING = 0.3
/** Recent quote times kept for the median, and how often it is recomputed (every so many quotes). */
const RECENT_QUOTES = 256
const MEDIAN_EVERY = 16
/** A CPU-time budget is also cut at this multiple of it in wall time. */
const WALL_BUDGET_FACTOR = 4
/** Shortest wait before checking a quote's CPU time again. */
const MIN_RECHECK_MS = 10
/** A shape is heavy past this multiple of the median recent quote time (and past `heavyQuoteMs`). */
const HEAVY_OVER_MEDIAN = 5

/**
 * A pool of `worker_threads` running `getQuote`, so that a slow quote takes a
 * worker and never the event loop: requests keep being parsed, rate-limited
 * and answered while quotes run. Every quote has a wall-time budget; past it
 * the worker is terminated (the only way to stop synchronous code), replaced,
 * and the request answered 503. Two bounded queues: a quote whose request
 * shape (chain, pair, direction, amount magnitude) has been slow on average,
 * or a new shape that is exact output or comes from a caller whose quotes have
 * been slow, is heavy; heavy
 * quotes run only on the background workers (all but the first, at a lower OS
 * priority), so light ones (a plain WETH→USDC) always find one. A full queue
 * answers 503 at once.
 *
 * @example
 * const pool = createQuotePool({ workers: 2, budgetMs: 1500, maxQueue: 64, maxHeavyQueue: 8, maxQueueWaitMs: 1500, heavyQuoteMs: 50, chains, snapshots: defaultSnapshot, source })
 * const { body } = await pool.quote({ intent, apps: {}, callerKey: 'address:203.0.113.7' })
 * await pool.close()
 */
export function createQuotePool(settings: CreateQuotePoolParameters): QuotePool {
  const { workers, budgetMs, maxQueue, maxHeavyQueue, maxQueueWaitMs, heavyQuoteMs, chains, snapshots, source, transfer = 'relay' } = settings
  const queues: Record<QuoteLane, Job[]> = { light: [], heavy: [] }
  const slots: Slot[] = []
  const costs = createBoundedCache<string, number>({ maxEntries: 10_000, ttlMs: 10 * 60_000 })
  // Quote costs are the worker thread's CPU time where Linux tells it, else wall time, which
  // grows on a busy machine. So "heavy" is relative as well: above `heavyQuoteMs` AND above a
  // multiple of the median recent quote.
  const recent = new Array<number>(RECENT_QUOTES).fill(0)
  let recentCount = 0
  let heavyThresholdMs = heavyQuoteMs
  let nextJobId = 0
  let closed = false

  const entry = new URL('./quoteWorker.ts', import.meta.url).href
  const bootstrap = new URL('./startQuoteWorker.mjs', import.meta.url)

  function spawn(background: boolean): Slot {
    const worker = new Worker(bootstrap, { workerData: { entry, chains, snapshots, background } })
    let started!: () => void
    const slot: Slot = {
      worker,
      ready: false,
      job: null,
      started: new Promise<void>((resolve) => (started = resolve)),
      background,
      cpuFile: null,
      sender: createLiquiditySender(),
    }
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') started()
      onMessage(slot, message)
    })
    worker.once('exit', () => started())
    worker.on('error', (error) => replace(slot, `worker error: ${error.message}`))
    worker.on('exit', (code) => {
      if (!closed && slots.includes(slot)) replace(slot, `worker exited with code ${code}`)
    })
    return slot
  }

  /** Replaces a worker that ran past a budget or died; the quote it held fails. */
  function replace(slot: Slot, why: string) {
    const index = slots.indexOf(slot)
    if (index < 0 || closed) return
    slots[index] = spawn(slot.background)
    const job = slot.job
    slot.job = null
    void slot.worker.terminate()
    settings.onWorkerReplaced?.(why)
    if (job) {
      clearTimeout(job.timer ?? undefined)
      job.reject(new QuoteError({ statusCode: 500, message: 'Internal error', cause: new Error(why) }))
    }
  }

  function onMessage(slot: Slot, message: WorkerMessage) {
    if (message.type === 'ready') {
      slot.ready = true
      slot.cpuFile = message.cpuFile
      pump()
    } else if (message.type === 'liquidity') {
      const reply = (answer: ParentMessage) => {
        if (slots.includes(slot)) slot.worker.postMessage(answer)
      }
      source.getLiquidity(message.request).then(
        // Encoded as it is posted: the sender's memory of the worker follows the order of its messages.
        (liquidity) => {
          const relayed = transfer === 'relay' ? slot.sender.encode(liquidity) : undefined
          reply(
            relayed
              ? { type: 'liquidity', id: message.id, ok: true, relayed: true, liquidity: relayed }
              : { type: 'liquidity', id: message.id, ok: true, relayed: false, liquidity },
          )
        },
        (error: unknown) => reply({ type: 'liquidity', id: message.id, ok: false, error: serializeError(error) }),
      )
    } else {
      const job = slot.job
      if (!job || job.id !== message.id) return
      slot.job = null
      clearTimeout(job.timer ?? undefined)
      learn(job, message.computeMs)
      if (message.ok) job.resolve({ body: message.body, computeMs: message.computeMs, lane: job.lane })
      else job.reject(deserializeError(message.error))
      pump()
    }
  }

  /** Starts waiting jobs on idle workers, foreground first: light ones anywhere, heavy ones on background workers only. */
  function pump() {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue
      const job = queues.light.shift() ?? (slot.background ? queues.heavy.shift() : undefined)
      if (!job) continue
      clearTimeout(job.timer ?? undefined)
      slot.job = job
      const startedAt = performance.now()
      const cpuStart = readCpuMs(slot.cpuFile)
      const check = () => {
        // Where the thread's CPU time is known, the budget is CPU time (a quote that waited for
        // a core on a busy machine gets the rest), capped at a multiple of it in wall time.
        const cpuUsed = cpuStart === null ? null : (readCpuMs(slot.cpuFile) ?? budgetMs) - cpuStart
        const wallUsed = performance.now() - startedAt
        if (cpuUsed !== null && cpuUsed < budgetMs && wallUsed < budgetMs * WALL_BUDGET_FACTOR) {
          job.timer = setTimeout(check, Math.max(MIN_RECHECK_MS, budgetMs - cpuUsed))
          return
        }
        learn(job, budgetMs)
        job.reject(new OverloadError('budget', `Quote exceeded the server's time budget of ${budgetMs} ms`))
        slot.job = null
        replace(slot, `quote ran past its ${budgetMs} ms budget`)
        pump()
      }
      job.timer = setTimeout(check, budgetMs)
      slot.worker.postMessage(job.message)
    }
  }

  /** Whether a quote of `lane` would start at once (nothing ahead of it, an idle worker it may take). */
  function canStartNow(lane: QuoteLane): boolean {
    const idle = slots.some((slot) => slot.ready && !slot.job && (lane === 'light' || slot.background))
    return idle && queues.light.length === 0 && (lane === 'light' || queues.heavy.length === 0)
  }

  function learn(job: Job, ms: number) {
    for (const key of [job.shapeKey, job.callerKey]) {
      const previous = costs.get(key)
      costs.set(key, previous === undefined ? ms : previous * (1 - COST_SMOOTHING) + ms * COST_SMOOTHING)
    }
    recent[recentCount++ % RECENT_QUOTES] = ms
    if (recentCount % MEDIAN_EVERY === 0) {
      const sorted = recent.slice(0, Math.min(recentCount, RECENT_QUOTES)).sort((a, b) => a - b)
      heavyThresholdMs = Math.max(heavyQuoteMs, HEAVY_OVER_MEDIAN * sorted[sorted.length >> 1]!)
    }
  }

  /**
   * A known shape is judged by its own average (so a plain quote stays light whoever asks);
   * a new one is heavy when it is exact output or its caller's quotes have been slow, so a
   * caller probing new shapes after a slow one does not get the light lane.
   */
  function laneOf(shapeKey: string, callerKey: string, exactOut: boolean): QuoteLane {
    const shapeCost = costs.get(shapeKey)
    if (shapeCost !== undefined) return shapeCost > heavyThresholdMs ? 'heavy' : 'light'
    const callerCost = costs.get(callerKey) ?? 0
    return exactOut || callerCost > heavyThresholdMs ? 'heavy' : 'light'
  }

  for (let i = 0; i < workers; i++) slots.push(spawn(i > 0))
  const ready = Promise.all(slots.map((slot) => slot.started)).then(() => {})

  return {
    ready,
    quote({ intent, apps, callerKey }) {
      if (closed) return Promise.reject(new OverloadError('closing', 'Server is shutting down'))
      const exactOut = intent.sellAmount === undefined
      const amount = intent.sellAmount ?? intent.buyAmount ?? 0n
      const shapeKey = `shape:${intent.chainId}:${intent.sellToken}:${intent.buyToken}:${exactOut ? 'out' : 'in'}:${amount.toString().length}`
      const lane = laneOf(shapeKey, `caller:${callerKey}`, exactOut)
      const queue = queues[lane]
      if (!canStartNow(lane) && queue.length >= (lane === 'heavy' ? maxHeavyQueue : maxQueue))
        return Promise.reject(new OverloadError('queue_full', `Server busy: ${queue.length} ${lane} quotes waiting; retry shortly`))
      return new Promise<PooledQuote>((resolve, reject) => {
        const id = nextJobId++
        const job: Job = {
          id,
          lane,
          message: { type: 'quote', id, intent, apps },
          shapeKey,
          callerKey: `caller:${callerKey}`,
          resolve,
          reject,
          timer: null,
        }
        job.timer = setTimeout(() => {
          const index = queue.indexOf(job)
          if (index < 0) return
          queue.splice(index, 1)
          reject(new OverloadError('queue_wait', `Server busy: no worker free within ${maxQueueWaitMs} ms; retry shortly`))
        }, maxQueueWaitMs)
        queue.push(job)
        pump()
      })
    },
    stats() {
      return { workers: slots.length, busy: slots.filter((s) => s.job).length, queued: { light: queues.light.length, heavy: queues.heavy.length } }
    },
    async close() {
      closed = true
      for (const queue of Object.values(queues))
        for (const job of queue.splice(0)) {
          clearTimeout(job.timer ?? undefined)
          job.reject(new OverloadError('closing', 'Server is shutting down'))
        }
      await Promise.all(slots.map((slot) => slot.worker.terminate()))
    },
  }
}

/** A thread's CPU time in ms from its schedstat file; null when there is none. */
function readCpuMs(file: string | null): number | null {
  if (file === null) return null
  try {
    return Number(readFileSync(file, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return null
  }
}

function serializeError(error: unknown): SerializedError {
  const base = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { name: 'Error', message: String(error) }
  return error instanceof QuoteError ? { ...base, quoteError: error.toJSON() } : base
}

/** A worker's error back as a QuoteError (a non-QuoteError from getQuote cannot happen, but becomes a 500 with its cause). */
function deserializeError(error: SerializedError): QuoteError {
  const cause = error.cause ? Object.assign(new Error(error.cause.message), { name: error.cause.name, stack: error.cause.stack }) : undefined
  if (error.quoteError) {
    const { statusCode, message, details } = error.quoteError
    return new QuoteError({ statusCode, message, details, ...(cause ? { cause } : {}) })
  }
  return new QuoteError({ statusCode: 500, message: 'Internal error', cause: Object.assign(new Error(error.message), { name: error.name, stack: error.stack }) })
}
