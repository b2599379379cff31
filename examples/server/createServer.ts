import { randomBytes } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { APP_ID_HEADER, type AppConfig, QuoteError, getQuote, listChains, parseQuoteParams } from '../../src/index.js'
import { type CallerKind, type IssuedApp, type LogEntry, type ResolvedApp, type ServerConfig, resolveApps, resolveServerConfig } from './config.js'
import { createLiquidity } from './createLiquidity.js'
import { OverloadError, type QuotePool, createQuotePool } from './createQuotePool.js'
import { createMemoryRateLimiter } from './createMemoryRateLimiter.js'
import { createRedisRateLimiter } from './createRedisRateLimiter.js'
import { type ServerMetrics, createMetrics } from './metrics.js'
import { openApiDocument } from './openapi.js'
import type { RateLimiter, RateLimitResult } from './rateLimiter.js'
import { type Caller, type CallerCounter, indexApiKeys, resolveCaller } from './resolveCaller.js'

/** A server built by {@link createServer}, not yet listening. */
export type WeftServer = {
  /** The underlying node:http server. */
  server: Server
  /** Starts listening (port 0: a free one) and resolves with the base URL. */
  listen(port?: number, host?: string): Promise<{ url: string; port: number }>
  /**
   * Stops accepting connections, lets requests in flight finish (at most
   * `graceMs`, default 5 s, then cuts them), and closes the rate limiter it created.
   */
  close(graceMs?: number): Promise<void>
  /** Replaces the issued apps (e.g. after the operator edited the apps file). Throws a 500 QuoteError on a bad entry. */
  setApps(apps: Readonly<Record<string, IssuedApp>>): void
  /** The Prometheus registry served at `/metrics`. */
  metrics: ServerMetrics
  /** Which store counts requests. */
  rateLimiter: RateLimiter
}

/** A listening server: {@link WeftServer} plus its URL. */
export type StartedServer = WeftServer & { url: string; port: number }

type RouteName = '/v1/quote' | '/v1/chains' | '/healthz' | '/metrics' | '/openapi.json'

/** What one request produced, for its log line and metrics. */
type Outcome = { route: RouteName | 'unknown'; caller: Caller | null; code: string | null; error?: unknown }

const apiRoutes = new Set<RouteName>(['/v1/quote', '/v1/chains'])
const routeNames = new Set<string>(['/v1/quote', '/v1/chains', '/healthz', '/metrics', '/openapi.json'])
const exposedHeaders = 'x-trace-id, ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy, retry-after'
/**
 * Request headers a page may send: weft's own, the API key Fabric clients
 * (spanDEX) and most aggregator SDKs send, and the usual content headers.
 */
const allowedRequestHeaders = 'accept, accept-language, content-type, authorization, x-api-key, x-app-id, x-request-id, x-trace-id'
/** Fees of issued apps apply only to requests that proved they are the app. */
const noAppFees: Record<string, AppConfig> = Object.freeze(Object.create(null))
const knownMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Builds the reference HTTP server around weft: `GET /v1/quote` and
 * `GET /v1/chains` as quote-api.md describes them (through `parseQuoteParams`,
 * `getQuote` and `listChains`), rate limits by `x-app-id`, CORS, `/healthz`,
 * `/metrics` (Prometheus), `/openapi.json`, and one JSON log line per request.
 * Resolves once the rate-limit store is connected; throws a 500 `QuoteError`
 * naming the field when the configuration is wrong.
 *
 * @example
 * const app = await createServer({ port: 0 })
 * const { url } = await app.listen()
 * const chains = await (await fetch(`${url}/v1/chains`)).json()
 * await app.close()
 */
