// The live source on the Uniswap forks' real bytecode on anvil: PancakeSwap V3 (@pancakeswap/v3-core),
// Slipstream (CLFactory, CLPool, CustomSwapFeeModule) and Aerodrome V2 (Pool, PoolFactory), with
// seeded random third-party activity every block (test/support/forksActivity.ts: swaps of every
// size, mints and burns across ranges, new pools, protocol-fee and custom-fee changes, a fee-module
// switch, pauses), time jumps that make Aerodrome observations fall due, reorgs of depth 1–5
// through anvil_rollback, and quotes executed. After every block the live state must equal a fresh
// read by the families' own readers, bit for bit.
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiveCheckpoint, type LiveSource, type QuoteIntent, QuoteError, createLiveSource, deployExecutor, getQuote } from '../../src/index.js'
import type { LiveFamily } from '../../src/liquidity/live/liveFamily.js'
import { aerodromeV2LiveFamily } from '../../src/liquidity/live/families/aerodromeV2.js'
import { pancakeV3LiveFamily } from '../../src/liquidity/live/families/pancakeV3.js'
import { slipstreamLiveFamily } from '../../src/liquidity/live/families/slipstream.js'
import { deployAerodrome, withAerodrome } from '../devnet/aerodrome.js'
import { type Anvil, type Devnet, deployDevnet, rpc, startAnvil } from '../devnet/index.js'
import { deployPancakeV3, withPancakeV3 } from '../devnet/pancakeV3.js'
import { deploySlipstreamReal, withSlipstreamReal } from '../devnet/slipstreamReal.js'
import { executeQuote, expectExactFill } from '../support/fill.js'
import { createAerodromeActivity, createPancakeV3Activity, createSlipstreamActivity } from '../support/forksActivity.js'
import { type LiveActivity, createLiveActivity } from '../support/liveActivity.js'
import { type LiveMismatch, checkLiveState } from '../support/liveActivityCheck.js'
import { createRandom } from '../support/random.js'

// LIVE_FORKS_SEED runs another seeded history.
const SEED = Number(process.env.LIVE_FORKS_SEED ?? 0x13_f0a5)
const BLOCKS = 150
// Every REORG_EVERY blocks the chain drops 1–5 blocks and grows new ones with other activity.
const REORG_EVERY = 20
const QUOTE_EVERY = 25
// Every TIME_JUMP_EVERY blocks anvil's clock jumps past most of Aerodrome's 30-minute observation period.
const TIME_JUMP_EVERY = 12
const TIME_JUMP_SECONDS = 1_000

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let live: LiveSource
let activity: LiveActivity
const random = createRandom(SEED)
/** How each family's logs came out: applied exactly, known to change nothing, or re-read. */
const outcomes: Record<string, { next: number; unchanged: number; reread: number }> = {}
const stats = { compared: 0, quotes: 0, executed: 0, notRouted: 0, fillMismatches: 0, timeJumps: 0 }
const mismatches: LiveMismatch[] = []

/** The fork families, each counting how its logs came out. */
const countedFamilies: LiveFamily[] = [pancakeV3LiveFamily, slipstreamLiveFamily, aerodromeV2LiveFamily].map((family) => {
  outcomes[family.id] = { next: 0, unchanged: 0, reread: 0 }
  return {
    ...family,
    applyLog(record, log) {
      const outcome = family.applyLog(record, log)
      outcomes[family.id]![outcome.kind]++
      return outcome
    },
  }
})

async function check(source: LiveSource = live): Promise<void> {
  const result = await checkLiveState({ source, activity, chain, pair: [devnet.tokens.WETH.address, devnet.tokens.USDC.address] })
  stats.compared++
  mismatches.push(...result.mismatches)
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  const pancake = await deployPancakeV3(devnet)
  const slipstream = await deploySlipstreamReal(devnet)
  const aerodrome = await deployAerodrome(devnet)
  // The devnet's PancakeV3Factory emits PoolCreated; pools derive from its deployer (dex.factory).
  const pancakeDex = { ...pancake.dex, creationEmitter: pancake.factory }
  const config = withAerodrome(withSlipstreamReal(withPancakeV3(devnet.chain, { dex: pancakeDex }), slipstream), aerodrome)
  const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: config })
  chain = { ...config, executor }
  const context = { anvil, devnet, chain, random }
  activity = createLiveActivity({
    anvil,
    random,
    families: [createPancakeV3Activity(context, pancake), await createSlipstreamActivity(context, slipstream), createAerodromeActivity(context, aerodrome)],
  })
  live = createLiveSource({ client: anvil.publicClient, chain, liveFamilies: countedFamilies, fromBlock: 0n })
}, 120_000)

afterAll(async () => {
  console.log(`live forks: ${JSON.stringify({ ...stats, mismatches: mismatches.length, outcomes, activity: activity?.stats })}\n${JSON.stringify({ ...live?.stats(), skipped: undefined })}`)
  if (mismatches.length > 0) console.log(`first mismatches: ${JSON.stringify(mismatches.slice(0, 2), null, 1)}`)
  await anvil?.stop()
})

