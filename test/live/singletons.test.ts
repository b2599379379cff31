// The live source on the singletons, real bytecode on anvil: the Uniswap V4 PoolManager (pools
// filed by pool id, native ETH among them, hooked and dynamic-fee pools skipped) and the Balancer V2
// Vault (weighted pools of 2 and 3 tokens, and a pool no known factory created). Seeded random
// third-party activity every block (test/support/singletonsActivity.ts), reorgs of depth 1–5
// through anvil_rollback (a chain cut shorter answers 503 until the new branch arrives), and after every block the live state must equal a fresh read by the
// families' own readers, bit for bit. Quotes on the live source are executed exactly.
import { type Address, toEventSelector, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiveCheckpoint, type LiveSource, type PoolStateBase, type QuoteIntent, QuoteError, createLiveSource, deployExecutor, getQuote } from '../../src/index.js'
import { balancerV2PoolContractEventsAbi, balancerV2VaultPoolEventsAbi } from '../../src/liquidity/live/families/applyBalancerV2Log.js'
import { uniswapV4PoolManagerEventsAbi } from '../../src/liquidity/live/families/applyUniswapV4Log.js'
import { balancerV2LiveFamily } from '../../src/liquidity/live/families/balancerV2.js'
import { uniswapV4LiveFamily } from '../../src/liquidity/live/families/uniswapV4.js'
import type { LiveFamily } from '../../src/liquidity/live/liveFamily.js'
import { balancerV2Family } from '../../src/protocols/balancerV2/family.js'
import type { BalancerV2PoolState } from '../../src/protocols/balancerV2/state.js'
import { uniswapV4Family } from '../../src/protocols/uniswapV4/family.js'
import type { UniswapV4PoolState } from '../../src/protocols/uniswapV4/state.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from '../devnet/index.js'
import { executeQuote, expectExactFill } from '../support/fill.js'
import { type LiveActivity, createLiveActivity } from '../support/liveActivity.js'
import { type LiveMismatch, checkLiveState } from '../support/liveActivityCheck.js'
import { createRandom } from '../support/random.js'
import { createBalancerV2Activity, createUniswapV4Activity, deploySingletons } from '../support/singletonsActivity.js'

const SEED = 0x5_1a61e
const BLOCKS = 150
// Every REORG_EVERY blocks the chain drops 1–5 blocks and grows new ones with other activity.
const REORG_EVERY = 15
const QUOTE_EVERY = 25
const families = [uniswapV4Family, balancerV2Family]
/** How each family's logs went, by event: applied exactly, no change, or re-read. */
const outcomes: Record<string, number> = {}
const eventNames = new Map<string, string>([...uniswapV4PoolManagerEventsAbi, ...balancerV2VaultPoolEventsAbi, ...balancerV2PoolContractEventsAbi].map((event) => [toEventSelector(event), event.name]))
const counted = (family: LiveFamily): LiveFamily => ({
  ...family,
  applyLog(record, log) {
    const outcome = family.applyLog(record, log)
    const key = `${family.id} ${eventNames.get(log.topics[0] ?? '') ?? 'other'} ${outcome.kind}`
    outcomes[key] = (outcomes[key] ?? 0) + 1
    return outcome
  },
})
const liveFamilies = [counted(uniswapV4LiveFamily), counted(balancerV2LiveFamily)]

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let live: LiveSource
let activity: LiveActivity
const random = createRandom(SEED)
const stats = { compared: 0, pools: 0, reorgs: 0, quotes: 0, executed: 0, notRouted: 0, fillMismatches: 0, swapsByProtocol: {} as Record<string, number> }
const mismatches: LiveMismatch[] = []

async function check(source: LiveSource = live): Promise<void> {
  const { mismatches: found, pools } = await checkLiveState({ source, activity, chain, pair: [devnet.tokens.WETH.address, devnet.tokens.USDC.address] })
  stats.compared++
  stats.pools = pools
  mismatches.push(...found)
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  const deployed = await deploySingletons({ anvil, devnet, chain: devnet.chain })
  const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: deployed.chain })
  chain = { ...deployed.chain, executor }
  activity = createLiveActivity({
    anvil,
    random,
    families: [createUniswapV4Activity({ anvil, devnet, random, v4: deployed.v4, donor: deployed.donor }), createBalancerV2Activity({ anvil, devnet, random, balancer: deployed.balancer })],
  })
  live = createLiveSource({ client: anvil.publicClient, chain, families, liveFamilies, fromBlock: 0n })
}, 120_000)

afterAll(async () => {
  const counters = live?.stats()
  console.log(`singletons live source: ${JSON.stringify(stats)} activity ${JSON.stringify(activity?.stats)}\n${JSON.stringify({ ...counters, skipped: counters?.skipped.length })}\nlog outcomes ${JSON.stringify(Object.fromEntries(Object.entries(outcomes).sort()))}`)
  // The first mismatches, field by field, when there are any.
  const byBlock = new Map<number, string[]>()
  for (const m of mismatches) byBlock.set(m.block, [...(byBlock.get(m.block) ?? []), m.live === undefined ? 'live-missing' : m.fresh === undefined ? 'fresh-missing' : 'differs'])
  if (mismatches.length > 0) console.log(`mismatches by block: ${JSON.stringify([...byBlock].slice(0, 20))}`)
  for (const { block, pool, live: mine, fresh } of mismatches.slice(0, 3)) {
    const [a, b] = [JSON.parse(mine ?? '{}') as Record<string, unknown>, JSON.parse(fresh ?? '{}') as Record<string, unknown>]
    const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]))
    console.log(`mismatch at block ${block}, pool ${pool}: ${fields.map((f) => `${f}: live ${JSON.stringify(a[f])} fresh ${JSON.stringify(b[f])}`).join('; ')}`)
  }
  await anvil?.stop()
})

