import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import type { Address } from 'viem'
import { type AppConfig, type ChainConfig, type LiquiditySource, type LiveTrackingPolicy, QuoteError, type Snapshot } from '../../src/index.js'
import type { RateLimiter, RateLimitRule } from './rateLimiter.js'

/** Who is calling, as the `x-app-id` header tells: nothing, an id of its own choosing, or an id the operator issued. */
export type CallerKind = 'anonymous' | 'self-chosen' | 'issued'

/** A rate limit as operators write it: `limit` requests per `windowSeconds`. */
export type RateLimitSetting = { limit: number; windowSeconds: number }

/**
 * An app id the operator issued: its fee configuration (weft's `AppConfig`),
 * optionally its own limit, and how its requests prove they are the app's. An
 * id is public (it is in every request and every quote), so it alone only gets
 * the self-chosen tier: a request is the issued app's when it carries one of
 * the app's secrets in `x-api-key` (servers), or comes from one of its
 * `allowedOrigins` (web pages). An app with neither is never authenticated.
 */
export type IssuedApp = {
  /** Free text for the operator (logged with the app's requests). */
  name?: string
  /** Passed to `getQuote` as `options.apps[appId]`: `feeBps` + `feeRecipient` (default integrator fee), `serviceFeeBps`. */
  fees?: AppConfig
  /** This app's limit; default `rateLimits.issued`. Counted per app id, across client addresses. */
  rateLimit?: RateLimitSetting
  /** Secrets the app sends as `x-api-key` (at least 16 characters). Prefer `apiKeySha256` in files others can read. */
  apiKeys?: readonly string[]
  /** SHA-256 hex digests of the app's secrets: the file never holds the secrets themselves. */
  apiKeySha256?: readonly string[]
  /**
   * Web origins (`https://wallet.example`) whose pages are the app: a browser
   * request with one of them in `Origin` is authenticated without a secret.
   * Any non-browser client can forge `Origin`, so such requests also count
   * against their client address's budget.
   */
  allowedOrigins?: readonly string[]
}

/** Where pool states come from. */
export type LiquidityConfig =
  /** Snapshots (default: weft's embedded synthetic `defaultSnapshot`). Chains without a snapshot are not served. */
  | { source: 'snapshot'; snapshots?: readonly Snapshot[] }
  /** A node per chain id (`createRpcSource`). Chains without a URL are not served. */
  | { source: 'rpc'; rpcUrls: Readonly<Record<string, string>>; timeoutMs?: number; retryCount?: number }
  /**
   * A live source per chain id (`createLiveSource`, followed in the main thread): quotes answer
   * from memory at the source's block, or 503 when it is behind the head or lost its node.
   */
  | {
      source: 'live'
      /** Node URL per chain id: http(s) (polled every `pollingIntervalMs`) or ws(s) (new heads subscribed, polling as the fallback). */
      rpcUrls: Readonly<Record<string, string>>
      /** First block to discover pools from, per chain id (default 0; the factories' deployment block on a real chain). */
      fromBlocks?: Readonly<Record<string, number>>
      /** Which pools are followed, for every chain (default `{ mode: 'all' }`). */
      tracking?: LiveTrackingPolicy
      /** Directory of the checkpoint files (`live-<chainId>.json`): loaded on start, written every `checkpointEveryBlocks` blocks and on close. */
      checkpointDir?: string
      /** Default 100. */
      checkpointEveryBlocks?: number
      /** How often each node is asked for a new block. Default 1,000 ms. */
      pollingIntervalMs?: number
      /** Blocks behind the head before quotes are refused (503). Default 2. */
      maxLagBlocks?: number
      /** Time since the last successful sync before quotes are refused (503). Default 30,000 ms. */
      maxAgeMs?: number
      timeoutMs?: number
      retryCount?: number
    }
  /** Any `LiquiditySource` (programmatic use only); `chainIds` limits the served chains (default: every active chain). */
  | { source: 'custom'; liquiditySource: LiquiditySource; chainIds?: readonly number[] }

/** One structured log line. */
export type LogEntry = { time: string; level: 'info' | 'warn' | 'error'; msg: string; [field: string]: unknown }

