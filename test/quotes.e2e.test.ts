// The core proof: quotes built through createRpcSource on a real EVM with the
// real Uniswap V2/V3 bytecode, executed from their own `transaction`, pay
// exactly what they promised.
import { type Address, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type Quote, type QuoteIntent, QuoteError, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import type { DevnetSymbol } from './devnet/universe.js'
import { executeQuote } from './support/fill.js'

type Case = {
  name: string
  sell: DevnetSymbol | 'ETH'
  buy: DevnetSymbol | 'ETH'
  usd: number
  kind: 'exactIn' | 'exactOut'
  fees: 'none' | 'integrator' | 'referral' | 'surplus' | 'all'
  receiver: boolean
}

const pairs: [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH'][] = [
  ['ETH', 'USDC'], ['USDC', 'ETH'], ['WETH', 'USDC'], ['USDC', 'WETH'], ['WBTC', 'USDC'], ['USDC', 'WBTC'],
  ['WETH', 'WBTC'], ['DAI', 'USDT'], ['USDT', 'DAI'], ['LINK', 'USDC'], ['USDC', 'LINK'], ['PEPE', 'DAI'],
  ['ETH', 'LINK'], ['LINK', 'ETH'], ['PEPE', 'ETH'], ['ETH', 'WETH'], ['WETH', 'ETH'], ['WBTC', 'LINK'],
  ['DAI', 'WETH'], ['USDT', 'WBTC'], ['LINK', 'PEPE'], ['PEPE', 'USDC'],
]
const sizesUsd = [0.05, 40, 3_000, 150_000, 900_000]
const feeModes: Case['fees'][] = ['none', 'integrator', 'referral', 'surplus', 'all']

function buildCases(): Case[] {
  const cases: Case[] = []
  let i = 0
  for (const [sell, buy] of pairs)
    for (const usd of sizesUsd)
      for (const kind of ['exactIn', 'exactOut'] as const) {
        const fees = feeModes[i % feeModes.length]!
        cases.push({ name: `${kind} ${sell}->${buy} $${usd} fees:${fees}`, sell, buy, usd, kind, fees, receiver: i % 3 === 1 })
        i++
      }
  return cases
}

const cases = buildCases()
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const REFERRER = '0x00000000000000000000000000000000000fee02' as Address
const SURPLUS_RECIPIENT = '0x00000000000000000000000000000000000fee03' as Address
const TREASURY = '0x00000000000000000000000000000000000fee04' as Address
const RECEIVER = '0x000000000000000000000000000000000000beef' as Address

describe('quotes executed on anvil against real Uniswap V2/V3 bytecode', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  const stats = { executed: 0, mismatches: 0, notRouted: 0, ratios: [] as number[] }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
    chain = { ...devnet.chain, executor, treasury: TREASURY }
  })
  afterAll(async () => {
    const r = stats.ratios
    console.log(
      `quotes executed: ${stats.executed}, mismatches: ${stats.mismatches}, not routed: ${stats.notRouted}, ` +
        `gasEstimate/gasUsed: min ${Math.min(...r).toFixed(3)} max ${Math.max(...r).toFixed(3)}`,
    )
    await anvil?.stop()
  })

  const address = (symbol: DevnetSymbol | 'ETH'): Address => (symbol === 'ETH' ? zeroAddress : devnet.tokens[symbol].address)
  const decimals = (symbol: DevnetSymbol | 'ETH') => (symbol === 'ETH' ? 18 : devnet.tokens[symbol].decimals)
  const price = (symbol: DevnetSymbol | 'ETH') => (symbol === 'ETH' ? devnet.tokens.WETH.priceUsd : devnet.tokens[symbol].priceUsd)
  const rawAmount = (symbol: DevnetSymbol | 'ETH', usd: number) => {
    const whole = usd / price(symbol)
    const raw = BigInt(Math.max(1, Math.floor(whole * 10 ** Math.min(decimals(symbol), 12)))) * 10n ** BigInt(Math.max(0, decimals(symbol) - 12))
    return raw
  }

  it.each(cases.map((c, i) => [i, c.name, c] as const))('#%i %s', async (i, _name, c) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const intent: QuoteIntent = {
        chainId: chain.id,
        sellToken: address(c.sell),
        buyToken: address(c.buy),
        ...(c.kind === 'exactIn' ? { sellAmount: rawAmount(c.sell, c.usd) } : { buyAmount: rawAmount(c.buy, c.usd) }),
        slippageBps: 50,
        priceImpactLimitBps: 10_000,
        ...(c.receiver ? { receiver: RECEIVER } : {}),
        ...(c.fees === 'integrator' || c.fees === 'all' ? { feeBps: 25, feeRecipient: FEE_RECIPIENT } : {}),
        ...(c.fees === 'referral' || c.fees === 'all' ? { referralFeeBps: 10, referralFeeRecipient: REFERRER } : {}),
        ...(c.fees === 'surplus' || c.fees === 'all' ? { surplusFeeBps: 5_000, surplusFeeRecipient: SURPLUS_RECIPIENT } : {}),
      }
      const source = createRpcSource({ client: anvil.publicClient, chain })
      let quote: Quote
      try {
        quote = await getQuote(intent, source, { chains: [chain], sender: trader })
      } catch (error) {
        // Only the largest trades may exceed what the devnet pools hold.
        expect(error).toBeInstanceOf(QuoteError)
        expect((error as QuoteError).statusCode).toBe(404)
        expect(c.usd).toBeGreaterThanOrEqual(150_000)
        stats.notRouted++
        return
      }
      if (c.kind === 'exactOut') expect(BigInt(quote.amountOut)).toBeGreaterThanOrEqual(intent.buyAmount!)
      const outcome = await executeQuote(devnet, quote, intent.buyToken, trader, c.receiver ? RECEIVER : trader)
      const exact =
        outcome.receipt.status === 'success' &&
        outcome.received === BigInt(quote.amountOut) &&
        outcome.feesReceived.every((f, k) => f === BigInt(quote.fees[k]!.amount))
      if (!exact) stats.mismatches++
      expect(outcome.receipt.status).toBe('success')
      expect(outcome.received).toBe(BigInt(quote.amountOut))
      expect(outcome.feesReceived).toEqual(quote.fees.map((f) => BigInt(f.amount)))
      for (const [token, left] of Object.entries(outcome.executorLeft)) expect(left, `executor holds ${token}`).toBe(0n)
      const gasUsed = Number(outcome.receipt.gasUsed)
      stats.ratios.push(quote.gasEstimate / gasUsed)
      expect(quote.gasEstimate).toBeGreaterThanOrEqual(gasUsed)
      expect(quote.gasEstimate).toBeLessThanOrEqual(1.3 * gasUsed)
      stats.executed++
    } finally {
      await checkpoint.restore()
    }
  })
})
