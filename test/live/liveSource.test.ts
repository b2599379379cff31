// The live source against real Uniswap V2/V3 bytecode on anvil: seeded random third-party
// activity every block (V2 swaps and donations, V3 swaps of every size, mints and burns across
// ranges in and out of the tick window, new pools, pools created uninitialized and initialized
// later), reorgs of depth 1–5 through anvil_rollback (a chain cut shorter answers 503 until the new
// branch arrives), node faults, and quotes executed. After every
// block the live state must equal a fresh read by the families' own readers, bit for bit.
import { type Address, createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiveCheckpoint, type LiveSource, type PoolStateBase, type QuoteIntent, QuoteError, createLiveSource, deployExecutor, getQuote } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, deployDevnet, rpc, startAnvil } from '../devnet/index.js'
import { executeQuote, expectExactFill } from '../support/fill.js'
import { type LiveActivity, createLiveActivity } from '../support/liveActivity.js'
import { type LiveMismatch, canonicalState, checkLiveState } from '../support/liveActivityCheck.js'
import { createUniswapActivity } from '../support/liveActivityUniswap.js'
import { createRandom } from '../support/random.js'

const SEED = 0x13_2026
const BLOCKS = 200
// Every REORG_EVERY blocks the chain drops 1–5 blocks and grows new ones with other activity.
const REORG_EVERY = 20
const QUOTE_EVERY = 25

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let live: LiveSource
/** Seeded random V2/V3 third-party activity (test/support/liveActivityUniswap.ts), shared with the long run. */
let activity: LiveActivity
/** Fault switch of the live source's transport: `all` fails every request, `logs` only eth_getLogs. */
let fault: 'none' | 'all' | 'logs' = 'none'
const random = createRandom(Number(SEED))
const stats = { blocks: 0, compared: 0, mismatches: 0, reorgs: 0, reorgBlocksDropped: 0, faults: 0, quotes: 0, executed: 0, notRouted: 0, fillMismatches: 0 }
const mismatches: LiveMismatch[] = []

const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))
const canonical = canonicalState

/** Every V2 and V3 pool among the devnet's tokens, read afresh by the families' readers at `blockNumber`. */
const freshRead = (blockNumber: bigint): Promise<PoolStateBase[]> => activity.freshRead(blockNumber)

/**
 * Syncs a live source and compares its whole state with a fresh read at its block (of the pools
 * its tracking policy keeps).
 */
async function syncAndCompare(source: LiveSource = live, keep: (state: PoolStateBase) => boolean = () => true): Promise<void> {
  const result = await checkLiveState({ source, activity, chain, pair: [devnet.tokens.WETH.address, devnet.tokens.USDC.address], keep })
  stats.compared++
  stats.mismatches += result.mismatches.length
  mismatches.push(...result.mismatches)
}

/** Mines one block of random activity. */
async function mineActivityBlock(): Promise<void> {
  await activity.mineBlock()
  stats.blocks++
}

