// Quote latency on the live source against a snapshot of the same pools (anvil devnet, real
// Uniswap V2/V3 bytecode). The live source hands out the same state objects for every pool a block
// left unchanged, so getQuote's built-pool cache hits across blocks: a quote after a block builds
// only the pools that block changed, and a warm quote costs what it costs on a snapshot. Builds are
// counted through the families getQuote is given; times are printed (asserted only loosely: the
// machine is shared).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiquiditySource, type LiveSource, type PoolFamily, type QuoteIntent, createLiveSource, createSnapshotSource, getQuote } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from '../devnet/index.js'
import { createRandom } from '../support/random.js'
import { mineSwapBlock } from './coreSupport.js'

const SAMPLES = 150

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let live: LiveSource
let intent: QuoteIntent
const random = createRandom(0x1a7)
const builds = { count: 0 }
/** The reader families, with fromState counted: every pool getQuote builds (cache misses only) is one count. */
const counting: PoolFamily[] = [uniswapV2Family, uniswapV3Family].map((family) => ({
  ...(family as PoolFamily),
  fromState(state, context) {
    builds.count++
    return (family as PoolFamily).fromState(state, context)
  },
}))

const quote = (source: LiquiditySource) => getQuote(intent, source, { chains: [chain], families: counting })
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  chain = devnet.chain
  live = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
  await live.sync()
  intent = { chainId: chain.id, sellToken: devnet.tokens.WETH.address, buyToken: devnet.tokens.USDC.address, sellAmount: 10n ** 18n, slippageBps: 50 }
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
})

describe('createLiveSource quote latency', () => {
  it('after a block, a quote builds only the pools that block changed; a warm quote builds none', async () => {
    await quote(live)
    builds.count = 0
    await quote(live)
    expect(builds.count).toBe(0)
    for (let k = 0; k < 5; k++) {
      await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
      await live.sync()
      const changed = live.stats().lastBlock!.poolsChanged
      builds.count = 0
      await quote(live)
      expect(builds.count).toBe(changed)
      builds.count = 0
      await quote(live)
      expect(builds.count).toBe(0)
    }
  })

  it(`a warm quote on the live source takes what it takes on a snapshot of the same pools (${SAMPLES} each, interleaved)`, async () => {
    const liquidity = await live.getLiquidity({ chain, tokenIn: intent.sellToken, tokenOut: intent.buyToken })
    // The snapshot gets copies of the states (its own builds), as a snapshot loaded from JSON would.
    const snapshot = createSnapshotSource(JSON.parse(JSON.stringify({ chainId: chain.id, blockNumber: liquidity.blockNumber, tokens: liquidity.tokens, pools: liquidity.pools })))
    const [fromLive, fromSnapshot] = [await quote(live), await quote(snapshot)]
    expect(fromLive.amountOut).toBe(fromSnapshot.amountOut)
    const times = { live: [] as number[], snapshot: [] as number[] }
    for (let i = 0; i < SAMPLES; i++) {
      for (const [name, source] of i % 2 === 0 ? ([['live', live], ['snapshot', snapshot]] as const) : ([['snapshot', snapshot], ['live', live]] as const)) {
        const started = performance.now()
        await quote(source)
        times[name].push(performance.now() - started)
      }
    }
    const figures = Object.fromEntries(
      Object.entries(times).map(([name, list]) => [name, { p50: +percentile(list, 0.5).toFixed(3), p99: +percentile(list, 0.99).toFixed(3) }]),
    ) as Record<'live' | 'snapshot', { p50: number; p99: number }>
    console.log(`warm WETH->USDC quote, ${liquidity.pools.length} pools, ms: ${JSON.stringify(figures)}`)
    expect(figures.live.p50).toBeLessThan(figures.snapshot.p50 * 1.5 + 0.5)
  })
})
