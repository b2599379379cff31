// getQuote's warm latency on the hard markets alone (no optimum, no rivals): a quick loop for
// latency work. Prints wall and CPU time (process.cpuUsage: the machine is shared, CPU time is
// the steadier median; it is the whole process's, TurboFan and GC helper threads included, so its
// tail can sit above wall's) per pool class, the GC pauses inside the loop (gcWatch.ts), and with
// LATENCY_RESULTS=<file> writes every quote's output and certificate so two runs can be compared
// for identical results.
// Run: npx tsx scripts/bench/routerLatency.ts [pools:seed ...]   (default 10:1 100:1 1000:1 10000:1)
// Env: LATENCY_SAMPLES (default 500), LATENCY_SECONDS (time box per class, default 120),
//      LATENCY_WARMUP / LATENCY_WARMUP_SECONDS (quotes before timing: default 600 per trade, at least 8,000, or 10 s: warmUp.ts),
//      LATENCY_RESULTS (results file), LATENCY_CHECK (a results file to compare against),
//      LATENCY_DETAILS=1 (timed quotes pass onDetails, so getQuote also certifies each route),
//      LATENCY_PROFILE (a .cpuprofile file: the timed loops only, all classes).
import { readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import { getQuote } from '../../src/quote/getQuote.js'
import { formatGc, watchGc } from './gcWatch.js'
import { type HardUniverse, createHardUniverse } from './hardMarket.js'
import { formatMs, percentile } from './stats.js'
import { warmUp, warmUpPlan } from './warmUp.js'

/** Trade sizes, as shares of the trade's depth (as routerHard.ts). */
const SIZES = [1e-4, 1e-3, 1e-2, 0.1, 0.3]
/** Gas prices the results are recorded at: gas-free and the chain's default (undefined). */
const RESULT_GAS = [0n, undefined] as const
const MAX_HOPS = 4
/** Timed quotes ask for details (the certificate included): LATENCY_DETAILS=1. */
const TIME_DETAILS = process.env.LATENCY_DETAILS === '1'
const QUOTE_ID = '00000000-0000-7000-8000-000000000000'
/**
 * A fixed clock: the fill's deadline is calldata, and the gas estimate counts its zero and non-zero
 * bytes, so on the wall clock two runs' recorded gas could differ by a few units (a false
 * "differ" in LATENCY_CHECK).
 */
const NOW = () => 1_800_000_000_000

type Trade = { universe: HardUniverse; source: ReturnType<typeof createSnapshotSource>; tokenIn: `0x${string}`; tokenOut: `0x${string}`; amountIn: bigint; label: string }

/** One quote; its output and certificate as text (or the error's message). */
async function quote(trade: Trade, gasPriceWei: bigint | undefined, record: boolean): Promise<string> {
  let certificate: unknown
  try {
    const result = await getQuote(
      { chainId: trade.universe.market.chain.id, sellToken: trade.tokenIn, buyToken: trade.tokenOut, sellAmount: trade.amountIn, priceImpactLimitBps: 10_000 },
      trade.source,
      {
        chains: [trade.universe.market.chain],
        maxHops: MAX_HOPS,
        id: QUOTE_ID,
        now: NOW,
        ...(gasPriceWei === undefined ? {} : { gasPriceWei }),
        // As the bench's latency loop: no details read while timing (getQuote then skips the
        // certificate); LATENCY_DETAILS=1 times quotes that ask for it.
        ...(record || TIME_DETAILS ? { onDetails: (details) => (certificate = details.certificate) } : {}),
      },
    )
    const bound = certificate as { upperBound?: bigint; allPoolsUpperBound?: bigint } | null
    const swaps = result.route.swaps.map((path) => path.map((swap) => `${swap.key}:${swap.amountIn}`).join('>')).join('|')
    return `out ${result.amountOut} gas ${result.gasEstimate} bound ${bound?.upperBound} all ${bound?.allPoolsUpperBound} swaps ${swaps}`
  } catch (error) {
    return `error ${error instanceof Error ? error.message : String(error)}`
  }
}

const args = process.argv.slice(2)
const plan = (args.length > 0 ? args : ['10:1', '100:1', '1000:1', '10000:1']).map((item) => item.split(':').map(Number) as [number, number])
const samples = Number(process.env.LATENCY_SAMPLES ?? 500)
const seconds = Number(process.env.LATENCY_SECONDS ?? 120)
const results: Record<string, string> = {}
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ')
const profiler = process.env.LATENCY_PROFILE ? new Session() : undefined
if (profiler) {
  profiler.connect()
  await profiler.post('Profiler.enable')
  await profiler.post('Profiler.setSamplingInterval', { interval: 200 })
}

const profiles: unknown[] = []
for (const [pools, seed] of plan) {
  const universe = createHardUniverse(pools, seed)
  const source = createSnapshotSource(universe.market.snapshot)
  const trades: Trade[] = universe.trades.flatMap((trade) =>
    SIZES.map((share) => ({
      universe,
      source,
      tokenIn: trade.tokenIn.address,
      tokenOut: trade.tokenOut.address,
      amountIn: (trade.depthIn * BigInt(Math.round(share * 1e9))) / 10n ** 9n,
      label: `${pools}:${seed} ${trade.label} ${share}`,
    })),
  )
  // The results of every trade at both gas prices, then the warm-up (warmUp.ts).
  for (const trade of trades) for (const gas of RESULT_GAS) results[`${trade.label} gas ${gas ?? 'default'}`] = await quote(trade, gas, true)
  const warmPlan = warmUpPlan('LATENCY', trades.length)
  const warm = await warmUp(trades, (trade) => quote(trade, undefined, false), warmPlan.quotes, warmPlan.seconds)
  const wall: number[] = []
  const cpu: number[] = []
  const spans: { start: number; end: number }[] = []
  const gc = watchGc()
  if (profiler) await profiler.post('Profiler.start')
  const started = performance.now()
  for (let i = 0; i < samples && performance.now() - started < seconds * 1000; i++) {
    const cpuBefore = process.cpuUsage()
    const wallBefore = performance.now()
    await quote(trades[i % trades.length]!, undefined, false)
    const wallAfter = performance.now()
    wall.push(wallAfter - wallBefore)
    spans.push({ start: wallBefore, end: wallAfter })
    const used = process.cpuUsage(cpuBefore)
    cpu.push((used.user + used.system) / 1000)
  }
  if (profiler) await profiler.post('Profiler.stop').then(({ profile }) => profiles.push(profile))
  const figures = (list: number[]) => `p50 ${formatMs(percentile(list, 50))} p90 ${formatMs(percentile(list, 90))} p99 ${formatMs(percentile(list, 99))} max ${formatMs(Math.max(...list))}`
  console.log(`${pools} pools seed ${seed}: ${wall.length} samples after ${warm.quotes} warm-up quotes${warm.timeBoxed ? ' (time box)' : ''}; wall ${figures(wall)}; cpu ${figures(cpu)}; load ${load()}; ${formatGc(await gc.stop(spans))}`)
}

if (process.env.LATENCY_PROFILE) writeFileSync(process.env.LATENCY_PROFILE, JSON.stringify(profiles.at(-1)))
if (process.env.LATENCY_RESULTS) writeFileSync(process.env.LATENCY_RESULTS, JSON.stringify(results, null, 1))
if (process.env.LATENCY_CHECK) {
  const expected = JSON.parse(readFileSync(process.env.LATENCY_CHECK, 'utf8')) as Record<string, string>
  // The all-pools figure apart: it is a bound, not the route (it moves when the bound's own code does).
  const withoutAllPools = (text: string) => text.replace(/ all \S+/, '')
  let differ = 0
  let allPoolsOnly = 0
  for (const [key, value] of Object.entries(results)) {
    if (expected[key] === undefined || expected[key] === value) continue
    if (withoutAllPools(expected[key]) === withoutAllPools(value)) {
      allPoolsOnly++
      continue
    }
    differ++
    if (differ <= 10) console.log(`DIFFERS ${key}\n  was ${expected[key]}\n  now ${value}`)
  }
  console.log(`results: ${differ} of ${Object.keys(results).length} differ from ${process.env.LATENCY_CHECK} (and ${allPoolsOnly} in the all-pools bound alone)`)
}
