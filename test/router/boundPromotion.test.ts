// The bound's descent indexed every edge list it was given in a module-level WeakMap, and so did
// its layered copy: the certificate's edges and a scope's sampled edges are made afresh for each
// quote, so each quote added entries that lived until a GC found their list dead. Each scavenge
// then promoted them to the old generation: 76 kB per scavenge at 10 pools (100 pools: 29 kB),
// which filled the old generation for mark-compacts that a quote then paid. Only the lists kept
// with a scope are indexed now: 11-12 kB (100 pools: 2 kB) per scavenge.
import { GCProfiler } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import { getQuote } from '../../src/quote/getQuote.js'

const SIZES = [1e-4, 1e-3, 1e-2, 0.1, 0.3]
/** Quotes before measuring (code warm, caches filled) and measured. */
const WARM_QUOTES = 800
const MEASURED_QUOTES = 1200
/** What a scavenge may promote on average, kB: 11-12 now, 76 with per-quote cache entries. */
const MOST_PROMOTED_KB = 35

describe('the bound keeps no per-quote edge lists', () => {
  it('leaves little for each scavenge to promote on warm 10-pool quotes (certificate included)', async () => {
    const universe = createHardUniverse(10, 1)
    const source = createSnapshotSource(universe.market.snapshot)
    const trades = universe.trades.flatMap((trade) => SIZES.map((share) => ({ trade, amountIn: (trade.depthIn * BigInt(Math.round(share * 1e9))) / 10n ** 9n })))
    let certified = 0
    const quote = async (i: number) => {
      const { trade, amountIn } = trades[i % trades.length]!
      await getQuote(
        { chainId: universe.market.chain.id, sellToken: trade.tokenIn.address, buyToken: trade.tokenOut.address, sellAmount: amountIn, priceImpactLimitBps: 10_000 },
        source,
        { chains: [universe.market.chain], maxHops: 4, onDetails: (details) => (certified += details.certificate ? 1 : 0) },
      )
    }
    for (let i = 0; i < WARM_QUOTES; i++) await quote(i)
    const profiler = new GCProfiler()
    profiler.start()
    for (let i = 0; i < MEASURED_QUOTES; i++) await quote(i)
    const { statistics } = profiler.stop()!
    const oldSpace = (heap: (typeof statistics)[number]['beforeGC']) => heap.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0
    const scavenges = statistics.filter((gc) => gc.gcType === 'Scavenge')
    const promoted = scavenges.reduce((sum, gc) => sum + oldSpace(gc.afterGC) - oldSpace(gc.beforeGC), 0)
    expect(certified).toBe(WARM_QUOTES + MEASURED_QUOTES)
    expect(scavenges.length).toBeGreaterThan(4)
    expect(promoted / scavenges.length / 1024).toBeLessThan(MOST_PROMOTED_KB)
  }, 60_000)
})
