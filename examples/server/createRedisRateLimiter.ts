import { createHash } from 'node:crypto'
import { createClient } from 'redis'
import { QuoteError } from '../../src/index.js'
import { type RateLimiter, type RateLimitRule, toRateLimitResult } from './rateLimiter.js'

export type CreateRedisRateLimiterParameters = {
  /** `redis://[[user][:password]@]host[:port][/db]` (or `rediss://` for TLS). */
  url: string
  /** Prefix of every counter key. Default `weft:rl:`. */
  keyPrefix?: string
  /** A command that takes longer fails (and the server lets the request through). Default 500 ms. */
  commandTimeoutMs?: number
  /** TCP connect timeout. Default 2,000 ms. */
  connectTimeoutMs?: number
  /** Connection attempts before the first successful connection gives up. Default 3. */
  startAttempts?: number
  /** Connection errors and recoveries (the client reconnects on its own). */
  onEvent?: (event: { type: 'error' | 'ready'; message: string }) => void
}

/**
 * One atomic step per request: count, and open the window on the first hit.
 * `PTTL` < 0 means the key has no expiry yet (first hit) or lost it; either
 * way the window starts now, so no counter can live forever.
 */
const hitScript = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`
const hitScriptSha = createHash('sha1').update(hitScript).digest('hex')

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(unparsable URL)'
  }
}

/**
 * A rate limiter whose counters live in Redis, so every server instance
 * using the same Redis shares them. Each hit is one Lua script (INCR, then
 * PEXPIRE when the window opens), atomic on the Redis server. Connects before
 * resolving and rejects (a 503 QuoteError) when Redis is unreachable at start; later outages make
 * `hit` reject fast (no offline queue) while the client reconnects.
 *
 * @example
 * const limiter = await createRedisRateLimiter({ url: 'redis://127.0.0.1:6379' })
 * await limiter.hit('issued:my-app', { limit: 600, windowMs: 60_000 })
 */
export async function createRedisRateLimiter({
  url,
  keyPrefix = 'weft:rl:',
  commandTimeoutMs = 500,
  connectTimeoutMs = 2000,
  startAttempts = 3,
  onEvent = () => {},
}: CreateRedisRateLimiterParameters): Promise<RateLimiter> {
  let started = false
  let healthy = false
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: {
      connectTimeout: connectTimeoutMs,
      // Before the first connection: give up after a few attempts, so a wrong URL fails the start.
      // After it: keep reconnecting with a capped back-off.
      reconnectStrategy: (retries, cause) => (!started && retries >= startAttempts - 1 ? cause : Math.min(100 * (retries + 1), 2000)),
    },
  })
  client.on('error', (error: unknown) => {
    if (healthy || !started) onEvent({ type: 'error', message: error instanceof Error ? error.message : String(error) })
    healthy = false
  })
  client.on('ready', () => {
    if (started && !healthy) onEvent({ type: 'ready', message: 'reconnected to Redis' })
    healthy = true
  })
  try {
    await client.connect()
  } catch (error) {
    client.destroy()
    throw new QuoteError({
      statusCode: 503,
      message: `Rate-limit store unavailable: Redis at ${redactUrl(url)} did not answer (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    })
  }
  started = true
  healthy = true

  const run = async (key: string, windowMs: number): Promise<unknown> => {
    const args = ['1', keyPrefix + key, String(windowMs)]
    try {
      return await client.sendCommand(['EVALSHA', hitScriptSha, ...args])
    } catch (error) {
      // The script cache is empty after a Redis restart: send the script itself once.
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return client.sendCommand(['EVAL', hitScript, ...args])
      throw error
    }
  }

  return {
    kind: 'redis',
    async hit(key: string, rule: RateLimitRule) {
      const reply = await run(key, rule.windowMs)
      if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'number')
        throw new Error(`unexpected rate-limit script reply ${JSON.stringify(reply)}`)
      return toRateLimitResult(reply[0], rule, reply[1])
    },
    async isHealthy() {
      try {
        return (await client.sendCommand<unknown>(['PING'])) === 'PONG'
      } catch {
        return false
      }
    },
    async close() {
      try {
        await client.close()
      } catch {
        client.destroy()
      }
    },
  }
}
