// What the live source costs in memory, per pool: a discovered pool it does not track (a compact
// record), and a tracked V2 pair or V3 pool (its state, V3 tick gross included), measured with
// process.memoryUsage() around forced collections. The states are the real ones a source read on
// an anvil devnet (Uniswap V2/V3 bytecode), copied under fresh addresses through a JSON checkpoint,
// as a restart from a saved checkpoint would make them (every address a string of its own).
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { type Address, createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiveCheckpoint, createLiveSource } from '../../src/index.js'
import { buildPoolCached } from '../../src/liquidity/buildPoolCached.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { type Anvil, type Devnet, deployDevnet, rpc, startAnvil } from '../devnet/index.js'

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

const DISCOVERED = 100_000
const TRACKED = 10_000
/** Distinct tokens among the synthetic pools (mainnet has fewer tokens than pools: about one per two pools). */
const TOKENS = 50_000

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let saved: LiveCheckpoint
const figures: Record<string, number> = {}

const address = (n: number, salt: number): Address => `0x${salt.toString(16).padStart(8, '0')}${n.toString(16).padStart(32, '0')}` as Address

/** Heap bytes held by what `make` returns, per `count` (collections forced before and after). */
function bytesPer(count: number, make: () => unknown): number {
  collect()
  collect()
  const before = process.memoryUsage().heapUsed
  const kept = make()
  collect()
  collect()
  const after = process.memoryUsage().heapUsed
  expect(kept).toBeDefined()
  return (after - before) / count
}

/** A checkpoint of `count` copies of `template` pools under fresh addresses, as JSON text (parsed inside the measurement). */
function checkpointText(template: LiveCheckpoint['pools'], count: number, tracked: boolean): string {
  const pools: LiveCheckpoint['pools'] = []
  for (let i = 0; i < count; i++) {
    const { pool, state, liquidityGross } = template[i % template.length]!
    const fresh = address(i, 0xabcd)
    // Two distinct tokens (6i + 1 is odd, TOKENS even), sorted as pools sort them.
    const [token0, token1] = [address(i % TOKENS, 0x70), address((i * 7 + 1) % TOKENS, 0x70)].sort() as [Address, Address]
    pools.push({
      pool: { ...pool, address: fresh, token0, token1 },
      state: tracked && state ? { ...state, address: fresh, token0, token1 } as typeof state : undefined,
      ...(tracked && liquidityGross ? { liquidityGross } : {}),
    })
  }
  return JSON.stringify({ ...saved, pools })
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  chain = devnet.chain
  const live = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
  await live.sync()
  saved = JSON.parse(JSON.stringify(live.checkpoint())) as LiveCheckpoint
}, 60_000)

afterAll(async () => {
  console.log(`live source memory, bytes per pool: ${JSON.stringify(figures)}`)
  await anvil?.stop()
})

