// PancakeSwap V3 end to end: a devnet with the real Uniswap V2/V3 pools and the real PancakeV3Pool
// bytecode side by side, quotes through createRpcSource (the pancakeV3 family reads its pools with
// the rest), each executed from its own `transaction` on weft's executor (dex kind 3 paid from
// pancakeV3SwapCallback): the receiver gets exactly amountOut, each fee recipient exactly its fee,
// the executor keeps nothing, and the gas estimate holds (gasUsed <= estimate <= 1.3 x gasUsed).
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChainConfig,
  type PoolFamily,
  type Quote,
  QuoteError,
  createRpcSource,
  deployExecutor,
  getQuote,
} from '../src/index.js'
import { pancakeV3Family } from '../src/protocols/pancakeV3/family.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, type DevnetSymbol, deployDevnet, startAnvil } from './devnet/index.js'
import { type PancakeV3Deployment, deployPancakeV3, withPancakeV3 } from './devnet/pancakeV3.js'
import { executeQuote, expectExactFill, expectGasCovered } from './support/fill.js'
import { buildDevnetIntent } from './support/devnetTrade.js'

type Token = DevnetSymbol | 'ETH'
type Case = {
  name: string
  sell: Token
  buy: Token
  usd: number
  kind: 'exactIn' | 'exactOut'
  fees: boolean
  receiver: boolean
  /** Route over these families only (default: every default family). */
  families?: readonly PoolFamily[]
  /** What the executed route must show. */
  expect?: 'pancake' | 'split-uniswap-pancake' | 'pancake-multihop'
}

const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const TREASURY = '0x00000000000000000000000000000000000fee04' as Address
const RECEIVER = '0x000000000000000000000000000000000000beef' as Address
const pancakeOnly = [pancakeV3Family] as const
const v3Only = [uniswapV3Family, pancakeV3Family] as const

function buildCases(): Case[] {
  const cases: Case[] = []
  const pairs: [Token, Token][] = [
    ['WETH', 'USDC'], ['USDC', 'WETH'], ['ETH', 'USDC'], ['USDC', 'ETH'], ['USDC', 'USDT'], ['DAI', 'USDC'],
    ['WBTC', 'WETH'], ['WETH', 'WBTC'], ['LINK', 'WETH'], ['ETH', 'LINK'], ['LINK', 'USDC'], ['WBTC', 'USDC'],
  ]
  let i = 0
  for (const [sell, buy] of pairs)
    for (const usd of [25, 20_000, 400_000])
      for (const kind of ['exactIn', 'exactOut'] as const) {
        cases.push({ name: `${kind} ${sell}->${buy} $${usd}`, sell, buy, usd, kind, fees: i % 3 === 0, receiver: i % 4 === 1 })
        i++
      }
  // Pancake pools alone: single hops, native in and out, exact out, and multi-hop through WETH.
  for (const [sell, buy, usd, kind] of [
    ['WETH', 'USDC', 50_000, 'exactIn'], ['USDC', 'ETH', 80_000, 'exactIn'], ['ETH', 'USDC', 3_000, 'exactOut'],
    ['USDC', 'USDT', 500_000, 'exactIn'], ['WBTC', 'WETH', 120_000, 'exactOut'], ['LINK', 'WETH', 30_000, 'exactIn'],
    ['ETH', 'LINK', 10_000, 'exactIn'], ['LINK', 'ETH', 5_000, 'exactOut'],
  ] as const) {
    cases.push({ name: `Pancake only: ${kind} ${sell}->${buy} $${usd}`, sell, buy, usd, kind, fees: usd > 40_000, receiver: false, families: pancakeOnly, expect: 'pancake' })
  }
  for (const [sell, buy, usd, kind] of [
    ['LINK', 'USDC', 20_000, 'exactIn'], ['USDC', 'LINK', 15_000, 'exactOut'], ['DAI', 'ETH', 10_000, 'exactIn'],
    ['USDT', 'LINK', 5_000, 'exactOut'], ['WBTC', 'USDC', 200_000, 'exactIn'], ['USDT', 'WETH', 100_000, 'exactIn'],
  ] as const) {
    cases.push({ name: `Pancake multi-hop: ${kind} ${sell}->${buy} $${usd}`, sell, buy, usd, kind, fees: true, receiver: true, families: pancakeOnly, expect: 'pancake-multihop' })
  }
  // Uniswap V3 and Pancake V3 pools of the same pair: large trades split across both.
  for (const [sell, buy, usd, kind] of [
    ['WETH', 'USDC', 1_500_000, 'exactIn'], ['USDC', 'WETH', 2_000_000, 'exactIn'], ['ETH', 'USDC', 1_200_000, 'exactIn'],
    ['USDC', 'ETH', 900_000, 'exactOut'], ['WETH', 'USDC', 800_000, 'exactOut'],
  ] as const) {
    cases.push({ name: `split Uniswap V3 + Pancake V3: ${kind} ${sell}->${buy} $${usd}`, sell, buy, usd, kind, fees: true, receiver: false, families: v3Only, expect: 'split-uniswap-pancake' })
  }
  return cases
}