/** Everything `createServer` accepts. All optional; the defaults serve the embedded snapshot with in-memory limits. */
export type ServerConfig = {
  /** Interface to listen on. Default `127.0.0.1` (set `0.0.0.0` in a container). */
  host?: string
  /** Port; 0 picks a free one. Default 8080. */
  port?: number
  liquidity?: LiquidityConfig
  /** Chain configurations added to or replacing weft's built-in ones (a devnet, your own executor). */
  chains?: readonly ChainConfig[]
  /** Treasury per chain id: receives the service fee (`serviceFeeBps`, `surplusFeeBps / 1000`). No treasury, no service fee. */
  treasuries?: Readonly<Record<string, Address>>
  /** Limits per caller kind; `issued` is the default of issued apps without their own. */
  rateLimits?: Partial<Record<'anonymous' | 'selfChosen' | 'issued', RateLimitSetting>>
  /** Issued app ids. */
  apps?: Readonly<Record<string, IssuedApp>>
  /** Share rate-limit counters through Redis (several instances behind a load balancer). Default: in memory. */
  redis?: { url: string; keyPrefix?: string; commandTimeoutMs?: number }
  /** A ready limiter instead of `redis` or memory (the server does not close it). */
  rateLimiter?: RateLimiter
  /**
   * Proxy hops in front of the server whose `x-forwarded-for` entries are trusted
   * (true = 1). The client address is the entry that many places from the right.
   * Default 0: the socket's address.
   */
  trustProxy?: boolean | number
  /** Origins allowed by CORS: `'*'` (default) or a list of exact origins. */
  corsOrigins?: '*' | readonly string[]
  /** Where log lines go. Default: one JSON line each on stdout. */
  log?: (entry: LogEntry) => void
  /** Also export prom-client's default process metrics. Default true. */
  defaultMetrics?: boolean
  /** Quote workers, the per-quote budget and the queues (see {@link OverloadSetting}). */
  overload?: OverloadSetting
}

/**
 * How the server stays up under load: quotes run in `worker_threads`, each
 * within a wall-time budget, and wait in two bounded queues (light and heavy).
 */
export type OverloadSetting = {
  /**
   * Quote worker threads; at least 2 (heavy quotes may hold all but one). 0 runs
   * quotes on the event loop, with no budget and no queue (tests, tiny demos).
   * Default: the cores less one, at least 2.
   */
  workers?: number
  /**
   * CPU time one quote may take in its worker thread (Linux; at most 4 times as much wall time;
   * wall time where the OS does not tell); past it its worker is replaced and the answer is 503.
   * Default 1,500 ms.
   */
  budgetMs?: number
  /** Light quotes that may wait for a worker; the next is answered 503 at once. Default 64. */
  maxQueue?: number
  /** Heavy quotes that may wait. Default 8. */
  maxHeavyQueue?: number
  /** Longest wait for a worker before a 503. Default: `budgetMs`. */
  maxQueueWaitMs?: number
  /**
   * A request shape averaging more than this (ms) per quote, and more than 5 times the median
   * recent quote (wall times grow on a busy machine), is heavy; for a new shape, its caller's
   * average decides. Default 15 (a plain quote takes 3 to 5 ms of CPU).
   */
  heavyQuoteMs?: number
}

/** An issued app after validation: its secrets as SHA-256 hex digests. */
export type ResolvedApp = {
  name: string | null
  fees: AppConfig | null
  rule: RateLimitRule | null
  apiKeySha256: ReadonlySet<string>
  allowedOrigins: ReadonlySet<string>
}

/** A `ServerConfig` with defaults applied and every value checked. */
export type ResolvedServerConfig = {
  host: string
  port: number
  liquidity: LiquidityConfig
  chains: readonly ChainConfig[]
  treasuries: ReadonlyMap<number, Address>
  rateLimits: Readonly<Record<CallerKind, RateLimitRule>>
  apps: ReadonlyMap<string, ResolvedApp>
  redis: { url: string; keyPrefix: string; commandTimeoutMs: number } | null
  rateLimiter: RateLimiter | null
  trustProxyHops: number
  corsOrigins: '*' | ReadonlySet<string>
  log: (entry: LogEntry) => void
  defaultMetrics: boolean
  overload: Required<OverloadSetting>
}

