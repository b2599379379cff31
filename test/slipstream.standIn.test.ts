// Aerodrome Slipstream without Slipstream bytecode: no CLPool build is published on npm, so the
// slipstream family is proven on pools keyed the Slipstream way (CREATE2 salt token0, token1, int24
// tickSpacing; fee read from the pool, chosen apart from the spacing) that run the real Uniswap V3
// pool code, whose swap CLPool keeps (test/devnet/slipstreamStandIn.ts). Proven here: the reader
// (lens + fee() multicall), the family's quotes against raw swaps to the wei, and quotes through
// createRpcSource executed on weft's executor with dex kind 6 (Step.param = tick spacing, callback
// authenticated by the Slipstream-keyed CREATE2 address), alone and split with Uniswap V3.
// Not proven here: the Base factory's clone init-code hash (checked against a published pool
// address in src/chains/forks.test.ts). The real CLPool and CLFactory (compiled from
// sphere-mezo-solidity-files) are tested in slipstream.exactness.test.ts and
// slipstream.real.execute.test.ts, which calibrate the family's gas; the stand-in runs cheaper
// Uniswap V3 code, so its ratios sit higher.
import { type Address, encodeFunctionData, parseEventLogs, toFunctionSelector, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type QuoteIntent, createRpcSource, deployExecutor, getQuote, weftExecutorAbi } from '../src/index.js'
import { slipstreamFamily } from '../src/protocols/slipstream/family.js'
import { readSlipstreamPools } from '../src/protocols/slipstream/readPools.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, type DevnetSymbol, deployDevnet, rpc, sendDevnetTransaction, startAnvil, testTokenAbi, uniswapV3PoolAbi, v3LiquidityProviderAbi } from './devnet/index.js'
import { type SlipstreamStandInDeployment, deploySlipstreamStandIn, withSlipstreamStandIn } from './devnet/slipstreamStandIn.js'
import { encodeCallbackData } from './attacks/support/attackDevnet.js'
import { createRandom } from './support/random.js'
import { executeQuote } from './support/fill.js'

const random = createRandom(0x511_95e)
const scale = (amount: bigint, fraction: number) => (amount * BigInt(Math.round(fraction * 1e12))) / 1_000_000_000_000n

