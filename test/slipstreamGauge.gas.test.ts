// Slipstream pools with a gauge (as on Base), on the real CLPool: the gauge stakes liquidity and
// notifies rewards, so the pool's reward growth moves whenever time passes, and a swap that crosses
// a tick also brings the reward growth up to date (rewardReserve, rewardGrowthGlobalX128,
// lastUpdated), sets the tick's reward growth outside to global - outside (Tick.cross: from zero
// on a tick's first crossing since rewards began), moves staked liquidity, and books the staked
// share of the fee into gaugeFees. Positions are minted before the gauge exists (every tick's
// reward word zero), then trades go back and forth on one chain, each quoted through the RPC
// source and filled a block time later: every fill must cost no more than its gasEstimate and at
// most 1.3 x. Each row is printed with the words the swap wrote from zero. Before weft priced
// gauges (SLIPSTREAM_GAUGE_GAS), these fills used up to 1.19x their estimate (0.839).
import { type Address, type Hex, encodeFunctionData, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { slipstreamFamily } from '../src/protocols/slipstream/family.js'
import type { UniswapV3PoolState } from '../src/protocols/uniswapV3/state.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from './devnet/index.js'
import { rpc } from './devnet/rpc.js'
import { type SlipstreamRealDeployment, attachSlipstreamGauge, deploySlipstreamReal, withSlipstreamReal } from './devnet/slipstreamReal.js'
import { executeQuote } from './support/fill.js'
import { TICK_CROSSING_POSITIONS, TICK_CROSSING_TRADES } from './support/tickCrossingTrades.js'

/** Seconds between the quote's block and the fill's: the pool's rewards accrue, as on a chain. */
const BLOCK_SECONDS = 2
/** The gauge: an account anvil impersonates, as Aerodrome's CLGauge calls the pool. */
const GAUGE = '0x00000000000000000000000000000000006a09e0' as Address
/** A week of emissions, a token a second (more than any test spends), on half of every position. */
const GAUGE_REWARDS = { stakedShare: 0.5, rewardPerSecond: 10n ** 18n, seconds: 604_800 } as const

const ticksAbi = parseAbi([
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, int128 stakedLiquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, uint256 rewardGrowthOutsideX128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
])

type Row = { trade: string; crossed: number; freshFeeWords: number; freshRewardWords: number; gasUsed: number; estimate: number; ratio: number }

describe('Slipstream with a gauge: gasEstimate covers the reward growth a crossing writes', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  let slipstream: SlipstreamRealDeployment
  const rows: Row[] = []

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil, { pools: [] })
    slipstream = await deploySlipstreamReal(devnet, { pools: [{ pair: ['WETH', 'USDC'], tickSpacing: 10, positions: TICK_CROSSING_POSITIONS }], gauges: true })
    await attachSlipstreamGauge(devnet, slipstream, slipstream.pools[0]!, { gauge: GAUGE, ...GAUGE_REWARDS })
    const withFork = withSlipstreamReal(devnet.chain, slipstream)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withFork })
    chain = { ...withFork, executor }
  }, 180_000)

  afterAll(async () => {
    const lines = rows.map(
      (r) => `  ${r.trade}: crossed ${r.crossed}, fee words from zero ${r.freshFeeWords}, reward words from zero ${r.freshRewardWords}, used ${r.gasUsed}, estimate ${r.estimate} (${r.ratio.toFixed(3)})`,
    )
    console.log(`Slipstream with a gauge (${rows.length} fills):\n${lines.join('\n')}`)
    await anvil?.stop()
  })

  /** A tick's words as the pool holds them at the latest block. */
  const readTick = async (pool: Address, index: number) => {
    const answer = await anvil.publicClient.readContract({ address: pool, abi: ticksAbi, functionName: 'ticks', args: [index] })
    return { feeGrowthOutside0: answer[3], feeGrowthOutside1: answer[4], rewardGrowthOutside: answer[5] }
  }

  /** Quotes `usd` of `sell` for the other token through the gauged pool and fills it; its row. */
  const trade = async (sell: 'WETH' | 'USDC', usd: number): Promise<Row> => {
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
    const families = [slipstreamFamily]
    const source = createRpcSource({ client: anvil.publicClient, chain, families })
    const poolAddress = slipstream.pools[0]!.address
    const stateOf = async () => (await source.getLiquidity({ chain, tokenIn: tokenIn.address, tokenOut: tokenOut.address })).pools.find((p) => p.address === poolAddress) as UniswapV3PoolState
    const state = await stateOf()
    expect(state.gauge, 'the lens reports the gauge and its reward words').toBeDefined()
    const quote = await getQuote(intent, source, { chains: [chain], sender: trader, families, maxHops: 1 })
    await rpc(anvil.rpcUrl, 'evm_increaseTime', [BLOCK_SECONDS])
    const before = new Map<number, Awaited<ReturnType<typeof readTick>>>()
    for (const t of state.ticks) before.set(t.index, await readTick(poolAddress, t.index))
    const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
    expect(outcome.receipt.status).toBe('success')
    expect(outcome.received).toBe(BigInt(quote.amountOut))
    const tickAfter = (await stateOf()).tick
    const [low, high] = [Math.min(state.tick, tickAfter), Math.max(state.tick, tickAfter)]
    const crossed = state.ticks.filter((t) => t.index > low && t.index <= high).map((t) => t.index)
    let freshFeeWords = 0
    let freshRewardWords = 0
    for (const index of crossed) {
      const [was, now] = [before.get(index)!, await readTick(poolAddress, index)]
      freshFeeWords += (was.feeGrowthOutside0 === 0n && now.feeGrowthOutside0 !== 0n ? 1 : 0) + (was.feeGrowthOutside1 === 0n && now.feeGrowthOutside1 !== 0n ? 1 : 0)
      freshRewardWords += was.rewardGrowthOutside === 0n && now.rewardGrowthOutside !== 0n ? 1 : 0
    }
    const gasUsed = Number(outcome.receipt.gasUsed)
    return { trade: `${sell} $${usd}`, crossed: crossed.length, freshFeeWords, freshRewardWords, gasUsed, estimate: quote.gasEstimate, ratio: quote.gasEstimate / gasUsed }
  }

  it('every fill within [1, 1.3] x gasUsed, reward words written from zero and rewritten alike', async () => {
    // Aging: a dust swap each way gives the pool fee growth in both tokens, crossing nothing.
    for (const sell of ['WETH', 'USDC'] as const) await trade(sell, 1)
    for (const [sell, usd] of TICK_CROSSING_TRADES) rows.push(await trade(sell, usd))
    for (const row of rows) {
      expect(row.ratio, row.trade).toBeGreaterThanOrEqual(1)
      expect(row.ratio, row.trade).toBeLessThanOrEqual(1.3)
    }
    // The gauge's rewards flowed: crossings wrote reward words from zero, and others only rewrote them.
    expect(rows.some((r) => r.freshRewardWords > 0)).toBe(true)
    expect(rows.some((r) => r.crossed > 0 && r.freshRewardWords === 0)).toBe(true)
  }, 120_000)
})
