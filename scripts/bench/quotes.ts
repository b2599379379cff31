// End-to-end getQuote latency on the embedded snapshot (synthetic
// mainnet-shaped pools), and how fast refusals come back.
import { type Address, zeroAddress } from 'viem'
import { base } from '../../src/chains/base.js'
import { ethereum } from '../../src/chains/ethereum.js'
import type { ChainConfig } from '../../src/chains/types.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import { getQuote } from '../../src/quote/getQuote.js'
import type { QuoteIntent } from '../../src/quote/types.js'
import { formatMs, percentile, printTable, timeAsync } from './stats.js'

const token = (chain: ChainConfig, symbol: string): Address => chain.tokens.find((t) => t.symbol === symbol)!.address

/**
 * Warm getQuote latency (40 samples each) and refusal latency (10 samples each).
 *
 * @example
 * await runQuotesBench()
 */
export async function runQuotesBench(): Promise<void> {
  const source = createSnapshotSource(defaultSnapshot)
  const cases: [string, QuoteIntent][] = [
    ['Base 1.5 WETH -> USDC', { chainId: 8453, sellToken: token(base, 'WETH'), buyToken: token(base, 'USDC'), sellAmount: 1_500_000_000_000_000_000n }],
    ['Base 500k USDC -> ETH (split)', { chainId: 8453, sellToken: token(base, 'USDC'), buyToken: zeroAddress, sellAmount: 500_000_000_000n }],
    ['Base buy 10k AERO with cbBTC (multi-hop)', { chainId: 8453, sellToken: token(base, 'cbBTC'), buyToken: token(base, 'AERO'), buyAmount: 10_000n * 10n ** 18n }],
    ['Ethereum 2M USDC -> WETH (split)', { chainId: 1, sellToken: token(ethereum, 'USDC'), buyToken: token(ethereum, 'WETH'), sellAmount: 2_000_000_000_000n }],
    ['Ethereum 50 ETH -> PEPE', { chainId: 1, sellToken: zeroAddress, buyToken: token(ethereum, 'PEPE'), sellAmount: 50n * 10n ** 18n }],
  ]
  const rows: string[][] = []
  for (const [label, intent] of cases) {
    let note = ''
    try {
      const quote = await getQuote(intent, source, { id: '01930000-0000-7000-8000-000000000000' })
      note = `${quote.route.swaps.length} path(s), ${quote.route.swaps.flat().length} swaps`
    } catch (error) {
      note = `error: ${error instanceof Error ? error.message.slice(0, 60) : String(error)}`
    }
    const samples = await timeAsync(40, () => getQuote(intent, source).catch(() => undefined))
    rows.push([label, formatMs(percentile(samples, 50)), formatMs(percentile(samples, 99)), `${samples.length}`, note])
  }
  const refusals: [string, QuoteIntent][] = [
    ['Base buy 1,000,000 WETH (404)', { chainId: 8453, sellToken: token(base, 'USDC'), buyToken: token(base, 'WETH'), buyAmount: 10n ** 24n }],
    ['Base buy 100M USDC with cbETH (404)', { chainId: 8453, sellToken: token(base, 'cbETH'), buyToken: token(base, 'USDC'), buyAmount: 10n ** 14n }],
    ['Base sell $20M DAI for USDT (400 impact)', { chainId: 8453, sellToken: token(base, 'DAI'), buyToken: token(base, 'USDT'), sellAmount: 2n * 10n ** 25n }],
  ]
  for (const [label, intent] of refusals) {
    let status = 0
    const samples = await timeAsync(10, () => getQuote(intent, source).catch((e: { statusCode?: number }) => void (status = e.statusCode ?? -1)))
    rows.push([label, formatMs(percentile(samples, 50)), formatMs(percentile(samples, 99)), `${samples.length}`, `-> ${status || 'a quote'}`])
  }
  console.log('getQuote on the embedded snapshot (end to end: pools built from states, route, calldata)')
  printTable(['quote', 'p50', 'p99', 'samples', ''], rows)
  console.log('')
}
