// options.nativePriceInBuyToken on real bytecode: a devnet whose LINK pools pair only with USDC, so
// no pool links WETH to LINK and gas cannot be priced from the pools. Gas-free (no host price) a
// small USDC -> LINK trade splits over the V2 pair and the V3 pool; with the host's price of ETH in
// LINK, the second path's gas outweighs the split's gain and the route is one path. Both quotes,
// executed from their own transactions, pay exactly what they promised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type QuoteIntent, deployExecutor, createRpcSource, getQuote } from '../src/index.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import { executeQuote, expectExactFill } from './support/fill.js'

describe('a host-supplied native price on a market with no WETH link, executed on anvil', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil, {
      pools: [
        { family: 'uniswapV2', pair: ['LINK', 'USDC'], usd: 2_000_000 },
        { family: 'uniswapV3', pair: ['LINK', 'USDC'], fee: 3000, positions: [{ range: 'full', usd: 2_000_000 }] },
      ],
    })
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
    chain = { ...devnet.chain, executor }
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  it('prices gas with the host’s price: one path instead of a split, each executed exactly', async () => {
    const trader = devnet.accounts.traders[0]!
    // $1,000 of USDC: splitting over two $2M pools gains about $0.25, a second path's gas at 50 gwei
    // costs about $15 (ETH at $3,000, LINK at $15: 200 LINK per ETH).
    const intent: QuoteIntent = { chainId: chain.id, sellToken: devnet.tokens.USDC.address, buyToken: devnet.tokens.LINK.address, sellAmount: 1_000_000_000n }
    const options = { chains: [chain], sender: trader, gasPriceWei: 50_000_000_000n }
    const ethInLink = String(devnet.tokens.WETH.priceUsd / devnet.tokens.LINK.priceUsd)
    const stats = { mismatches: 0 }
    const outputs: bigint[] = []
    for (const [name, nativePrice] of [['gas-free', undefined], ['host-priced', ethInLink]] as const) {
      const checkpoint = await anvil.checkpoint()
      try {
        const quote = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain }), { ...options, ...(nativePrice ? { nativePriceInBuyToken: nativePrice } : {}) })
        expect(quote.route.swaps.length, name).toBe(nativePrice ? 1 : 2)
        expectExactFill(await executeQuote(devnet, quote, intent.buyToken, trader), quote, stats)
        outputs.push(BigInt(quote.amountOut))
      } finally {
        await checkpoint.restore()
      }
    }
    expect(stats.mismatches).toBe(0)
    // The split gives more before gas; the single path saves more gas than that.
    expect(outputs[0]!).toBeGreaterThan(outputs[1]!)
  })
})
