// The V3 family's tick crossings on real bytecode (Uniswap V3, PancakeSwap V3, Slipstream's CLPool):
// Tick.cross sets each fee-growth-outside word to global - outside, so the first crossing of a tick
// set up on the other side of the price (both words zero) in a pool with fees in both tokens
// writes two slots from zero (~17.1k more each than a rewrite), and a later crossing only
// rewrites. Positions are minted before any swap (every tick's words zero), the pools aged with a
// dust swap each way, then trades go back and forth on one chain, without rollback, each quoted
// through the RPC source (the lens reads every tick's two words) and filled a block time later:
// every fill must cost no more than its gasEstimate and at most 1.3 x. Each row is printed with
// the step gas the estimate would have needed, the data the per-crossing constants were set from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type PoolFamily, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { pancakeV3Family } from '../src/protocols/pancakeV3/family.js'
import { slipstreamFamily } from '../src/protocols/slipstream/family.js'
import { parseFreshOutside } from '../src/protocols/uniswapV3/freshOutside.js'
import type { UniswapV3PoolState } from '../src/protocols/uniswapV3/state.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import { ESTIMATE_MARGIN_PERCENT } from '../src/quote/estimateGas.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from './devnet/index.js'
import { deployPancakeV3, withPancakeV3 } from './devnet/pancakeV3.js'
import { rpc } from './devnet/rpc.js'
import { deploySlipstreamReal, withSlipstreamReal } from './devnet/slipstreamReal.js'
import { executeQuote } from './support/fill.js'
import { TICK_CROSSING_POSITIONS, TICK_CROSSING_TRADES } from './support/tickCrossingTrades.js'

/** Seconds between the quote's block and the fill's: the pools then write their oracle, as on a chain. */
const BLOCK_SECONDS = 2

type Row = { fork: string; trade: string; crossed: number; freshWrites: number; gasUsed: number; estimate: number; ratio: number; needed: number }