describe('the slipstream family on Slipstream-keyed pools running the Uniswap V3 swap', () => {
  let anvil: Anvil
  let devnet: Devnet
  let slipstream: SlipstreamStandInDeployment
  let chain: ChainConfig
  const stats = { swaps: 0, familyQuotes: 0, mismatches: 0, executed: 0, split: 0, kind6Steps: 0, ratios: [] as number[] }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    slipstream = await deploySlipstreamStandIn(devnet)
    const withSlipstream = withSlipstreamStandIn(devnet.chain, slipstream)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withSlipstream })
    chain = { ...withSlipstream, executor }
  })
  afterAll(async () => {
    const r = stats.ratios
    console.log(
      `Slipstream stand-in: ${stats.swaps} raw swaps, ${stats.familyQuotes} family quotes checked, mismatches ${stats.mismatches}; ` +
        `${stats.executed} quotes executed (${stats.split} split with Uniswap V3, ${stats.kind6Steps} kind-6 steps), ` +
        `gasEstimate/gasUsed min ${Math.min(...r).toFixed(3)} max ${Math.max(...r).toFixed(3)}`,
    )
    await anvil?.stop()
  })

  it('reads every pool at its tick-spacing-keyed address, with the fee the pool reports', async () => {
    const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    const tokens = Object.values(devnet.tokens).map((t) => t.address)
    const { pools, skipped } = await readSlipstreamPools({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: [slipstream.dex] })
    expect(skipped).toEqual([])
    expect(pools.map((p) => p.address).sort()).toEqual(slipstream.pools.map((p) => p.address).sort())
    for (const pool of slipstream.pools) {
      const state = pools.find((p) => p.address === pool.address)!
      expect([state.family, state.tickSpacing, state.fee]).toEqual(['slipstream', pool.tickSpacing, pool.fee])
    }
    // 420 is no tier's fee: it can only have come from the pool.
    expect(pools.some((p) => p.fee === 420)).toBe(true)
  })

  it('quotes every raw swap to the wei (exact in and exact out, both directions)', async () => {
    const dexIndex = chain.dexes.findIndex((d) => d.id === slipstream.dex.id)
    const deployer = devnet.accounts.deployer
    // The quotes below start from the deployed state again.
    const checkpoint = await anvil.checkpoint()
    for (const pool of slipstream.pools) {
      for (let n = 0; n < 25; n++) {
        const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
        const { pools } = await readSlipstreamPools({ client: anvil.publicClient, chain, blockNumber, tokens: [...pool.tokens], dexes: [slipstream.dex] })
        const state = pools.find((p) => p.address === pool.address)!
        const familyPool = slipstreamFamily.fromState(state, { chain, dex: slipstream.dex, dexIndex })
        const zeroForOne = random() < 0.5
        const exactOut = random() < 0.4
        const [tokenIn, tokenOut] = zeroForOne ? pool.tokens : [pool.tokens[1], pool.tokens[0]]
        const held = await anvil.publicClient.readContract({ address: exactOut ? tokenOut : tokenIn, abi: testTokenAbi, functionName: 'balanceOf', args: [pool.address] })
        const amount = 1n + scale(held, 10 ** (-6 + random() * 5.5))
        const quote = exactOut ? familyPool.quoteExactOut(tokenIn, tokenOut, amount) : familyPool.quoteExactIn(tokenIn, tokenOut, amount)
        const receipt = await sendDevnetTransaction(anvil.rpcUrl, {
          label: `raw swap on stand-in ${pool.address}`,
          from: deployer,
          to: devnet.contracts.v3LiquidityProvider,
          data: encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'swap', args: [pool.address, deployer, zeroForOne, exactOut ? -amount : amount, 0n] }),
          gas: 5_000_000n,
        })
        const [event] = parseEventLogs({ abi: uniswapV3PoolAbi, eventName: 'Swap', logs: receipt.logs })
        const paid = zeroForOne ? event!.args.amount0 : event!.args.amount1
        const got = -(zeroForOne ? event!.args.amount1 : event!.args.amount0)
        stats.swaps++
        if (quote) {
          stats.familyQuotes++
          if (quote.amountIn !== paid || quote.amountOut !== got) stats.mismatches++
          expect([quote.amountIn, quote.amountOut]).toEqual([paid, got])
        }
      }
    }
    await checkpoint.restore()
    expect(stats.mismatches).toBe(0)
    expect(stats.familyQuotes).toBeGreaterThanOrEqual(80)
  })

  const cases: [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH', number, 'exactIn' | 'exactOut', 'slipstream' | 'split' | 'all'][] = [
    ['WETH', 'USDC', 5_000, 'exactIn', 'slipstream'], ['USDC', 'ETH', 40_000, 'exactIn', 'slipstream'], ['ETH', 'USDC', 2_000, 'exactOut', 'slipstream'],
    ['USDC', 'USDT', 300_000, 'exactIn', 'slipstream'], ['LINK', 'USDC', 20_000, 'exactIn', 'slipstream'], ['USDC', 'LINK', 8_000, 'exactOut', 'slipstream'],
    ['WETH', 'USDC', 1_500_000, 'exactIn', 'split'], ['USDC', 'WETH', 2_000_000, 'exactIn', 'split'], ['USDC', 'ETH', 700_000, 'exactOut', 'split'],
    ['WETH', 'USDC', 60_000, 'exactIn', 'all'], ['USDT', 'WETH', 90_000, 'exactIn', 'all'], ['ETH', 'LINK', 30_000, 'exactIn', 'all'],
  ]
  it.each(cases.map((c, i) => [i, `${c[4]}: ${c[3]} ${c[0]}->${c[1]} $${c[2]}`, c] as const))('quote #%i %s executes exactly', async (i, _name, c) => {
    const [sell, buy, usd, kind, mode] = c
    const checkpoint = await anvil.checkpoint()
    try {
      const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
      const token = (t: DevnetSymbol | 'ETH') => devnet.tokens[t === 'ETH' ? 'WETH' : t]
      const raw = (t: DevnetSymbol | 'ETH') => BigInt(Math.floor((usd / token(t).priceUsd) * 10 ** Math.min(6, token(t).decimals))) * 10n ** BigInt(Math.max(0, token(t).decimals - 6))
      const intent: QuoteIntent = {
        chainId: chain.id,
        sellToken: sell === 'ETH' ? zeroAddress : token(sell).address,
        buyToken: buy === 'ETH' ? zeroAddress : token(buy).address,
        ...(kind === 'exactIn' ? { sellAmount: raw(sell) } : { buyAmount: raw(buy) }),
        slippageBps: 50,
        priceImpactLimitBps: 10_000,
      }
      const families = mode === 'slipstream' ? [slipstreamFamily] : mode === 'split' ? [uniswapV3Family, slipstreamFamily] : undefined
      const source = createRpcSource({ client: anvil.publicClient, chain, ...(families ? { families } : {}) })
      const quote = await getQuote(intent, source, { chains: [chain], sender: trader, ...(families ? { families } : {}) })
      const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
      expect(outcome.receipt.status).toBe('success')
      expect(outcome.received).toBe(BigInt(quote.amountOut))
      for (const left of Object.values(outcome.executorLeft)) expect(left).toBe(0n)
      // The stand-in runs Uniswap's code, cheaper than Slipstream's: the estimate must not be low.
      const gasUsed = Number(outcome.receipt.gasUsed)
      expect(quote.gasEstimate).toBeGreaterThanOrEqual(gasUsed)
      stats.ratios.push(quote.gasEstimate / gasUsed)
      stats.executed++
      const all = quote.route.swaps.flat()
      const slipstreamSwaps = all.filter((s) => s.fork === 'AeroDromeCL')
      stats.kind6Steps += slipstreamSwaps.length
      if (mode === 'slipstream') expect(all.every((s) => s.fork === 'AeroDromeCL')).toBe(true)
      // No LINK/USDC pool: through LINK/WETH and WETH/USDC.
      if (mode === 'slipstream' && [sell, buy].includes('LINK')) expect(quote.route.swaps.some((path) => path.length > 1)).toBe(true)
      if (mode === 'split') {
        expect(quote.route.swaps.length).toBeGreaterThan(1)
        expect(slipstreamSwaps.length).toBeGreaterThan(0)
        expect(all.some((s) => s.fork === 'UniswapV3')).toBe(true)
        stats.split++
      }
    } finally {
      await checkpoint.restore()
    }
  })

  it('the shared uniswapV3SwapCallback refuses a caller naming the Slipstream dex outside a fill', async () => {
    const dexIndex = chain.dexes.findIndex((d) => d.id === slipstream.dex.id)
    const pool = slipstream.pools[0]!
    const [tokenIn, tokenOut] = pool.tokens
    const data = encodeFunctionData({
      abi: weftExecutorAbi,
      functionName: 'uniswapV3SwapCallback',
      args: [10n ** 18n, 10n ** 18n, encodeCallbackData(dexIndex, tokenIn, tokenOut, pool.tickSpacing)],
    })
    for (const from of [anvil.accounts[5]!.address as Address, pool.address]) {
      await rpc(anvil.rpcUrl, 'anvil_impersonateAccount', [from])
      const error = await anvil.publicClient.call({ account: from, to: chain.executor!, data }).then(
        () => null,
        (e: Error) => e.message,
      )
      // The revert data: InvalidCallback(address)'s selector, then the caller.
      expect(error).toContain(toFunctionSelector('InvalidCallback(address)').slice(2))
      expect(error?.toLowerCase()).toContain(from.slice(2).toLowerCase())
    }
  })

  it('executed every quote with 0 mismatches', () => {
    expect(stats.executed).toBe(cases.length)
    expect(stats.split).toBeGreaterThanOrEqual(3)
    expect(stats.kind6Steps).toBeGreaterThanOrEqual(cases.length)
  })
})

