// The example server as a child process of the live bench's server section (liveServer.ts):
// `node --import tsx scripts/bench/liveServerChild.ts <config.json>`. The file holds the server's
// ChainConfig and LiquidityConfig (bigints as { "$bigint": "…" }); the child starts examples/server
// on a free loopback port with roomy rate limits and prints one JSON line `{ "listening": url }`,
// then any 5xx other than 503 (which the bench counts itself). SIGTERM closes it.
import { readFileSync } from 'node:fs'
import { startServer } from '../../examples/server/index.js'
import type { LiquidityConfig } from '../../examples/server/config.js'
import type { ChainConfig } from '../../src/index.js'

/** What the parent writes for the child. */
export type LiveServerChildConfig = { chain: ChainConfig; liquidity: LiquidityConfig }

/**
 * Reads a config file written with {@link encodeLiveServerChildConfig}.
 *
 * @example
 * const config = decodeLiveServerChildConfig(readFileSync(path, 'utf8'))
 */
export function decodeLiveServerChildConfig(text: string): LiveServerChildConfig {
  return JSON.parse(text, (_key, value) => (value && typeof value === 'object' && typeof value.$bigint === 'string' ? BigInt(value.$bigint) : value)) as LiveServerChildConfig
}

/**
 * The child's config as JSON, bigints tagged.
 *
 * @example
 * writeFileSync(path, encodeLiveServerChildConfig({ chain, liquidity: { source: 'live', rpcUrls } }))
 */
export function encodeLiveServerChildConfig(config: LiveServerChildConfig): string {
  return JSON.stringify(config, (_key, value) => (typeof value === 'bigint' ? { $bigint: value.toString() } : value))
}

const ROOMY = { limit: 1_000_000_000, windowSeconds: 60 }

if (import.meta.url === `file://${process.argv[1]}`) {
  const { chain, liquidity } = decodeLiveServerChildConfig(readFileSync(process.argv[2]!, 'utf8'))
  const app = await startServer({
    chains: [chain],
    liquidity,
    port: 0,
    host: '127.0.0.1',
    defaultMetrics: false,
    rateLimits: { anonymous: ROOMY, selfChosen: ROOMY, issued: ROOMY },
    log: (entry) => {
      const status = (entry as { status?: unknown }).status
      if (typeof status === 'number' && status >= 500 && status !== 503) console.log(JSON.stringify(entry, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)))
    },
  })
  console.log(JSON.stringify({ listening: app.url }))
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)))
}
