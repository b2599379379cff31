// `npm run bench`: figures, not assertions. Sections (all by default; pick with
// `npm run bench -- --only router,micro`):
//   micro   pool math: one V2 quote, one V3 swap at 0/10/50 ticks crossed
//   quotes  getQuote on the embedded snapshot, and refusals
//   router  weft vs a 5%-grid splitter, Tines, the best single path, the convex
//           optimum and a subset oracle, on parallel pools and 3-hop universes
//   router-hard  getQuote on generated hard markets (gaps, empty ticks, drained pools, 1-5 hop
//           routes; 10 / 100 / 1,000 / 10,000 pools) against an independent convex optimum with
//           an exact plan, the best single path, a 5% grid and Tines, plus warm latency
//           (scripts/bench/routerHard.ts; alone: `npm run bench -- router-hard`, small: BENCH_HARD=quick)
//   rpc     the RPC source's cold quote against anvil with 100 pools
//   gas     gasEstimate / gasUsed on random devnet universes of every family (scripts/bench/gasRatio.ts)
//   workers quote workers on a live-like source: the liquidity relay against copying every answer
//           (scripts/bench/workerTransfer.ts)
//   server  the reference server under load (autocannon; scripts/benchServer.ts, also
//           `npm run bench:server`): throughput, latency, 429s where limits apply, no 5xx
// Ends with a summary of the targets, each MET or MISSED.
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { runMicroBench, type MicroResult } from './bench/micro.js'
import { runQuotesBench } from './bench/quotes.js'
import { type RouterCase, type RouterReport, COMPETITORS, connectorGapBps, optimumGapBps, oracleGapBps, runRouterBench } from './bench/router.js'
import { type RpcReport, runRpcBench } from './bench/rpc.js'
import { type SummaryRow, runRouterHardBench } from './bench/routerHard.js'
import { elapsedSeconds, formatMs, percentile, printTable } from './bench/stats.js'
import { runGasRatioBench } from './bench/gasRatio.js'
import { runWorkerTransferBench } from './bench/workerTransfer.js'

const SECTIONS = ['micro', 'quotes', 'router', 'router-hard', 'rpc', 'workers', 'server', 'gas'] as const
type Section = (typeof SECTIONS)[number]

function parseSections(argv: readonly string[]): Set<Section> {
  const picked: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--only' && argv[i + 1]) picked.push(...argv[++i]!.split(','))
    else if (arg.startsWith('--only=')) picked.push(...arg.slice('--only='.length).split(','))
    else if ((SECTIONS as readonly string[]).includes(arg)) picked.push(arg)
    else if (arg === '--help' || arg === '-h') {
      console.log(`usage: npm run bench [-- --only ${SECTIONS.join('|')}[,...]] (or the section names alone)`)
      process.exit(0)
    } else {
      console.error(`unknown argument ${arg} (try --only ${SECTIONS.join(',')})`)
      process.exit(1)
    }
  }
  const unknown = picked.filter((s) => !(SECTIONS as readonly string[]).includes(s))
  if (unknown.length > 0) {
    console.error(`unknown section(s) ${unknown.join(', ')}; sections: ${SECTIONS.join(', ')}`)
    process.exit(1)
  }
  return new Set((picked.length > 0 ? picked : SECTIONS) as Section[])
}

