// The example server on the live source under load, on anvil with the bench devnet's 105 real
// pools (21 V2, 84 V3): the server runs as a child process (liveServerChild.ts, default quote
// workers, roomy rate limits) while this process mines a block every 2 s (with seeded random
// third-party activity from test/support/liveActivity*.ts, or empty, or none at all: the three
// variants of LIVE_SERVER_VARIANTS) and autocannon asks for quotes of six intents in turn. Three runs, same load: the live source, the RPC source (the node read on every
// quote), and a snapshot of the same pools at the start (no chain I/O at all: the server's own
// ceiling). Printed side by side: throughput, 200s per second, latency p50/p99/max, statuses, and
// for the live run the blocks it followed. Runnable alone: `npm run bench:live -- server`.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import type { LiquidityConfig } from '../../examples/server/config.js'
import { createLiveSource } from '../../src/liquidity/live/createLiveSource.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { deployDevnet, rpc, startAnvil } from '../../test/devnet/index.js'
import { createLiveActivity } from '../../test/support/liveActivity.js'
import { createUniswapActivity } from '../../test/support/liveActivityUniswap.js'
import { createRandom } from '../../test/support/random.js'
import { encodeLiveServerChildConfig } from './liveServerChild.js'
import { getLiveBenchIntents, toSnapshot } from './liveDevnet.js'
import { getBenchDevnetPools } from './rpc.js'
import { printTable } from './stats.js'

const DURATION_SECONDS = 10
const CONNECTIONS = 8
const BLOCK_MS = 2_000
const SEED = 0x5e4e
/** What happens on the chain during the runs: blocks of random activity, empty blocks, or no block. */
export type LiveServerVariant = { blockMs?: number; emptyBlocks?: boolean }

/**
 * The section's variants, in order: a block of random activity every 2 s, an empty block every
 * 2 s, no new block (what the live source costs the server per block, apart from the load).
 *
 * @example
 * for (const variant of LIVE_SERVER_VARIANTS) await runLiveServerBench(variant)
 */
export const LIVE_SERVER_VARIANTS: readonly LiveServerVariant[] = [{}, { emptyBlocks: true }, { blockMs: 0 }]

/** One run's figures. */
export type LiveServerRow = { source: string; requestsPerSecond: number; okPerSecond: number; p50: number; p99: number; max: number; statuses: Record<string, number>; errors: number; blocksMined: number; blocksFollowed: number | null }

/**
 * Runs the server section for one variant and returns its rows (also printed).
 *
 * @example
 * const rows = await runLiveServerBench()
 */
