// `npm run bench -- workers`: what it costs quote workers to get a live source's state, measured:
// the liquidity relay (examples/server/liquidityRelay.ts: each worker is sent only the pool states it
// does not hold, and keeps them) against copying the whole answer to the worker for every quote. The
// source behaves as the live source does: the same state objects for every quote of a block, new
// objects only for the pools a block changed. Its pools are the embedded Base snapshot's, plus
// replicas of them on tokens of their own (disconnected from the quoted pair: the route is the same,
// every pool is still handed to getQuote and built). test/server/liveWorkers.test.ts checks that both
// ways give the same quotes; the time is a figure here, never an assertion.
import { performance } from 'node:perf_hooks'
import { type Liquidity, type LiquiditySource, type PoolStateBase, type Quote, base, resolveChains } from '../../src/index.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { createQuotePool } from '../../examples/server/createQuotePool.js'
import { printTable } from './stats.js'

const snapshot = defaultSnapshot.find((s) => s.chainId === base.id)!
/** Families whose states take any token pair (V4 pool ids and the Balancer vault are tied to their tokens). */
const replicable = new Set(['uniswapV2', 'uniswapV3', 'pancakeV3', 'slipstream', 'aerodromeV2'])
const rankOf = new Map<string, number>([...snapshot.tokens].map((t) => t.address).sort().map((address, rank) => [address, rank]))
const hex40 = (value: bigint) => `0x${value.toString(16).padStart(40, '0')}`

/** Copy `replica` of the snapshot's pools: tokens and pool addresses of its own, token order kept. */
function replicate(replica: number): PoolStateBase[] {
  const prefix = BigInt(replica + 1) << 32n
  return snapshot.pools
    .filter((pool) => replicable.has(pool.family))
    .map((pool, index) =>
      JSON.parse(
        JSON.stringify(pool).replace(/0x[0-9a-f]{40}/g, (address) =>
          address === pool.address ? hex40(prefix + 0xdead0000n + BigInt(index)) : rankOf.has(address) ? hex40(prefix + BigInt(rankOf.get(address)!)) : address,
        ),
      ) as PoolStateBase,
    )
}

/** A source like the live one: `pools` at `block`; `nextBlock` replaces `changed` states with new objects. */
function createBlockSource(size: number) {
  let pools: PoolStateBase[] = [...snapshot.pools]
  for (let replica = 0; pools.length < size; replica++) pools.push(...replicate(replica))
  pools = pools.slice(0, size)
  let block = 1
  const source: LiquiditySource = {
    async getLiquidity(): Promise<Liquidity> {
      return { chainId: base.id, blockNumber: block, tokens: [...snapshot.tokens], pools: [...pools], report: { roundTrips: 0, requests: 0, skipped: [] } }
    },
  }
  return {
    source,
    nextBlock(changed: number) {
      block++
      // Fresh copies of the last `changed` pools (never the quoted pair's: the quote stays the same).
      pools = pools.map((pool, index) => (index >= pools.length - changed ? { ...pool } : pool))
    },
  }
}

const intent = { chainId: base.id, sellToken: base.wrappedNative.address, buyToken: base.tokens.find((t) => t.symbol === 'USDC')!.address, sellAmount: 10n ** 18n }
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/** Median wall and worker times of 18 warm quotes of `intent` over `size` pools, with `transfer`; and the last quote. */
export async function measureWorkerTransfer(size: number, transfer: 'relay' | 'copy'): Promise<{ wallMs: number; computeMs: number; quote: Quote }> {
  const { source, nextBlock } = createBlockSource(size)
  const pool = createQuotePool({
    workers: 2,
    budgetMs: 20_000,
    maxQueue: 64,
    maxHeavyQueue: 8,
    maxQueueWaitMs: 20_000,
    heavyQuoteMs: 10_000,
    chains: resolveChains(),
    snapshots: null,
    source,
    transfer,
  })
  const walls: number[] = []
  const computes: number[] = []
  const bodies: Quote[] = []
  try {
    await pool.ready
    // 4 blocks of 6 quotes, 1% of the pools changed per block; the first quote of each worker is cold.
    for (let blockIndex = 0; blockIndex < 4; blockIndex++) {
      for (let quoteIndex = 0; quoteIndex < 6; quoteIndex++) {
        const started = performance.now()
        const { body, computeMs } = await pool.quote({ intent, apps: {}, callerKey: 'measure' })
        if (blockIndex > 0 || quoteIndex > 1) {
          walls.push(performance.now() - started)
          computes.push(computeMs)
        }
        bodies.push(JSON.parse(body) as Quote)
      }
      nextBlock(Math.ceil(size / 100))
    }
  } finally {
    await pool.close()
  }
  return { wallMs: median(walls), computeMs: median(computes), quote: bodies.at(-1)! }
}

/** Prints relay against copy at 48 and 2,000 pools: median wall and worker time per quote, and their ratio. */
export async function runWorkerTransferBench(): Promise<void> {
  console.log('\nQuote workers on a live-like source: relay against copy (2 workers, 18 warm quotes each, WETH->USDC on Base)')
  const rows: string[][] = []
  for (const size of [48, 2_000]) {
    const copy = await measureWorkerTransfer(size, 'copy')
    const relay = await measureWorkerTransfer(size, 'relay')
    rows.push([`${size}`, copy.wallMs.toFixed(1), copy.computeMs.toFixed(1), relay.wallMs.toFixed(1), relay.computeMs.toFixed(1), (relay.wallMs / copy.wallMs).toFixed(2)])
  }
  printTable(['pools', 'copy p50 ms', 'copy worker ms', 'relay p50 ms', 'relay worker ms', 'relay / copy'], rows)
}