/** Defaults of the three limits (the spec leaves the numbers open). */
export const defaultRateLimits: Readonly<Record<'anonymous' | 'selfChosen' | 'issued', RateLimitSetting>> = {
  anonymous: { limit: 30, windowSeconds: 60 },
  selfChosen: { limit: 120, windowSeconds: 60 },
  issued: { limit: 600, windowSeconds: 60 },
}

/** `x-app-id`: 1 to 128 printable ASCII characters (docs/decisions.md, the rule `parseQuoteParams` applies). */
export const appIdPattern = /^[\x20-\x7e]{1,128}$/
const addressPattern = /^0x[0-9a-fA-F]{40}$/
const chainIdPattern = /^[1-9][0-9]{0,15}$/

/** A server configuration error: a 500 QuoteError naming the field (the host's data is wrong, as in weft). */
export function configError(field: string, why: string): QuoteError {
  return new QuoteError({ statusCode: 500, message: `Invalid server config: ${field} ${why}` })
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Checks a limit and converts it to milliseconds. */
export function toRateLimitRule(setting: unknown, field: string): RateLimitRule {
  if (!isObject(setting)) throw configError(field, 'must be an object { limit, windowSeconds }')
  const { limit, windowSeconds } = setting
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1e9)
    throw configError(`${field}.limit`, 'must be an integer from 1 to 1e9')
  if (typeof windowSeconds !== 'number' || !Number.isFinite(windowSeconds) || windowSeconds < 0.001 || windowSeconds > 7 * 86400)
    throw configError(`${field}.windowSeconds`, 'must be a number of seconds from 0.001 to 604800')
  return { limit, windowMs: Math.round(windowSeconds * 1000) }
}

function checkAddress(value: unknown, field: string): Address {
  if (typeof value !== 'string' || !addressPattern.test(value)) throw configError(field, 'must be an address (0x followed by 40 hex digits)')
  return value.toLowerCase() as Address
}

function checkFees(fees: unknown, field: string): AppConfig {
  if (!isObject(fees)) throw configError(field, 'must be an object')
  const known = new Set(['serviceFeeBps', 'feeBps', 'feeRecipient'])
  for (const key of Object.keys(fees)) if (!known.has(key)) throw configError(`${field}.${key}`, 'is not a fee setting (serviceFeeBps, feeBps, feeRecipient)')
  const result: AppConfig = {}
  if (fees.serviceFeeBps !== undefined) {
    const bps = fees.serviceFeeBps
    // The executor takes rates in 1e-7 units: three decimals of a bps are exact.
    if (typeof bps !== 'number' || !Number.isFinite(bps) || bps < 0 || bps > 1000 || Math.round(bps * 1000) !== bps * 1000)
      throw configError(`${field}.serviceFeeBps`, 'must be a number from 0 to 1000 with at most 3 decimals')
    result.serviceFeeBps = bps
  }
  if (fees.feeBps !== undefined || fees.feeRecipient !== undefined) {
    const bps = fees.feeBps
    if (typeof bps !== 'number' || !Number.isInteger(bps) || bps < 0 || bps > 1000)
      throw configError(`${field}.feeBps`, 'must be an integer from 0 to 1000 (and is required with feeRecipient)')
    if (fees.feeRecipient === undefined) throw configError(`${field}.feeRecipient`, 'is required with feeBps')
    result.feeBps = bps
    result.feeRecipient = checkAddress(fees.feeRecipient, `${field}.feeRecipient`)
  }
  return result
}

/**
 * Checks issued apps (from the config or an apps file) and keys them by app id.
 *
 * @example
 * resolveApps({ 'acme-wallet': { fees: { feeBps: 20, feeRecipient: '0x…' }, rateLimit: { limit: 3000, windowSeconds: 60 } } }, 'apps')
 */
