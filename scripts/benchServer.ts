// Load test of the example server: `npm run bench:server [-- --section limits|abuse --duration 10 --connections 16 --redis redis://…]`.
// Starts examples/server/main.ts as a child process on the embedded snapshot (loopback only).
// Section `limits`: autocannon against GET /v1/quote with a mix of callers (anonymous,
// self-chosen ids, a limited issued app and a roomy one, each from its own client
// address behind one trusted proxy), prints throughput, latency and status counts, and
// checks the limits: every limited caller class is admitted exactly its limit (the run is
// shorter than the window) and then answered 429, the roomy issued app is never limited,
// and no 5xx but the quote pool's overload 503s (counted and printed; a busy machine sheds some).
// Section `abuse`: 4 clients hammer the most expensive quotes found on the embedded
// snapshot (large exact-output quotes, up to ~120 ms of router CPU each) while one client
// asks for a plain 1 WETH -> USDC quote; prints the plain quote's latency alone and under
// abuse (p50/p99/max), with quote workers and with quotes on the event loop (workers 0,
// the server before overload handling), and checks p99 <= 100 ms with workers. Bounded
// request counts; stops by itself. Both sections run by default. Exits 1 when a check fails.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    redis: { type: 'string' },
    section: { type: 'string' },
    'plain-requests': { type: 'string', default: '300' },
  },
  strict: true,
})
const duration = Math.min(20, Math.max(1, Number(values.duration)))
const connections = Math.max(1, Number(values.connections))

// Limits small enough that the limited classes run out within the run even at ~50 req/s
// (each class gets 1/8 to 3/8 of the requests), windows longer than the run.
const limits = { anonymous: 40, selfChosen: 80, issuedSmall: 60 }
const windowSeconds = 120
const keys = { small: 'bench-issued-small-secret-01', roomy: 'bench-issued-roomy-secret-02' }
const apps = {
  'bench-issued-small': { name: 'limited issued app', rateLimit: { limit: limits.issuedSmall, windowSeconds }, apiKeys: [keys.small] },
  'bench-issued-roomy': {
    name: 'roomy issued app',
    fees: { feeBps: 10, feeRecipient: '0x0000000000000000000000000000000000be4c01' },
    rateLimit: { limit: 1_000_000_000, windowSeconds },
    apiKeys: [keys.roomy],
  },
}

const native = '0x0000000000000000000000000000000000000000'
const baseTokens = { WETH: '0x4200000000000000000000000000000000000006', USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', DAI: '0x50c5725949a6f0c72e6c4a641f24049a917db0cb' }
const ethTokens = { WETH: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }
const quote = (params: Record<string, string | number | bigint>) =>
  `/v1/quote?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`

type CallerClass = 'anonymous' | 'self-chosen' | 'issued-small' | 'issued-roomy'
// Anonymous and self-chosen callers share one budget per client address, so each class
// comes from an address of its own (x-forwarded-for, one trusted proxy hop).
const callerHeaders: Record<CallerClass, (appId?: string) => Record<string, string>> = {
  anonymous: () => ({ 'x-forwarded-for': '198.51.100.1' }),
  'self-chosen': (appId) => ({ 'x-forwarded-for': '198.51.100.2', 'x-app-id': appId ?? 'bench-self' }),
  'issued-small': () => ({ 'x-forwarded-for': '198.51.100.3', 'x-api-key': keys.small }),
  'issued-roomy': () => ({ 'x-forwarded-for': '198.51.100.4', 'x-api-key': keys.roomy }),
}
const mix: { caller: CallerClass; appId?: string; path: string }[] = [
  { caller: 'anonymous', path: quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.USDC, sellAmount: 10n ** 18n }) },
  { caller: 'self-chosen', appId: 'bench-self-1', path: quote({ chainId: 8453, sellToken: baseTokens.USDC, buyToken: native, sellAmount: 2_000n * 10n ** 6n }) },
  { caller: 'issued-roomy', path: quote({ chainId: 1, sellToken: native, buyToken: ethTokens.USDC, sellAmount: 5n * 10n ** 18n }) },
  { caller: 'issued-small', path: quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.DAI, sellAmount: 10n ** 17n }) },
  { caller: 'issued-roomy', path: quote({ chainId: 1, sellToken: ethTokens.USDC, buyToken: ethTokens.WETH, buyAmount: 10n ** 18n, slippageBps: 30 }) },
  { caller: 'self-chosen', appId: 'bench-self-2', path: quote({ chainId: 1, sellToken: ethTokens.WETH, buyToken: ethTokens.USDC, sellAmount: 3n * 10n ** 18n }) },
  { caller: 'anonymous', path: quote({ chainId: 1, sellToken: ethTokens.USDC, buyToken: native, sellAmount: 50_000n * 10n ** 6n }) },
  { caller: 'issued-roomy', path: quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.USDC, sellAmount: 10n ** 16n }) },
]

