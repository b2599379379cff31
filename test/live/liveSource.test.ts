// The live source against real Uniswap V2/V3 bytecode on anvil: seeded random third-party
// activity every block (V2 swaps and donations, V3 swaps of every size, mints and burns across
// ranges in and out of the tick window, new pools, pools created uninitialized and initialized
// later), reorgs of depth 1–5 through anvil_rollback (a chain cut shorter answers 503 until the new
// branch arrives), node faults, and quotes executed. After every
// block the live state must equal a fresh read by the families' own readers, bit for bit.
import { type Address, type Hex, createPublicClient, custom, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiveCheckpoint, type LiveSource, type PoolStateBase, type QuoteIntent, QuoteError, createLiveSource, deployExecutor, getQuote } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { getUniswapV2PairAddress, readUniswapV2Pools } from '../../src/protocols/uniswapV2/readPools.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { getUniswapV3PoolAddress, readUniswapV3Pools } from '../../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from '../../src/protocols/uniswapV3/tickMath.js'
import {
  type Anvil,
  DEVNET_GAS,
  type Devnet,
  type DevnetTransaction,
  UNISWAP_V3_FEE_TIERS,
  deployDevnet,
  getLiquidityForUsd,
  getRawPrice,
  getSqrtPriceX96,
  rpc,
  sendDevnetTransactions,
  startAnvil,
  testTokenAbi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
  v3LiquidityProviderAbi,
} from '../devnet/index.js'
import { executeQuote, expectExactFill } from '../support/fill.js'
import { createRandom } from '../support/random.js'

const SEED = 0x13_2026
const BLOCKS = 200
// Every REORG_EVERY blocks the chain drops 1–5 blocks and grows new ones with other activity.
const REORG_EVERY = 20
const QUOTE_EVERY = 25
const BLOCK_GAS_BUDGET = 29_000_000n
const BURN_GAS = 600_000n

/** A position the test minted (owned by the deployer). */
type Position = { pool: Address; tickLower: number; tickUpper: number; liquidity: bigint }
/** What the activity generator remembers, per block, so a reorg can restore it. */
type Book = { positions: Position[]; uninitialized: { address: Address; token0: Address; token1: Address; fee: number }[] }

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let live: LiveSource
/** Fault switch of the live source's transport: `all` fails every request, `logs` only eth_getLogs. */
let fault: 'none' | 'all' | 'logs' = 'none'
const random = createRandom(Number(SEED))
const history = new Map<number, Book>()
let book: Book = { positions: [], uninitialized: [] }
const stats = { blocks: 0, compared: 0, mismatches: 0, reorgs: 0, reorgBlocksDropped: 0, faults: 0, quotes: 0, executed: 0, notRouted: 0, fillMismatches: 0 }
const mismatches: { block: number; detail: string }[] = []

const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))

/** JSON with object keys sorted: equal strings mean equal states, field for field. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  )
}

/** Every V2 and V3 pool among the devnet's tokens, read afresh by the families' readers at `blockNumber`. */
async function freshRead(blockNumber: bigint): Promise<PoolStateBase[]> {
  const tokens = Object.values(devnet.tokens).map((t) => t.address)
  const dexes = (family: string) => chain.dexes.filter((d) => d.family === family)
  const [v2, v3] = await Promise.all([
    readUniswapV2Pools({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: dexes('uniswapV2') }),
    readUniswapV3Pools({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: dexes('uniswapV3') }),
  ])
  return [...v2, ...v3]
}

/**
 * Syncs a live source and compares its whole state with a fresh read at its block (of the pools
 * its tracking policy keeps).
 */
async function syncAndCompare(source: LiveSource = live, keep: (state: PoolStateBase) => boolean = () => true): Promise<void> {
  const block = await source.sync()
  const liquidity = await source.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })
  expect(liquidity.blockNumber).toBe(block)
  expect(liquidity.report.roundTrips).toBe(0)
  const expected = (await freshRead(BigInt(block))).filter(keep)
  const byAddress = (list: PoolStateBase[]) => new Map(list.map((s) => [s.address, canonical(s)]))
  const mine = byAddress(liquidity.pools)
  const theirs = byAddress(expected)
  stats.compared++
  for (const address of new Set([...mine.keys(), ...theirs.keys()])) {
    if (mine.get(address) !== theirs.get(address)) {
      stats.mismatches++
      mismatches.push({ block, detail: `${address}\n live  ${mine.get(address)}\n fresh ${theirs.get(address)}` })
    }
  }
}

