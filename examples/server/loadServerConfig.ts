import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { Snapshot } from '../../src/index.js'
import { type IssuedApp, type LiquidityConfig, type RateLimitSetting, type ServerConfig, configError, resolveApps } from './config.js'

/** Options of {@link loadServerConfig}. */
export type LoadServerConfigParameters = {
  /** A JSON config file; default `WEFT_CONFIG` from `env`, else none. */
  configFile?: string
  /** Environment variables (default `process.env`); they override the file. */
  env?: Readonly<Record<string, string | undefined>>
}

/** What {@link loadServerConfig} found: the config, and the apps file to re-read on SIGHUP. */
export type LoadedServerConfig = { config: ServerConfig; appsFile: string | null }

/** The keys a config file may hold (see README.md). */
const fileKeys = new Set([
  'host', 'port', 'liquidity', 'treasuries', 'rateLimits', 'apps', 'appsFile', 'redis', 'trustProxy', 'corsOrigins', 'defaultMetrics', 'overload',
])

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw configError(what, `cannot be read from ${path}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw configError(what, `is not valid JSON (${path}): ${(error as Error).message}`)
  }
}

/**
 * Reads an apps file, `{ "apps": { "<app id>": { "name", "fees", "rateLimit" } } }`,
 * and checks every entry (a 500 `QuoteError` naming the first bad one).
 *
 * @example
 * server.setApps(await loadAppsFile('./apps.json'))
 */
export async function loadAppsFile(path: string): Promise<Record<string, IssuedApp>> {
  const json = await readJson(path, 'appsFile')
  if (!isObject(json) || !isObject(json.apps)) throw configError('appsFile', `must hold { "apps": { ... } } (${path})`)
  resolveApps(json.apps, `appsFile ${path}: apps`)
  return json.apps as Record<string, IssuedApp>
}

/** `"<limit>/<windowSeconds>"`, e.g. `30/60`. */
function parseLimit(value: string, name: string): RateLimitSetting {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(value)
  if (!match) throw configError(name, 'must be "<limit>/<windowSeconds>", e.g. 30/60')
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) }
}

function parseInteger(value: string, name: string): number {
  if (!/^\d+$/.test(value.trim())) throw configError(name, 'must be a non-negative integer')
  return Number(value)
}

/**
 * Reads the server configuration from a JSON file and/or environment
 * variables (the variables win), as documented in examples/server/README.md.
 * Relative paths in the file resolve against the file's folder. Throws a 500
 * `QuoteError` naming the bad setting.
 *
 * @example
 * const { config, appsFile } = await loadServerConfig({ env: process.env })
 * const app = await startServer(config)
 */
export async function loadServerConfig({ configFile, env = process.env }: LoadServerConfigParameters = {}): Promise<LoadedServerConfig> {
  const file = configFile ?? env.WEFT_CONFIG
  const config: ServerConfig = {}
  let appsFile: string | null = null
  let snapshotFile: string | null = null
  let liquidity: Record<string, unknown> | undefined

  if (file) {
    const json = await readJson(file, 'config file')
    if (!isObject(json)) throw configError('config file', `must hold a JSON object (${file})`)
    for (const key of Object.keys(json)) if (!fileKeys.has(key)) throw configError(key, `is not a setting (${file})`)
    const base = dirname(resolve(file))
    Object.assign(config, json)
    delete (config as Record<string, unknown>).appsFile
    delete config.liquidity
    if (json.appsFile !== undefined) {
      if (typeof json.appsFile !== 'string') throw configError('appsFile', 'must be a path')
      appsFile = resolve(base, json.appsFile)
    }
    if (json.liquidity !== undefined) {
      if (!isObject(json.liquidity)) throw configError('liquidity', 'must be an object')
      liquidity = { ...json.liquidity }
      if (liquidity.snapshotFile !== undefined) {
        if (typeof liquidity.snapshotFile !== 'string') throw configError('liquidity.snapshotFile', 'must be a path')
        snapshotFile = resolve(base, liquidity.snapshotFile)
        delete liquidity.snapshotFile
      }
    }
  }

  const port = env.WEFT_PORT ?? env.PORT
  if (port !== undefined) config.port = parseInteger(port, env.WEFT_PORT !== undefined ? 'WEFT_PORT' : 'PORT')
  if (env.WEFT_HOST) config.host = env.WEFT_HOST

  // Liquidity: WEFT_RPC_URL_<chainId> adds (or replaces) one chain's node and selects the RPC source.
  const rpcUrls: Record<string, string> = isObject(liquidity?.rpcUrls) ? { ...(liquidity.rpcUrls as Record<string, string>) } : {}
  let envRpc = false
  for (const [name, value] of Object.entries(env)) {
    const match = /^WEFT_RPC_URL_(\d+)$/.exec(name)
    if (match && value) {
      rpcUrls[match[1]!] = value
      envRpc = true
    }
  }
  const source = env.WEFT_LIQUIDITY ?? (envRpc ? 'rpc' : (liquidity?.source as string | undefined))
  if (env.WEFT_SNAPSHOT_FILE) snapshotFile = resolve(env.WEFT_SNAPSHOT_FILE)
  if (source !== undefined) {
    if (source === 'live') {
      // WEFT_LIVE_FROM_BLOCK_<chainId> and WEFT_LIVE_CHECKPOINT_DIR complete a live source.
      const fromBlocks: Record<string, number> = isObject(liquidity?.fromBlocks) ? { ...(liquidity.fromBlocks as Record<string, number>) } : {}
      for (const [name, value] of Object.entries(env)) {
        const match = /^WEFT_LIVE_FROM_BLOCK_(\d+)$/.exec(name)
        if (match && value) fromBlocks[match[1]!] = parseInteger(value, name)
      }
      const checkpointDir = env.WEFT_LIVE_CHECKPOINT_DIR ? resolve(env.WEFT_LIVE_CHECKPOINT_DIR) : liquidity?.checkpointDir
      config.liquidity = {
        ...(liquidity ?? {}),
        source: 'live',
        rpcUrls,
        ...(Object.keys(fromBlocks).length > 0 ? { fromBlocks } : {}),
        ...(checkpointDir !== undefined ? { checkpointDir } : {}),
      } as LiquidityConfig
    } else if (source === 'rpc') {
      const timeoutMs = env.WEFT_RPC_TIMEOUT_MS !== undefined ? parseInteger(env.WEFT_RPC_TIMEOUT_MS, 'WEFT_RPC_TIMEOUT_MS') : liquidity?.timeoutMs
      config.liquidity = { ...(liquidity ?? {}), source: 'rpc', rpcUrls, ...(timeoutMs !== undefined ? { timeoutMs } : {}) } as LiquidityConfig
    } else if (source === 'snapshot') {
      config.liquidity = { source: 'snapshot' }
    } else throw configError(env.WEFT_LIQUIDITY !== undefined ? 'WEFT_LIQUIDITY' : 'liquidity.source', 'must be "snapshot", "rpc" or "live"')
  } else if (liquidity !== undefined) {
    config.liquidity = liquidity as LiquidityConfig // no source: resolveServerConfig names the problem
  }
  if (snapshotFile !== null && config.liquidity?.source !== 'rpc' && config.liquidity?.source !== 'live') {
    const json = await readJson(snapshotFile, 'snapshotFile')
    const snapshots = (Array.isArray(json) ? json : [json]) as Snapshot[]
    config.liquidity = { source: 'snapshot', snapshots }
  }

  if (env.WEFT_REDIS_URL) config.redis = { ...(config.redis ?? {}), url: env.WEFT_REDIS_URL }
  if (env.WEFT_REDIS_KEY_PREFIX !== undefined) {
    if (!config.redis) throw configError('WEFT_REDIS_KEY_PREFIX', 'needs WEFT_REDIS_URL or redis.url')
    config.redis = { ...config.redis, keyPrefix: env.WEFT_REDIS_KEY_PREFIX }
  }

  const limits = { ...(config.rateLimits ?? {}) }
  if (env.WEFT_RATE_LIMIT_ANONYMOUS) limits.anonymous = parseLimit(env.WEFT_RATE_LIMIT_ANONYMOUS, 'WEFT_RATE_LIMIT_ANONYMOUS')
  if (env.WEFT_RATE_LIMIT_SELF_CHOSEN) limits.selfChosen = parseLimit(env.WEFT_RATE_LIMIT_SELF_CHOSEN, 'WEFT_RATE_LIMIT_SELF_CHOSEN')
  if (env.WEFT_RATE_LIMIT_ISSUED) limits.issued = parseLimit(env.WEFT_RATE_LIMIT_ISSUED, 'WEFT_RATE_LIMIT_ISSUED')
  if (Object.keys(limits).length > 0) config.rateLimits = limits

  const treasuries = { ...(config.treasuries ?? {}) }
  for (const [name, value] of Object.entries(env)) {
    const match = /^WEFT_TREASURY_(\d+)$/.exec(name)
    if (match && value) treasuries[match[1]!] = value as `0x${string}`
  }
  if (Object.keys(treasuries).length > 0) config.treasuries = treasuries

  if (env.WEFT_TRUST_PROXY !== undefined) {
    const value = env.WEFT_TRUST_PROXY.trim()
    config.trustProxy = value === 'true' ? true : value === 'false' ? false : parseInteger(value, 'WEFT_TRUST_PROXY')
  }
  if (env.WEFT_CORS_ORIGINS !== undefined) {
    const value = env.WEFT_CORS_ORIGINS.trim()
    config.corsOrigins = value === '*' ? '*' : value.split(',').map((origin) => origin.trim()).filter(Boolean)
  }

  if (env.WEFT_QUOTE_WORKERS !== undefined) config.overload = { ...(config.overload ?? {}), workers: parseInteger(env.WEFT_QUOTE_WORKERS, 'WEFT_QUOTE_WORKERS') }
  if (env.WEFT_QUOTE_BUDGET_MS !== undefined) config.overload = { ...(config.overload ?? {}), budgetMs: parseInteger(env.WEFT_QUOTE_BUDGET_MS, 'WEFT_QUOTE_BUDGET_MS') }

  if (env.WEFT_APPS_FILE) appsFile = resolve(env.WEFT_APPS_FILE)
  if (appsFile !== null) config.apps = { ...(config.apps ?? {}), ...(await loadAppsFile(appsFile)) }

  return { config, appsFile }
}
