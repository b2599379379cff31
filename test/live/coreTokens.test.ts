// Token metadata in the live source (anvil, real Uniswap V2 bytecode): a token whose transfer fee
// could not be measured when its first pool appeared (the probe borrows 1% of a pool's balance, and
// a pair holding 99 wei lends nothing) is refused by quotes (fee null: fail closed), and measured
// again when a new pool of it is delivered; from then on it trades.
import { type Address, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, QuoteError, createLiveSource, getQuote } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { getUniswapV2PairAddress } from '../../src/protocols/uniswapV2/readPools.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { type Anvil, DEVNET_GAS, DEVNET_POOLS, type Devnet, deployDevnet, sendDevnetTransactions, startAnvil, testTokenAbi, uniswapV2FactoryAbi, uniswapV2PairAbi } from '../devnet/index.js'

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig

/** Creates the V2 pair of `tokenA`/`tokenB` and mints it with the given raw amounts, in one block. */
async function createPair(tokenA: Address, tokenB: Address, amountA: bigint, amountB: bigint): Promise<void> {
  const from = devnet.accounts.deployer
  const dex = chain.dexes.find((d) => d.family === 'uniswapV2')!
  const pair = getUniswapV2PairAddress(dex, tokenA, tokenB)
  const transfer = (token: Address, amount: bigint) => ({
    label: 'fund pair',
    from,
    to: token,
    data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pair, amount] }),
    gas: DEVNET_GAS.transfer,
  })
  await sendDevnetTransactions(anvil.rpcUrl, [
    { label: 'createPair', from, to: devnet.contracts.uniswapV2Factory, data: encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [tokenA, tokenB] }), gas: DEVNET_GAS.createPair },
    transfer(tokenA, amountA),
    transfer(tokenB, amountB),
    { label: 'v2 mint', from, to: pair, data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [from] }), gas: DEVNET_GAS.v2Mint },
  ])
}

beforeAll(async () => {
  anvil = await startAnvil()
  // No pool of LINK at first.
  devnet = await deployDevnet(anvil, { pools: DEVNET_POOLS.filter((spec) => !spec.pair.includes('LINK')) })
  // LINK is not among the chain's own tokens (those are trusted as fee-free): the source describes it.
  chain = { ...devnet.chain, tokens: devnet.chain.tokens.filter((t) => t.address !== devnet.tokens.LINK.address) }
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
})

describe('createLiveSource token metadata', () => {
  it('measures a token’s transfer fee again when a new pool of it is delivered', async () => {
    const link = devnet.tokens.LINK.address
    const weth = devnet.tokens.WETH.address
    const usdc = devnet.tokens.USDC.address
    const live = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
    await live.sync()
    // LINK's first pool lends nothing to the probe (1% of 99 wei is 0): its fee is unknown, and quotes refuse it.
    await createPair(link, weth, 99n, 10n ** 18n)
    await live.sync()
    const linkMeta = async () => (await live.getLiquidity({ chain, tokenIn: link, tokenOut: usdc })).tokens.find((t) => t.address === link)
    expect((await linkMeta())?.transferFeeBps).toBeNull()
    // The 99-wei pair's price is absurd: only the fee decides here, not the price impact.
    const intent = { chainId: chain.id, sellToken: link, buyToken: usdc, sellAmount: 10n ** 18n, slippageBps: 50, priceImpactLimitBps: 10_000 }
    const refused = await getQuote(intent, live, { chains: [chain] }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(QuoteError)
    expect((refused as QuoteError).statusCode).toBe(422)
    // A deep LINK/USDC pair arrives: LINK is measured again at that block, and trades.
    await createPair(link, usdc, 10n ** 24n, 15n * 10n ** 12n)
    await live.sync()
    expect((await linkMeta())?.transferFeeBps).toBe(0)
    const quote = await getQuote(intent, live, { chains: [chain] })
    expect(BigInt(quote.amountOut)).toBeGreaterThan(0n)
  })

  it('on demand, remembers only tokens some discovered pool names: an address without pools is refused at once (4xx), not a 503 for ever', async () => {
    const onDemand = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, tracking: { mode: 'onDemand' } })
    await onDemand.sync()
    const usdc = devnet.tokens.USDC.address
    const nowhere = '0x00000000000000000000000000000000000c0ffe' as Address
    const intent = { chainId: chain.id, sellToken: nowhere, buyToken: usdc, sellAmount: 10n ** 18n, slippageBps: 50 }
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await getQuote(intent, onDemand, { chains: [chain] }).catch((error: unknown) => error)
      // A client error (the token cannot be described or routed), never "retry later".
      expect(refused).toBeInstanceOf(QuoteError)
      expect([404, 422]).toContain((refused as QuoteError).statusCode)
    }
    expect(onDemand.checkpoint().tracked).not.toContain(nowhere)
    // A token with pools: 503 first (its pools are read with the next sync), then quoted.
    const link = devnet.tokens.LINK.address
    await expect(onDemand.getLiquidity({ chain, tokenIn: link, tokenOut: usdc })).rejects.toMatchObject({ statusCode: 503 })
    expect(onDemand.checkpoint().tracked).toContain(link)
    await onDemand.sync()
    const quote = await getQuote({ ...intent, sellToken: link, priceImpactLimitBps: 10_000 }, onDemand, { chains: [chain] })
    expect(BigInt(quote.amountOut)).toBeGreaterThan(0n)
  })
})