describe('createLiveSource on anvil (uniswapV4 + balancerV2)', () => {
  it('discovers the PoolManager and Vault pools, skips what the readers skip, and reads them exactly', async () => {
    await check()
    expect(mismatches).toEqual([])
    const counters = live.stats()
    // The hooked and the dynamic-fee V4 pools are reported, not tracked.
    expect(counters.skipped.filter((s) => s.reason.includes('hooks')).length).toBe(2)
    // V4: 8 priced pools; Balancer: 2 weighted pools and the rogue one (discovered, never delivered).
    expect(counters.discovered).toBe(11)
    expect(counters.delivered).toBe(10)
    expect(stats.pools).toBe(10)
  })

  it(`follows ${BLOCKS} blocks of random activity with reorgs, equal to a fresh read after every block`, async () => {
    for (let i = 1; i <= BLOCKS; i++) {
      if (i % REORG_EVERY === 0) {
        // Drop 1–5 blocks; half the time the source sees the shorter chain before new blocks come:
        // a head below its block on its own branch looks like a lagging node, so it answers 503.
        const depth = 1 + ((i / REORG_EVERY) % 5)
        await activity.rollback(depth)
        stats.reorgs++
        if ((i / REORG_EVERY) % 2 === 0) await expect(live.sync()).rejects.toMatchObject({ statusCode: 503 })
        for (let k = 0; k <= depth; k++) {
          await activity.mineBlock()
          await check()
        }
        continue
      }
      await activity.mineBlock()
      await check()
      if (i % QUOTE_EVERY === 0) await quoteAndFill()
    }
    const counters = live.stats()
    expect(mismatches.slice(0, 3)).toEqual([])
    expect(counters.reorgs).toBeGreaterThanOrEqual(stats.reorgs)
    expect(counters.logsApplied).toBeGreaterThan(0)
    expect(stats.executed).toBeGreaterThan(0)
    expect(stats.fillMismatches).toBe(0)
    // The fills went through both families.
    expect(Object.keys(stats.swapsByProtocol).sort()).toEqual(['Balancer V2', 'Uniswap V4'])
    // New pools were discovered on the way (V4 Initialize, Balancer TokensRegistered).
    expect(counters.discovered).toBeGreaterThan(11)
  }, 240_000)

  it('tracks only the pools of a token list (a Balancer pool only when every one of its tokens is listed)', async () => {
    const listed = new Set<Address>([devnet.tokens.WETH.address, devnet.tokens.USDC.address, devnet.tokens.DAI.address])
    const byList = createLiveSource({ client: anvil.publicClient, chain, families, liveFamilies, fromBlock: 0n, tracking: { mode: 'tokens', tokens: [...listed] } })
    const tokensOf = (state: PoolStateBase): Address[] => {
      if (state.family === 'balancerV2') return (state as BalancerV2PoolState).tokens
      const pool = state as UniswapV4PoolState
      return [pool.currency0 === zeroAddress ? devnet.tokens.WETH.address : pool.currency0, pool.currency1]
    }
    const keep = (state: PoolStateBase) => tokensOf(state).every((token) => listed.has(token))
    const { mismatches: found, pools } = await checkLiveState({ source: byList, activity, chain, pair: [devnet.tokens.WETH.address, devnet.tokens.USDC.address], keep })
    expect(found).toEqual([])
    expect(pools).toBeGreaterThan(0)
    expect(pools).toBeLessThan(stats.pools)
  }, 60_000)

  it('saves its state as JSON and resumes from it exactly', async () => {
    const saved = JSON.parse(JSON.stringify(live.checkpoint())) as LiveCheckpoint
    const resumed = createLiveSource({ client: anvil.publicClient, chain, families, liveFamilies, fromBlock: 0n, checkpoint: saved })
    for (let k = 0; k < 5; k++) await activity.mineBlock()
    await check(resumed)
    await check()
    expect(resumed.stats().blocksApplied).toBe(5)
    expect(mismatches).toEqual([])
  }, 60_000)
})

/** Quotes a random pair on the live source and fills it; the fill must pay exactly the quote. */
async function quoteAndFill(): Promise<void> {
  const symbols = [devnet.tokens.WETH, devnet.tokens.USDC, devnet.tokens.DAI, devnet.tokens.WBTC, devnet.tokens.LINK, devnet.tokens.USDT]
  const sell = symbols[Math.floor(random() * symbols.length)]!
  const others = symbols.filter((t) => t.address !== sell.address)
  const buy = others[Math.floor(random() * others.length)]!
  const trader = devnet.accounts.traders[0]!
  const usd = 100 + Math.floor(random() * 4_900)
  const intent: QuoteIntent = {
    chainId: chain.id,
    sellToken: sell.address,
    buyToken: buy.address,
    sellAmount: BigInt(Math.floor((usd / sell.priceUsd) * 10 ** sell.decimals)),
    slippageBps: 50,
    priceImpactLimitBps: 10_000,
  }
  stats.quotes++
  let quote
  try {
    quote = await getQuote(intent, live, { chains: [chain], families, sender: trader })
  } catch (error) {
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).statusCode).toBe(404)
    stats.notRouted++
    return
  }
  const outcome = await executeQuote(devnet, quote, buy.address as Address, trader)
  const fill = { mismatches: 0 }
  expectExactFill(outcome, quote, fill)
  stats.fillMismatches += fill.mismatches
  stats.executed++
  for (const swap of quote.route.swaps.flat()) stats.swapsByProtocol[swap.protocol] = (stats.swapsByProtocol[swap.protocol] ?? 0) + 1
  await activity.recordHead()
  await check()
}