describe('createLiveSource on anvil (pancakeV3 + slipstream + aerodromeV2, real bytecode)', () => {
  it('discovers every pool from its factory and reads it exactly', async () => {
    await check()
    const counters = live.stats()
    // 6 Pancake, 5 Slipstream and 6 Aerodrome pools from the deploys; no creation refused.
    expect(counters.discovered).toBeGreaterThanOrEqual(17)
    expect(counters.delivered).toBeGreaterThanOrEqual(17)
    expect(counters.skipped).toEqual([])
    expect(counters.unfollowedDexes).toEqual(chain.dexes.filter((d) => !['pancakeV3', 'slipstream', 'aerodromeV2'].includes(d.family)).map((d) => d.id))
    expect(mismatches).toEqual([])
  })

  it(`follows ${BLOCKS} blocks of random activity with reorgs, equal to a fresh read after every block`, async () => {
    for (let i = 1; i <= BLOCKS; i++) {
      if (i % REORG_EVERY === 0) {
        // Drop 1–5 blocks, then grow a longer branch with other activity. (A head seen behind the
        // source's block on its own branch is a lagging node to the source: test/live/liveSource.test.ts.)
        const depth = 1 + ((i / REORG_EVERY) % 5)
        await activity.rollback(depth)
        for (let k = 0; k <= depth; k++) {
          await activity.mineBlock()
          await check()
        }
        continue
      }
      if (i % TIME_JUMP_EVERY === 0) {
        await rpc(anvil.rpcUrl, 'evm_increaseTime', [TIME_JUMP_SECONDS])
        stats.timeJumps++
      }
      await activity.mineBlock()
      await check()
      if (i % QUOTE_EVERY === 0) await quoteAndFill()
    }
    const counters = live.stats()
    expect(mismatches.slice(0, 3)).toEqual([])
    expect(counters.reorgs).toBeGreaterThanOrEqual(activity.stats.rollbacks)
    // Every family's logs were applied, and fee changes and due observations were seen and re-read.
    for (const id of ['pancakeV3', 'slipstream', 'aerodromeV2']) expect(outcomes[id]!.next, id).toBeGreaterThan(0)
    expect(counters.rereadReasons['Slipstream custom fee set']).toBeGreaterThan(0)
    expect(counters.rereadReasons['Aerodrome V2 custom fee set']).toBeGreaterThan(0)
    expect(counters.rereadReasons['Slipstream swap fee module changed']).toBeGreaterThan(0)
    expect(counters.rereadReasons['Aerodrome V2 factory paused or unpaused']).toBeGreaterThan(0)
    expect(counters.rereadReasons['state due to change with time']).toBeGreaterThan(0)
    expect(counters.discovered).toBeGreaterThan(17)
    expect(stats.executed).toBeGreaterThan(0)
  }, 240_000)

  it('saves its state as JSON and resumes from it exactly', async () => {
    const saved = JSON.parse(JSON.stringify(live.checkpoint())) as LiveCheckpoint
    const resumed = createLiveSource({ client: anvil.publicClient, chain, liveFamilies: countedFamilies, fromBlock: 0n, checkpoint: saved })
    await check()
    const rereadsBefore = live.stats().rereads
    await rpc(anvil.rpcUrl, 'evm_increaseTime', [TIME_JUMP_SECONDS])
    for (let k = 0; k < 4; k++) await activity.mineBlock()
    await check(resumed)
    await check()
    expect(resumed.stats().blocksApplied).toBe(resumed.stats().blockNumber! - saved.blockNumber)
    // The same blocks from the same state cost the same reads: the checkpoint kept what the source follows by (ticks' gross, times due).
    expect(resumed.stats().rereads).toBe(live.stats().rereads - rereadsBefore)
    expect(mismatches).toEqual([])
  })
})

/** Quotes a random pair on the live source and fills it; the fill must pay exactly the quote. */
async function quoteAndFill(): Promise<void> {
  const tokens = Object.values(devnet.tokens)
  const sell = tokens[Math.floor(random() * tokens.length)]!
  const rest = tokens.filter((t) => t.address !== sell.address)
  const buy = rest[Math.floor(random() * rest.length)]!
  const trader = devnet.accounts.traders[0]!
  const intent: QuoteIntent = {
    chainId: chain.id,
    sellToken: sell.address,
    buyToken: buy.address,
    sellAmount: BigInt(Math.floor(((100 + random() * 5_000) / sell.priceUsd) * 10 ** sell.decimals)),
    slippageBps: 50,
    priceImpactLimitBps: 10_000,
  }
  stats.quotes++
  let quote
  try {
    // The quote's clock is the chain's (the test moves anvil's clock ahead of the wall clock).
    const { timestamp } = await anvil.publicClient.getBlock()
    quote = await getQuote(intent, live, { chains: [chain], sender: trader, now: () => Number(timestamp) * 1000 })
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
  await check()
}