export function resolveApps(apps: unknown, field: string): Map<string, ResolvedApp> {
  if (!isObject(apps)) throw configError(field, 'must be an object of app id -> app')
  const resolved = new Map<string, ResolvedApp>()
  const keyOwners = new Map<string, string>()
  for (const [id, app] of Object.entries(apps)) {
    const at = `${field}[${JSON.stringify(id)}]`
    if (!appIdPattern.test(id)) throw configError(at, 'is not a valid app id (1 to 128 printable ASCII characters)')
    if (!isObject(app)) throw configError(at, 'must be an object { name?, fees?, rateLimit?, apiKeys?, apiKeySha256?, allowedOrigins? }')
    for (const key of Object.keys(app))
      if (!appKeys.has(key)) throw configError(`${at}.${key}`, `is not an app setting (${[...appKeys].join(', ')})`)
    if (app.name !== undefined && typeof app.name !== 'string') throw configError(`${at}.name`, 'must be a string')
    const digests = new Set<string>()
    for (const [i, key] of stringList(app.apiKeys, `${at}.apiKeys`).entries()) {
      if (!apiKeyPattern.test(key)) throw configError(`${at}.apiKeys[${i}]`, 'must be 16 to 256 printable ASCII characters')
      digests.add(sha256Hex(key))
    }
    for (const [i, digest] of stringList(app.apiKeySha256, `${at}.apiKeySha256`).entries()) {
      if (!/^[0-9a-fA-F]{64}$/.test(digest)) throw configError(`${at}.apiKeySha256[${i}]`, 'must be a SHA-256 digest (64 hex digits)')
      digests.add(digest.toLowerCase())
    }
    for (const digest of digests) {
      const owner = keyOwners.get(digest)
      if (owner !== undefined && owner !== id) throw configError(`${at}.apiKeys`, `repeats a key of app ${JSON.stringify(owner)}`)
      keyOwners.set(digest, id)
    }
    const origins = stringList(app.allowedOrigins, `${at}.allowedOrigins`)
    for (const [i, origin] of origins.entries())
      if (!originPattern.test(origin)) throw configError(`${at}.allowedOrigins[${i}]`, 'must be an origin such as https://wallet.example (no path)')
    resolved.set(id, {
      name: (app.name as string | undefined) ?? null,
      fees: app.fees === undefined ? null : checkFees(app.fees, `${at}.fees`),
      rule: app.rateLimit === undefined ? null : toRateLimitRule(app.rateLimit, `${at}.rateLimit`),
      apiKeySha256: digests,
      allowedOrigins: new Set(origins),
    })
  }
  return resolved
}

const appKeys = new Set(['name', 'fees', 'rateLimit', 'apiKeys', 'apiKeySha256', 'allowedOrigins'])
/** `x-api-key`: long enough to be a secret, printable ASCII like every header value weft reads. */
export const apiKeyPattern = /^[\x21-\x7e]{16,256}$/
const originPattern = /^https?:\/\/[^/\s]+$/