export async function createServer(config: ServerConfig = {}): Promise<WeftServer> {
  const settings = resolveServerConfig(config)
  const { log, rateLimits, trustProxyHops, corsOrigins } = settings
  const emitLiquidity = (level: LogEntry['level'], msg: string, fields: Record<string, unknown> = {}) =>
    settings.log({ time: new Date().toISOString(), level, msg, ...fields })
  const liquidity = createLiquidity({ ...settings, log: emitLiquidity })
  const chainsOption = { chains: liquidity.chains }
  const chainsBody = JSON.stringify(listChains(chainsOption))
  const openApiBody = JSON.stringify(openApiDocument)
  const metrics = createMetrics({ defaultMetrics: settings.defaultMetrics })
  const { overload } = settings
  const pool: QuotePool | null =
    overload.workers === 0
      ? null
      : createQuotePool({
          ...overload,
          chains: liquidity.chains,
          snapshots: settings.liquidity.source === 'snapshot' ? (settings.liquidity.snapshots ?? 'default') : null,
          source: liquidity.source,
          onWorkerReplaced: (why) => emit('warn', 'quote worker replaced', { why }),
        })

  let apps: ReadonlyMap<string, ResolvedApp> = settings.apps
  let appFees: Record<string, AppConfig> = feesOf(apps)
  let apiKeys = indexApiKeys(apps)

  const emit = (level: LogEntry['level'], msg: string, fields: Record<string, unknown> = {}) =>
    log({ time: new Date().toISOString(), level, msg, ...fields })

  if (pool) {
    const loading = performance.now()
    await pool.ready
    emit('info', 'quote workers ready', { workers: overload.workers, ms: Math.round(performance.now() - loading) })
  }

  const ownsLimiter = settings.rateLimiter === null
  const rateLimiter: RateLimiter =
    settings.rateLimiter ??
    (settings.redis
      ? await createRedisRateLimiter({
          ...settings.redis,
          onEvent: (event) => emit(event.type === 'error' ? 'warn' : 'info', `redis ${event.type}`, { detail: event.message }),
        }).catch(async (error: unknown) => {
          // No server after all: stop the workers and whatever follows the chain.
          await pool?.close()
          await liquidity.close()
          throw error
        })
      : createMemoryRateLimiter())

  /**
   * Counts the request against every budget of its caller; answers 429 and returns false when
   * any is spent. The headers describe the budget that refused, else the one closest to its end.
   * A failing store lets the request through.
   */
  async function admit(caller: Caller, response: ServerResponse, traceId: string): Promise<boolean> {
    let results: { counter: CallerCounter; result: RateLimitResult }[]
    try {
      results = await Promise.all(caller.counters.map(async (counter) => ({ counter, result: await rateLimiter.hit(counter.key, counter.rule) })))
    } catch (error) {
      metrics.rateLimiterFailures.inc()
      emit('warn', 'rate limiter failed; request let through', { traceId, error: error instanceof Error ? error.message : String(error) })
      return true
    }
    const { counter, result } =
      results.find((entry) => !entry.result.allowed) ?? results.reduce((tightest, entry) => (entry.result.remaining < tightest.result.remaining ? entry : tightest))
    const resetSeconds = Math.max(1, Math.ceil(result.resetMs / 1000))
    response.setHeader('ratelimit-limit', String(result.limit))
    response.setHeader('ratelimit-remaining', String(result.remaining))
    response.setHeader('ratelimit-reset', String(resetSeconds))
    response.setHeader('ratelimit-policy', `${counter.rule.limit};w=${counter.rule.windowMs / 1000}`)
    if (result.allowed) return true
    response.setHeader('retry-after', String(resetSeconds))
    const who = counter.who
    const rule = counter.rule
    sendError(
      response,
      traceId,
      new QuoteError({
        statusCode: 429,
        message: `Rate limit exceeded: ${rule.limit} requests per ${rule.windowMs / 1000} s for ${who}; retry after ${resetSeconds} s`,
      }),
    )
    return false
  }

  async function handleQuote(request: IncomingMessage, response: ServerResponse, query: string, outcome: Outcome, traceId: string, caller: Caller) {
    const params = queryToParams(query)
    const header = request.headers[APP_ID_HEADER]
    // An API key names its app; otherwise the header as sent (parseQuoteParams refuses a malformed one).
    params[APP_ID_HEADER] = caller.authenticatedBy === 'api-key' ? caller.appId : Array.isArray(header) ? header.join(', ') : header
    const started = performance.now()
    try {
      const intent = parseQuoteParams(params, chainsOption)
      const apps = caller.kind === 'issued' ? appFees : noAppFees
      const body = pool
        ? (await pool.quote({ intent, apps, callerKey: caller.counters[0]!.key })).body
        : JSON.stringify(await getQuote(intent, liquidity.source, { ...chainsOption, apps }))
      metrics.quoteDuration.observe({ outcome: 'ok' }, (performance.now() - started) / 1000)
      sendJson(response, 200, body, 'no-store')
    } catch (thrown) {
      const error = asQuoteError(thrown)
      if (error instanceof OverloadError) {
        metrics.overload.inc({ reason: error.reason })
        response.setHeader('retry-after', '1')
      }
      metrics.quoteDuration.observe({ outcome: error.code }, (performance.now() - started) / 1000)
      outcome.error = thrown
      sendError(response, traceId, error)
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse, outcome: Outcome, traceId: string) {
    const rawUrl = request.url ?? '/'
    const queryStart = rawUrl.indexOf('?')
    const path = queryStart < 0 ? rawUrl : rawUrl.slice(0, queryStart)
    const query = queryStart < 0 ? '' : rawUrl.slice(queryStart + 1)
    const method = request.method ?? 'GET'
    if (!routeNames.has(path)) {
      sendError(response, traceId, new QuoteError({ statusCode: 404, message: `Unknown endpoint ${method} ${path.slice(0, 200)}` }))
      return
    }
    const route = path as RouteName
    outcome.route = route
    if (method === 'OPTIONS') {
      // CORS preflight (or a plain OPTIONS): what the browser may send.
      response.setHeader('allow', 'GET, HEAD, OPTIONS')
      response.setHeader('access-control-allow-methods', 'GET, HEAD, OPTIONS')
      response.setHeader('access-control-allow-headers', allowedRequestHeaders)
      response.setHeader('access-control-max-age', '600')
      response.writeHead(204).end()
      return
    }
    if (method !== 'GET' && method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD, OPTIONS')
      sendBody(response, 405, {
        statusCode: 405,
        code: 'method_not_allowed',
        traceId,
        message: `Method ${method.slice(0, 20)} not allowed on ${route}; use GET`,
        details: null,
      })
      return
    }
    if (apiRoutes.has(route)) {
      const caller = resolveCaller(request, { apps, apiKeys, rateLimits, trustProxyHops })
      outcome.caller = caller
      if (!(await admit(caller, response, traceId))) return
      if (route === '/v1/chains') sendJson(response, 200, chainsBody, 'public, max-age=60')
      else await handleQuote(request, response, query, outcome, traceId, caller)
      return
    }
    if (route === '/healthz') {
      const limiterHealthy = await rateLimiter.isHealthy()
      const live = liquidity.health?.()
      // A live source that lost its node answers 503 until a sync succeeds again.
      const liveHealthy = live === undefined || Object.values(live).every((chain) => chain.lastError === null)
      sendJson(
        response,
        200,
        JSON.stringify({
          status: limiterHealthy && liveHealthy ? 'ok' : 'degraded',
          liquidity: liquidity.kind,
          ...(live ? { live } : {}),
          rateLimiter: { kind: rateLimiter.kind, healthy: limiterHealthy },
        }),
        'no-store',
      )
    } else if (route === '/metrics') {
      const text = await metrics.registry.metrics()
      response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text)
    } else {
      sendJson(response, 200, openApiBody, 'public, max-age=300')
    }
  }

  function applyCors(request: IncomingMessage, response: ServerResponse) {
    if (corsOrigins === '*') response.setHeader('access-control-allow-origin', '*')
    else {
      response.setHeader('vary', 'origin')
      const origin = request.headers.origin
      if (origin !== undefined && corsOrigins.has(origin)) response.setHeader('access-control-allow-origin', origin)
    }
    response.setHeader('access-control-expose-headers', exposedHeaders)
  }

  const server = createHttpServer((request, response) => {
    const started = performance.now()
    const traceId = randomBytes(16).toString('hex')
    const outcome: Outcome = { route: 'unknown', caller: null, code: null }
    response.setHeader('x-trace-id', traceId)
    applyCors(request, response)
    handle(request, response, outcome, traceId)
      .catch((thrown) => {
        outcome.error = thrown
        if (!response.headersSent) sendError(response, traceId, asQuoteError(thrown))
        else response.destroy()
      })
      .finally(() => {
        const status = response.statusCode
        const latencyMs = performance.now() - started
        const kind: CallerKind | 'none' = outcome.caller?.kind ?? 'none'
        const method = knownMethods.has(request.method ?? '') ? (request.method as string) : 'other'
        const code = status >= 400 ? (errorCodes.get(response) ?? 'unknown') : null
        metrics.requests.inc({ route: outcome.route, method, status: String(status), app_kind: kind })
        metrics.requestDuration.observe({ route: outcome.route }, latencyMs / 1000)
        if (code !== null) metrics.errors.inc({ route: outcome.route, code })
        const path = (request.url ?? '/').split('?')[0]!.slice(0, 200)
        const fields: Record<string, unknown> = {
          traceId,
          method: request.method,
          path,
          status,
          latencyMs: Math.round(latencyMs * 100) / 100,
          appIdKind: kind,
          appId: outcome.caller?.appId ?? null,
        }
        if (outcome.caller?.authenticatedBy) fields.authenticatedBy = outcome.caller.authenticatedBy
        if (outcome.caller?.kind === 'issued') {
          const name = apps.get(outcome.caller.appId as string)?.name
          if (name) fields.appName = name
        }
        if (code !== null) fields.errorCode = code
        // A 500 logs its cause in full (the response never carries it).
        if (status >= 500 && outcome.error !== undefined) fields.error = describeError(outcome.error)
        emit(status >= 500 ? 'error' : 'info', 'request', fields)
      })
  })
  server.headersTimeout = 10_000
  server.requestTimeout = 30_000

  return {
    server,
    metrics,
    rateLimiter,
    async listen(port = settings.port, host = settings.host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          resolve()
        })
      })
      const address = server.address() as AddressInfo
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
      const url = `http://${shownHost}:${address.port}`
      emit('info', 'listening', {
        url,
        liquidity: liquidity.kind,
        chains: listChains(chainsOption).chains.map((c) => c.id),
        rateLimiter: rateLimiter.kind,
        issuedApps: apps.size,
      })
      return { url, port: address.port }
    },
    async close(graceMs = 5000) {
      // Idle keep-alive connections close now; requests in flight get `graceMs` to finish.
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs)
        server.close(() => {
          clearTimeout(force)
          resolve()
        })
        server.closeIdleConnections()
      })
      await pool?.close()
      await liquidity.close()
      if (ownsLimiter) await rateLimiter.close()
    },
    setApps(next) {
      apps = resolveApps(next, 'apps')
      appFees = feesOf(apps)
      apiKeys = indexApiKeys(apps)
      emit('info', 'issued apps replaced', { issuedApps: apps.size })
    },
  }
}

