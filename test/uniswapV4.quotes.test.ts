// Uniswap V4 quotes executed for real: a devnet holding the Uniswap V2/V3 pools and Uniswap V4 pools
// (native ETH and ERC-20 currencies, protocol fees, a non-standard fee / spacing pair listed in the
// dex's poolKeys, and a hooked and a dynamic-fee pool that must be skipped), quotes built through
// createRpcSource with the default families, each executed from its own `transaction`: the
// receiver gets exactly amountOut, each fee recipient exactly its fee, the executor keeps nothing,
// and the gas estimate holds gasUsed <= estimate <= 1.3 x gasUsed.
import { type Address, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type Quote, type QuoteIntent, QuoteError, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import type { DevnetSymbol } from './devnet/universe.js'
import { type UniswapV4Deployment, V4_HOOK_ADDRESSES, deployUniswapV4, withUniswapV4 } from './devnet/uniswapV4.js'
import { executeQuote, expectExactFill, expectGasCovered } from './support/fill.js'
import { buildDevnetIntent, getDevnetSideAddress, getDevnetUsdAmount } from './support/devnetTrade.js'

type Side = DevnetSymbol | 'ETH'
type Case = { sell: Side; buy: Side; usd: number; kind: 'exactIn' | 'exactOut'; fees: 'none' | 'integrator' | 'all'; receiver: boolean }

const PAIRS: [Side, Side][] = [
  ['ETH', 'USDC'], ['USDC', 'ETH'], ['WETH', 'USDC'], ['USDC', 'WETH'], ['ETH', 'WBTC'], ['WBTC', 'ETH'],
  ['USDC', 'USDT'], ['USDT', 'USDC'], ['DAI', 'USDC'], ['ETH', 'LINK'], ['LINK', 'ETH'], ['WBTC', 'USDC'],
  ['USDC', 'WBTC'], ['USDT', 'ETH'], ['LINK', 'USDC'], ['DAI', 'ETH'],
]
const SIZES_USD = [40, 3_000, 60_000, 400_000]
const FEE_MODES: Case['fees'][] = ['none', 'integrator', 'all']
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const REFERRER = '0x00000000000000000000000000000000000fee02' as Address
const SURPLUS_RECIPIENT = '0x00000000000000000000000000000000000fee03' as Address
const TREASURY = '0x00000000000000000000000000000000000fee04' as Address
const RECEIVER = '0x000000000000000000000000000000000000beef' as Address

function buildCases(): Case[] {
  const cases: Case[] = []
  let i = 0
  for (const [sell, buy] of PAIRS)
    for (const usd of SIZES_USD)
      for (const kind of ['exactIn', 'exactOut'] as const) {
        cases.push({ sell, buy, usd, kind, fees: FEE_MODES[i % FEE_MODES.length]!, receiver: i % 4 === 1 })
        i++
      }
  return cases
}

describe('Uniswap V4 quotes executed on anvil against the real PoolManager', () => {
  let anvil: Anvil
  let devnet: Devnet
  let v4: UniswapV4Deployment
  let chain: ChainConfig
  const skippedIds = new Set<string>()
  const stats = {
    executed: 0,
    mismatches: 0,
    notRouted: 0,
    ratios: [] as number[],
    v4Ratios: [] as number[],
    covered: { v4: 0, v4Native: 0, v4NativeIn: 0, v4NativeOut: 0, v4Erc20: 0, splitV3V4: 0, multiHopV4: 0, exactOutV4: 0, listedKey: 0 },
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    v4 = await deployUniswapV4(devnet)
    const withV4 = withUniswapV4(devnet.chain, v4)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withV4 })
    chain = { ...withV4, executor, treasury: TREASURY }
    for (const pool of v4.pools) if (pool.hooks !== zeroAddress) skippedIds.add(pool.id)
  })
  afterAll(async () => {
    const range = (r: number[]) => `min ${Math.min(...r).toFixed(3)} max ${Math.max(...r).toFixed(3)}`
    console.log(
      `V4 quotes executed: ${stats.executed}, mismatches: ${stats.mismatches}, not routed: ${stats.notRouted}, ` +
        `gasEstimate/gasUsed: ${range(stats.ratios)} (routes through V4: ${range(stats.v4Ratios)}), covered: ${JSON.stringify(stats.covered)}`,
    )
    await anvil?.stop()
  })


  it('the RPC source reports the hooked and the dynamic-fee pools as skipped, and prices the others', async () => {
    const source = createRpcSource({ client: anvil.publicClient, chain })
    const liquidity = await source.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })
    const skipped = liquidity.report.skipped.filter((s) => skippedIds.has(s.address))
    expect(skipped.map((s) => s.address).sort()).toEqual([...skippedIds].sort())
    const hooked = skipped.find((s) => s.reason.includes(V4_HOOK_ADDRESSES.beforeSwap))
    const dynamic = skipped.find((s) => s.reason.includes('dynamic fee'))
    expect(hooked?.reason).toMatch(/hooks/)
    expect(dynamic?.reason).toMatch(/dynamic fee/)
    const v4Ids = liquidity.pools.filter((p) => p.family === 'uniswapV4').map((p) => (p as unknown as { id: string }).id)
    for (const id of skippedIds) expect(v4Ids).not.toContain(id)
    // Every other V4 pool among WETH, USDC and the majors is priced.
    const candidates = new Set<string>([devnet.tokens.WETH.address, devnet.tokens.USDC.address, ...chain.majorTokens])
    const expected = v4.pools
      .filter((p) => p.hooks === zeroAddress && p.tokens.every((t) => candidates.has(t)))
      .map((p) => p.id)
    expect(expected.length).toBeGreaterThanOrEqual(6)
    expect(v4Ids.sort()).toEqual(expected.sort())
  })

  const cases = buildCases()
  it.each(cases.map((c, i) => [i, `${c.kind} ${c.sell}->${c.buy} $${c.usd} fees:${c.fees}`, c] as const))('#%i %s', async (i, _name, c) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const intent = buildDevnetIntent(devnet, chain.id, c, {
        ...(c.receiver ? { receiver: RECEIVER } : {}),
        ...(c.fees !== 'none' ? { feeBps: 25, feeRecipient: FEE_RECIPIENT } : {}),
        ...(c.fees === 'all' ? { referralFeeBps: 10, referralFeeRecipient: REFERRER, surplusFeeBps: 5_000, surplusFeeRecipient: SURPLUS_RECIPIENT } : {}),
      })
      let quote: Quote
      try {
        quote = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain }), { chains: [chain], sender: trader })
      } catch (error) {
        expect(error).toBeInstanceOf(QuoteError)
        expect((error as QuoteError).statusCode).toBe(404)
        expect(c.usd).toBeGreaterThanOrEqual(400_000)
        stats.notRouted++
        return
      }
      const swaps = quote.route.swaps.flat()
      for (const swap of swaps) expect(skippedIds.has(swap.key), `a skipped pool was routed: ${swap.key}`).toBe(false)
      const outcome = await executeQuote(devnet, quote, intent.buyToken, trader, c.receiver ? RECEIVER : trader)
      expectExactFill(outcome, quote, stats)
      expect(await devnet.balanceOf('ETH', quote.transaction.to as Address)).toBe(0n)
      const ratio = expectGasCovered(outcome, quote)
      stats.ratios.push(ratio)
      stats.executed++

      const v4Swaps = swaps.filter((s) => s.protocol === 'Uniswap V4')
      if (v4Swaps.length === 0) return
      const covered = stats.covered
      covered.v4++
      stats.v4Ratios.push(ratio)
      for (const s of v4Swaps) expect(s.address).toBe(v4.manager)
      const pools = v4Swaps.map((s) => v4.pools.find((p) => p.id === s.key)!)
      const nativePools = pools.filter((p) => p.native)
      if (nativePools.length > 0) covered.v4Native++
      if (pools.some((p) => !p.native)) covered.v4Erc20++
      // Native ETH is the zero address at the route's ends, WETH inside it (decisions.md §5).
      const isEth = (token: string) => token === devnet.tokens.WETH.address || token === zeroAddress
      if (v4Swaps.some((s, k) => pools[k]!.native && isEth(s.tokenIn))) covered.v4NativeIn++
      if (v4Swaps.some((s, k) => pools[k]!.native && isEth(s.tokenOut))) covered.v4NativeOut++
      if (quote.route.swaps.some((path) => path.length > 1 && path.some((s) => s.protocol === 'Uniswap V4'))) covered.multiHopV4++
      if (c.kind === 'exactOut') covered.exactOutV4++
      if (pools.some((p) => v4.dex.poolKeys?.some((k) => k.fee === p.fee && k.tickSpacing === p.tickSpacing && k.hooks === zeroAddress))) covered.listedKey++
      // A split whose paths use V3 and V4 pools of the same pair.
      const pairOf = (s: { tokenIn: string; tokenOut: string }) => [s.tokenIn, s.tokenOut].sort().join()
      const v3Pairs = new Set(swaps.filter((s) => s.protocol === 'Uniswap V3').map(pairOf))
      if (quote.route.swaps.length > 1 && v4Swaps.some((s) => v3Pairs.has(pairOf(s)))) covered.splitV3V4++
    } finally {
      await checkpoint.restore()
    }
  })

  it('executed the quotes with no mismatch and covered every kind of V4 route', () => {
    expect(stats.executed).toBeGreaterThanOrEqual(100)
    expect(stats.mismatches).toBe(0)
    for (const [kind, count] of Object.entries(stats.covered)) expect(count, kind).toBeGreaterThanOrEqual(3)
  })

  it('quotes on states the previous fills moved: 20 fills in a row', async () => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[0]!
      const sequence: [Side, Side, number][] = [
        ['ETH', 'USDC', 300_000], ['USDC', 'ETH', 200_000], ['WBTC', 'ETH', 150_000], ['ETH', 'LINK', 50_000], ['USDC', 'USDT', 500_000],
        ['USDC', 'WBTC', 120_000], ['LINK', 'ETH', 60_000], ['WETH', 'USDC', 250_000], ['DAI', 'ETH', 90_000], ['USDT', 'USDC', 400_000],
      ]
      for (let round = 0; round < 2; round++) {
        for (const [sell, buy, usd] of sequence) {
          const intent: QuoteIntent = { chainId: chain.id, sellToken: getDevnetSideAddress(devnet, sell), buyToken: getDevnetSideAddress(devnet, buy), sellAmount: getDevnetUsdAmount(devnet, sell, usd * (1 + round / 2)), priceImpactLimitBps: 10_000, slippageBps: 30 }
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
