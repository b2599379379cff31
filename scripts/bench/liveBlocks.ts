// The live source's per-block update cost against the number of pools a block changes (1, 10,
// 100, 1,000), on anvil with 1,105 real pools: the bench devnet's 105 (21 V2, 84 V3) and 1,000
// more V2 pairs. Each block swaps on exactly N distinct pools (half V3 up to 84, the rest V2),
// then `live.sync()` is timed (wall, round trips included) next to its in-memory part
// (`stats().lastBlock.applyMs`: applying the logs and committing the block), with the HTTP
// requests and JSON-RPC calls it sent. Target: ≤ 1 ms of in-memory work per 100 pools changed.
// Runnable alone: `npm run bench:live -- blocks`.
import { performance } from 'node:perf_hooks'
import { type Address, encodeFunctionData } from 'viem'
import { createLiveSource } from '../../src/liquidity/live/createLiveSource.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { readUniswapV2Pools } from '../../src/protocols/uniswapV2/readPools.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { readUniswapV3Pools } from '../../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { type DevnetTransaction, deployDevnet, sendDevnetTransactions, startAnvil, testTokenAbi, uniswapV2PairAbi, v3LiquidityProviderAbi } from '../../test/devnet/index.js'
import { LIVE_BENCH_BLOCK_GAS_LIMIT, createCountingClient, deployManyV2Pairs } from './liveDevnet.js'
import { getBenchDevnetPools } from './rpc.js'
import { formatMs, percentile, printTable } from './stats.js'

const BENCH_POOLS = 105
const EXTRA_V2_PAIRS = 1_000
const SIZES = [1, 10, 100, 1_000] as const
const BLOCKS_PER_SIZE = 5
const RESERVES_PER_CALL = 100
/** The target: in-memory work per block ≤ 1 ms per 100 pools changed (a block of fewer counts as 100). */
const TARGET_MS_PER_100 = 1
const GAS = { mint: 100_000n, transfer: 100_000n, v2Swap: 200_000n, v3Swap: 600_000n } as const

/** One row of the report: a block size and what syncing such blocks cost. */
export type LiveBlocksRow = {
  poolsChanged: number
  v2: number
  v3: number
  blocks: number
  syncP50: number
  applyP50: number
  /** The fastest block: the least disturbed by other jobs on a shared machine. */
  applyMin: number
  applyMax: number
  budgetMs: number
  met: boolean
  httpPerBlock: number
  callsPerBlock: number
  readsPerBlock: number
}

/**
 * Runs the per-block section and returns its rows (also printed).
 *
 * @example
 * const rows = await runLiveBlocksBench()
 */
