// The RPC liquidity source against a local anvil with 100 real Uniswap V2/V3
// pools: requests, JSON-RPC calls and wall time of a cold quote.
import { performance } from 'node:perf_hooks'
import { createPublicClient, http } from 'viem'
import { createRpcSource } from '../../src/liquidity/createRpcSource.js'
import { getQuote } from '../../src/quote/getQuote.js'
import type { QuoteIntent } from '../../src/quote/types.js'
import { startAnvil } from '../../test/devnet/anvil.js'
import { deployDevnet } from '../../test/devnet/deployDevnet.js'
import type { DevnetPoolSpec, DevnetSymbol } from '../../test/devnet/universe.js'
import { formatMs, percentile, printTable } from './stats.js'

const SYMBOLS: readonly DevnetSymbol[] = ['WETH', 'USDC', 'USDT', 'DAI', 'WBTC', 'LINK', 'PEPE']
const V3_TIERS = [500, 3000, 10000, 100] as const

/**
 * `count` pools (≤ 105) over the devnet's seven tokens: a V2 pair for each
 * of the 21 pairs, then V3 pools tier by tier (each with a full-range
 * position and a ±10% band).
 *
 * @example
 * getBenchDevnetPools(100).length // 100
 */
export function getBenchDevnetPools(count: number): DevnetPoolSpec[] {
  const pairs: [DevnetSymbol, DevnetSymbol][] = []
  for (let i = 0; i < SYMBOLS.length; i++) for (let j = i + 1; j < SYMBOLS.length; j++) pairs.push([SYMBOLS[i]!, SYMBOLS[j]!])
  const specs: DevnetPoolSpec[] = pairs.map((pair) => ({ family: 'uniswapV2', pair, usd: 1_000_000 }))
  for (const fee of V3_TIERS)
    for (const pair of pairs) {
      if (specs.length >= count) break
      specs.push({
        family: 'uniswapV3',
        pair,
        fee,
        positions: [
          { range: 'full', usd: 300_000 },
          { range: [0.9, 1.1], usd: 500_000 },
        ],
      })
    }
  return specs.slice(0, count)
}

/** What the summary takes from the RPC section. */
export type RpcReport = { pools: number; httpRequests: number; rpcCalls: number; roundTrips: number; coldP50: number; coldP99: number; samples: number }

/**
 * Deploys 100 pools on a fresh anvil and measures cold (new source) and warm quotes.
 *
 * @example
 * const report = await runRpcBench()
 */
export async function runRpcBench(): Promise<RpcReport | undefined> {
  const anvil = await startAnvil()
  try {
    const specs = getBenchDevnetPools(100)
    const devnet = await deployDevnet(anvil, { pools: specs, traders: 1 })
    let httpRequests = 0
    let rpcCalls = 0
    const fetchFn: typeof fetch = async (input, init) => {
      httpRequests++
      if (typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as unknown
        rpcCalls += Array.isArray(body) ? body.length : 1
      }
      return fetch(input, init)
    }
    const client = createPublicClient({ transport: http(anvil.rpcUrl, { fetchFn }) })
    const chain = devnet.chain
    // LINK and PEPE as extra connectors: all seven tokens are candidates, so every pool is in play.
    const connectors = [devnet.tokens.LINK.address, devnet.tokens.PEPE.address]
    const intent: QuoteIntent = { chainId: chain.id, sellToken: devnet.tokens.USDC.address, buyToken: devnet.tokens.LINK.address, sellAmount: 25_000_000_000n }
    const runs = 15

    const liquidity: { ms: number; requests: number; calls: number; pools: number; roundTrips: number }[] = []
    for (let i = 0; i < runs; i++) {
      const source = createRpcSource({ client, chain, connectors })
      httpRequests = 0
      rpcCalls = 0
      const started = performance.now()
      const answer = await source.getLiquidity({ chain, tokenIn: intent.sellToken, tokenOut: intent.buyToken })
      liquidity.push({ ms: performance.now() - started, requests: httpRequests, calls: rpcCalls, pools: answer.pools.length, roundTrips: answer.report.roundTrips })
    }
    const cold: { ms: number; requests: number; calls: number }[] = []
    for (let i = 0; i < runs; i++) {
      const source = createRpcSource({ client, chain, connectors })
      httpRequests = 0
      rpcCalls = 0
      const started = performance.now()
      await getQuote(intent, source, { chains: [chain] })
      cold.push({ ms: performance.now() - started, requests: httpRequests, calls: rpcCalls })
    }
    const warmSource = createRpcSource({ client, chain, connectors })
    await getQuote(intent, warmSource, { chains: [chain] })
    const warm: { ms: number; requests: number; calls: number }[] = []
    for (let i = 0; i < runs; i++) {
      httpRequests = 0
      rpcCalls = 0
      const started = performance.now()
      await getQuote(intent, warmSource, { chains: [chain] })
      warm.push({ ms: performance.now() - started, requests: httpRequests, calls: rpcCalls })
    }
    const range = (values: number[]) => (Math.min(...values) === Math.max(...values) ? `${values[0]}` : `${Math.min(...values)}–${Math.max(...values)}`)
    const row = (label: string, list: { ms: number; requests: number; calls: number }[], extra: string) => {
      const ms = list.map((x) => x.ms)
      return [label, formatMs(percentile(ms, 50)), formatMs(percentile(ms, 99)), `${list.length}`, range(list.map((x) => x.requests)), range(list.map((x) => x.calls)), extra]
    }
    console.log(`RPC source on a local anvil: ${devnet.pools.length} pools deployed (${specs.filter((s) => s.family === 'uniswapV2').length} V2, ${specs.filter((s) => s.family === 'uniswapV3').length} V3) in ${(devnet.deployMs / 1000).toFixed(1)} s; quote USDC -> LINK, candidates: all 7 tokens`)
    printTable(
      ['call', 'p50', 'p99', 'samples', 'HTTP requests', 'JSON-RPC calls', ''],
      [
        row('getLiquidity, cold (new source)', liquidity, `${range(liquidity.map((x) => x.pools))} pools delivered, ${range(liquidity.map((x) => x.roundTrips))} sequential round trips (source's report)`),
        row('getQuote, cold (new source)', cold, ''),
        row('getQuote, warm (metadata cached)', warm, ''),
      ],
    )
    console.log('')
    const ms = cold.map((x) => x.ms)
    return {
      pools: Math.max(...liquidity.map((x) => x.pools)),
      httpRequests: Math.max(...cold.map((x) => x.requests)),
      rpcCalls: Math.max(...cold.map((x) => x.calls)),
      roundTrips: Math.max(...liquidity.map((x) => x.roundTrips)),
      coldP50: percentile(ms, 50),
      coldP99: percentile(ms, 99),
      samples: ms.length,
    }
  } finally {
    await anvil.stop()
  }
}