/** Runs a section; a crash is printed and the run goes on. */
async function guard<T>(name: string, run: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await run()
  } catch (error) {
    console.log(`\n!! ${name} section failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return undefined
  }
}

const started = performance.now()
const sections = parseSections(process.argv.slice(2))
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ')
console.log(`weft bench — node ${process.version}, ${cpus().length} cores, load average ${load()}, sections: ${[...sections].join(', ')}\n`)

const micro = sections.has('micro') ? await guard('micro', runMicroBench) : undefined
if (sections.has('quotes')) await guard('quotes', runQuotesBench)
const router = sections.has('router') ? await guard('router', runRouterBench) : undefined
const routerHard = sections.has('router-hard') ? await guard('router-hard', runRouterHardBench) : undefined
const rpc = sections.has('rpc') ? await guard('rpc', runRpcBench) : undefined
if (sections.has('gas')) await guard('gas', runGasRatioBench) // gasEstimate / gasUsed on random universes
if (sections.has('workers')) await guard('workers', runWorkerTransferBench)
if (sections.has('server')) {
  console.log('\nReference server under load (scripts/benchServer.ts)')
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/benchServer.ts'], { stdio: 'inherit' })
  if (run.status !== 0) console.log(`!! server section failed (exit ${run.status})`)
}

printSummary({ micro, router, routerHard, rpc, ran: sections })
console.log(`\nTotal ${elapsedSeconds(started)}; load average at the end ${load()} (latency figures are wall time on a shared machine)`)

type Row = [target: string, measured: string, status: string]

function status(met: boolean | undefined): string {
  return met === undefined ? 'NOT MEASURED' : met ? 'MET' : 'MISSED'
}

function printSummary({ micro, router, routerHard, rpc, ran }: { micro?: MicroResult[]; router?: RouterReport; routerHard?: SummaryRow[]; rpc?: RpcReport; ran: Set<Section> }) {
  const rows: Row[] = []
  if (ran.has('router')) rows.push(...routerRows(router))
  if (ran.has('router-hard')) rows.push(...(routerHard ?? [['router-hard targets', 'the router-hard section failed', 'NOT MEASURED'] as Row]))
  if (ran.has('micro'))
    for (const m of micro ?? []) rows.push([`${m.label}: p50 ≤ ${m.targetUs} µs`, `p50 ${m.p50Us.toFixed(2)} µs, p99 ${m.p99Us.toFixed(2)} µs (${m.samples} batches)`, status(m.met)])
  if (ran.has('rpc'))
    rows.push([
      'RPC cold quote, 100 pools (figure, no target)',
      rpc ? `${rpc.pools} pools, ${rpc.roundTrips} round trips, ${rpc.httpRequests} HTTP requests, ${rpc.rpcCalls} JSON-RPC calls, p50 ${formatMs(rpc.coldP50)} p99 ${formatMs(rpc.coldP99)} (${rpc.samples})` : '—',
      rpc ? 'INFO' : 'NOT MEASURED',
    ])
  console.log('Summary')
  printTable(['target', 'measured', ''], rows, 2)
}

function routerRows(report: RouterReport | undefined): Row[] {
  if (!report) return [['router targets', 'the router section failed', 'NOT MEASURED']]
  const { cases } = report
  const rows: Row[] = []
  const exactIn = cases.filter((c) => c.kind === 'exactIn')

  // 1. Gas-free output against the convex optimum.
  const gasFree = (group: RouterCase['group']) => exactIn.filter((c) => c.group === group && c.gas === 'none' && c.optimum !== undefined)
  for (const [label, group, gap] of [
    ['parallel pools, exact optimum', gasFree('parallel'), optimumGapBps],
    ['universes, dual bound over all pools', gasFree('universe'), optimumGapBps],
    ['universes, dual bound over ends + majors', gasFree('universe'), connectorGapBps],
  ] as const) {
    const gaps = group.map(gap).filter((g): g is number => g !== undefined)
    const failed = group.length - gaps.length
    const p50 = percentile(gaps, 50)
    const p99 = percentile(gaps, 99)
    const note = `${gaps.length} cases${failed > 0 ? `, ${failed} without a weft route` : ''}`
    rows.push([`gas-free ≥ optimum − 0.01 bp at p50 (${label})`, `p50 gap ${p50.toFixed(5)} bp (${note})`, status(gaps.length > 0 ? p50 <= 0.01 && failed === 0 : undefined)])
    rows.push([`gas-free ≥ optimum − 0.1 bp at p99 (${label})`, `p99 gap ${p99.toFixed(5)} bp, worst ${Math.max(...gaps).toFixed(5)}, best ${Math.min(...gaps).toFixed(5)} bp`, status(gaps.length > 0 ? p99 <= 0.1 && failed === 0 : undefined)])
  }

  // 2. Never below the grid splitter or Tines.
  for (const rival of ['grid', 'tines'] as const) {
    const comparable = cases.filter((c) => c.outcomes[rival].value !== undefined)
    let below = 0
    let worst = 0
    for (const c of comparable) {
      const mine = c.outcomes.weft.value
      const theirs = c.outcomes[rival].value!
      const deficit = mine === undefined ? Infinity : c.kind === 'exactIn' ? ((theirs - mine) / Math.abs(theirs)) * 1e4 : ((mine - theirs) / Math.abs(theirs)) * 1e4
      if (deficit > 1e-8) {
        below++
        worst = Math.max(worst, deficit)
      }
    }
    rows.push([
      `never below the ${rival === 'grid' ? '5%-grid splitter' : 'Tines'} (every case, in and out, all gas prices)`,
      `below in ${below}/${comparable.length} cases${below > 0 ? `, worst: ${Number.isFinite(worst) ? `${worst.toFixed(4)} bp` : 'weft found no route where it did'}` : ''}`,
      status(comparable.length > 0 ? below === 0 : undefined),
    ])
  }

  // 3. Net of gas within 0.1 bp of the subset oracle.
  const oracleCases = exactIn.filter((c) => c.oracle !== undefined && c.gas !== 'none')
  const oracleGaps = oracleCases.map((c) => oracleGapBps(c) ?? Infinity)
  const worstOracle = oracleGaps.length > 0 ? Math.max(...oracleGaps) : Number.NaN
  rows.push([
    'net of gas within 0.1 bp of the subset oracle (≤ 8 pools)',
    `worst ${Number.isFinite(worstOracle) ? worstOracle.toFixed(5) : 'no route'} bp over ${oracleCases.length} cases`,
    status(oracleCases.length > 0 ? worstOracle <= 0.1 : undefined),
  ])

  // 4. Latency.
  const pooled = (filter: (c: RouterCase) => boolean) => exactIn.filter(filter).flatMap((c) => c.outcomes.weft.samples)
  for (const [label, samples, limit] of [
    ['weft latency, 10 pools, p99 ≤ 1 ms', pooled((c) => c.group === 'parallel' && c.poolCount === 10), 1],
    ['weft latency, 100 pools (3 hops), p99 ≤ 5 ms', pooled((c) => c.group === 'universe' && c.poolCount === 100), 5],
    ['weft latency, 1,000 pools 3 hops, p99 ≤ 50 ms', pooled((c) => c.group === 'universe' && c.poolCount === 1000), 50],
  ] as const) {
    const p99 = percentile(samples, 99)
    rows.push([label, `p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(p99)} (${samples.length} samples)`, status(samples.length > 0 ? p99 <= limit : undefined)])
  }

  // Checks on weft's own output.
  const certified = cases.filter((c) => c.certificate)
  const invalid = certified.filter((c) => c.certificate!.valid === false).length
  const checked = certified.filter((c) => c.certificate!.valid !== undefined).length
  rows.push([
    'weft certificate bound ≥ exact optimum (parallel, gas-free)',
    `${certified.length}/${exactIn.length} exact-in plans carry a certificate; ${checked - invalid}/${checked} checked bounds valid`,
    status(checked > 0 ? invalid === 0 : undefined),
  ])
  const reproducible = cases.filter((c) => c.reproduced !== undefined)
  const reproduced = reproducible.filter((c) => c.reproduced).length
  rows.push(['weft plans re-simulated from their paths give the same output', `${reproduced}/${reproducible.length}`, status(reproducible.length > 0 ? reproduced === reproducible.length : undefined)])
  if (report.selfCheckBps !== undefined)
    rows.push(['bench self-check: float dual vs 80-digit bisection (parallel, ≥ 0.1%)', `max |Δ| ${report.selfCheckBps.toExponential(2)} bp over ${report.selfCheckCases} cases`, status(report.selfCheckBps <= 1e-4)])
  const failures = COMPETITORS.map((c) => `${c} ${cases.filter((x) => x.outcomes[c].value === undefined).length}`).join(', ')
  rows.push(['cases without a route (per competitor)', `${failures} of ${cases.length}`, 'INFO'])
  return rows
}