const tx = (label: string, to: Address, data: Hex, gas: bigint): DevnetTransaction => ({ label, from: devnet.accounts.deployer, to, data, gas })
const transfer = (token: Address, to: Address, amount: bigint) =>
  tx('transfer', token, encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [to, amount] }), DEVNET_GAS.transfer)
const priced = (address: Address) => Object.values(devnet.tokens).find((t) => t.address === address)!

/** A mint of a position worth `usd` through the provider, recorded in the book once mined. */
function mintTx(pool: Address, token0: Address, token1: Address, price: number, tickLower: number, tickUpper: number, usd: number, minted: Position[]) {
  const liquidity = getLiquidityForUsd({ price, tickLower, tickUpper, usd, token0: priced(token0), token1: priced(token1) })
  if (liquidity <= 0n) return []
  minted.push({ pool, tickLower, tickUpper, liquidity })
  return [
    tx(
      'v3 mint',
      devnet.contracts.v3LiquidityProvider,
      encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'mint', args: [pool, devnet.accounts.deployer, tickLower, tickUpper, liquidity] }),
      DEVNET_GAS.v3Mint,
    ),
  ]
}

/** One block of random third-party activity, planned on the pools as they are now. */
async function planBlock(pools: PoolStateBase[]): Promise<{ txs: DevnetTransaction[]; minted: Position[]; burned: Position[]; created: Book['uninitialized']; initialized: Address[] }> {
  const txs: DevnetTransaction[] = []
  const minted: Position[] = []
  const burned: Position[] = []
  const created: Book['uninitialized'] = []
  const initialized: Address[] = []
  const usedPairs = new Set<Address>()
  let gas = 0n
  const fits = (more: bigint) => gas + more <= BLOCK_GAS_BUDGET
  const v2 = pools.filter((p): p is UniswapV2PoolState => p.family === 'uniswapV2')
  const v3 = pools.filter((p): p is UniswapV3PoolState => p.family === 'uniswapV3')
  const actions = between(1, 5)
  for (let k = 0; k < actions; k++) {
    const roll = random()
    const planned: DevnetTransaction[] = []
    if (roll < 0.35 && v3.length > 0) {
      // A V3 swap moving the price 0.01%–40% (large ones move across bitmap words), stopped at that price.
      // One swap per pool per block: a second one's price limit could already be passed.
      const pool = pick(v3.filter((p) => !usedPairs.has(p.address)))
      if (!pool) continue
      usedPairs.add(pool.address)
      const zeroForOne = random() < 0.5
      const move = random() < 0.15 ? 0.05 + random() * 0.35 : 0.0001 + random() * 0.01
      const sqrtP = Number(pool.sqrtPriceX96) / 2 ** 96
      const liquidity = Number(pool.liquidity)
      const amount = zeroForOne ? (liquidity / sqrtP) * (1 - 1 / Math.sqrt(1 + move)) : liquidity * sqrtP * (Math.sqrt(1 + move) - 1)
      const factor = zeroForOne ? 1 / Math.sqrt(1 + move) : Math.sqrt(1 + move)
      const limit = (BigInt(pool.sqrtPriceX96) * BigInt(Math.round(factor * 1e12))) / 10n ** 12n
      if (liquidity > 0 && limit > MIN_SQRT_RATIO && limit < MAX_SQRT_RATIO) {
        planned.push(
          tx(
            'v3 swap',
            devnet.contracts.v3LiquidityProvider,
            encodeFunctionData({
              abi: v3LiquidityProviderAbi,
              functionName: 'swap',
              args: [pool.address, devnet.accounts.deployer, zeroForOne, BigInt(Math.floor(amount * 2)) + 1000n, limit],
            }),
            DEVNET_GAS.v3Swap,
          ),
        )
      }
    } else if (roll < 0.55 && v3.length > 0) {
      // A V3 mint: around the price, wholly on one side, or far outside the known window.
      const pool = pick(v3)
      const spacing = pool.tickSpacing
      const center = Math.floor(pool.tick / spacing) * spacing
      const shape = random()
      let [lower, upper] =
        shape < 0.6
          ? [center - spacing * between(0, 40), center + spacing * between(1, 40)]
          : shape < 0.85
            ? (() => {
                const start = center + spacing * (random() < 0.5 ? between(1, 30) : -between(2, 60))
                return [start, start + spacing * between(1, 20)]
              })()
            : (() => {
                const start = center + spacing * (random() < 0.5 ? 1 : -1) * between(300, 700) * (spacing === 1 ? 4 : 1)
                return [start, start + spacing * between(1, 50)]
              })()
      lower = Math.max(Math.ceil(MIN_TICK / spacing) * spacing, lower!)
      upper = Math.min(Math.floor(MAX_TICK / spacing) * spacing, upper!)
      if (lower < upper) planned.push(...mintTx(pool.address, pool.token0, pool.token1, (Number(pool.sqrtPriceX96) / 2 ** 96) ** 2, lower, upper, between(500, 50_000), minted))
    } else if (roll < 0.7) {
      // A burn of part or all of a position minted earlier (never twice in one block).
      const open = book.positions.filter((p) => !burned.includes(p))
      if (open.length > 0) {
        const position = pick(open)
        const amount = random() < 0.5 ? position.liquidity : position.liquidity / BigInt(between(2, 5))
        if (amount > 0n) {
          burned.push({ ...position, liquidity: amount })
          planned.push(
            tx('v3 burn', position.pool, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'burn', args: [position.tickLower, position.tickUpper, amount] }), BURN_GAS),
          )
        }
      }
    } else if (roll < 0.85 && v2.length > 0) {
      // A V2 swap (full constant-product output) or a donation followed by sync(); one per pair per block.
      const pair = pick(v2.filter((p) => !usedPairs.has(p.address)))
      if (pair) {
        usedPairs.add(pair.address)
        const zeroIn = random() < 0.5
        const [reserveIn, reserveOut] = zeroIn ? [BigInt(pair.reserve0), BigInt(pair.reserve1)] : [BigInt(pair.reserve1), BigInt(pair.reserve0)]
        const amountIn = (reserveIn * BigInt(between(1, 500))) / 10_000n + 1n
        planned.push(transfer(zeroIn ? pair.token0 : pair.token1, pair.address, amountIn))
        if (random() < 0.8) {
          const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
          planned.push(
            tx(
              'v2 swap',
              pair.address,
              encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'swap', args: [zeroIn ? 0n : amountOut, zeroIn ? amountOut : 0n, devnet.accounts.deployer, '0x'] }),
              DEVNET_GAS.v2Swap,
            ),
          )
        } else planned.push(tx('v2 sync', pair.address, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'sync' }), DEVNET_GAS.v2Swap))
      }
    } else if (roll < 0.9 && book.uninitialized.length > 0) {
      // A pool created earlier without a price gets one, and liquidity.
      const pool = book.uninitialized[0]!
      const price = getRawPrice(priced(pool.token0), priced(pool.token1))
      const spacing = UNISWAP_V3_FEE_TIERS[pool.fee]!
      const tick = Math.round(Math.log(price) / Math.log(1.0001) / spacing) * spacing
      initialized.push(pool.address)
      planned.push(tx('v3 initialize', pool.address, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(price)] }), DEVNET_GAS.initialize))
      planned.push(...mintTx(pool.address, pool.token0, pool.token1, price, tick - 50 * spacing, tick + 50 * spacing, 100_000, minted))
    } else {
      // A new pool between two devnet tokens: a V2 pair with reserves, or a V3 pool (a fifth left uninitialized).
      const symbols = Object.values(devnet.tokens)
      const a = pick(symbols)
      const b = pick(symbols.filter((t) => t.address !== a.address))
      const [token0, token1] = a.address < b.address ? [a, b] : [b, a]
      const existing = new Set([...pools.map((p) => p.address), ...book.uninitialized.map((p) => p.address), ...created.map((p) => p.address)])
      if (random() < 0.4) {
        const dex = chain.dexes.find((d) => d.family === 'uniswapV2')!
        const address = getUniswapV2PairAddress(dex, token0.address, token1.address)
        const code = await anvil.publicClient.getCode({ address })
        if (!existing.has(address) && !code && !usedPairs.has(address)) {
          usedPairs.add(address)
          const usd = between(5_000, 200_000)
          planned.push(
            tx('v2 createPair', devnet.contracts.uniswapV2Factory, encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [token0.address, token1.address] }), DEVNET_GAS.createPair),
            transfer(token0.address, address, BigInt(Math.floor((usd / token0.priceUsd) * 10 ** token0.decimals))),
            transfer(token1.address, address, BigInt(Math.floor((usd / token1.priceUsd) * 10 ** token1.decimals))),
            tx('v2 mint', address, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [devnet.accounts.deployer] }), DEVNET_GAS.v2Mint),
          )
        }
      } else {
        const dex = chain.dexes.find((d) => d.family === 'uniswapV3')!
        const fee = pick(Object.keys(UNISWAP_V3_FEE_TIERS).map(Number))
        const address = getUniswapV3PoolAddress(dex, token0.address, token1.address, fee)
        const code = await anvil.publicClient.getCode({ address })
        if (!existing.has(address) && !code) {
          planned.push(
            tx('v3 createPool', devnet.contracts.uniswapV3Factory, encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'createPool', args: [token0.address, token1.address, fee] }), DEVNET_GAS.createPool),
          )
          if (random() < 0.2) created.push({ address, token0: token0.address, token1: token1.address, fee })
          else {
            const price = getRawPrice(token0, token1)
            const spacing = UNISWAP_V3_FEE_TIERS[fee]!
            const tick = Math.round(Math.log(price) / Math.log(1.0001) / spacing) * spacing
            planned.push(tx('v3 initialize', address, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(price)] }), DEVNET_GAS.initialize))
            planned.push(...mintTx(address, token0.address, token1.address, price, tick - 100 * spacing, tick + 100 * spacing, between(10_000, 300_000), minted))
          }
        }
      }
    }
    const plannedGas = planned.reduce((sum, t) => sum + t.gas, 0n)
    if (!fits(plannedGas)) break
    gas += plannedGas
    txs.push(...planned)
  }
  return { txs, minted, burned, created, initialized }
}

