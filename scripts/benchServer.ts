// Load test of the example server: `npm run bench:server [-- --duration 10 --connections 16 --redis redis://…]`.
// Starts examples/server/main.ts as a child process on the embedded snapshot, runs
// autocannon against GET /v1/quote with a mix of callers (anonymous, self-chosen
// ids, a limited issued id and a roomy one), prints throughput, latency and status
// counts, and checks the limits: every limited caller class is allowed exactly its
// limit (the run is shorter than the window) and then answered 429, the roomy
// issued id is never limited, and nothing answers 5xx. Exits 1 when a check fails.
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
  },
  strict: true,
})
const duration = Math.min(20, Math.max(1, Number(values.duration)))
const connections = Math.max(1, Number(values.connections))

// Limits small enough that the limited classes run out within the run even at ~50 req/s
// (each class gets 1/8 to 3/8 of the requests), windows longer than the run.
const limits = { anonymous: 40, selfChosen: 80, issuedSmall: 60 }
const windowSeconds = 120
const apps = {
  'bench-issued-small': { name: 'limited issued app', rateLimit: { limit: limits.issuedSmall, windowSeconds } },
  'bench-issued-roomy': {
    name: 'roomy issued app',
    fees: { feeBps: 10, feeRecipient: '0x0000000000000000000000000000000000be4c01' },
    rateLimit: { limit: 1_000_000_000, windowSeconds },
  },
}

const native = '0x0000000000000000000000000000000000000000'
const baseTokens = { WETH: '0x4200000000000000000000000000000000000006', USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', DAI: '0x50c5725949a6f0c72e6c4a641f24049a917db0cb' }
const ethTokens = { WETH: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }
const quote = (params: Record<string, string | number | bigint>) =>
  `/v1/quote?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`

type CallerClass = 'anonymous' | 'self-chosen' | 'issued-small' | 'issued-roomy'
const mix: { caller: CallerClass; appId?: string; path: string }[] = [
  { caller: 'anonymous', path: quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.USDC, sellAmount: 10n ** 18n }) },
  { caller: 'self-chosen', appId: 'bench-self-1', path: quote({ chainId: 8453, sellToken: baseTokens.USDC, buyToken: native, sellAmount: 2_000n * 10n ** 6n }) },
  { caller: 'issued-roomy', appId: 'bench-issued-roomy', path: quote({ chainId: 1, sellToken: native, buyToken: ethTokens.USDC, sellAmount: 5n * 10n ** 18n }) },
  { caller: 'issued-small', appId: 'bench-issued-small', path: quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.DAI, sellAmount: 10n ** 17n }) },
  { caller: 'issued-roomy', appId: 'bench-issued-roomy', path: quote({ chainId: 1, sellToken: ethTokens.USDC, buyToken: ethTokens.WETH, buyAmount: 10n ** 18n, slippageBps: 30 }) },
  { caller: 'self-chosen', appId: 'bench-self-2', path: quote({ chainId: 1, sellToken: ethTokens.WETH, buyToken: ethTokens.USDC, sellAmount: 3n * 10n ** 18n }) },
  { caller: 'anonymous', path: quote({ chainId: 1, sellToken: ethTokens.USDC, buyToken: native, sellAmount: 50_000n * 10n ** 6n }) },
  { caller: 'issued-roomy', appId: 'bench-issued-roomy', path: quote({ chainId: 8453, sellToken: baseTokens.WETH, buyToken: baseTokens.USDC, sellAmount: 10n ** 16n }) },
]

const counts = new Map<CallerClass, Map<number, number>>()
const count = (caller: CallerClass, status: number) => {
  const byStatus = counts.get(caller) ?? new Map<number, number>()
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
  counts.set(caller, byStatus)
}

function startServer(appsFile: string): Promise<{ child: ChildProcess; url: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    WEFT_PORT: '0',
    WEFT_HOST: '127.0.0.1',
    WEFT_APPS_FILE: appsFile,
    WEFT_RATE_LIMIT_ANONYMOUS: `${limits.anonymous}/${windowSeconds}`,
    WEFT_RATE_LIMIT_SELF_CHOSEN: `${limits.selfChosen}/${windowSeconds}`,
    WEFT_RATE_LIMIT_ISSUED: `1000/${windowSeconds}`,
    WEFT_REDIS_URL: values.redis,
    // A fresh key prefix per run, so counters of an earlier run in the same Redis do not count.
    ...(values.redis ? { WEFT_REDIS_KEY_PREFIX: `weft:bench:${Date.now()}:` } : {}),
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
      } else if (typeof line.status === 'number' && line.status >= 500) console.error('server 5xx:', text)
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

const dir = mkdtempSync(join(tmpdir(), 'weft-bench-server-'))
const appsFile = join(dir, 'apps.json')
writeFileSync(appsFile, JSON.stringify({ apps }))
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
      headers: appId ? { 'x-app-id': appId } : {},
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

  console.log('\ncaller class   limit        200     429   other')
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
    const other = [...byStatus].filter(([status]) => status !== 200 && status !== 429).reduce((sum, [, n]) => sum + n, 0)
    const limit = limitOf[caller]
    console.log(`${caller.padEnd(14)} ${String(limit ?? '-').padEnd(10)} ${String(ok).padStart(5)} ${String(limited).padStart(7)} ${String(other).padStart(7)}`)
    checks.push([`${caller}: every response is 200 or 429`, other === 0])
    if (limit === null) checks.push([`${caller}: never limited`, limited === 0 && ok > 0])
    else {
      const sent = ok + limited
      checks.push([`${caller}: allowed exactly min(limit, sent) = ${Math.min(limit, sent)}`, ok === Math.min(limit, sent)])
      checks.push([`${caller}: sent more than its limit (${sent} > ${limit}) and answered 429 past it`, sent > limit && limited === sent - limit])
    }
  }
  const server5xx = readMetric(metrics, 'weft_http_requests_total')
    .filter((m) => m.labels.status?.startsWith('5'))
    .reduce((sum, m) => sum + m.value, 0)
  checks.push(['no 5xx (client and server side)', result['5xx'] === 0 && server5xx === 0])
  checks.push(['no connection errors', result.errors === 0])

  console.log('')
  for (const [name, passed] of checks) console.log(`${passed ? 'ok  ' : 'FAIL'} ${name}`)
  failed = checks.some(([, passed]) => !passed)
} finally {
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  rmSync(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
