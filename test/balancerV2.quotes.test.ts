// Balancer V2 in quotes: a devnet with the real Uniswap V2/V3 pools and real Balancer V2 weighted
// pools (Vault 20210418, WeightedPool 20230206-v3 bytecode) side by side, weft's executor deployed
// for a chain config that appends the Balancer dex, quotes built through createRpcSource and
// executed from their own `transaction`. Each fill must pay the receiver exactly amountOut and each
// fee recipient exactly its fee, leave nothing in the executor and no allowance from the executor
// to the Vault, and cost between gasEstimate / 1.3 and gasEstimate.
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type Quote, QuoteError, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { type BalancerV2Deployment, createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from './devnet/balancerV2.js'
import { type Anvil, type Devnet, type DevnetSymbol, deployDevnet, startAnvil, testTokenAbi } from './devnet/index.js'
import { executeQuote, expectExactFill } from './support/fill.js'
import { buildDevnetIntent } from './support/devnetTrade.js'

type Side = DevnetSymbol | 'ETH'
type Case = { name: string; sell: Side; buy: Side; usd: number; kind: 'exactIn' | 'exactOut'; fees: 'none' | 'integrator' | 'surplus'; receiver: boolean }

const E18 = 10n ** 18n
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const SURPLUS_RECIPIENT = '0x00000000000000000000000000000000000fee03' as Address
const TREASURY = '0x00000000000000000000000000000000000fee04' as Address
const RECEIVER = '0x000000000000000000000000000000000000beef' as Address

const pairs: [Side, Side][] = [
  ['WETH', 'USDC'], ['USDC', 'WETH'], ['ETH', 'USDC'], ['USDC', 'ETH'], ['WBTC', 'WETH'], ['ETH', 'WBTC'],
  ['DAI', 'WETH'], ['WETH', 'DAI'], ['LINK', 'ETH'], ['ETH', 'LINK'], ['LINK', 'USDC'], ['USDC', 'DAI'],
  ['DAI', 'USDC'], ['WBTC', 'USDC'], ['USDT', 'WETH'], ['LINK', 'DAI'],
]
const sizesUsd = [25, 3_000, 120_000, 700_000]

function buildCases(): Case[] {
  const cases: Case[] = []
  let i = 0
  for (const [sell, buy] of pairs)
    for (const usd of sizesUsd)
      for (const kind of ['exactIn', 'exactOut'] as const) {
        const fees = (['none', 'integrator', 'surplus'] as const)[i % 3]!
        cases.push({ name: `${kind} ${sell}->${buy} $${usd} fees:${fees}`, sell, buy, usd, kind, fees, receiver: i % 4 === 1 })
        i++
      }
  return cases
}

const cases = buildCases()

describe('quotes through Balancer V2 weighted pools alongside Uniswap V2/V3, executed on anvil', () => {
  let anvil: Anvil
  let devnet: Devnet
  let balancer: BalancerV2Deployment
  let chain: ChainConfig
  const stats = {
    executed: 0,
    mismatches: 0,
    notRouted: 0,
    /** gasEstimate / gasUsed of the fills through Balancer. */
    ratios: [] as number[],
    uniswapOnlyGasMisses: [] as string[],
    balancerSteps: 0,
    covered: { balancer: 0, withUniswapSteps: 0, splitAcrossFamilies: 0, multiHopViaBalancer: 0, nativeInViaBalancer: 0, nativeOutViaBalancer: 0, exactOutViaBalancer: 0, threeTokenPool: 0, poolTwice: 0 },
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    balancer = await deployBalancerV2(devnet)
    const pools = [
      // Deep and cheap: WETH/USDC competes with the Uniswap pools, so splits across families pay.
      await createBalancerV2WeightedPool(devnet, balancer, [
        { token: 'WETH', weight: E18 / 2n, amount: 1_500n * E18 },
        { token: 'USDC', weight: E18 / 2n, amount: 4_500_000n * 10n ** 6n },
      ], { swapFee: 5n * 10n ** 14n }),
      await createBalancerV2WeightedPool(devnet, balancer, [
        { token: 'WBTC', weight: (E18 * 4n) / 5n, amount: 60n * 10n ** 8n },
        { token: 'WETH', weight: E18 / 5n, amount: 300n * E18 },
      ], { swapFee: 10n ** 15n }),
      await createBalancerV2WeightedPool(devnet, balancer, [
        { token: 'DAI', weight: E18 / 2n, amount: 1_500_000n * E18 },
        { token: 'USDC', weight: (E18 * 3n) / 10n, amount: 900_000n * 10n ** 6n },
        { token: 'WETH', weight: E18 / 5n, amount: 200n * E18 },
      ], { swapFee: 2n * 10n ** 15n }),
      await createBalancerV2WeightedPool(devnet, balancer, [
        { token: 'LINK', weight: (E18 * 3n) / 5n, amount: 60_000n * E18 },
        { token: 'WETH', weight: (E18 * 2n) / 5n, amount: 200n * E18 },
      ], { swapFee: 3n * 10n ** 15n }),
    ]
    const dexes = [...devnet.chain.dexes, getBalancerV2DexConfig(balancer, pools.map((p) => p.poolId))]
    const withBalancer: ChainConfig = { ...devnet.chain, dexes }
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withBalancer })
    chain = { ...withBalancer, executor, treasury: TREASURY }
  }, 120_000)

  afterAll(async () => {
    const r = stats.ratios
    console.log(
      `Balancer V2 quotes executed: ${stats.executed}, mismatches: ${stats.mismatches}, not routed: ${stats.notRouted}, ` +
        `Balancer steps: ${stats.balancerSteps}, gasEstimate/gasUsed of the ${r.length} fills through Balancer: min ${Math.min(...r).toFixed(3)} max ${Math.max(...r).toFixed(3)}, ` +
        `Uniswap-only fills outside [1, 1.3]: ${JSON.stringify(stats.uniswapOnlyGasMisses)}, ` +
        `covered: ${JSON.stringify(stats.covered)}`,
    )
    await anvil?.stop()
  })

  /** The executor's allowance to the Vault, for every devnet token. */
  const vaultAllowances = async (executor: Address) =>
    Promise.all(
      Object.values(devnet.tokens).map((t) =>
        anvil.publicClient.readContract({ address: t.address, abi: testTokenAbi, functionName: 'allowance', args: [executor, balancer.vault] }),
      ),
    )

  it.each(cases.map((c, i) => [i, c.name, c] as const))('#%i %s', async (i, _name, c) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const intent = buildDevnetIntent(devnet, chain.id, c, {
        ...(c.receiver ? { receiver: RECEIVER } : {}),
        ...(c.fees === 'integrator' ? { feeBps: 25, feeRecipient: FEE_RECIPIENT } : {}),
        ...(c.fees === 'surplus' ? { surplusFeeBps: 5_000, surplusFeeRecipient: SURPLUS_RECIPIENT } : {}),
      })
      let quote: Quote
      try {
        quote = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain }), { chains: [chain], sender: trader })
      } catch (error) {
        expect(error).toBeInstanceOf(QuoteError)
        expect((error as QuoteError).statusCode).toBe(404)
        expect(c.usd).toBeGreaterThanOrEqual(120_000)
        stats.notRouted++
        return
      }
      if (c.kind === 'exactOut') expect(BigInt(quote.amountOut)).toBeGreaterThanOrEqual(intent.buyAmount!)
      const outcome = await executeQuote(devnet, quote, intent.buyToken, trader, c.receiver ? RECEIVER : trader)
      expectExactFill(outcome, quote, stats)
      expect(await vaultAllowances(quote.transaction.to as Address)).toEqual(Object.values(devnet.tokens).map(() => 0n))

      stats.executed++

      const swaps = quote.route.swaps
      const steps = swaps.flat()
      const isBalancer = (s: (typeof steps)[number]) => s.protocol === 'Balancer V2'
      const balancerSteps = steps.filter(isBalancer)
      stats.balancerSteps += balancerSteps.length
      const gasUsed = Number(outcome.receipt.gasUsed)
      if (balancerSteps.length === 0) {
        // Uniswap-only fills test the Uniswap gas model, not this family's: counted, asserted in quotes.e2e.
        if (quote.gasEstimate < gasUsed || quote.gasEstimate > 1.3 * gasUsed) stats.uniswapOnlyGasMisses.push(`${c.name}: ${quote.gasEstimate}/${gasUsed}`)
        return
      }
      stats.ratios.push(quote.gasEstimate / gasUsed)
      expect(quote.gasEstimate, 'gasEstimate >= gasUsed').toBeGreaterThanOrEqual(gasUsed)
      expect(quote.gasEstimate, 'gasEstimate <= 1.3 gasUsed').toBeLessThanOrEqual(1.3 * gasUsed)
      for (const s of balancerSteps) {
        expect(s.fork).toBe('BalancerV2')
        expect(s.address).toBe(balancer.vault)
        expect(s.key).toMatch(/^0x[0-9a-f]{64}$/)
      }
      const covered = stats.covered
      covered.balancer++
      if (steps.some((s) => !isBalancer(s))) covered.withUniswapSteps++
      if (swaps.length > 1 && swaps.some((path) => path.some(isBalancer)) && swaps.some((path) => path.some((s) => !isBalancer(s)))) covered.splitAcrossFamilies++
      if (swaps.some((path) => path.length > 1 && path.some(isBalancer))) covered.multiHopViaBalancer++
      if (c.sell === 'ETH') covered.nativeInViaBalancer++
      if (c.buy === 'ETH') covered.nativeOutViaBalancer++
      if (c.kind === 'exactOut') covered.exactOutViaBalancer++
      if (balancerSteps.some((s) => s.key === chain.dexes.at(-1)!.pools![2])) covered.threeTokenPool++
      const keys = balancerSteps.map((s) => s.key)
      if (new Set(keys).size < keys.length) covered.poolTwice++
    } finally {
      await checkpoint.restore()
    }
  })

  it('executed the quotes exactly and routed through Balancer in every kind of route', () => {
    expect(stats.mismatches).toBe(0)
    expect(stats.executed).toBeGreaterThanOrEqual(100)
    const { poolTwice: _, ...required } = stats.covered
    for (const [kind, count] of Object.entries(required)) expect(count, kind).toBeGreaterThanOrEqual(3)
  })
})

