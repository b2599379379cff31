// Quote latency on the live source against the RPC source and a snapshot of the same pools, on
// anvil with the bench devnet's 105 real pools (21 V2, 84 V3). Warm getQuote only (each source
// quotes every intent once before timing); the three sources take turns sample by sample so a
// load spike on the shared machine hits them alike. The snapshot holds deep copies of the live
// source's states (no build cache shared between them). Target: live equal to the snapshot.
// Runnable alone: `npm run bench:live -- quotes`.
import { performance } from 'node:perf_hooks'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import { createRpcSource } from '../../src/liquidity/createRpcSource.js'
import { createLiveSource } from '../../src/liquidity/live/createLiveSource.js'
import type { LiquiditySource } from '../../src/liquidity/types.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { getQuote } from '../../src/quote/getQuote.js'
import { deployDevnet, rpc, startAnvil } from '../../test/devnet/index.js'
import { createCountingClient, getLiveBenchIntents, toSnapshot } from './liveDevnet.js'
import { getBenchDevnetPools } from './rpc.js'
import { formatMs, percentile, printTable } from './stats.js'

const SAMPLES = 600
/** Seconds per (empty) block while sampling. */
const BLOCK_SECONDS = 2
/** The idle live source answers this long after its one sync. */
const IDLE_MAX_AGE_MS = 3_600_000
/** Live within this ratio of the snapshot's p50 counts as equal (timer noise on a shared machine). */
const EQUAL_WITHIN = 1.1
/** One source's figures. */
export type LiveQuotesRow = { source: string; p50: number; p99: number; mean: number; samples: number; httpPerQuote: number }

/**
 * Runs the quote-latency section and returns its rows (also printed).
 *
 * @example
 * const rows = await runLiveQuotesBench()
 */
export async function runLiveQuotesBench(): Promise<LiveQuotesRow[]> {
  const anvil = await startAnvil()
  try {
    const devnet = await deployDevnet(anvil, { pools: getBenchDevnetPools(105), traders: 0 })
    const chain = devnet.chain
    const liveClient = createCountingClient(anvil.rpcUrl)
    const rpcClient = createCountingClient(anvil.rpcUrl)
    const live = createLiveSource({ client: liveClient.client, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
    // The same source on a chain that makes no block while sampling (never started; its answer
    // stays valid for the run): the live source's own cost, without block syncs beside it.
    const idle = createLiveSource({ client: liveClient.client, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, maxAgeMs: IDLE_MAX_AGE_MS })
    await Promise.all([live.sync(), idle.sync()])
    const answer = await live.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })
    const snapshot = createSnapshotSource(
      structuredClone(toSnapshot(answer)),
    )
    // Every devnet token a connector: the RPC source reads every pool the live source holds.
    const rpcSource = createRpcSource({ client: rpcClient.client, chain, connectors: Object.values(devnet.tokens).map((t) => t.address) })
    const intents = getLiveBenchIntents(devnet)
    const sources: { name: string; source: LiquiditySource; counting?: ReturnType<typeof createCountingClient> }[] = [
      { name: 'live (following 2 s blocks)', source: live, counting: liveClient },
      { name: 'live (no new block)', source: idle },
      { name: 'snapshot (same pools)', source: snapshot },
      { name: 'RPC (warm metadata)', source: rpcSource, counting: rpcClient },
    ]
    // Warm-up: every source quotes every intent once; all must agree to the wei.
    for (const intent of intents) {
      const outs = await Promise.all(sources.map(async ({ source }) => (await getQuote(intent, source, { chains: [chain] })).amountOut))
      if (new Set(outs).size !== 1) throw new Error(`sources disagree on ${intent.sellToken} -> ${intent.buyToken}: ${outs.join(' / ')}`)
    }
    const samples = sources.map(() => [] as number[])
    const seenAtBlock = new Set<string>()
    const firstAtBlock: number[] = []
    const repeatAtBlock: number[] = []
    for (const { counting } of sources) counting?.reset()
    // As a server runs it: the chain makes a block every 2 s (empty: the pools do not change, so
    // all three sources keep quoting the same state) and the source follows it (1 s polling).
    // Without new blocks it would refuse to answer once its last sync is older than maxAgeMs.
    await rpc(anvil.rpcUrl, 'evm_setIntervalMining', [BLOCK_SECONDS])
    live.start({ pollingInterval: 1_000 })
    try {
      for (let sample = 0; sample < SAMPLES; sample++) {
        const intent = intents[sample % intents.length]!
        for (const [index, { source }] of sources.entries()) {
          const started = performance.now()
          await getQuote(intent, source, { chains: [chain] })
          samples[index]!.push(performance.now() - started)
          if (index === 0) {
            // The following source's samples, split: its first quote of this intent at a new block, or a repeat.
            const key = `${live.stats().blockNumber}:${sample % intents.length}`
            ;(seenAtBlock.has(key) ? repeatAtBlock : firstAtBlock).push(samples[0]!.at(-1)!)
            seenAtBlock.add(key)
          }
        }
      }
    } finally {
      live.stop()
      await rpc(anvil.rpcUrl, 'evm_setIntervalMining', [0])
    }
    const followed = live.stats().blocksApplied
    const rows = sources.map(({ name, counting }, index): LiveQuotesRow => {
      const list = samples[index]!
      return { source: name, p50: percentile(list, 50), p99: percentile(list, 99), mean: list.reduce((a, b) => a + b, 0) / list.length, samples: list.length, httpPerQuote: (counting?.counts().httpRequests ?? 0) / SAMPLES }
    })
    const [liveRow, idleRow, snapshotRow, rpcRow] = rows as [LiveQuotesRow, LiveQuotesRow, LiveQuotesRow, LiveQuotesRow]
    console.log(`  ${answer.pools.length} pools (21 V2, 84 V3), ${intents.length} intents in turn, warm getQuote, ${SAMPLES} samples per source, sources interleaved; a block every ${BLOCK_SECONDS} s (${followed} followed by the live source); live's HTTP requests are its background polling and block syncs, none is made by a quote`)
    printTable(
      ['source', 'p50', 'p99', 'mean', 'samples', 'HTTP requests/quote', 'p50 vs live', 'p99 vs live'],
      rows.map((row) => [row.source, formatMs(row.p50), formatMs(row.p99), formatMs(row.mean), String(row.samples), row.httpPerQuote.toFixed(1), `${(row.p50 / liveRow.p50).toFixed(2)}x`, `${(row.p99 / liveRow.p99).toFixed(2)}x`]),
    )
    console.log(`  live (following): first quote of an intent at a new block p50 ${formatMs(percentile(firstAtBlock, 50))} (${firstAtBlock.length} samples), repeats p50 ${formatMs(percentile(repeatAtBlock, 50))} (${repeatAtBlock.length})`)
    for (const row of [liveRow, idleRow]) {
      const ratio = row.p50 / snapshotRow.p50
      console.log(`  target live = snapshot, ${row.source}: live/snapshot p50 ${ratio.toFixed(2)}x, p99 ${(row.p99 / snapshotRow.p99).toFixed(2)}x -> ${ratio <= EQUAL_WITHIN ? 'MET' : 'MISSED'} (equal within ${EQUAL_WITHIN}x); RPC/live p50 ${(rpcRow.p50 / row.p50).toFixed(1)}x`)
    }
    return rows
  } finally {
    await anvil.stop()
  }
}