const counts = new Map<CallerClass, Map<number, number>>()
const count = (caller: CallerClass, status: number) => {
  const byStatus = counts.get(caller) ?? new Map<number, number>()
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
  counts.set(caller, byStatus)
}

function startServer(appsFile: string, extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    WEFT_PORT: '0',
    WEFT_HOST: '127.0.0.1',
    WEFT_TRUST_PROXY: '1',
    WEFT_APPS_FILE: appsFile,
    WEFT_RATE_LIMIT_ANONYMOUS: `${limits.anonymous}/${windowSeconds}`,
    WEFT_RATE_LIMIT_SELF_CHOSEN: `${limits.selfChosen}/${windowSeconds}`,
    WEFT_RATE_LIMIT_ISSUED: `1000/${windowSeconds}`,
    WEFT_REDIS_URL: values.redis,
    // A fresh key prefix per run, so counters of an earlier run in the same Redis do not count.
    ...(values.redis ? { WEFT_REDIS_KEY_PREFIX: `weft:bench:${Date.now()}:` } : {}),
    ...extraEnv,
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    let started = false
    // Every request logs a line: keep draining them, keep the 5xx ones for the report.
    lines.on('line', (text) => {
      let line: Record<string, unknown>
      try {
        line = JSON.parse(text)
      } catch {
        return
      }
      if (!started && line.msg === 'listening') {
        started = true
        resolve({ child, url: line.url as string })
      } else if (typeof line.status === 'number' && line.status >= 500 && line.errorCode !== 'unavailable') console.error('server 5xx:', text)
    })
    child.once('exit', (code) => {
      if (!started) reject(new Error(`server exited with ${code} before listening`))
    })
  })
}

/** `name{labels} value` lines of one metric. */
function readMetric(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const found: { labels: Record<string, string>; value: number }[] = []
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const labels: Record<string, string> = {}
    for (const [, key, value] of line.matchAll(/(\w+)="([^"]*)"/g)) labels[key!] = value!
    found.push({ labels, value: Number(line.slice(line.lastIndexOf(' ') + 1)) })
  }
  return found
}

async function stopServer(child: ChildProcess) {
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}