/**
 * Builds the server and starts listening on `config.port` (0: a free port).
 *
 * @example
 * const app = await startServer({ port: 0, rateLimits: { anonymous: { limit: 3, windowSeconds: 60 } } })
 * const response = await fetch(`${app.url}/v1/quote?chainId=8453&sellToken=…&buyToken=…&sellAmount=1000000`)
 * await app.close()
 */
export async function startServer(config: ServerConfig = {}): Promise<StartedServer> {
  const app = await createServer(config)
  try {
    const { url, port } = await app.listen()
    return { ...app, url, port }
  } catch (error) {
    await app.close().catch(() => {})
    throw error
  }
}

/** The error code each error response carried, for metrics and logs. */
const errorCodes = new WeakMap<ServerResponse, string>()

function feesOf(apps: ReadonlyMap<string, ResolvedApp>): Record<string, AppConfig> {
  const fees: Record<string, AppConfig> = Object.create(null)
  for (const [id, app] of apps) if (app.fees) fees[id] = app.fees
  return fees
}

/**
 * Query values as `parseQuoteParams` takes them: a repeated key becomes an
 * array (which it refuses as "must be given once"). `x-app-id` is read from
 * the header only, never from the query.
 */
function queryToParams(query: string): Record<string, unknown> {
  const params: Record<string, unknown> = Object.create(null)
  for (const [key, value] of new URLSearchParams(query)) {
    if (key === APP_ID_HEADER) continue
    const previous = params[key]
    params[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value]
  }
  return params
}

function asQuoteError(thrown: unknown): QuoteError {
  return thrown instanceof QuoteError ? thrown : new QuoteError({ statusCode: 500, message: 'Internal error', cause: thrown })
}

function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: String(error) }
  const cause = (error as { cause?: unknown }).cause
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    ...(cause !== undefined ? { cause: describeError(cause) } : {}),
  }
}

function sendJson(response: ServerResponse, status: number, body: string, cacheControl: string) {
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': cacheControl,
    })
    .end(body)
}

function sendBody(response: ServerResponse, status: number, body: { code: string } & Record<string, unknown>) {
  errorCodes.set(response, body.code)
  sendJson(response, status, JSON.stringify(body), 'no-store')
}

/** The error body of decisions.md §3: `{ statusCode, code, traceId, message, details }`. */
function sendError(response: ServerResponse, traceId: string, error: QuoteError) {
  const { statusCode, code, message, details } = error.toJSON()
  sendBody(response, statusCode, { statusCode, code, traceId, message, details })
}