/** The book as it was at block `number` (blocks without activity of the test's own keep the one before). */
function bookAt(number: number): Book {
  for (let n = number; n >= 0; n--) {
    const found = history.get(n)
    if (found) return found
  }
  throw new Error(`no book at or before block ${number}`)
}

/** Mines one block of random activity and updates the book. */
async function mineActivityBlock(): Promise<void> {
  const latest = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
  const pools = await freshRead(latest)
  const plan = await planBlock(pools)
  if (plan.txs.length > 0) await sendDevnetTransactions(anvil.rpcUrl, plan.txs)
  else await rpc(anvil.rpcUrl, 'evm_mine', [])
  const remaining = book.positions.flatMap((p) => {
    const burn = plan.burned.find((b) => b.pool === p.pool && b.tickLower === p.tickLower && b.tickUpper === p.tickUpper && b.liquidity <= p.liquidity)
    if (!burn) return [p]
    const left = p.liquidity - burn.liquidity
    return left > 0n ? [{ ...p, liquidity: left }] : []
  })
  book = {
    positions: [...remaining, ...plan.minted],
    uninitialized: [...book.uninitialized.filter((p) => !plan.initialized.includes(p.address)), ...plan.created],
  }
  history.set(Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 })), book)
  stats.blocks++
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
  history.set(Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 })), book)
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
        const head = Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
        await rpc(anvil.rpcUrl, 'anvil_rollback', [depth])
        book = bookAt(head - depth)
        stats.reorgs++
        stats.reorgBlocksDropped += depth
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
    const head = Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
    const depth = 4
    await rpc(anvil.rpcUrl, 'anvil_rollback', [depth])
    book = bookAt(head - depth)
    stats.reorgs++
    stats.reorgBlocksDropped += depth
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
  history.set(Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 })), book)
  await syncAndCompare()
}