export async function runLiveBlocksBench(): Promise<LiveBlocksRow[]> {
  const anvil = await startAnvil({ args: ['--gas-limit', LIVE_BENCH_BLOCK_GAS_LIMIT] })
  try {
    const devnet = await deployDevnet(anvil, { pools: getBenchDevnetPools(BENCH_POOLS), traders: 0 })
    const extra = await deployManyV2Pairs(anvil, devnet, EXTRA_V2_PAIRS)
    const deployer = devnet.accounts.deployer
    const counting = createCountingClient(anvil.rpcUrl)
    const live = createLiveSource({ client: counting.client, chain: devnet.chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
    await live.sync()
    const devnetTokens = new Set<string>(Object.values(devnet.tokens).map((t) => t.address))

    /**
     * The extra pairs' reserves, by address (readUniswapV2Pools asks for every pair among its
     * tokens in one deployless call, too big for 46 tokens), 100 pairs per call (deployless code is capped at 49,152 bytes).
     */
    const readExtraReserves = async (blockNumber: bigint): Promise<Pick<UniswapV2PoolState, 'address' | 'token0' | 'token1' | 'reserve0' | 'reserve1'>[]> => {
      const states = []
      for (let start = 0; start < extra.pairs.length; start += RESERVES_PER_CALL) {
        const pairs = extra.pairs.slice(start, start + RESERVES_PER_CALL)
        const results = await anvil.publicClient.multicall({
          contracts: pairs.map((pair) => ({ address: pair.address, abi: uniswapV2PairAbi, functionName: 'getReserves' as const })),
          allowFailure: false,
          blockNumber,
          deployless: true,
        })
        states.push(...pairs.map((pair, index) => ({ ...pair, reserve0: results[index]![0].toString(), reserve1: results[index]![1].toString() })))
      }
      return states
    }
    /** Every pool's state at the head (to size the swaps). */
    const readAll = async () => {
      const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
      const dexes = (family: string) => devnet.chain.dexes.filter((d) => d.family === family)
      const [benchV2, extraV2, v3] = await Promise.all([
        readUniswapV2Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens: [...devnetTokens] as Address[], dexes: dexes('uniswapV2') }),
        readExtraReserves(blockNumber),
        readUniswapV3Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens: [...devnetTokens] as Address[], dexes: dexes('uniswapV3') }),
      ])
      return { v2: [...benchV2, ...extraV2], v3: v3 as UniswapV3PoolState[] }
    }
    const split = (count: number, v3Available: number) => {
      const v3 = Math.min(v3Available, Math.floor(count / 2))
      return { v2: count - v3, v3 }
    }
    /** A small swap on each of `count` pools (V2: 0.01% of a reserve; V3: ~0.01% price move, stopped at 0.5%). */
    const swapBlock = async (count: number, zeroForOne: boolean) => {
      const { v2, v3 } = await readAll()
      const shares = split(count, v3.length)
      const txs: DevnetTransaction[] = []
      for (const pair of v2.slice(0, shares.v2)) {
        const [reserveIn, reserveOut] = zeroForOne ? [BigInt(pair.reserve0), BigInt(pair.reserve1)] : [BigInt(pair.reserve1), BigInt(pair.reserve0)]
        const tokenIn = zeroForOne ? pair.token0 : pair.token1
        const amountIn = reserveIn / 10_000n + 1n
        const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
        // The deployer holds the devnet's tokens (WETH cannot be minted); the bench tokens are minted to the pair.
        txs.push(
          devnetTokens.has(tokenIn)
            ? { label: 'transfer', from: deployer, to: tokenIn, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pair.address, amountIn] }), gas: GAS.transfer }
            : { label: 'mint', from: deployer, to: tokenIn, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [pair.address, amountIn] }), gas: GAS.mint },
          {
            label: 'v2 swap',
            from: deployer,
            to: pair.address,
            data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'swap', args: [zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, deployer, '0x'] }),
            gas: GAS.v2Swap,
          },
        )
      }
      for (const pool of v3.slice(0, shares.v3)) {
        const sqrtPrice = Number(pool.sqrtPriceX96) / 2 ** 96
        const liquidity = Number(pool.liquidity)
        const amountIn = BigInt(Math.floor((zeroForOne ? liquidity / sqrtPrice : liquidity * sqrtPrice) * 5e-5)) + 1000n
        const limit = (BigInt(pool.sqrtPriceX96) * (zeroForOne ? 995n : 1005n)) / 1000n
        txs.push({
          label: 'v3 swap',
          from: deployer,
          to: devnet.contracts.v3LiquidityProvider,
          data: encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'swap', args: [pool.address as Address, deployer, zeroForOne, amountIn, limit] }),
          gas: GAS.v3Swap,
        })
      }
      await sendDevnetTransactions(anvil.rpcUrl, txs)
      return shares
    }

    // Warm-up: a swap each way on every pool, so no fee-growth slot or price accumulator is still
    // zero (those first swaps are re-read, not applied: see the guide).
    const everyPool = BENCH_POOLS + EXTRA_V2_PAIRS
    for (const direction of [true, false]) {
      await swapBlock(everyPool, direction)
      await live.sync()
    }

    const rows: LiveBlocksRow[] = []
    for (const size of SIZES) {
      const sync: number[] = []
      const apply: number[] = []
      let http = 0
      let calls = 0
      let reads = 0
      let shares = { v2: 0, v3: 0 }
      for (let block = 0; block < BLOCKS_PER_SIZE; block++) {
        shares = await swapBlock(size, block % 2 === 0)
        counting.reset()
        const started = performance.now()
        await live.sync()
        sync.push(performance.now() - started)
        http += counting.counts().httpRequests
        calls += counting.counts().rpcCalls
        const last = live.stats().lastBlock!
        if (last.poolsChanged !== size) throw new Error(`expected ${size} pools changed (${shares.v2} V2 + ${shares.v3} V3), the block changed ${last.poolsChanged}`)
        apply.push(last.applyMs)
        reads += last.reads
      }
      const applyP50 = percentile(apply, 50)
      const budgetMs = TARGET_MS_PER_100 * Math.max(1, size / 100)
      rows.push({
        poolsChanged: size,
        ...shares,
        blocks: BLOCKS_PER_SIZE,
        syncP50: percentile(sync, 50),
        applyP50,
        applyMin: Math.min(...apply),
        applyMax: Math.max(...apply),
        budgetMs,
        met: applyP50 <= budgetMs,
        httpPerBlock: http / BLOCKS_PER_SIZE,
        callsPerBlock: calls / BLOCKS_PER_SIZE,
        readsPerBlock: reads / BLOCKS_PER_SIZE,
      })
    }
    console.log(`  verdict on apply p50 (wall time: on a loaded machine it includes time the process waited for a core; 'apply min' is the least disturbed block)`)
    console.log(`  ${everyPool} pools tracked (${BENCH_POOLS} bench pools: 21 V2, 84 V3; ${EXTRA_V2_PAIRS} more V2 pairs); ${BLOCKS_PER_SIZE} blocks per row`)
    printTable(
      ['pools changed', 'V2 + V3', 'sync p50 (wall)', 'apply p50 (memory)', 'apply min', 'apply max', 'per 100 pools', 'target', 'verdict', 'HTTP requests/block', 'JSON-RPC calls/block', 'pool reads/block'],
      rows.map((row) => [
        String(row.poolsChanged),
        `${row.v2} + ${row.v3}`,
        formatMs(row.syncP50),
        formatMs(row.applyP50),
        formatMs(row.applyMin),
        formatMs(row.applyMax),
        formatMs((row.applyP50 * 100) / row.poolsChanged),
        `≤ ${formatMs(row.budgetMs)}`,
        row.met ? 'MET' : 'MISSED',
        row.httpPerBlock.toFixed(1),
        row.callsPerBlock.toFixed(1),
        row.readsPerBlock.toFixed(1),
      ]),
    )
    const small = rows[0]
    const large = rows.at(-1)
    if (small && large) console.log(`  ratio ${large.poolsChanged / small.poolsChanged}x pools changed: ${(large.applyP50 / small.applyP50).toFixed(1)}x in-memory time, ${(large.syncP50 / small.syncP50).toFixed(1)}x sync wall time`)
    return rows
  } finally {
    await anvil.stop()
  }
}
