// The router-hard latency loop taken apart: the same trades as `npm run bench -- router-hard`'s
// measureLatency (each planned trade of each universe at every size, getQuote at one hop limit,
// chain default gas price), each timed on its own over several rounds, so the slow quotes are
// named instead of hidden in a percentile. Also writes every quote (field by field, as JSON) so two
// versions of the router can be compared for identical results.
//   npx tsx scripts/bench/latencyProfile.ts time [pools=10,100] [rounds=5] [maxHops=4]
//     (BENCH_PROFILE=<prefix>: a CPU profile of the timed rounds, <prefix>.<pools>.cpuprofile)
//   npx tsx scripts/bench/latencyProfile.ts dump <file> [pools=10,100] [maxHops=4]
//   npx tsx scripts/bench/latencyProfile.ts compare <before> <after>
//   npx tsx scripts/bench/latencyProfile.ts repeat <pools> <seed> <trade> <size> [times=200] [maxHops=4]
//     (one quote over and over: run under `node --cpu-prof --import tsx` and read the profile with
//      scripts/bench/cpuProfileSummary.ts)
import { readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import type { LiquiditySource } from '../../src/liquidity/types.js'
import { type GetQuoteOptions, getQuote } from '../../src/quote/getQuote.js'
import { type HardUniverse, createHardUniverse } from './hardMarket.js'
import { percentile } from './stats.js'

/** The bench's plan and sizes (routerHard.ts FULL_PLAN, SIZES). */
const SEEDS: Record<number, number[]> = { 10: [1, 2, 3, 4, 5, 6, 7, 8], 100: [1, 2, 3, 4], 1000: [1, 2] }
const SIZES = [1e-4, 1e-3, 1e-2, 0.1, 0.3]
const QUOTE_ID = '01930000-0000-7000-8000-0000000000aa'
/** A fixed clock: the deadline in the calldata must not differ between two runs. */
const NOW = () => 1_800_000_000_000

/**
 * Milliseconds of this process's CPU (BENCH_CLOCK=cpu, the default: the machine is shared, and time
 * spent waiting for a core is not the router's) or of the wall clock (BENCH_CLOCK=wall).
 */
const clock = process.env.BENCH_CLOCK === 'wall' ? () => performance.now() : () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

type Trade = { label: string; universe: HardUniverse; source: LiquiditySource; trade: HardUniverse['trades'][number]; amountIn: bigint }

function tradesOf(pools: number): Trade[] {
  const trades: Trade[] = []
  for (const seed of SEEDS[pools] ?? [1]) {
    const universe = createHardUniverse(pools, seed)
    const source = createSnapshotSource(universe.market.snapshot)
    universe.trades.forEach((trade, index) => {
      for (const size of SIZES)
        trades.push({ label: `${pools}p s${seed} t${index} ${trade.label} ${size * 100}%`, universe, source, trade, amountIn: (trade.depthIn * BigInt(Math.round(size * 1e9))) / 10n ** 9n })
    })
  }
  return trades
}

const quoteOf = (t: Trade, maxHops: number, extra: GetQuoteOptions = {}) =>
  getQuote(
    { chainId: t.universe.market.chain.id, sellToken: t.trade.tokenIn.address, buyToken: t.trade.tokenOut.address, sellAmount: t.amountIn, priceImpactLimitBps: 10_000 },
    t.source,
    { chains: [t.universe.market.chain], maxHops, id: QUOTE_ID, now: NOW, ...extra },
  )

const run = (t: Trade, maxHops: number) => quoteOf(t, maxHops).catch(() => undefined)

async function time(poolsList: number[], rounds: number, maxHops: number) {
  for (const pools of poolsList) {
    // BENCH_TRADES=<text>: only the trades whose label holds it.
    const trades = tradesOf(pools).filter((t) => !process.env.BENCH_TRADES || t.label.includes(process.env.BENCH_TRADES))
    for (const t of trades) await run(t, maxHops)
    // BENCH_PROFILE=<file>: a CPU profile of the timed rounds only (not the universes' build nor the warm-up).
    const session = process.env.BENCH_PROFILE ? new Session() : undefined
    if (session) {
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.start')
    }
    const perTrade = trades.map(() => [] as number[])
    const all: number[] = []
    for (let round = 0; round < rounds; round++)
      for (let i = 0; i < trades.length; i++) {
        const started = clock()
        await run(trades[i]!, maxHops)
        const ms = clock() - started
        perTrade[i]!.push(ms)
        all.push(ms)
      }
    if (session) {
      const { profile } = await session.post('Profiler.stop')
      writeFileSync(`${process.env.BENCH_PROFILE}.${pools}.cpuprofile`, JSON.stringify(profile))
      session.disconnect()
    }
    console.log(`${pools} pools, maxHops ${maxHops}: ${all.length} quotes, p50 ${percentile(all, 50).toFixed(3)} p90 ${percentile(all, 90).toFixed(3)} p99 ${percentile(all, 99).toFixed(3)} max ${Math.max(...all).toFixed(3)} ms, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
    // Ranked by each trade's fastest round: on a shared machine the least disturbed figure.
    const ranked = trades.map((t, i) => ({ label: t.label, min: Math.min(...perTrade[i]!), median: percentile(perTrade[i]!, 50), max: Math.max(...perTrade[i]!) })).sort((a, b) => b.min - a.min)
    console.log(`  per-trade fastest rounds: sum ${ranked.reduce((sum, r) => sum + r.min, 0).toFixed(2)} ms, p50 ${percentile(ranked.map((r) => r.min), 50).toFixed(3)}, p99 ${percentile(ranked.map((r) => r.min), 99).toFixed(3)}`)
    for (const r of ranked.slice(0, 15)) console.log(`  ${r.label.padEnd(40)} min ${r.min.toFixed(3)} median ${r.median.toFixed(3)} max ${r.max.toFixed(3)}`)
    const slow = ranked.filter((r) => r.min > (pools <= 10 ? 1 : 5)).length
    console.log(`  ${slow} of ${trades.length} trades above the target in their fastest round`)
  }
}

const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))

async function dump(file: string, poolsList: number[], maxHops: number) {
  const lines: string[] = []
  for (const pools of poolsList)
    for (const t of tradesOf(pools)) {
      let certificate: unknown
      let execution: unknown
      try {
        const quote = await quoteOf(t, maxHops, {
          onDetails: (details) => {
            const c = details.certificate
            // The certificate's lazy all-pools figures are read too: they are part of the result.
            certificate = c && { ...c, allPoolsUpperBound: c.allPoolsUpperBound, allPoolsGapBps: c.allPoolsGapBps, allPools: c.allPools }
            execution = details.execution
          },
        })
        lines.push(json({ trade: t.label, quote, certificate, execution }))
      } catch (error) {
        lines.push(json({ trade: t.label, error: String(error) }))
      }
    }
  writeFileSync(file, `${lines.join('\n')}\n`)
  console.log(`${lines.length} quotes written to ${file}`)
}

function compare(beforeFile: string, afterFile: string) {
  const before = readFileSync(beforeFile, 'utf8').trim().split('\n')
  const after = readFileSync(afterFile, 'utf8').trim().split('\n')
  if (before.length !== after.length) throw new Error(`${before.length} vs ${after.length} quotes`)
  let differing = 0
  for (let i = 0; i < before.length; i++) {
    if (before[i] === after[i]) continue
    differing++
    const [b, a] = [JSON.parse(before[i]!), JSON.parse(after[i]!)]
    const fields = (x: Record<string, unknown>, y: Record<string, unknown>, prefix: string): string[] =>
      [...new Set([...Object.keys(x ?? {}), ...Object.keys(y ?? {})])].flatMap((k) => {
        const [u, v] = [x?.[k], y?.[k]]
        if (JSON.stringify(u) === JSON.stringify(v)) return []
        if (u && v && typeof u === 'object' && typeof v === 'object') return fields(u as Record<string, unknown>, v as Record<string, unknown>, `${prefix}${k}.`)
        return [`${prefix}${k}: ${JSON.stringify(u)?.slice(0, 80)} -> ${JSON.stringify(v)?.slice(0, 80)}`]
      })
    console.log(`${b.trade}:\n  ${fields(b, a, '').slice(0, 12).join('\n  ')}`)
  }
  console.log(`${differing} of ${before.length} quotes differ`)
}

async function repeat(pools: number, seed: number, tradeIndex: number, size: number, times: number, maxHops: number) {
  const t = tradesOf(pools).find((x) => x.label.startsWith(`${pools}p s${seed} t${tradeIndex} `) && x.label.endsWith(` ${size * 100}%`))
  if (!t) throw new Error('no such trade')
  const samples: number[] = []
  for (let i = 0; i < times; i++) {
    const started = clock()
    await run(t, maxHops)
    samples.push(clock() - started)
  }
  console.log(`${t.label}: p50 ${percentile(samples, 50).toFixed(3)} min ${Math.min(...samples).toFixed(3)} ms`)
}

const [mode, ...args] = process.argv.slice(2)
const poolsArg = (text: string | undefined) => (text ?? '10,100').split(',').map(Number)
if (mode === 'time') await time(poolsArg(args[0]), Number(args[1] ?? 5), Number(args[2] ?? 4))
else if (mode === 'dump') await dump(args[0]!, poolsArg(args[1]), Number(args[2] ?? 4))
else if (mode === 'compare') compare(args[0]!, args[1]!)
else if (mode === 'repeat') await repeat(Number(args[0]), Number(args[1]), Number(args[2]), Number(args[3]), Number(args[4] ?? 200), Number(args[5] ?? 4))
else console.log('modes: time | dump | compare | repeat (see the header)')