/** The limits section; returns whether every check passed. */
async function runLimits(appsFile: string): Promise<boolean> {
  const { child, url } = await startServer(appsFile)
  let failed = false
  try {
    console.log(`server ${url} (snapshot source, ${values.redis ? `Redis ${values.redis}` : 'in-memory'} limits), ${connections} connections, ${duration} s`)
    const result = await autocannon({
      url,
      connections,
      duration,
      requests: mix.map(({ caller, appId, path }) => ({
        method: 'GET' as const,
        path,
        headers: callerHeaders[caller](appId),
        onResponse: (status: number) => count(caller, status),
      })),
    })

    const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]))
    console.log(`\nthroughput   ${result.requests.average.toFixed(0)} req/s average (${result.requests.total} requests in ${result.duration} s)`)
    console.log(`quotes       ${((statusCounts['200'] ?? 0) / result.duration).toFixed(0)} quotes/s answered 200`)
    console.log(`latency      p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms (all responses, 429s included)`)
    console.log(`statuses     ${JSON.stringify(statusCounts)}; connection errors ${result.errors}, timeouts ${result.timeouts}`)

    const metrics = await (await fetch(`${url}/metrics`)).text()
    const quoteSum = readMetric(metrics, 'weft_quote_duration_seconds_sum').find((m) => m.labels.outcome === 'ok')?.value ?? 0
    const quoteCount = readMetric(metrics, 'weft_quote_duration_seconds_count').find((m) => m.labels.outcome === 'ok')?.value ?? 0
    if (quoteCount > 0) console.log(`server       ${quoteCount} quotes, mean ${((quoteSum / quoteCount) * 1000).toFixed(2)} ms each (parse + getQuote)`)

    // A 503 here is the quote pool shedding load (past the rate limiter: the request was admitted).
    console.log('\ncaller class   limit        200     429  503 busy   other')
    const limitOf: Record<CallerClass, number | null> = {
      anonymous: limits.anonymous,
      'self-chosen': limits.selfChosen,
      'issued-small': limits.issuedSmall,
      'issued-roomy': null,
    }
    const checks: [string, boolean][] = []
    for (const caller of Object.keys(limitOf) as CallerClass[]) {
      const byStatus = counts.get(caller) ?? new Map<number, number>()
      const ok = byStatus.get(200) ?? 0
      const limited = byStatus.get(429) ?? 0
      const busy = byStatus.get(503) ?? 0
      const admitted = ok + busy
      const other = [...byStatus].filter(([status]) => status !== 200 && status !== 429 && status !== 503).reduce((sum, [, n]) => sum + n, 0)
      const limit = limitOf[caller]
      console.log(
        `${caller.padEnd(14)} ${String(limit ?? '-').padEnd(10)} ${String(ok).padStart(5)} ${String(limited).padStart(7)} ${String(busy).padStart(8)} ${String(other).padStart(7)}`,
      )
      checks.push([`${caller}: every response is 200, 429 or an overload 503`, other === 0])
      if (limit === null) checks.push([`${caller}: never limited`, limited === 0 && ok > 0])
      else {
        const sent = admitted + limited
        checks.push([`${caller}: admitted exactly min(limit, sent) = ${Math.min(limit, sent)}`, admitted === Math.min(limit, sent)])
        checks.push([`${caller}: sent more than its limit (${sent} > ${limit}) and answered 429 past it`, sent > limit && limited === sent - limit])
      }
    }
    const server5xx = readMetric(metrics, 'weft_http_requests_total')
      .filter((m) => m.labels.status?.startsWith('5'))
      .reduce((sum, m) => sum + m.value, 0)
    const shed = readMetric(metrics, 'weft_quote_overload_total').reduce((sum, m) => sum + m.value, 0)
    console.log(`overload     ${shed} quotes shed with 503 (${readMetric(metrics, 'weft_quote_overload_total').map((m) => `${m.labels.reason} ${m.value}`).join(', ') || 'none'})`)
    // The client may have given up on a few shed at the very end of the run: it can count fewer.
    checks.push(['no 5xx but overload 503s (client and server side)', result['5xx'] <= shed && server5xx === shed])
    checks.push(['no connection errors', result.errors === 0])

    console.log('')
    for (const [name, passed] of checks) console.log(`${passed ? 'ok  ' : 'FAIL'} ${name}`)
    failed = checks.some(([, passed]) => !passed)
  } finally {
    await stopServer(child)
  }
  return !failed
}

/** Percentile of sorted values (nearest rank). */
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN

/**
 * The most expensive requests found on the embedded snapshot (a scan of every pair's exact output
 * and the soak's slowest records): exact output of 10M-100M USDC, or 200 cbBTC, 20-120 ms of router CPU each.
 */
const expensive = [
  quote({ chainId: 1, sellToken: '0x6b175474e89094c44da98b954eedeac495271d0f', buyToken: ethTokens.USDC, buyAmount: 10n ** 13n }),
  quote({ chainId: 1, sellToken: '0x514910771af9ca656af840dff83e8264ecf986ca', buyToken: ethTokens.USDC, buyAmount: 10n ** 13n }),
  quote({ chainId: 1, sellToken: '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984', buyToken: ethTokens.USDC, buyAmount: 10n ** 13n }),
  quote({ chainId: 1, sellToken: ethTokens.WETH, buyToken: ethTokens.USDC, buyAmount: 10n ** 13n }),
  quote({ chainId: 8453, sellToken: '0x2ae3f1ec7f1f5012cfeab0185bfc7aa3cf0dec22', buyToken: baseTokens.USDC, buyAmount: 10n ** 13n }),
  quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.USDC, buyAmount: 100_000_000n * 10n ** 6n }),
  quote({ chainId: 8453, sellToken: native, buyToken: '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf', buyAmount: 200n * 10n ** 8n }),
]
const plainPath = quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.USDC, sellAmount: 10n ** 18n })

type Timed = { status: number; ms: number }
async function timedGet(url: string, path: string, client: string): Promise<Timed> {
  const started = performance.now()
  const response = await fetch(`${url}${path}`, { headers: { 'x-forwarded-for': client } })
  await response.arrayBuffer()
  return { status: response.status, ms: performance.now() - started }
}