/**
 * The SHA-256 hex digest of an API key, as `apiKeySha256` holds it.
 *
 * @example
 * sha256Hex('acme-secret-0123456789') // '…' (64 hex digits)
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw configError(field, 'must be a list of strings')
  return value
}

const writeJsonLine = (entry: LogEntry) => {
  process.stdout.write(`${JSON.stringify(entry)}\n`)
}

function checkLiquidity(liquidity: unknown): LiquidityConfig {
  if (liquidity === undefined) return { source: 'snapshot' }
  if (!isObject(liquidity)) throw configError('liquidity', 'must be an object')
  if (liquidity.source === 'snapshot') {
    if (liquidity.snapshots !== undefined && !Array.isArray(liquidity.snapshots)) throw configError('liquidity.snapshots', 'must be an array of snapshots')
    return liquidity as LiquidityConfig
  }
  if (liquidity.source === 'rpc') {
    const { rpcUrls, timeoutMs, retryCount } = liquidity
    if (!isObject(rpcUrls) || Object.keys(rpcUrls).length === 0) throw configError('liquidity.rpcUrls', 'must map at least one chain id to an RPC URL')
    for (const [id, url] of Object.entries(rpcUrls)) {
      if (!chainIdPattern.test(id)) throw configError(`liquidity.rpcUrls[${JSON.stringify(id)}]`, 'is not a chain id')
      if (typeof url !== 'string' || !/^(https?|wss?):\/\/\S+$/.test(url))
        throw configError(`liquidity.rpcUrls[${JSON.stringify(id)}]`, 'must be an http(s) or ws(s) URL')
    }
    if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1))
      throw configError('liquidity.timeoutMs', 'must be a positive integer')
    if (retryCount !== undefined && (typeof retryCount !== 'number' || !Number.isInteger(retryCount) || retryCount < 0 || retryCount > 10))
      throw configError('liquidity.retryCount', 'must be an integer from 0 to 10')
    return liquidity as LiquidityConfig
  }
  if (liquidity.source === 'live') {
    const { rpcUrls, fromBlocks, tracking, checkpointDir } = liquidity
    if (!isObject(rpcUrls) || Object.keys(rpcUrls).length === 0) throw configError('liquidity.rpcUrls', 'must map at least one chain id to an RPC URL')
    for (const [id, url] of Object.entries(rpcUrls)) {
      if (!chainIdPattern.test(id)) throw configError(`liquidity.rpcUrls[${JSON.stringify(id)}]`, 'is not a chain id')
      if (typeof url !== 'string' || !/^(https?|wss?):\/\/\S+$/.test(url))
        throw configError(`liquidity.rpcUrls[${JSON.stringify(id)}]`, 'must be an http(s) or ws(s) URL')
    }
    if (fromBlocks !== undefined) {
      if (!isObject(fromBlocks)) throw configError('liquidity.fromBlocks', 'must map chain ids to block numbers')
      for (const [id, block] of Object.entries(fromBlocks))
        if (!Object.hasOwn(rpcUrls, id) || !Number.isSafeInteger(block) || (block as number) < 0)
          throw configError(`liquidity.fromBlocks[${JSON.stringify(id)}]`, 'must be a block number of a chain in rpcUrls')
    }
    if (tracking !== undefined) {
      const mode = isObject(tracking) ? tracking.mode : undefined
      const tokens = isObject(tracking) ? tracking.tokens : undefined
      const tokenList = tokens === undefined || (Array.isArray(tokens) && tokens.every((t) => typeof t === 'string' && addressPattern.test(t)))
      if (!(mode === 'all' || ((mode === 'tokens' || mode === 'onDemand') && tokenList)) || (mode === 'tokens' && tokens === undefined))
        throw configError('liquidity.tracking', "must be { mode: 'all' }, { mode: 'tokens', tokens: [addresses] } or { mode: 'onDemand', tokens?: [addresses] }")
    }
    if (checkpointDir !== undefined && (typeof checkpointDir !== 'string' || checkpointDir === '')) throw configError('liquidity.checkpointDir', 'must be a directory path')
    const positive = ['checkpointEveryBlocks', 'pollingIntervalMs', 'maxAgeMs', 'timeoutMs'] as const
    for (const key of positive) {
      const value = liquidity[key]
      if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) throw configError(`liquidity.${key}`, 'must be a positive integer')
    }
    for (const key of ['maxLagBlocks', 'retryCount'] as const) {
      const value = liquidity[key]
      if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 1000)) throw configError(`liquidity.${key}`, 'must be an integer from 0 to 1000')
    }
    return liquidity as LiquidityConfig
  }
  if (liquidity.source === 'custom') {
    const source = liquidity.liquiditySource as { getLiquidity?: unknown } | undefined
    if (!source || typeof source.getLiquidity !== 'function') throw configError('liquidity.liquiditySource', 'must be a LiquiditySource')
    return liquidity as LiquidityConfig
  }
  throw configError('liquidity.source', 'must be "snapshot", "rpc", "live" or "custom"')
}

function checkOverload(overload: unknown): Required<OverloadSetting> {
  if (overload !== undefined && !isObject(overload)) throw configError('overload', 'must be an object')
  const given = (overload ?? {}) as Record<string, unknown>
  const known = ['workers', 'budgetMs', 'maxQueue', 'maxHeavyQueue', 'maxQueueWaitMs', 'heavyQuoteMs']
  for (const key of Object.keys(given)) if (!known.includes(key)) throw configError(`overload.${key}`, `is not an overload setting (${known.join(', ')})`)
  const integer = (key: string, fallback: number, min: number, max: number) => {
    const value = given[key] ?? fallback
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw configError(`overload.${key}`, `must be an integer from ${min} to ${max}`)
    return value
  }
  const workers = integer('workers', Math.max(2, availableParallelism() - 1), 0, 256)
  if (workers === 1) throw configError('overload.workers', 'must be 0 (in-process) or at least 2 (one always free for light quotes)')
  const budgetMs = integer('budgetMs', 1500, 10, 600_000)
  return {
    workers,
    budgetMs,
    maxQueue: integer('maxQueue', 64, 0, 100_000),
    maxHeavyQueue: integer('maxHeavyQueue', 8, 0, 100_000),
    maxQueueWaitMs: integer('maxQueueWaitMs', budgetMs, 1, 600_000),
    heavyQuoteMs: integer('heavyQuoteMs', 15, 1, 600_000),
  }
}

/**
 * Applies the defaults and checks every value of a `ServerConfig`; throws a
 * 500 `QuoteError` naming the first bad field.
 *
 * @example
 * const resolved = resolveServerConfig({ port: 0, rateLimits: { anonymous: { limit: 3, windowSeconds: 60 } } })
 */
