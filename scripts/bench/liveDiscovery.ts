// The live source's discovery and initial read at 1k and 10k pools: a fresh anvil per size with the
// devnet's factories and that many real Uniswap V2 pairs (deployManyV2Pairs), then one
// `live.sync()` from block 0 timed through a counting transport: the whole sync, the part spent in
// eth_getLogs (discovery), the HTTP requests (round trips) and JSON-RPC calls sent. Once with
// viem's default http transport, once with JSON-RPC batching. Runnable alone:
// `npm run bench:live -- discovery [sizes...]`.
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createLiveSource } from '../../src/liquidity/live/createLiveSource.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { deployDevnet, startAnvil } from '../../test/devnet/index.js'
import { LIVE_BENCH_BLOCK_GAS_LIMIT, createCountingClient, deployManyV2Pairs } from './liveDevnet.js'
import { formatMs, printTable } from './stats.js'

/** The first sync's time limit here (see the note where the source is made). */
const INITIAL_SYNC_TIMEOUT_MS = 900_000

/** The sizes measured by default. */
export const DISCOVERY_SIZES = [1_000, 10_000] as const

/** One measured sync. */
export type LiveDiscoveryRow = {
  pools: number
  transport: 'http' | 'http batch'
  syncMs: number
  getLogsMs: number
  httpRequests: number
  rpcCalls: number
  byMethod: Record<string, number>
  delivered: number
  deploySeconds: number
}

/**
 * Measures discovery and the initial read for each size (pairs deployed on a fresh anvil each).
 *
 * @example
 * const rows = await runLiveDiscoveryBench([1_000])
 */
export async function runLiveDiscoveryBench(sizes: readonly number[] = DISCOVERY_SIZES): Promise<LiveDiscoveryRow[]> {
  const rows: LiveDiscoveryRow[] = []
  for (const size of sizes) {
    const anvil = await startAnvil({ args: ['--gas-limit', LIVE_BENCH_BLOCK_GAS_LIMIT] })
    try {
      // The devnet's tokens and factories without its pools: every pool discovered is one of the bench's.
      const devnet = await deployDevnet(anvil, { pools: [], traders: 0 })
      const deployed = await deployManyV2Pairs(anvil, devnet, size)
      console.log(`  ${size} pools: ${deployed.tokens.length} tokens, ${deployed.transactions} transactions in ${deployed.blocks} blocks, deployed in ${(deployed.deployMs / 1000).toFixed(1)} s (load ${loadavg()[0]!.toFixed(2)})`)
      for (const batch of [false, true]) {
        const counting = createCountingClient(anvil.rpcUrl, { batch })
        // The default syncTimeoutMs (20 s) also bounds the first sync: at 10k pools on this machine
        // it never completes within it (each attempt starts afresh), so the bench lifts it.
        const live = createLiveSource({ client: counting.client, chain: devnet.chain, families: [uniswapV2Family], fromBlock: 0n, syncTimeoutMs: INITIAL_SYNC_TIMEOUT_MS })
        const started = performance.now()
        await live.sync()
        const syncMs = performance.now() - started
        const counts = counting.counts()
        const delivered = live.stats().delivered
        if (delivered !== size) throw new Error(`${size} pools deployed, the live source delivered ${delivered}`)
        rows.push({ pools: size, transport: batch ? 'http batch' : 'http', syncMs, getLogsMs: counts.getLogsMs, httpRequests: counts.httpRequests, rpcCalls: counts.rpcCalls, byMethod: counts.byMethod, delivered, deploySeconds: deployed.deployMs / 1000 })
      }
    } finally {
      await anvil.stop()
    }
  }
  printTable(
    ['pools', 'transport', 'sync (discovery + read)', 'of which eth_getLogs', 'per 1k pools', 'HTTP requests', 'JSON-RPC calls', 'calls per pool', 'calls by method'],
    rows.map((row) => [
      String(row.pools),
      row.transport,
      formatMs(row.syncMs),
      formatMs(row.getLogsMs),
      formatMs((row.syncMs / row.pools) * 1000),
      String(row.httpRequests),
      String(row.rpcCalls),
      (row.rpcCalls / row.pools).toFixed(2),
      Object.entries(row.byMethod).map(([method, count]) => `${method} ${count}`).join(', '),
    ]),
  )
  const first = rows.find((r) => r.transport === 'http')
  const last = rows.filter((r) => r.transport === 'http').at(-1)
  if (first && last && last !== first) console.log(`  ratio ${last.pools / first.pools}x pools: ${(last.syncMs / first.syncMs).toFixed(1)}x time, ${(last.rpcCalls / first.rpcCalls).toFixed(1)}x JSON-RPC calls`)
  return rows
}