/** Drops the newest `depth` blocks (anvil_rollback); the activity's books go back with them. */
async function rollback(depth: number): Promise<void> {
  await activity.rollback(depth)
  stats.reorgs++
  stats.reorgBlocksDropped += depth
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
  chain = { ...devnet.chain, executor }
  // The deployer pays every activity transaction: approve the provider for every token, once.
  const client = createPublicClient({
    transport: custom({
      request: async ({ method, params }) => {
        if (fault === 'all' || (fault === 'logs' && method === 'eth_getLogs')) throw new Error(`injected fault on ${method}`)
        return rpc(anvil.rpcUrl, method, params as unknown[])
      },
    }),
  })
  live = createLiveSource({ client, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
  activity = createLiveActivity({ anvil, random, families: [createUniswapActivity({ anvil, devnet, chain, random })] })
}, 60_000)

afterAll(async () => {
  console.log(`live source: ${JSON.stringify(stats)}\n${JSON.stringify({ ...live?.stats(), skipped: undefined })}`)
  await anvil?.stop()
})

describe('createLiveSource on anvil (uniswapV2 + uniswapV3)', () => {
  it('discovers every pool and reads it exactly', async () => {
    await syncAndCompare()
    expect(live.stats().discovered).toBeGreaterThanOrEqual(devnet.pools.length)
    expect(mismatches).toEqual([])
  })

  it(`follows ${BLOCKS} blocks of random activity with reorgs, equal to a fresh read after every block`, async () => {
    for (let i = 1; i <= BLOCKS; i++) {
      if (i % REORG_EVERY === 0) {
        // Drop 1–5 blocks; half the time the source sees the shorter chain before new blocks come.
        const depth = 1 + ((i / REORG_EVERY) % 5)
        await rollback(depth)
        if ((i / REORG_EVERY) % 2 === 0) {
          // A head below the source's block on its own branch looks exactly like a lagging node: 503, never the older state as the head.
          await expect(live.sync()).rejects.toMatchObject({ statusCode: 503 })
          await expect(live.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })).rejects.toMatchObject({ statusCode: 503 })
        }
        for (let k = 0; k <= depth; k++) {
          await mineActivityBlock()
          await syncAndCompare()
        }
        continue
      }
      await mineActivityBlock()
      await syncAndCompare()
      if (i % QUOTE_EVERY === 0) await quoteAndFill()
    }
    const counters = live.stats()
    expect(mismatches.slice(0, 3)).toEqual([])
    expect(counters.reorgs).toBeGreaterThanOrEqual(stats.reorgs)
    expect(counters.logsApplied).toBeGreaterThan(counters.rereads)
    expect(stats.executed).toBeGreaterThan(0)
  }, 120_000)

  it('saves its state as JSON and resumes from it exactly, without reading every pool again', async () => {
    const saved = JSON.parse(JSON.stringify(live.checkpoint())) as LiveCheckpoint
    const resumed = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, checkpoint: saved })
    // Never a quote before the first sync has checked the checkpoint against the chain.
    await expect(resumed.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })).rejects.toMatchObject({ statusCode: 503 })
    for (let k = 0; k < 5; k++) await mineActivityBlock()
    await syncAndCompare(resumed)
    await syncAndCompare()
    const counters = resumed.stats()
    expect(counters.blocksApplied).toBe(5)
    expect(counters.rereads).toBeLessThan(counters.discovered)
    expect(mismatches).toEqual([])
  })

  it('tracks only the pools of a token list, or of the tokens quotes ask for', async () => {
    const listed = new Set([devnet.tokens.WETH.address, devnet.tokens.USDC.address, devnet.tokens.DAI.address])
    const byList = createLiveSource({
      client: anvil.publicClient,
      chain,
      families: [uniswapV2Family, uniswapV3Family],
      fromBlock: 0n,
      tracking: { mode: 'tokens', tokens: [...listed] },
    })
    const among = (set: Set<string>) => (state: PoolStateBase) => {
      const pool = state as UniswapV2PoolState
      return set.has(pool.token0) && set.has(pool.token1)
    }
    await syncAndCompare(byList, among(listed))
    const onDemand = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, tracking: { mode: 'onDemand' } })
    await onDemand.sync()
    const asked = { chain, tokenIn: devnet.tokens.WBTC.address, tokenOut: devnet.tokens.LINK.address }
    // A token never asked for: refused, and tracked from the next sync on.
    await expect(onDemand.getLiquidity(asked)).rejects.toMatchObject({ statusCode: 503 })
    await mineActivityBlock()
    await onDemand.sync()
    const liquidity = await onDemand.getLiquidity(asked)
    const wanted = new Set<string>([...chain.majorTokens, asked.tokenIn, asked.tokenOut])
    const expected = (await freshRead(BigInt(liquidity.blockNumber))).filter(among(wanted))
    expect(liquidity.pools.map(canonical).sort()).toEqual(expected.map(canonical).sort())
    expect(liquidity.pools.some((p) => [(p as UniswapV2PoolState).token0, (p as UniswapV2PoolState).token1].includes(asked.tokenIn))).toBe(true)
    expect(mismatches).toEqual([])
  })

  it('follows new blocks by itself once started (viem watchBlockNumber, polling)', async () => {
    const watching = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
    // The first full read before any block is mined: once, in a loaded clean CI run, a first read
    // that overlapped anvil mining the next block came back holding that block's Mint, which the
    // source then applied again from its log. anvil answers eth_call at block N with state it is
    // still mining for N + 1 (scripts/anvilMiningRace.ts: 3 of 177 and 6 of 196 reads); a node's
    // state at a block number does not change.
    await watching.sync()
    watching.start({ pollingInterval: 20 })
    try {
      for (let k = 0; k < 3; k++) await mineActivityBlock()
      const head = Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
      const deadline = Date.now() + 10_000
      while (watching.stats().blockNumber !== head && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(watching.stats().blockNumber).toBe(head)
      await syncAndCompare(watching)
      expect(mismatches).toEqual([])
    } finally {
      watching.stop()
    }
  })

  it('starts over from discovery after a reorg deeper than its journal', async () => {
    const shallow = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, reorgDepth: 2 })
    await syncAndCompare(shallow)
    const depth = 4
    await rollback(depth)
    for (let k = 0; k <= depth; k++) await mineActivityBlock()
    await syncAndCompare(shallow)
    expect(shallow.stats().fullResyncs).toBe(1)
    // The main source (journal of 64 blocks) rolls back instead.
    const before = live.stats().fullResyncs
    await syncAndCompare()
    expect(live.stats().fullResyncs).toBe(before)
    expect(mismatches).toEqual([])
  })

  it('answers 503 while its node fails or it falls behind, and recovers exactly', async () => {
    fault = 'all'
    await mineActivityBlock()
    await expect(live.sync()).rejects.toMatchObject({ statusCode: 503 })
    await expect(live.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })).rejects.toMatchObject({ statusCode: 503 })
    // The head is seen but the block's logs cannot be fetched: behind, and failed.
    fault = 'logs'
    await mineActivityBlock()
    await mineActivityBlock()
    await mineActivityBlock()
    await expect(live.sync()).rejects.toBeInstanceOf(QuoteError)
    await expect(live.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })).rejects.toMatchObject({ statusCode: 503 })
    expect(live.stats().observedHead! - live.stats().blockNumber!).toBeGreaterThan(2)
    stats.faults += 2
    fault = 'none'
    await syncAndCompare()
    expect(mismatches).toEqual([])
  })

  it('refuses to answer once its last sync is older than maxAgeMs', async () => {
    const stale = createLiveSource({ client: anvil.publicClient, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, maxAgeMs: 50 })
    await expect(stale.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })).rejects.toMatchObject({ statusCode: 503 })
    await stale.sync()
    await expect(stale.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })).resolves.toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 80))
    await expect(stale.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })).rejects.toMatchObject({ statusCode: 503 })
  })
})

/** Quotes a random pair on the live source and fills it; the fill must pay exactly the quote. */
async function quoteAndFill(): Promise<void> {
  const symbols = Object.values(devnet.tokens)
  const sell = pick(symbols)
  const buy = pick(symbols.filter((t) => t.address !== sell.address))
  const trader = devnet.accounts.traders[0]!
  const intent: QuoteIntent = {
    chainId: chain.id,
    sellToken: sell.address,
    buyToken: buy.address,
    sellAmount: BigInt(Math.floor((between(100, 5_000) / sell.priceUsd) * 10 ** sell.decimals)),
    slippageBps: 50,
    priceImpactLimitBps: 10_000,
  }
  stats.quotes++
  let quote
  try {
    quote = await getQuote(intent, live, { chains: [chain], sender: trader })
  } catch (error) {
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).statusCode).toBe(404)
    stats.notRouted++
    return
  }
  const outcome = await executeQuote(devnet, quote, buy.address as Address, trader)
  expectExactFill(outcome, quote, { mismatches: stats.fillMismatches })
  stats.executed++
  await activity.recordHead()
  await syncAndCompare()
}