export function resolveServerConfig(config: ServerConfig = {}): ResolvedServerConfig {
  if (!isObject(config)) throw configError('config', 'must be an object')
  const host = config.host ?? '127.0.0.1'
  if (typeof host !== 'string' || host.length === 0) throw configError('host', 'must be a host name or address')
  const port = config.port ?? 8080
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw configError('port', 'must be an integer from 0 to 65535')

  const limits = { ...defaultRateLimits, ...(config.rateLimits ?? {}) }
  const rateLimits = {
    anonymous: toRateLimitRule(limits.anonymous, 'rateLimits.anonymous'),
    'self-chosen': toRateLimitRule(limits.selfChosen, 'rateLimits.selfChosen'),
    issued: toRateLimitRule(limits.issued, 'rateLimits.issued'),
  }

  const treasuries = new Map<number, Address>()
  for (const [id, address] of Object.entries(config.treasuries ?? {})) {
    if (!chainIdPattern.test(id)) throw configError(`treasuries[${JSON.stringify(id)}]`, 'is not a chain id')
    treasuries.set(Number(id), checkAddress(address, `treasuries[${id}]`))
  }

  let redis: ResolvedServerConfig['redis'] = null
  if (config.redis !== undefined) {
    const { url, keyPrefix = 'weft:rl:', commandTimeoutMs = 500 } = config.redis
    if (typeof url !== 'string' || !/^rediss?:\/\/\S+$/.test(url)) throw configError('redis.url', 'must be a redis:// or rediss:// URL')
    if (typeof keyPrefix !== 'string') throw configError('redis.keyPrefix', 'must be a string')
    if (!Number.isInteger(commandTimeoutMs) || commandTimeoutMs < 1) throw configError('redis.commandTimeoutMs', 'must be a positive integer')
    redis = { url, keyPrefix, commandTimeoutMs }
  }

  const trust = config.trustProxy ?? 0
  const trustProxyHops = trust === true ? 1 : trust === false ? 0 : trust
  if (!Number.isInteger(trustProxyHops) || trustProxyHops < 0 || trustProxyHops > 10) throw configError('trustProxy', 'must be a boolean or an integer from 0 to 10')

  const origins = config.corsOrigins ?? '*'
  if (origins !== '*' && !(Array.isArray(origins) && origins.every((o) => typeof o === 'string')))
    throw configError('corsOrigins', 'must be "*" or a list of origins')

  if (config.log !== undefined && typeof config.log !== 'function') throw configError('log', 'must be a function')
  if (config.chains !== undefined && !Array.isArray(config.chains)) throw configError('chains', 'must be an array of chain configurations')

  return {
    overload: checkOverload(config.overload),
    host,
    port,
    liquidity: checkLiquidity(config.liquidity),
    chains: config.chains ?? [],
    treasuries,
    rateLimits,
    apps: resolveApps(config.apps ?? {}, 'apps'),
    redis,
    rateLimiter: config.rateLimiter ?? null,
    trustProxyHops,
    corsOrigins: origins === '*' ? '*' : new Set(origins),
    log: config.log ?? writeJsonLine,
    defaultMetrics: config.defaultMetrics ?? true,
  }
}
