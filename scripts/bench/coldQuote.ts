// Cold-quote latency of the RPC source behind an injected network round trip: a loopback HTTP
// proxy in front of anvil (100 real Uniswap V2/V3 pools) holds every request for the chosen
// round-trip time before forwarding it, as a remote node would. Each sample is a NEW source and
// client (no cache), quoting USDC -> LINK with all seven tokens as candidates. Also prints what
// simulateQuote costs at each round trip.
//
//   npx tsx scripts/bench/coldQuote.ts            runs this section alone
//   WEFT_BENCH_SAMPLES=9 npx tsx scripts/bench/coldQuote.ts
//   WEFT_BENCH_BASELINE=.tmp/baselineRpcSource.ts npx tsx scripts/bench/coldQuote.ts
//       also measures another createRpcSource (e.g. `git show <ref>:src/liquidity/createRpcSource.ts`
//       with its imports pointed at src/), sample for sample interleaved with this one, so both
//       see the same machine load: the before/after table.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { createPublicClient, http } from 'viem'
import { createRpcSource } from '../../src/liquidity/createRpcSource.js'
import { getQuote } from '../../src/quote/getQuote.js'
import type { QuoteIntent } from '../../src/quote/types.js'
import { simulateQuote } from '../../src/wallet/simulateQuote.js'
import { deployExecutor } from '../../src/executor/deployExecutor.js'
import { startAnvil } from '../../test/devnet/anvil.js'
import { deployDevnet } from '../../test/devnet/deployDevnet.js'
import { resolve } from 'node:path'
import type { LiquiditySource } from '../../src/liquidity/types.js'
import type { CreateRpcSourceParameters } from '../../src/liquidity/createRpcSource.js'
import { getBenchDevnetPools } from './rpc.js'
import { formatMs, percentile, printTable } from './stats.js'

/** Injected round-trip times, ms. */
export const ROUND_TRIPS_MS = [0, 50, 100, 200] as const

/** A loopback proxy that forwards each request to `target` after `delayMs`; counts requests. */
async function startDelayProxy(target: string) {
  let delayMs = 0
  let requests = 0
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      requests++
      setTimeout(async () => {
        try {
          const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
          response.writeHead(answer.status, { 'content-type': 'application/json' })
          response.end(Buffer.from(await answer.arrayBuffer()))
        } catch (error) {
          response.writeHead(502)
          response.end(String(error))
        }
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    setDelay: (ms: number) => (delayMs = ms),
    takeRequests: () => {
      const counted = requests
      requests = 0
      return counted
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type ColdQuoteRow = {
  rttMs: number
  coldP50: number
  roundTrips: number
  httpRequests: number
  simulateP50: number
  /** The same for WEFT_BENCH_BASELINE's createRpcSource, when given. */
  baseline?: { coldP50: number; roundTrips: number; httpRequests: number }
}

type CreateSource = (parameters: CreateRpcSourceParameters) => LiquiditySource

/**
 * Measures cold quotes and simulations at each injected round trip; prints a table.
 *
 * @example
 * const rows = await runColdQuoteBench()
 */
export async function runColdQuoteBench(samples = Number(process.env.WEFT_BENCH_SAMPLES ?? 7)): Promise<ColdQuoteRow[]> {
  const anvil = await startAnvil()
  const proxy = await startDelayProxy(anvil.rpcUrl)
  try {
    const specs = getBenchDevnetPools(100)
    const devnet = await deployDevnet(anvil, { pools: specs, traders: 1 })
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
    const chain = { ...devnet.chain, executor }
    const connectors = [devnet.tokens.LINK.address, devnet.tokens.PEPE.address]
    const trader = devnet.accounts.traders[0]!
    const intent: QuoteIntent = { chainId: chain.id, sellToken: devnet.tokens.USDC.address, buyToken: devnet.tokens.LINK.address, sellAmount: 25_000_000_000n }
    const baselinePath = process.env.WEFT_BENCH_BASELINE
    const baseline = baselinePath ? ((await import(pathToFileURL(resolve(baselinePath)).href)) as { createRpcSource: CreateSource }).createRpcSource : undefined
    /** One cold quote (new client, new source): its time, round trips (source's report) and HTTP requests. */
    const coldQuote = async (create: CreateSource) => {
      const client = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) })
      const source = create({ client, chain, connectors })
      proxy.takeRequests()
      const started = performance.now()
      let roundTrips = 0
      const quote = await getQuote(intent, source, { chains: [chain], sender: trader, onDetails: (d) => (roundTrips = d.liquidity.roundTrips) })
      return { ms: performance.now() - started, roundTrips, requests: proxy.takeRequests(), quote, client }
    }
    const rows: ColdQuoteRow[] = []
    for (const rttMs of ROUND_TRIPS_MS) {
      proxy.setDelay(rttMs)
      const after: Awaited<ReturnType<typeof coldQuote>>[] = []
      const before: Awaited<ReturnType<typeof coldQuote>>[] = []
      const simulations: number[] = []
      for (let i = 0; i < samples; i++) {
        if (baseline) before.push(await coldQuote(baseline))
        const sample = await coldQuote(createRpcSource)
        after.push(sample)
        const simulated = performance.now()
        await simulateQuote({ client: sample.client, quote: sample.quote, sender: trader }).catch(() => undefined)
        simulations.push(performance.now() - simulated)
      }
      const summary = (list: typeof after) => ({
        coldP50: percentile(list.map((x) => x.ms), 50),
        roundTrips: Math.max(...list.map((x) => x.roundTrips)),
        httpRequests: Math.max(...list.map((x) => x.requests)),
      })
      rows.push({ rttMs, ...summary(after), simulateP50: percentile(simulations, 50), ...(baseline ? { baseline: summary(before) } : {}) })
    }
    console.log(`Cold quote through a loopback delay proxy: ${devnet.pools.length} pools, USDC -> LINK, ${samples} samples per row, each a new source and client`)
    printTable(
      ['injected RTT', ...(baseline ? ['before p50', 'before trips', 'before HTTP'] : []), 'cold quote p50', 'round trips (report)', 'HTTP requests', 'simulateQuote p50'],
      rows.map((r) => [
        `${r.rttMs} ms`,
        ...(r.baseline ? [formatMs(r.baseline.coldP50), String(r.baseline.roundTrips), String(r.baseline.httpRequests)] : []),
        formatMs(r.coldP50),
        String(r.roundTrips),
        String(r.httpRequests),
        formatMs(r.simulateP50),
      ]),
    )
    return rows
  } finally {
    await proxy.close()
    await anvil.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runColdQuoteBench()