describe('createLiveSource memory', () => {
  it(`a discovered pool it does not track costs a compact record (${DISCOVERED.toLocaleString('en')} pools over ${TOKENS.toLocaleString('en')} tokens)`, () => {
    const offline = createPublicClient({ transport: http('http://127.0.0.1:9') })
    const text = checkpointText(saved.pools, DISCOVERED, false)
    // The empty source's own cost (configuration, chain tokens) comes off: measured alone first.
    const empty = bytesPer(1, () => createLiveSource({ client: offline, chain, fromBlock: 0n, checkpoint: JSON.parse(JSON.stringify({ ...saved, pools: [] })) }))
    const perPool = bytesPer(DISCOVERED, () => createLiveSource({ client: offline, chain, fromBlock: 0n, checkpoint: JSON.parse(text) })) - empty / DISCOVERED
    figures.discovered = Math.round(perPool)
    expect(perPool).toBeGreaterThan(0)
    expect(perPool).toBeLessThan(600)
  })

  it(`a tracked V2 pair and a tracked V3 pool cost their state (${TRACKED.toLocaleString('en')} of each)`, () => {
    const offline = createPublicClient({ transport: http('http://127.0.0.1:9') })
    const v2 = saved.pools.filter((p) => p.state && p.pool.family === 'uniswapV2')
    const v3 = saved.pools.filter((p) => p.state && p.pool.family === 'uniswapV3')
    expect(v2.length).toBeGreaterThan(0)
    expect(v3.length).toBeGreaterThan(0)
    const v2Text = checkpointText(v2, TRACKED, true)
    const v3Text = checkpointText(v3, TRACKED, true)
    figures.trackedV2 = Math.round(bytesPer(TRACKED, () => createLiveSource({ client: offline, chain, fromBlock: 0n, checkpoint: JSON.parse(v2Text) })))
    figures.trackedV3 = Math.round(bytesPer(TRACKED, () => createLiveSource({ client: offline, chain, fromBlock: 0n, checkpoint: JSON.parse(v3Text) })))
    figures.v3TicksPerPool = v3.reduce((sum, p) => sum + (p.state as UniswapV3PoolState).ticks.length, 0) / v3.length
    // The same pools with 100 initialized ticks each (liquidityNet and liquidityGross of realistic size): the cost per tick.
    const TICKS = 100
    const withTicks = v3.map((p) => {
      const state = p.state as UniswapV3PoolState
      const ticks = Array.from({ length: TICKS }, (_, i) => ({ index: (i - TICKS / 2) * state.tickSpacing, liquidityNet: String((i % 2 ? -1n : 1n) * (123_456_789_012_345_678n + BigInt(i))) }))
      return { ...p, state: { ...state, ticks }, liquidityGross: ticks.map((t): [number, string] => [t.index, String(123_456_789_012_345_678n + BigInt(t.index))]) }
    })
    const manyText = checkpointText(withTicks, TRACKED / 4, true)
    figures.trackedV3With100Ticks = Math.round(bytesPer(TRACKED / 4, () => createLiveSource({ client: offline, chain, fromBlock: 0n, checkpoint: JSON.parse(manyText) })))
    figures.perV3Tick = Math.round((figures.trackedV3With100Ticks - figures.trackedV3) / (TICKS - figures.v3TicksPerPool))
    expect(figures.trackedV2).toBeLessThan(2_000)
    expect(figures.trackedV3).toBeLessThan(20_000)
  })

  it('a pool getQuote builds from a tracked state (cached beside it) costs about as much again', () => {
    const build = (family: typeof uniswapV2Family | typeof uniswapV3Family, template: LiveCheckpoint['pools']) => {
      const dexIndex = chain.dexes.findIndex((d) => d.family === family.id)
      const states = (JSON.parse(checkpointText(template, TRACKED, true)) as LiveCheckpoint).pools.map((p) => p.state!)
      return Math.round(bytesPer(TRACKED, () => states.map((state) => buildPoolCached(family as never, state, { chain, dex: chain.dexes[dexIndex]!, dexIndex }, 0))))
    }
    figures.builtV2 = build(uniswapV2Family, saved.pools.filter((p) => p.state && p.pool.family === 'uniswapV2'))
    figures.builtV3 = build(uniswapV3Family, saved.pools.filter((p) => p.state && p.pool.family === 'uniswapV3'))
    expect(figures.builtV2).toBeGreaterThan(0)
    expect(figures.builtV3).toBeGreaterThan(0)
  })

  it('keeps token metadata only for the tokens of held pools and the chain’s own', async () => {
    // A checkpoint carrying the metadata of 1,000 tokens no pool of it touches (pools gone since, say).
    const stray = Array.from({ length: 1_000 }, (_, i) => ({ address: address(i, 0x5a), symbol: 'S', decimals: 18, transferFeeBps: 0 }))
    const loaded = createLiveSource({
      client: anvil.publicClient,
      chain,
      families: [uniswapV2Family, uniswapV3Family],
      fromBlock: 0n,
      checkpoint: { ...saved, tokens: [...saved.tokens, ...stray] },
    })
    await loaded.sync()
    expect(loaded.stats().tokensKnown).toBe(saved.tokens.length + stray.length)
    await rpc(anvil.rpcUrl, 'evm_mine', [])
    await loaded.sync()
    // Pruned at the block's commit: what the held pools and the chain's token list name.
    const liquidity = await loaded.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })
    expect(loaded.stats().tokensKnown).toBe(new Set([...liquidity.tokens.map((t) => t.address), ...chain.tokens.map((t) => t.address.toLowerCase()), chain.wrappedNative.address.toLowerCase()]).size)
  })
})
