// Flows through one 3-token Balancer V2 pool into two outputs of one input (issue 9, bug 8): a
// DAI/USDC/WETH weighted pool that pays a premium for DAI in both directions, beside the devnet's
// Uniswap pools, so selling DAI splits DAI -> WETH and DAI -> USDC (-> WETH through Uniswap) in
// the same pool. Each quote is executed from its own `transaction` on anvil and must pay exactly
// amountOut (and at least buyAmount on an exact-out quote); at least one of them must be a flow
// that trades the pool from DAI into two different tokens.
import { type Address, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type QuoteDetails, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { type BalancerV2Deployment, createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from './devnet/balancerV2.js'
import { type Anvil, type Devnet, type DevnetSymbol, deployDevnet, startAnvil } from './devnet/index.js'
import { executeQuote, expectExactFill } from './support/fill.js'

const E18 = 10n ** 18n
type Case = { sell: DevnetSymbol; buy: DevnetSymbol; usd: number; kind: 'exactIn' | 'exactOut' }
const cases: Case[] = []
for (const [sell, buy] of [['DAI', 'WETH'], ['DAI', 'USDC']] as const)
  for (const usd of [5_000, 40_000, 150_000]) for (const kind of ['exactIn', 'exactOut'] as const) cases.push({ sell, buy, usd, kind })

describe('flows that trade one 3-token Balancer pool into two outputs of one input, executed on anvil', () => {
  let anvil: Anvil
  let devnet: Devnet
  let balancer: BalancerV2Deployment
  let chain: ChainConfig
  let poolId: string
  const stats = { executed: 0, mismatches: 0, twoOutputFlows: 0 }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    balancer = await deployBalancerV2(devnet)
    // DAI is scarce in the pool: by weights and balances it pays 1.25 USDC and $1.25 of WETH per DAI.
    const pool = await createBalancerV2WeightedPool(
      devnet,
      balancer,
      [
        { token: 'DAI', weight: E18 / 2n, amount: 1_200_000n * E18 },
        { token: 'USDC', weight: (E18 * 3n) / 10n, amount: 900_000n * 10n ** 6n },
        { token: 'WETH', weight: E18 / 5n, amount: 200n * E18 },
      ],
      { swapFee: 2n * 10n ** 15n },
    )
    poolId = pool.poolId
    const withBalancer: ChainConfig = { ...devnet.chain, dexes: [...devnet.chain.dexes, getBalancerV2DexConfig(balancer, [pool.poolId])] }
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withBalancer })
    chain = { ...withBalancer, executor }
  }, 120_000)

  afterAll(async () => {
    console.log(`Balancer flows executed: ${stats.executed}, mismatches: ${stats.mismatches}, flows through the pool into two outputs: ${stats.twoOutputFlows}`)
    await anvil?.stop()
  })

  const rawAmount = (symbol: DevnetSymbol, usd: number) => {
    const token = devnet.tokens[symbol]
    return BigInt(Math.floor((usd / token.priceUsd) * 1e6)) * 10n ** BigInt(token.decimals) / 1_000_000n
  }

  it.each(cases.map((c, i) => [i, `${c.kind} ${c.sell}->${c.buy} $${c.usd}`, c] as const))('#%i %s', async (i, _name, c) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const intent: QuoteIntent = {
        chainId: chain.id,
        sellToken: devnet.tokens[c.sell].address,
        buyToken: devnet.tokens[c.buy].address,
        ...(c.kind === 'exactIn' ? { sellAmount: rawAmount(c.sell, c.usd) } : { buyAmount: rawAmount(c.buy, c.usd) }),
        slippageBps: 50,
        priceImpactLimitBps: 10_000,
      }
      let details: QuoteDetails | undefined
      const quote = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain }), { chains: [chain], sender: trader, onDetails: (d) => (details = d) })
      if (c.kind === 'exactOut') expect(BigInt(quote.amountOut)).toBeGreaterThanOrEqual(intent.buyAmount!)
      const outcome = await executeQuote(devnet, quote, intent.buyToken ?? zeroAddress, trader)
      expectExactFill(outcome, quote, stats)
      stats.executed++
      // The pool traded from DAI into two different tokens, in a flow.
      const outputs = new Set<Address>()
      for (const path of quote.route.swaps) for (const s of path) if (s.key === poolId && s.tokenIn === intent.sellToken) outputs.add(s.tokenOut)
      if (details?.execution === 'flow' && outputs.size === 2) stats.twoOutputFlows++
    } finally {
      await checkpoint.restore()
    }
  })

  it('executed every quote exactly, some of them flows through the pool into two outputs', () => {
    expect(stats.mismatches).toBe(0)
    expect(stats.executed).toBe(cases.length)
    expect(stats.twoOutputFlows).toBeGreaterThanOrEqual(1)
  })
})
