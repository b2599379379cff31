// The core proof: quotes built through createRpcSource on a real EVM with the
// real Uniswap V2/V3 bytecode, executed from their own `transaction`, pay
// exactly what they promised.
import { type Address, type Hex, decodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type Quote, type QuoteIntent, QuoteError, createRpcSource, deployExecutor, getQuote, weftExecutorAbi } from '../src/index.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import type { DevnetSymbol } from './devnet/universe.js'
import { executeQuote, expectExactFill, expectGasCovered } from './support/fill.js'
import { buildDevnetIntent, getDevnetSideAddress, getDevnetUsdAmount } from './support/devnetTrade.js'

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
  const stats = {
    executed: 0,
    mismatches: 0,
    notRouted: 0,
    ratios: [] as number[],
    // What the executed quotes covered, so the suite fails if a kind of route stops being exercised.
    covered: { split: 0, multiHop: 0, sharedPool: 0, flow: 0, nativeIn: 0, nativeOut: 0, feeOnInput: 0, feeOnOutput: 0, exactOut: 0, v2: 0, v3: 0 },
  }

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
        `gasEstimate/gasUsed: min ${Math.min(...r).toFixed(3)} max ${Math.max(...r).toFixed(3)}, covered: ${JSON.stringify(stats.covered)}`,
    )
    await anvil?.stop()
  })

  it.each(cases.map((c, i) => [i, c.name, c] as const))('#%i %s', async (i, _name, c) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const intent = buildDevnetIntent(devnet, chain.id, c, {
        ...(c.receiver ? { receiver: RECEIVER } : {}),
        ...(c.fees === 'integrator' || c.fees === 'all' ? { feeBps: 25, feeRecipient: FEE_RECIPIENT } : {}),
        ...(c.fees === 'referral' || c.fees === 'all' ? { referralFeeBps: 10, referralFeeRecipient: REFERRER } : {}),
        ...(c.fees === 'surplus' || c.fees === 'all' ? { surplusFeeBps: 5_000, surplusFeeRecipient: SURPLUS_RECIPIENT } : {}),
      })
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
      expectExactFill(outcome, quote, stats)
      stats.ratios.push(expectGasCovered(outcome, quote))
      stats.executed++
      const swaps = quote.route.swaps
      const keys = swaps.flat().map((s) => s.key)
      const covered = stats.covered
      if (swaps.length > 1) covered.split++
      if (swaps.some((path) => path.length > 1)) covered.multiHop++
      if (new Set(keys).size < keys.length) covered.sharedPool++
      if (isFlow(quote)) covered.flow++
      if (c.sell === 'ETH') covered.nativeIn++
      if (c.buy === 'ETH') covered.nativeOut++
      if (quote.fees.some((f) => f.token === intent.sellToken)) covered.feeOnInput++
      if (quote.fees.some((f) => f.token === intent.buyToken)) covered.feeOnOutput++
      if (c.kind === 'exactOut') covered.exactOut++
      if (swaps.flat().some((s) => s.protocol === 'Uniswap V2')) covered.v2++
      if (swaps.flat().some((s) => s.protocol === 'Uniswap V3')) covered.v3++
    } finally {
      await checkpoint.restore()
    }
  })
  it('executed at least 200 quotes covering every kind of route', () => {
    expect(stats.executed).toBeGreaterThanOrEqual(200)
    expect(stats.mismatches).toBe(0)
    for (const [kind, count] of Object.entries(stats.covered)) expect(count, kind).toBeGreaterThanOrEqual(5)
  })

  it('quotes on states the previous fills moved: 30 fills in a row, no reset in between', async () => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[0]!
      const sequence: [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH', number][] = [
        ['USDC', 'WETH', 400_000], ['WETH', 'USDC', 90_000], ['ETH', 'LINK', 60_000], ['LINK', 'USDC', 45_000], ['DAI', 'USDT', 700_000],
        ['USDT', 'WBTC', 250_000], ['WBTC', 'ETH', 300_000], ['PEPE', 'USDC', 50_000], ['USDC', 'PEPE', 80_000], ['WETH', 'DAI', 150_000],
      ]
      for (let round = 0; round < 3; round++) {
        for (const [sell, buy, usd] of sequence) {
          const amount = getDevnetUsdAmount(devnet, sell, usd * (1 + round / 3))
          const intent: QuoteIntent = { chainId: chain.id, sellToken: getDevnetSideAddress(devnet, sell), buyToken: getDevnetSideAddress(devnet, buy), sellAmount: amount, priceImpactLimitBps: 10_000, slippageBps: 30 }
          const quote = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain }), { chains: [chain], sender: trader })
          const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
          expect(outcome.receipt.status).toBe('success')
          expect(outcome.received).toBe(BigInt(quote.amountOut))
          for (const left of Object.values(outcome.executorLeft)) expect(left).toBe(0n)
        }
      }
    } finally {
      await checkpoint.restore()
    }
  })
})

/** A fill run as a flow: some executor path starts at an intermediate token (each pool traded once). */
function isFlow(quote: Quote): boolean {
  const { args } = decodeFunctionData({ abi: weftExecutorAbi, data: quote.transaction!.data as Hex })
  const order = args[0] as { tokenIn: Address; paths: readonly { steps: readonly { tokenIn: Address }[] }[] }
  const sellWrapped = order.paths[0]?.steps[0]?.tokenIn
  return order.paths.some((p) => p.steps[0]?.tokenIn !== sellWrapped)
}
