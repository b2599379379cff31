// The live source's per-block update cost against the number of pools a block changes, on a
// local anvil with 105 real Uniswap V2/V3 pools. Runnable alone: `npx tsx scripts/bench/live.ts`.
// For each size, blocks of swaps on that many distinct pools are mined, then `live.sync()` is
// timed (wall, round trips included) next to the in-memory part alone (`stats().lastBlock.applyMs`:
// applying the logs and committing the block, reads excluded) and the JSON-RPC requests sent.
import { performance } from 'node:perf_hooks'
import { type Address, createPublicClient, custom, encodeFunctionData } from 'viem'
import { createLiveSource } from '../../src/liquidity/live/createLiveSource.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { readUniswapV2Pools } from '../../src/protocols/uniswapV2/readPools.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { readUniswapV3Pools } from '../../src/protocols/uniswapV3/readPools.js'
import { startAnvil } from '../../test/devnet/anvil.js'
import { testTokenAbi, uniswapV2PairAbi, v3LiquidityProviderAbi } from '../../test/devnet/abis.js'
import { deployDevnet } from '../../test/devnet/deployDevnet.js'
import { type DevnetTransaction, rpc, sendDevnetTransactions } from '../../test/devnet/rpc.js'
import { getBenchDevnetPools } from './rpc.js'
import { formatMs, percentile, printTable } from './stats.js'

const POOLS = 105
const SIZES = [1, 10, 25, 50, 105] as const
const BLOCKS_PER_SIZE = 5
// Enough block gas for a swap on every pool in one block.
const BLOCK_GAS_LIMIT = '1000000000'
const GAS = { transfer: 100_000n, v2Swap: 200_000n, v3Swap: 600_000n } as const

/** One row of the report: a block size and what syncing such blocks cost. */
export type LiveBenchRow = { poolsChanged: number; blocks: number; syncP50: number; applyP50: number; applyMax: number; requestsPerBlock: number; readsPerBlock: number }

/**
 * Runs the bench and returns its rows (also printed).
 *
 * @example
 * const rows = await runLiveBench()
 */
export async function runLiveBench(): Promise<LiveBenchRow[]> {
  const anvil = await startAnvil({ args: ['--gas-limit', BLOCK_GAS_LIMIT] })
  try {
    const devnet = await deployDevnet(anvil, { pools: getBenchDevnetPools(POOLS) })
    const deployer = devnet.accounts.deployer
    let requests = 0
    const client = createPublicClient({
      transport: custom({
        request: async ({ method, params }) => {
          requests++
          return rpc(anvil.rpcUrl, method, params as unknown[])
        },
      }),
    })
    const live = createLiveSource({ client, chain: devnet.chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
    await live.sync()

    const tokens = Object.values(devnet.tokens).map((t) => t.address)
    const readAll = async () => {
      const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
      const dexes = (family: string) => devnet.chain.dexes.filter((d) => d.family === family)
      const [v2, v3] = await Promise.all([
        readUniswapV2Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens, dexes: dexes('uniswapV2') }),
        readUniswapV3Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens, dexes: dexes('uniswapV3') }),
      ])
      return { v2, v3 }
    }
    /** A tiny swap on each of `count` pools (V2: 0.01% of a reserve; V3: exact-in 1e-6 of liquidity, within its range). */
    const swapBlock = async (count: number, zeroForOne: boolean) => {
      const { v2, v3 } = await readAll()
      const txs: DevnetTransaction[] = []
      for (const pair of v2.slice(0, count)) {
        const [reserveIn, reserveOut] = zeroForOne ? [BigInt(pair.reserve0), BigInt(pair.reserve1)] : [BigInt(pair.reserve1), BigInt(pair.reserve0)]
        const amountIn = reserveIn / 10_000n + 1n
        const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
        txs.push(
          { label: 'transfer', from: deployer, to: zeroForOne ? pair.token0 : pair.token1, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pair.address, amountIn] }), gas: GAS.transfer },
          {
            label: 'v2 swap',
            from: deployer,
            to: pair.address,
            data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'swap', args: [zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, deployer, '0x'] }),
            gas: GAS.v2Swap,
          },
        )
      }
      for (const pool of v3.slice(0, Math.max(0, count - v2.length))) {
        // About a 0.01% price move, stopped at 1% in any case.
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
    }

    // Warm-up: a swap each way on every pool, so no fee-growth slot is fresh (those swaps re-read).
    for (const direction of [true, false]) {
      await swapBlock(POOLS, direction)
      await live.sync()
    }

    const rows: LiveBenchRow[] = []
    for (const size of SIZES) {
      const sync: number[] = []
      const apply: number[] = []
      let sent = 0
      let reads = 0
      for (let b = 0; b < BLOCKS_PER_SIZE; b++) {
        await swapBlock(size, b % 2 === 0)
        const before = requests
        const started = performance.now()
        await live.sync()
        sync.push(performance.now() - started)
        sent += requests - before
        const last = live.stats().lastBlock!
        if (last.poolsChanged !== size) throw new Error(`expected ${size} pools changed, the block changed ${last.poolsChanged}`)
        apply.push(last.applyMs)
        reads += last.reads
      }
      rows.push({
        poolsChanged: size,
        blocks: BLOCKS_PER_SIZE,
        syncP50: percentile(sync, 50),
        applyP50: percentile(apply, 50),
        applyMax: Math.max(...apply),
        requestsPerBlock: sent / BLOCKS_PER_SIZE,
        readsPerBlock: reads / BLOCKS_PER_SIZE,
      })
    }
    printTable(
      ['pools changed', 'blocks', 'sync p50 (wall)', 'apply p50 (memory)', 'apply max', 'requests/block', 'pool reads/block'],
      rows.map((r) => [String(r.poolsChanged), String(r.blocks), formatMs(r.syncP50), formatMs(r.applyP50), formatMs(r.applyMax), r.requestsPerBlock.toFixed(1), r.readsPerBlock.toFixed(1)]),
    )
    return rows
  } finally {
    await anvil.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLiveBench()