describe('V3-family tick crossings: gasEstimate covers fee-growth words written from zero', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  const forks: { label: string; family: PoolFamily; dex: string }[] = []
  const rows: Row[] = []

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil, { pools: [{ family: 'uniswapV3', pair: ['WETH', 'USDC'], fee: 500, positions: TICK_CROSSING_POSITIONS }] })
    const pancake = await deployPancakeV3(devnet, { pools: [{ pair: ['WETH', 'USDC'], fee: 500, positions: TICK_CROSSING_POSITIONS }] })
    const slipstream = await deploySlipstreamReal(devnet, { pools: [{ pair: ['WETH', 'USDC'], tickSpacing: 10, positions: TICK_CROSSING_POSITIONS }] })
    const withForks = withSlipstreamReal(withPancakeV3(devnet.chain, pancake), slipstream)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withForks })
    chain = { ...withForks, executor }
    forks.push(
      { label: 'Uniswap V3', family: uniswapV3Family, dex: 'uniswapV3' },
      { label: 'PancakeSwap V3', family: pancakeV3Family, dex: pancake.dex.id },
      { label: 'Slipstream', family: slipstreamFamily, dex: slipstream.dex.id },
    )
  }, 180_000)

  afterAll(async () => {
    const lines = rows.map(
      (r) => `  ${r.fork} ${r.trade}: crossed ${r.crossed}, fresh words ${r.freshWrites}, used ${r.gasUsed}, estimate ${r.estimate} (${r.ratio.toFixed(3)}), step needed ${r.needed}`,
    )
    console.log(`V3-family crossings (${rows.length} fills):\n${lines.join('\n')}`)
    await anvil?.stop()
  })

  /** Quotes `usd` of `sell` for the other token through one fork and fills it; its row. */
  const trade = async (fork: (typeof forks)[number], sell: 'WETH' | 'USDC', usd: number): Promise<Row> => {
    const [tokenIn, tokenOut] = sell === 'WETH' ? [devnet.tokens.WETH, devnet.tokens.USDC] : [devnet.tokens.USDC, devnet.tokens.WETH]
    const trader = devnet.accounts.traders[0]!
    const intent: QuoteIntent = {
      chainId: chain.id,
      sellToken: tokenIn.address,
      buyToken: tokenOut.address,
      sellAmount: BigInt(Math.round((usd / tokenIn.priceUsd) * 10 ** tokenIn.decimals)),
      slippageBps: 50,
      priceImpactLimitBps: 10_000,
    }
    const families = [fork.family]
    const source = createRpcSource({ client: anvil.publicClient, chain, families })
    const liquidity = await source.getLiquidity({ chain, tokenIn: tokenIn.address, tokenOut: tokenOut.address })
    const quote = await getQuote(intent, source, { chains: [chain], sender: trader, families, maxHops: 1 })
    // What the swap crosses and writes from zero, from the state the quote priced.
    const state = liquidity.pools.find((p) => (p as UniswapV3PoolState).dex === fork.dex) as UniswapV3PoolState
    const dexIndex = chain.dexes.findIndex((d) => d.id === fork.dex)
    const pool = fork.family.fromState(state as never, { chain, dex: chain.dexes[dexIndex]!, dexIndex })
    const stepGas = pool.quoteExactIn(tokenIn.address, tokenOut.address, intent.sellAmount!)!.gas
    const freshOutside = parseFreshOutside(state)
    expect(freshOutside, 'the lens reports every tick\'s fee-growth words').toBeDefined()
    await rpc(anvil.rpcUrl, 'evm_increaseTime', [BLOCK_SECONDS])
    const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
    expect(outcome.receipt.status).toBe('success')
    expect(outcome.received).toBe(BigInt(quote.amountOut))
    const after = await source.getLiquidity({ chain, tokenIn: tokenIn.address, tokenOut: tokenOut.address })
    const tickAfter = (after.pools.find((p) => (p as UniswapV3PoolState).dex === fork.dex) as UniswapV3PoolState).tick
    const [low, high] = [Math.min(state.tick, tickAfter), Math.max(state.tick, tickAfter)]
    const crossed = state.ticks.filter((t) => t.index > low && t.index <= high).map((t) => t.index)
    // Aged pools have fee growth in both tokens: a word still zero is written from zero.
    const freshWrites = crossed.reduce((sum, index) => sum + (freshOutside![0].has(index) ? 1 : 0) + (freshOutside![1].has(index) ? 1 : 0), 0)
    const gasUsed = Number(outcome.receipt.gasUsed)
    const margin = Number(ESTIMATE_MARGIN_PERCENT) / 100
    return {
      fork: fork.label,
      trade: `${sell} $${usd}`,
      crossed: crossed.length,
      freshWrites,
      gasUsed,
      estimate: quote.gasEstimate,
      ratio: quote.gasEstimate / gasUsed,
      needed: Math.round(Number(stepGas) + (gasUsed - quote.gasEstimate) / margin),
    }
  }

  it.each([0, 1, 2])('fork %i: every fill within [1, 1.3] x gasUsed, first crossings and rewrites alike', async (index) => {
    const fork = forks[index]!
    // Aging: a dust swap each way gives the pool fee growth in both tokens, crossing nothing.
    for (const sell of ['WETH', 'USDC'] as const) await trade(fork, sell, 1)
    const forkRows: Row[] = []
    for (const [sell, usd] of TICK_CROSSING_TRADES) forkRows.push(await trade(fork, sell, usd))
    rows.push(...forkRows)
    for (const row of forkRows) {
      expect(row.ratio, `${row.fork} ${row.trade}`).toBeGreaterThanOrEqual(1)
      expect(row.ratio, `${row.fork} ${row.trade}`).toBeLessThanOrEqual(1.3)
    }
    // Both kinds of crossing happened: ticks written from zero, and ticks only rewritten.
    expect(forkRows.some((r) => r.crossed > 0 && r.freshWrites === 2 * r.crossed)).toBe(true)
    expect(forkRows.some((r) => r.crossed > 0 && r.freshWrites === 0)).toBe(true)
  }, 120_000)
})