/** `plainRequests` sequential plain quotes, one every 20 ms, optionally while 4 clients hammer expensive ones. */
async function measurePlain(url: string, plainRequests: number, hammer: boolean) {
  let stop = false
  const hammered: Timed[] = []
  const hammerers = hammer
    ? Array.from({ length: 4 }, async (_, client) => {
        // Bounded: each hammerer stops with the plain client, or after 2,000 requests.
        for (let i = 0; !stop && i < 2000; i++) hammered.push(await timedGet(url, expensive[(client + i) % expensive.length]!, `10.66.0.${client + 1}`))
      })
    : []
  // Let the hammering start before measuring.
  if (hammer) await new Promise((resolve) => setTimeout(resolve, 500))
  const plain: Timed[] = []
  for (let i = 0; i < plainRequests; i++) {
    plain.push(await timedGet(url, plainPath, '203.0.113.50'))
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  stop = true
  await Promise.all(hammerers)
  return { plain, hammered }
}

const statusCounts = (runs: readonly Timed[]) =>
  JSON.stringify(Object.fromEntries([...new Set(runs.map((r) => r.status))].map((status) => [status, runs.filter((r) => r.status === status).length])))

function describeRun(label: string, { plain, hammered }: { plain: Timed[]; hammered: Timed[] }) {
  const all = plain.map((r) => r.ms).sort((a, b) => a - b)
  console.log(
    `${label.padEnd(40)} plain 1 WETH->USDC: p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms, max ${all.at(-1)!.toFixed(1)} ms, statuses ${statusCounts(plain)}`,
  )
  if (hammered.length > 0) {
    const byStatus = (status: number) => hammered.filter((r) => r.status === status).map((r) => r.ms).sort((a, b) => a - b)
    const served = byStatus(200)
    const refused = byStatus(503)
    console.log(
      `${''.padEnd(40)} hammerers: ${hammered.length} requests ${statusCounts(hammered)}; 200 p50 ${percentile(served, 50).toFixed(0)} ms` +
        (refused.length > 0 ? `; 503 p50 ${percentile(refused, 50).toFixed(1)} ms, p99 ${percentile(refused, 99).toFixed(1)} ms` : ''),
    )
  }
  return { p99: percentile(all, 99), allOk: plain.every((r) => r.status === 200) }
}

/** The abuse section; returns whether every check passed. */
async function runAbuse(appsFile: string): Promise<boolean> {
  const plainRequests = Math.min(2000, Math.max(20, Number(values['plain-requests'])))
  const roomyLimits = { WEFT_RATE_LIMIT_ANONYMOUS: '1000000/60', WEFT_RATE_LIMIT_SELF_CHOSEN: '1000000/60' }
  const checks: [string, boolean][] = []
  console.log(`\nabuse: ${plainRequests} plain quotes, 20 ms apart; 4 clients each sending the next expensive quote as soon as the last is answered`)
  for (const workers of ['2', '0']) {
    const { child, url } = await startServer(appsFile, { ...roomyLimits, WEFT_QUOTE_WORKERS: workers })
    try {
      const label = workers === '0' ? 'quotes on the event loop (before)' : `${workers} quote workers`
      describeRun(`${label}, alone`, await measurePlain(url, plainRequests, false))
      const abused = describeRun(`${label}, under abuse`, await measurePlain(url, plainRequests, true))
      if (workers !== '0') {
        checks.push([`with workers, plain quote p99 under abuse ${abused.p99.toFixed(1)} ms <= 100 ms`, abused.p99 <= 100])
        checks.push(['with workers, every plain quote under abuse answered 200', abused.allOk])
      }
      const metrics = await (await fetch(`${url}/metrics`)).text()
      const overload = readMetric(metrics, 'weft_quote_overload_total').map((m) => `${m.labels.reason} ${m.value}`)
      if (overload.length > 0) console.log(`${''.padEnd(40)} overload 503s by reason: ${overload.join(', ')}`)
    } finally {
      await stopServer(child)
    }
  }
  for (const [name, passed] of checks) console.log(`${passed ? 'ok  ' : 'FAIL'} ${name}`)
  return checks.every(([, passed]) => passed)
}

const dir = mkdtempSync(join(tmpdir(), 'weft-bench-server-'))
const appsFile = join(dir, 'apps.json')
writeFileSync(appsFile, JSON.stringify({ apps }))
let passed = true
try {
  if (values.section === undefined || values.section === 'limits') passed = (await runLimits(appsFile)) && passed
  if (values.section === undefined || values.section === 'abuse') passed = (await runAbuse(appsFile)) && passed
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exit(passed ? 0 : 1)
