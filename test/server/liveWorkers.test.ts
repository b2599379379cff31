// What it costs quote workers to get a live source's state, measured: the liquidity relay
// (liquidityRelay.ts: each worker is sent only the pool states it does not hold, and keeps them)
// against copying the whole answer to the worker for every quote. The source here behaves as the
// live source does: the same state objects for every quote of a block, new objects only for the
// pools a block changed. Its pools are the embedded Base snapshot's, plus replicas of them on
// tokens of their own (disconnected from the quoted pair: the route is the same, every pool is
// still handed to getQuote and built).
import { afterAll, describe, expect, test } from 'vitest'
import { type Liquidity, type LiquiditySource, type PoolStateBase, type Quote, base, resolveChains } from '../../src/index.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { type QuotePool, createQuotePool } from '../../examples/server/createQuotePool.js'

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
const pools: QuotePool[] = []
afterAll(async () => {
  for (const pool of pools) await pool.close()
})

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

async function measure(size: number, transfer: 'relay' | 'copy') {
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
  pools.push(pool)
  await pool.ready
  const walls: number[] = []
  const computes: number[] = []
  const bodies: Quote[] = []
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
  await pool.close()
  pools.splice(pools.indexOf(pool), 1)
  return { wallMs: median(walls), computeMs: median(computes), quote: bodies.at(-1)! }
}

describe('quote workers on a live-like source: relay against copy', () => {
  test('same quotes; the relay is cheaper per quote as pools grow', async () => {
    const rows: string[] = []
    for (const size of [48, 2_000]) {
      const copy = await measure(size, 'copy')
      const relay = await measure(size, 'relay')
      const { id: _a, transaction: _b, gasEstimate: _c, ...copied } = copy.quote
      const { id: _d, transaction: _e, gasEstimate: _f, ...relayed } = relay.quote
      expect(relayed).toEqual(copied)
      rows.push(`${size} pools: copy p50 ${copy.wallMs.toFixed(1)} ms (worker ${copy.computeMs.toFixed(1)}), relay p50 ${relay.wallMs.toFixed(1)} ms (worker ${relay.computeMs.toFixed(1)})`)
      if (size >= 2_000) expect(relay.wallMs).toBeLessThan(copy.wallMs)
    }
    console.log(rows.join('\n'))
  }, 120_000)
})
