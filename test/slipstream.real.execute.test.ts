// Quotes over the real CLPool (test/devnet/slipstreamReal.ts) executed through weft's executor
// (dex kind 6, Step.param = tick spacing, callback authenticated by the clone-hash CREATE2 address
// of the real CLFactory), alone and split with Uniswap V3: the receiver gets exactly amountOut, the
// executor keeps nothing, and the gas estimate is within [1.0, 1.3] of the gas the fill used.
// The devnet factory's Voter is a stand-in without gauges (SlipstreamFactoryDeps): the unstaked-fee
// lookup every swap makes answers from it, a few cold reads cheaper than Base's Voter.
import { zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { slipstreamFamily } from '../src/protocols/slipstream/family.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, type DevnetSymbol, deployDevnet, startAnvil } from './devnet/index.js'
import { type SlipstreamRealDeployment, deploySlipstreamReal, withSlipstreamReal } from './devnet/slipstreamReal.js'
import { rpc } from './devnet/rpc.js'
import { executeQuote } from './support/fill.js'

type Case = [sell: DevnetSymbol | 'ETH', buy: DevnetSymbol | 'ETH', usd: number, kind: 'exactIn' | 'exactOut', mode: 'slipstream' | 'split']

/** Seconds between the quote's block and the fill's (Base mines every 2 s). */
const BLOCK_SECONDS = 2

const CASES: readonly Case[] = [
  ['WETH', 'USDC', 5_000, 'exactIn', 'slipstream'], ['USDC', 'ETH', 40_000, 'exactIn', 'slipstream'], ['ETH', 'USDC', 2_000, 'exactOut', 'slipstream'],
  ['USDC', 'USDT', 300_000, 'exactIn', 'slipstream'], ['USDT', 'USDC', 900_000, 'exactIn', 'slipstream'], ['LINK', 'WETH', 20_000, 'exactIn', 'slipstream'],
  ['WETH', 'LINK', 8_000, 'exactOut', 'slipstream'], ['WBTC', 'USDC', 50_000, 'exactIn', 'slipstream'], ['USDC', 'WBTC', 150_000, 'exactIn', 'slipstream'],
  ['WETH', 'USDC', 400_000, 'exactIn', 'slipstream'], ['USDC', 'WETH', 600_000, 'exactOut', 'slipstream'], ['LINK', 'USDC', 30_000, 'exactIn', 'slipstream'],
  ['WETH', 'USDC', 1_500_000, 'exactIn', 'split'], ['USDC', 'WETH', 2_000_000, 'exactIn', 'split'], ['USDC', 'ETH', 700_000, 'exactOut', 'split'],
  ['USDT', 'WETH', 90_000, 'exactIn', 'split'],
]

describe('quotes over the real CLPool execute exactly through weft’s executor', () => {
  let anvil: Anvil
  let devnet: Devnet
  let slipstream: SlipstreamRealDeployment
  let chain: ChainConfig
  const stats = { executed: 0, kind6Steps: 0, ratios: [] as { name: string; ratio: number; gasUsed: number; estimate: number }[] }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    slipstream = await deploySlipstreamReal(devnet)
    const withSlipstream = withSlipstreamReal(devnet.chain, slipstream)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withSlipstream })
    chain = { ...withSlipstream, executor }
  }, 120_000)
  afterAll(async () => {
    const ratios = stats.ratios.map((r) => r.ratio)
    console.log(
      `real CLPool fills: ${stats.executed} executed, ${stats.kind6Steps} kind-6 steps, gasEstimate/gasUsed min ${Math.min(...ratios).toFixed(3)} max ${Math.max(...ratios).toFixed(3)}\n` +
        stats.ratios.map((r) => `  ${r.name}: used ${r.gasUsed} estimate ${r.estimate} ratio ${r.ratio.toFixed(3)}`).join('\n'),
    )
    await anvil?.stop()
  })

  it.each(CASES.map((c, i) => [i, `${c[4]}: ${c[3]} ${c[0]}->${c[1]} $${c[2]}`, c] as const))('quote #%i %s', async (i, name, [sell, buy, usd, kind, mode]) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const token = (t: DevnetSymbol | 'ETH') => devnet.tokens[t === 'ETH' ? 'WETH' : t]
      const raw = (t: DevnetSymbol | 'ETH') =>
        BigInt(Math.floor((usd / token(t).priceUsd) * 10 ** Math.min(6, token(t).decimals))) * 10n ** BigInt(Math.max(0, token(t).decimals - 6))
      const intent: QuoteIntent = {
        chainId: chain.id,
        sellToken: sell === 'ETH' ? zeroAddress : token(sell).address,
        buyToken: buy === 'ETH' ? zeroAddress : token(buy).address,
        ...(kind === 'exactIn' ? { sellAmount: raw(sell) } : { buyAmount: raw(buy) }),
        slippageBps: 50,
        priceImpactLimitBps: 10_000,
      }
      const families = mode === 'slipstream' ? [slipstreamFamily] : [uniswapV3Family, slipstreamFamily]
      const source = createRpcSource({ client: anvil.publicClient, chain, families })
      const quote = await getQuote(intent, source, { chains: [chain], sender: trader, families })
      // The fill lands a block time after the quote, in a later second than the pools' last swap,
      // as on a chain: the CLPool then writes its oracle observation (a devnet mining in the same
      // second skips it and under-states the gas).
      await rpc(anvil.rpcUrl, 'evm_increaseTime', [BLOCK_SECONDS])
      const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
      expect(outcome.receipt.status).toBe('success')
      expect(outcome.received).toBe(BigInt(quote.amountOut))
      for (const left of Object.values(outcome.executorLeft)) expect(left).toBe(0n)
      const all = quote.route.swaps.flat()
      const kind6 = all.filter((s) => s.fork === 'AeroDromeCL').length
      expect(kind6).toBeGreaterThan(0)
      if (mode === 'slipstream') expect(kind6).toBe(all.length)
      stats.kind6Steps += kind6
      const gasUsed = Number(outcome.receipt.gasUsed)
      stats.ratios.push({ name, ratio: quote.gasEstimate / gasUsed, gasUsed, estimate: quote.gasEstimate })
      stats.executed++
    } finally {
      await checkpoint.restore()
    }
  })

  it('estimated every fill within [1.0, 1.3] of its gas used', () => {
    expect(stats.executed).toBe(CASES.length)
    for (const { name, ratio } of stats.ratios) {
      expect(ratio, name).toBeGreaterThanOrEqual(1)
      expect(ratio, name).toBeLessThanOrEqual(1.3)
    }
  })
})