const cases = buildCases()

describe('quotes over Uniswap and PancakeSwap V3 pools, executed on anvil', () => {
  let anvil: Anvil
  let devnet: Devnet
  let pancake: PancakeV3Deployment
  let chain: ChainConfig
  const stats = {
    executed: 0,
    mismatches: 0,
    notRouted: 0,
    ratios: [] as number[],
    covered: { pancake: 0, pancakeMultiHop: 0, splitUniswapPancake: 0, nativeIn: 0, nativeOut: 0, exactOut: 0, fees: 0, pancakeWithUniswap: 0 },
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    pancake = await deployPancakeV3(devnet)
    const withPancake = withPancakeV3(devnet.chain, pancake)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withPancake })
    chain = { ...withPancake, executor, treasury: TREASURY }
  })
  afterAll(async () => {
    const r = stats.ratios
    console.log(
      `Pancake e2e: quotes executed ${stats.executed}, mismatches ${stats.mismatches}, not routed ${stats.notRouted}, ` +
        `gasEstimate/gasUsed min ${Math.min(...r).toFixed(3)} max ${Math.max(...r).toFixed(3)}, covered ${JSON.stringify(stats.covered)}`,
    )
    await anvil?.stop()
  })

  it.each(cases.map((c, i) => [i, c.name, c] as const))('#%i %s', async (i, _name, c) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const intent = buildDevnetIntent(devnet, chain.id, c, {
        ...(c.receiver ? { receiver: RECEIVER } : {}),
        ...(c.fees ? { feeBps: 20, feeRecipient: FEE_RECIPIENT } : {}),
      })
      const families = c.families
      const source = createRpcSource({ client: anvil.publicClient, chain, ...(families ? { families } : {}) })
      let quote: Quote
      try {
        quote = await getQuote(intent, source, { chains: [chain], sender: trader, ...(families ? { families } : {}) })
      } catch (error) {
        expect(error).toBeInstanceOf(QuoteError)
        expect((error as QuoteError).statusCode).toBe(404)
        expect(c.expect, 'a case that must route did not').toBeUndefined()
        expect(c.usd).toBeGreaterThanOrEqual(400_000)
        stats.notRouted++
        return
      }
      const outcome = await executeQuote(devnet, quote, intent.buyToken, trader, c.receiver ? RECEIVER : trader)
      expectExactFill(outcome, quote, stats)
      if (c.kind === 'exactOut') expect(BigInt(quote.amountOut)).toBeGreaterThanOrEqual(intent.buyAmount!)
      stats.ratios.push(expectGasCovered(outcome, quote))
      stats.executed++

      const swaps = quote.route.swaps
      const all = swaps.flat()
      const pancakeSwaps = all.filter((s) => s.fork === 'PancakeV3')
      for (const s of pancakeSwaps) {
        expect(s.protocol).toBe('Uniswap V3')
        expect(pancake.pools.some((p) => p.address === s.address)).toBe(true)
      }
      const covered = stats.covered
      if (pancakeSwaps.length > 0) covered.pancake++
      if (pancakeSwaps.length > 0 && all.some((s) => s.fork !== 'PancakeV3' && s.fork !== 'WETH')) covered.pancakeWithUniswap++
      if (swaps.some((path) => path.length > 1 && path.some((s) => s.fork === 'PancakeV3'))) covered.pancakeMultiHop++
      const splitForks = new Set(swaps.map((path) => path.map((s) => s.fork).join('+')))
      if (swaps.length > 1 && [...splitForks].some((f) => f.includes('PancakeV3')) && [...splitForks].some((f) => f.includes('UniswapV3'))) {
        covered.splitUniswapPancake++
      }
      if (c.sell === 'ETH' && pancakeSwaps.length > 0) covered.nativeIn++
      if (c.buy === 'ETH' && pancakeSwaps.length > 0) covered.nativeOut++
      if (c.kind === 'exactOut' && pancakeSwaps.length > 0) covered.exactOut++
      if (c.fees && pancakeSwaps.length > 0) covered.fees++

      if (c.expect === 'pancake' || c.expect === 'pancake-multihop') expect(all.every((s) => s.fork === 'PancakeV3')).toBe(true)
      if (c.expect === 'pancake-multihop') expect(swaps.some((path) => path.length > 1)).toBe(true)
      if (c.expect === 'split-uniswap-pancake') {
        expect(swaps.length).toBeGreaterThan(1)
        expect(all.some((s) => s.fork === 'PancakeV3')).toBe(true)
        expect(all.some((s) => s.fork === 'UniswapV3')).toBe(true)
      }
    } finally {
      await checkpoint.restore()
    }
  })

  it('executed every case with 0 mismatches, covering Pancake routes of every kind', () => {
    expect(stats.mismatches).toBe(0)
    expect(stats.executed + stats.notRouted).toBe(cases.length)
    expect(stats.executed).toBeGreaterThanOrEqual(cases.length - 12)
    for (const [kind, count] of Object.entries(stats.covered)) expect(count, kind).toBeGreaterThanOrEqual(3)
  })
})
