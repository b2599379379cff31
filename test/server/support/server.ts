// Starting the example server for a test, with its log lines captured.
import type { LogEntry, ServerConfig, StartedServer } from '../../../examples/server/index.js'
import { startServer } from '../../../examples/server/index.js'

/** A started server and every line it logged. */
export type TestServer = StartedServer & { logs: LogEntry[] }

/**
 * Starts the server on a free port with logs captured and default process metrics off.
 * Quotes run on the event loop (`overload.workers` 0) unless the test asks for workers:
 * each worker loads weft in a thread of its own, seconds of CPU a test about rate
 * limits does not need (server.test.ts, overload.test.ts and tokenMetadata.test.ts use them).
 *
 * @example
 * const app = await startTestServer({ rateLimits: { anonymous: { limit: 3, windowSeconds: 60 } } })
 */
export async function startTestServer(config: ServerConfig = {}): Promise<TestServer> {
  const logs: LogEntry[] = []
  const app = await startServer({ defaultMetrics: false, overload: { workers: 0 }, ...config, port: 0, log: (entry) => logs.push(entry) })
  return Object.assign(app, { logs })
}

/** The request log line of a trace id. */
export function requestLog(logs: readonly LogEntry[], traceId: string): LogEntry | undefined {
  return logs.find((entry) => entry.msg === 'request' && entry.traceId === traceId)
}

/** Base (8453) tokens of the embedded snapshot. */
export const base = {
  chainId: 8453,
  WETH: '0x4200000000000000000000000000000000000006',
  USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  DAI: '0x50c5725949a6f0c72e6c4a641f24049a917db0cb',
} as const

/** Ethereum (1) tokens of the embedded snapshot. */
export const ethereum = {
  chainId: 1,
  USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  WETH: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
} as const

export const NATIVE = '0x0000000000000000000000000000000000000000'

/** `/v1/quote?…` for the given parameters. */
export function quotePath(params: Record<string, string | number | bigint>): string {
  return `/v1/quote?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`
}
