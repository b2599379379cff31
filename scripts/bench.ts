// `npm run bench`: figures, not assertions. Prints latency percentiles of warm
// in-process quotes on the embedded snapshot, micro-benchmarks of the pool math,
// and the RPC source's cold-quote round trips against a local anvil devnet.
import { performance } from 'node:perf_hooks'
import { type Address, http, createPublicClient, zeroAddress } from 'viem'
import { base, createRpcSource, createSnapshotSource, deployExecutor, ethereum, getQuote, type QuoteIntent } from '../src/index.js'
import { defaultSnapshot } from '../src/defaultSnapshot.js'
import { getAmountOut } from '../src/protocols/uniswapV2/math.js'
import { simulateSwap } from '../src/protocols/uniswapV3/swap.js'
import { getSqrtRatioAtTick } from '../src/protocols/uniswapV3/tickMath.js'
import { startAnvil } from '../test/devnet/anvil.js'
import { deployDevnet } from '../test/devnet/deployDevnet.js'

const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const fmt = (ms: number) => (ms < 0.01 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(3)} ms`)

async function time(runs: number, fn: () => unknown | Promise<unknown>): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await fn()
    samples.push(performance.now() - t)
  }
  return samples
}

function row(label: string, samples: number[], extra = '') {
  console.log(`${label.padEnd(46)} p50 ${fmt(percentile(samples, 50)).padStart(10)}  p99 ${fmt(percentile(samples, 99)).padStart(10)}  ${extra}`)
}

console.log('weft bench — node', process.version, '\n')

// 1. Warm quotes on the embedded snapshot (synthetic mainnet-shaped pools).
console.log('Warm in-process quotes, embedded snapshot')
const source = createSnapshotSource(defaultSnapshot)
const token = (chain: typeof base, symbol: string) => chain.tokens.find((t) => t.symbol === symbol)!.address
const cases: [string, QuoteIntent][] = [
  ['Base 1.5 WETH -> USDC', { chainId: 8453, sellToken: token(base, 'WETH'), buyToken: token(base, 'USDC'), sellAmount: 1_500_000_000_000_000_000n }],
  ['Base 500k USDC -> ETH (split)', { chainId: 8453, sellToken: token(base, 'USDC'), buyToken: zeroAddress, sellAmount: 500_000_000_000n }],
  ['Base buy 10k AERO with cbBTC (multi-hop)', { chainId: 8453, sellToken: token(base, 'cbBTC'), buyToken: token(base, 'AERO'), buyAmount: 10_000n * 10n ** 18n }],
  ['Ethereum 2M USDC -> WETH (split)', { chainId: 1, sellToken: token(ethereum, 'USDC'), buyToken: token(ethereum, 'WETH'), sellAmount: 2_000_000_000_000n }],
  ['Ethereum 50 ETH -> PEPE', { chainId: 1, sellToken: zeroAddress, buyToken: token(ethereum, 'PEPE'), sellAmount: 50n * 10n ** 18n }],
]
for (const [label, intent] of cases) {
  const quote = await getQuote(intent, source, { id: '01930000-0000-7000-8000-000000000000' })
  const samples = await time(40, () => getQuote(intent, source))
  row(label, samples, `${quote.route.swaps.length} path(s), ${quote.route.swaps.flat().length} swaps`)
}

// Refusals far past the liquidity: how fast the 404 / price-impact 400 comes back.
console.log('\nRefusals, embedded snapshot')
const refusals: [string, QuoteIntent][] = [
  ['Base buy 1,000,000 WETH (404)', { chainId: 8453, sellToken: token(base, 'USDC'), buyToken: token(base, 'WETH'), buyAmount: 10n ** 24n }],
  ['Base buy 100M USDC with cbETH (404)', { chainId: 8453, sellToken: token(base, 'cbETH'), buyToken: token(base, 'USDC'), buyAmount: 10n ** 14n }],
  ['Base sell $20M DAI for USDT (400 impact)', { chainId: 8453, sellToken: token(base, 'DAI'), buyToken: token(base, 'USDT'), sellAmount: 2n * 10n ** 25n }],
]
for (const [label, intent] of refusals) {
  let status = 0
  const samples = await time(10, () => getQuote(intent, source).catch((e: { statusCode: number }) => void (status = e.statusCode)))
  row(label, samples, `-> ${status || 'a quote'}`)
}

// 2. Pool math micro-benchmarks.
console.log('\nPool math')
{
  const r0 = 10n ** 24n
  const r1 = 3n * 10n ** 12n
  const n = 200_000
  const t = performance.now()
  let sink = 0n
  for (let i = 0; i < n; i++) sink += getAmountOut(10n ** 18n + BigInt(i), r0, r1, 30)
  const per = (performance.now() - t) / n
  console.log(`${'V2 getAmountOut'.padEnd(46)} mean ${fmt(per).padStart(10)}  (sum of outputs ${sink})`)
}
for (const crossings of [0, 10, 50]) {
  // A pool with an initialized tick every 60 ticks around the price, each holding equal liquidity.
  const spacing = 60
  const L = 10n ** 22n
  const ticks = []
  for (let k = -200; k <= 200; k++) ticks.push({ index: k * spacing, liquidityNet: k === -200 ? L * 201n : -L })
  const pool = { fee: 3000, tickSpacing: spacing, sqrtPriceX96: getSqrtRatioAtTick(30), tick: 30, liquidity: L * 201n, ticks, tickLower: -887272, tickUpper: 887272 }
  // Sell token1 until `crossings` initialized ticks above are crossed (price to just past the target tick).
  const target = getSqrtRatioAtTick(crossings * spacing + 45)
  const probe = simulateSwap(pool, false, 10n ** 40n, target)!
  const amount = probe.amount1
  const samples = await time(2_000, () => simulateSwap(pool, false, amount))
  const result = simulateSwap(pool, false, amount)!
  row(`V3 exact-in swap, ${crossings} ticks crossed`, samples, `(crossed ${result.initializedTicksCrossed}, ${result.stepsTaken} steps)`)
}

// 3. The RPC source against a local anvil devnet: round trips and wall time of a cold quote.
console.log('\nRPC source on a local anvil devnet (24 pools)')
{
  const anvil = await startAnvil()
  try {
    const devnet = await deployDevnet(anvil)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
    const chain = { ...devnet.chain, executor }
    let requests = 0
    const client = createPublicClient({ transport: http(anvil.rpcUrl, { onFetchRequest: () => void requests++ }) })
    const intent: QuoteIntent = { chainId: chain.id, sellToken: devnet.tokens.USDC.address as Address, buyToken: devnet.tokens.LINK.address as Address, sellAmount: 25_000_000_000n }
    const cold: number[] = []
    const counts: number[] = []
    for (let i = 0; i < 20; i++) {
      const rpc = createRpcSource({ client, chain })
      requests = 0
      const t = performance.now()
      await getQuote(intent, rpc, { chains: [chain] })
      cold.push(performance.now() - t)
      counts.push(requests)
    }
    row('cold quote USDC -> LINK (new source each time)', cold, `HTTP requests ${Math.min(...counts)}–${Math.max(...counts)}, 2 sequential round trips`)
    const warm = createRpcSource({ client, chain })
    await getQuote(intent, warm, { chains: [chain] })
    const warmSamples = await time(20, () => getQuote(intent, warm, { chains: [chain] }))
    row('warm quote (metadata cached)', warmSamples)
  } finally {
    await anvil.stop()
  }
}
