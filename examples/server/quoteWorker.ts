// One quote worker thread: runs getQuote for the main thread (createQuotePool.ts),
// so a long quote occupies this thread, never the event loop that answers HTTP.
// Snapshots are loaded here; any other liquidity source stays in the main thread
// and is reached through messages (its I/O and caches are shared by all workers).
import { readFileSync, readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import {
  type AppConfig,
  type ChainConfig,
  type Liquidity,
  type LiquidityRequest,
  type LiquiditySource,
  QuoteError,
  type QuoteIntent,
  type Snapshot,
  createSnapshotSource,
  getQuote,
} from '../../src/index.js'
import { createLiquidityReceiver } from './liquidityRelay.js'
import type { ParentMessage, SerializedError, WorkerMessage } from './quoteWorkerMessages.js'

const port = parentPort!
const { chains, snapshots, background } = workerData as {
  chains: readonly ChainConfig[]
  snapshots: readonly Snapshot[] | 'default' | null
  background: boolean
  entry: string
}
// A background worker runs heavy quotes: a lower priority for this thread only (Linux nices
// threads one by one), so under CPU contention it yields to the event loop and light quotes.
if (background) {
  try {
    setPriority(0, 10)
  } catch {
    // Not permitted here (some containers): the queues still keep heavy quotes off the foreground worker.
  }
}

/** Liquidity requests waiting for the main thread's answer, by request id. */
const pendingLiquidity = new Map<number, { resolve: (liquidity: Liquidity) => void; reject: (error: unknown) => void }>()
let nextLiquidityId = 0
/** The pool states the main thread sent so far (liquidityRelay.ts). */
const receiver = createLiquidityReceiver()

const bridgedSource: LiquiditySource = {
  getLiquidity(request: LiquidityRequest) {
    const id = nextLiquidityId++
    return new Promise<Liquidity>((resolve, reject) => {
      pendingLiquidity.set(id, { resolve, reject })
      post({ type: 'liquidity', id, request })
    })
  },
}
const source: LiquiditySource =
  snapshots === 'default' ? createSnapshotSource((await import('../../src/defaultSnapshot.js')).defaultSnapshot) : snapshots ? createSnapshotSource(snapshots) : bridgedSource

function post(message: WorkerMessage) {
  port.postMessage(message)
}

/** An error as a message can carry it: a QuoteError keeps its status, anything else its name, message and stack. */
function serializeError(error: unknown): SerializedError {
  const cause = (error as { cause?: unknown } | null)?.cause
  const base = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { name: 'Error', message: String(error) }
  return {
    ...base,
    ...(error instanceof QuoteError ? { quoteError: error.toJSON() } : {}),
    ...(cause !== undefined ? { cause: serializeError(cause) } : {}),
  }
}

/**
 * CPU time this thread has used, in ms: the first field of Linux's per-thread schedstat
 * (nanoseconds on a CPU). Wall time is the fallback elsewhere; it overstates a quote's cost
 * whenever the machine is busy, and most for the lower-priority background workers.
 */
function threadCpuMs(): number | null {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6
  } catch {
    return null
  }
}

async function runQuote(id: number, intent: QuoteIntent, apps: Record<string, AppConfig>) {
  const started = performance.now()
  const cpuStarted = threadCpuMs()
  // CPU time while the quote ran (a bridged source's I/O wait costs none), else wall time.
  const computeMs = () => {
    const cpuNow = cpuStarted === null ? null : threadCpuMs()
    return cpuNow === null || cpuStarted === null ? performance.now() - started : cpuNow - cpuStarted
  }
  try {
    const quote = await getQuote(intent, source, { chains, apps })
    post({ type: 'quote', id, ok: true, body: JSON.stringify(quote), computeMs: computeMs() })
  } catch (error) {
    post({ type: 'quote', id, ok: false, error: serializeError(error), computeMs: computeMs() })
  }
}

port.on('message', (message: ParentMessage) => {
  if (message.type === 'quote') void runQuote(message.id, message.intent, message.apps)
  else {
    const pending = pendingLiquidity.get(message.id)
    if (!pending) return
    pendingLiquidity.delete(message.id)
    if (message.ok && message.relayed) {
      try {
        pending.resolve(receiver.decode(message.liquidity))
      } catch (error) {
        pending.reject(error)
      }
    } else if (message.ok) pending.resolve(message.liquidity)
    else if (message.error.quoteError) pending.reject(new QuoteError({ ...message.error.quoteError, cause: message.error }))
    // Not a QuoteError: getQuote reports the source as unavailable (503), as it would in one thread.
    else pending.reject(Object.assign(new Error(message.error.message), { name: message.error.name }))
  }
})
/**
 * A snapshot worker quotes once per chain before it says ready, so its first real
 * quote does not pay for compiling the router and building pools (a cold quote
 * could otherwise run past a tight budget, and its replacement would be cold again).
 */
async function warmUp() {
  if (snapshots === null) return
  const loaded = snapshots === 'default' ? (await import('../../src/defaultSnapshot.js')).defaultSnapshot : snapshots
  for (const snapshot of loaded) {
    const [first, second] = snapshot.tokens
    if (!first || !second) continue
    await getQuote(
      { chainId: snapshot.chainId, sellToken: first.address, buyToken: second.address, sellAmount: 10n ** BigInt(first.decimals) },
      source,
      { chains },
    ).catch(() => {})
  }
}

/** This thread's schedstat file as another thread can open it (`/proc/thread-self` names the reader). */
function ownCpuFile(): string | null {
  try {
    const file = `/proc/${readlinkSync('/proc/thread-self').replace(/^\/proc\//, '')}/schedstat`
    readFileSync(file, 'utf8')
    return file
  } catch {
    return null
  }
}

await warmUp()
post({ type: 'ready', cpuFile: ownCpuFile() })
