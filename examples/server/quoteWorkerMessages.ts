// The messages between the main thread (createQuotePool.ts) and a quote worker (quoteWorker.ts).
import type { AppConfig, Liquidity, LiquidityRequest, QuoteError, QuoteIntent } from '../../src/index.js'
import type { RelayedLiquidity } from './liquidityRelay.js'

/** An error that crossed a thread: structured clone keeps data, not classes. */
export type SerializedError = {
  name: string
  message: string
  stack?: string
  /** Present when the error was a QuoteError: its wire body. */
  quoteError?: ReturnType<QuoteError['toJSON']>
  cause?: SerializedError
}

/** Main thread → worker. */
export type ParentMessage =
  | { type: 'quote'; id: number; intent: QuoteIntent; apps: Record<string, AppConfig> }
  | ({ type: 'liquidity'; id: number } & (
      | { ok: true; relayed: false; liquidity: Liquidity }
      /** Only what the worker does not hold yet (liquidityRelay.ts). */
      | { ok: true; relayed: true; liquidity: RelayedLiquidity }
      | { ok: false; error: SerializedError }
    ))

/** Worker → main thread. */
export type WorkerMessage =
  /** `cpuFile`: this thread's `/proc/<pid>/task/<tid>/schedstat`, null where there is none. */
  | { type: 'ready'; cpuFile: string | null }
  | { type: 'liquidity'; id: number; request: LiquidityRequest }
  /** `computeMs`: the worker thread's CPU time for the quote (Linux), else its wall time. */
  | ({ type: 'quote'; id: number; computeMs: number } & ({ ok: true; body: string } | { ok: false; error: SerializedError }))
