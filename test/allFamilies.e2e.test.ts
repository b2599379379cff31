// One devnet holding every pool family weft prices — Uniswap V2 and V3, PancakeSwap V3, Uniswap V4
// (native ETH and ERC-20 pools, plus a hooked and a dynamic-fee pool it must skip) and a Balancer
// V2 weighted pool — all on the same pairs. Quotes through createRpcSource must split across
// families when that pays and execute exactly from their own transaction.
import { type Address, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type Quote, type QuoteDetails, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from './devnet/balancerV2.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import { deployPancakeV3, withPancakeV3 } from './devnet/pancakeV3.js'
import type { DevnetSymbol } from './devnet/universe.js'
import { deployUniswapV4, withUniswapV4 } from './devnet/uniswapV4.js'
import { executeQuote, expectExactFill, expectGasCovered } from './support/fill.js'

const E18 = 10n ** 18n
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee07' as Address

describe('every family on one devnet: splits across families, executed exactly', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  const stats = { executed: 0, mismatches: 0, families: new Map<string, number>(), maxFamiliesInOneQuote: 0 }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const pancake = await deployPancakeV3(devnet)
    const v4 = await deployUniswapV4(devnet)
    const balancer = await deployBalancerV2(devnet)
    // $4M WETH/USDC 50/50 and $1M WETH/LINK 80/20 weighted pools.
    const wethUsdc = await createBalancerV2WeightedPool(devnet, balancer, [
      { token: 'WETH', weight: 5n * 10n ** 17n, amount: (2_000_000n * E18) / 3_000n },
      { token: 'USDC', weight: 5n * 10n ** 17n, amount: 2_000_000n * 10n ** 6n },
    ], { swapFee: 3n * 10n ** 15n })
    const wethLink = await createBalancerV2WeightedPool(devnet, balancer, [
      { token: 'WETH', weight: 8n * 10n ** 17n, amount: (800_000n * E18) / 3_000n },
      { token: 'LINK', weight: 2n * 10n ** 17n, amount: (200_000n * E18) / 15n },
    ], { swapFee: 25n * 10n ** 14n })
    const config = withPancakeV3(withUniswapV4(devnet.chain, v4), pancake)
    const withBalancer = { ...config, dexes: [...config.dexes, getBalancerV2DexConfig(balancer, [wethUsdc.poolId, wethLink.poolId])] }
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withBalancer })
    chain = { ...withBalancer, executor }
  })
  afterAll(async () => {
    console.log(
      `all families: ${stats.executed} quotes executed, ${stats.mismatches} mismatches; swaps by family ${JSON.stringify(Object.fromEntries(stats.families))}; ` +
        `at most ${stats.maxFamiliesInOneQuote} families in one quote`,
    )
    await anvil?.stop()
  })

  const address = (symbol: DevnetSymbol | 'ETH'): Address => (symbol === 'ETH' ? zeroAddress : devnet.tokens[symbol].address)
  const familyOf = (swap: Quote['route']['swaps'][number][number]) => `${swap.protocol}/${swap.fork}`

  const cases: [string, DevnetSymbol | 'ETH', DevnetSymbol | 'ETH', 'sell' | 'buy', bigint, boolean][] = [
    ['sell 300 WETH for USDC', 'WETH', 'USDC', 'sell', 300n * E18, false],
    ['sell 2,000 ETH for USDC with a fee', 'ETH', 'USDC', 'sell', 2_000n * E18, true],
    ['sell 1.5M USDC for ETH', 'USDC', 'ETH', 'sell', 1_500_000n * 10n ** 6n, false],
    ['buy exactly 800,000 USDC with WETH', 'WETH', 'USDC', 'buy', 800_000n * 10n ** 6n, false],
    ['buy exactly 400 ETH with USDC, fee on output', 'USDC', 'ETH', 'buy', 400n * E18, true],
    ['sell 40,000 LINK for USDC (multi-hop)', 'LINK', 'USDC', 'sell', 40_000n * E18, false],
    ['sell 5 WETH for USDC (a small trade)', 'WETH', 'USDC', 'sell', 5n * E18, false],
  ]

  it.each(cases)('%s', async (_, sell, buy, side, amount, fee) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[1]!
      const intent: QuoteIntent = {
        chainId: chain.id,
        sellToken: address(sell),
        buyToken: address(buy),
        ...(side === 'sell' ? { sellAmount: amount } : { buyAmount: amount }),
        slippageBps: 50,
        priceImpactLimitBps: 10_000,
        ...(fee ? { feeBps: 20, feeRecipient: FEE_RECIPIENT } : {}),
      }
      let details: QuoteDetails | undefined
      const quote = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain }), {
        chains: [chain],
        sender: trader,
        onDetails: (d) => (details = d),
      })
      if (side === 'buy') expect(BigInt(quote.amountOut)).toBeGreaterThanOrEqual(amount)
      // The hooked and the dynamic-fee V4 pools are seen and reported, never priced.
      const skipped = details!.liquidity.skipped.map((s) => s.reason).join(' | ')
      if (sell !== 'LINK') expect(skipped).toMatch(/hook/i)
      const families = new Set(quote.route.swaps.flat().map(familyOf))
      for (const swap of quote.route.swaps.flat()) stats.families.set(familyOf(swap), (stats.families.get(familyOf(swap)) ?? 0) + 1)
      stats.maxFamiliesInOneQuote = Math.max(stats.maxFamiliesInOneQuote, families.size)

      const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
      stats.executed++
      expectExactFill(outcome, quote, stats)
      expectGasCovered(outcome, quote)
    } finally {
      await checkpoint.restore()
    }
  })

  it('the large trades split across families, and every family took part', () => {
    expect(stats.mismatches).toBe(0)
    expect(stats.maxFamiliesInOneQuote).toBeGreaterThanOrEqual(4)
    const seen = [...stats.families.keys()].join(' ')
    for (const fork of ['UniswapV2', 'UniswapV3', 'PancakeV3', 'BalancerV2']) expect(seen).toContain(fork)
    expect(seen).toMatch(/V4/)
  })
})