export async function runLiveServerBench({ blockMs = BLOCK_MS, emptyBlocks = false }: LiveServerVariant = {}): Promise<LiveServerRow[]> {
  const anvil = await startAnvil()
  const directory = mkdtempSync(join(tmpdir(), 'weft-live-server-bench-'))
  try {
    const devnet = await deployDevnet(anvil, { pools: getBenchDevnetPools(105) })
    const chain = devnet.chain
    const random = createRandom(SEED)
    const activity = createLiveActivity({ anvil, random, families: [createUniswapActivity({ anvil, devnet, chain, random })] })
    // The snapshot run's pools: every pool at the head, as a live source reads them.
    const reader = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
    await reader.sync()
    const answer = await reader.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })
    const snapshot = toSnapshot(answer)
    const rpcUrls = { [chain.id]: anvil.rpcUrl }
    const runs: { name: string; liquidity: LiquidityConfig }[] = [
      { name: 'live', liquidity: { source: 'live', rpcUrls, pollingIntervalMs: 250 } },
      { name: 'RPC (node read per quote)', liquidity: { source: 'rpc', rpcUrls } },
      { name: 'snapshot (same pools, static)', liquidity: { source: 'snapshot', snapshots: [snapshot] } },
    ]
    const paths = getLiveBenchIntents(devnet).map((intent) => {
      // The random activity moves prices a lot; the bench measures answers, not limits.
      const params = { ...intent, priceImpactLimitBps: 10_000 }
      return `/v1/quote?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]))}`
    })

    const rows: LiveServerRow[] = []
    for (const run of runs) {
      const configFile = join(directory, `${rows.length}.json`)
      writeFileSync(configFile, encodeLiveServerChildConfig({ chain, liquidity: run.liquidity }))
      const { child, url } = await startChild(configFile)
      try {
        // Ready when a quote answers 200 (the live source's first sync done, workers up).
        await waitForOk(`${url}${paths[0]}`)
        const followedBefore = run.liquidity.source === 'live' ? await liveBlock(url, chain.id) : null
        let mining = true
        let blocksMined = 0
        const miner = (async () => {
          while (mining && blockMs > 0) {
            const started = Date.now()
            if (emptyBlocks) await rpc(anvil.rpcUrl, 'evm_mine', [])
            else await activity.mineBlock()
            blocksMined++
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, blockMs - (Date.now() - started))))
          }
        })()
        const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, requests: paths.map((path) => ({ method: 'GET' as const, path })) })
        mining = false
        await miner
        const followedAfter = run.liquidity.source === 'live' ? await liveBlock(url, chain.id) : null
        const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]))
        rows.push({
          source: run.name,
          requestsPerSecond: result.requests.average,
          okPerSecond: (statuses['200'] ?? 0) / result.duration,
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
          statuses,
          errors: result.errors + result.timeouts,
          blocksMined,
          blocksFollowed: followedBefore !== null && followedAfter !== null ? followedAfter - followedBefore : null,
        })
      } finally {
        await stopChild(child)
      }
    }
    const live = rows[0]!
    console.log(`  ${answer.pools.length} pools (21 V2, 84 V3); ${CONNECTIONS} connections for ${DURATION_SECONDS} s per run, ${paths.length} intents in turn; ${blockMs > 0 ? `a block ${emptyBlocks ? '(empty)' : 'of random activity'} every ${blockMs / 1000} s during each run` : 'no new block during the runs'}; server: examples/server, default quote workers`)
    printTable(
      ['source', 'req/s', '200/s', 'p50', 'p99', 'max', 'statuses', 'errors', 'blocks mined / followed', 'req/s vs live', 'p99 vs live'],
      rows.map((row) => [
        row.source,
        row.requestsPerSecond.toFixed(0),
        row.okPerSecond.toFixed(0),
        `${row.p50} ms`,
        `${row.p99} ms`,
        `${row.max} ms`,
        JSON.stringify(row.statuses),
        String(row.errors),
        `${row.blocksMined} / ${row.blocksFollowed ?? '—'}`,
        `${(row.requestsPerSecond / live.requestsPerSecond).toFixed(2)}x`,
        `${(row.p99 / live.p99).toFixed(2)}x`,
      ]),
    )
    return rows
  } finally {
    rmSync(directory, { recursive: true, force: true })
    await anvil.stop()
  }
}

/** Starts liveServerChild.ts on `configFile`; resolves once it listens. */
function startChild(configFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/liveServerChild.ts', configFile], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let listening = false
    createInterface({ input: child.stdout! }).on('line', (text) => {
      if (!listening && text.startsWith('{"listening"')) {
        listening = true
        resolve({ child, url: (JSON.parse(text) as { listening: string }).listening })
      } else if (listening) console.error(`  server: ${text}`)
    })
    child.once('exit', (code) => {
      if (!listening) reject(new Error(`server child exited with ${code} before listening`))
    })
  })
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** Asks `url` until it answers 200 (at most 60 s). */
async function waitForOk(url: string): Promise<void> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const response = await fetch(url)
    await response.arrayBuffer()
    if (response.ok) return
    if (Date.now() > deadline) throw new Error(`no 200 from ${url} within 60 s (last ${response.status})`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The live source's block from /healthz. */
async function liveBlock(url: string, chainId: number): Promise<number | null> {
  const body = (await (await fetch(`${url}/healthz`)).json()) as { live?: Record<string, { blockNumber: number | null }> }
  return body.live?.[String(chainId)]?.blockNumber ?? null
}
