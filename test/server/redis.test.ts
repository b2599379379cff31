// Rate limits in Redis mode against a real redis-server started on a free port:
// the limiter's atomicity and key expiry, two server instances sharing one Redis,
// recovery of the script cache, and the server's behaviour when Redis goes away.
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedisRateLimiter } from '../../examples/server/index.js'
import { QuoteError } from '../../src/index.js'
import { type RedisProcess, getFreePort, startRedis } from './support/redis.js'
import { type TestServer, base, quotePath, startTestServer } from './support/server.js'

let redis: RedisProcess
let raw: ReturnType<typeof createClient>

beforeAll(async () => {
  redis = await startRedis()
  raw = createClient({ url: redis.url })
  raw.on('error', () => {})
  await raw.connect()
})

afterAll(async () => {
  raw?.destroy()
  await redis?.stop()
})

const limits = {
  anonymous: { limit: 2, windowSeconds: 60 },
  selfChosen: { limit: 3, windowSeconds: 60 },
  issued: { limit: 5, windowSeconds: 60 },
}
const sharedKey = 'shared-app-secret-0c7d2e'
const apps = { 'shared-app-5b1e': { rateLimit: { limit: 3, windowSeconds: 60 }, apiKeys: [sharedKey] } }

/** Two instances behind an imaginary load balancer: one Redis, one key prefix. */
async function startPair(keyPrefix: string): Promise<[TestServer, TestServer]> {
  const config = { rateLimits: limits, apps, redis: { url: redis.url, keyPrefix } }
  return [await startTestServer(config), await startTestServer(config)]
}

describe('createRedisRateLimiter', () => {
  it('is atomic: concurrent hits from two limiters never exceed the limit', async () => {
    const [a, b] = await Promise.all([
      createRedisRateLimiter({ url: redis.url, keyPrefix: 'atomic:' }),
      createRedisRateLimiter({ url: redis.url, keyPrefix: 'atomic:' }),
    ])
    try {
      const rule = { limit: 10, windowMs: 60_000 }
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit('burst', rule)))
      expect(results.filter((r) => r.allowed)).toHaveLength(10)
      // Every hit got its own count: remaining runs 9..0 exactly once each among the allowed.
      expect(results.filter((r) => r.allowed).map((r) => r.remaining).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      expect(await raw.get('atomic:burst')).toBe('40')
      // The window expires: the key carries a TTL no longer than the window.
      const ttl = await raw.pTTL('atomic:burst')
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(60_000)
      for (const r of results) expect(r.resetMs).toBeLessThanOrEqual(60_000)
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('restores a lost expiry and an emptied script cache', async () => {
    const limiter = await createRedisRateLimiter({ url: redis.url, keyPrefix: 'repair:' })
    try {
      await raw.set('repair:k', '5') // a counter without TTL
      await raw.sendCommand(['SCRIPT', 'FLUSH'])
      const result = await limiter.hit('k', { limit: 10, windowMs: 30_000 })
      expect(result).toMatchObject({ allowed: true, remaining: 4 })
      const ttl = await raw.pTTL('repair:k')
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(30_000)
    } finally {
      await limiter.close()
    }
  })

  it('refuses to start (a 503 QuoteError, password redacted) when Redis is unreachable', async () => {
    const port = await getFreePort()
    const error = await createRedisRateLimiter({ url: `redis://user:hunter2@127.0.0.1:${port}`, connectTimeoutMs: 500 }).catch((e) => e)
    expect(error).toBeInstanceOf(QuoteError)
    expect(error.statusCode).toBe(503)
    expect(error.message).toMatch(/^Rate-limit store unavailable: Redis at redis:\/\/user:\*\*\*@127\.0\.0\.1:\d+ did not answer/)
    expect(error.message).not.toContain('hunter2')
  })
})

describe('two server instances sharing one Redis', () => {
  it('hold an issued id to its limit across both', async () => {
    const [a, b] = await startPair('pair1:')
    try {
      const headers = { 'x-app-id': 'shared-app-5b1e', 'x-api-key': sharedKey }
      const seen: number[] = []
      for (const app of [a, b, a, b]) seen.push((await fetch(`${app.url}/v1/chains`, { headers })).status)
      expect(seen).toEqual([200, 200, 200, 429])
      const last = await fetch(`${a.url}/v1/chains`, { headers })
      expect(last.status).toBe(429)
      const body = await last.json()
      expect(body).toMatchObject({ statusCode: 429, code: 'rate_limited', details: null })
      expect(body.message).toMatch(/^Rate limit exceeded: 3 requests per 60 s for app shared-app-5b1e; retry after \d+ s$/)
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await raw.get('pair1:issued:shared-app-5b1e')).toBe('5')
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('hold anonymous and self-chosen callers to theirs, on quotes too', async () => {
    const [a, b] = await startPair('pair2:')
    try {
      const path = quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n })
      const anonymous: number[] = []
      for (const app of [a, b, a]) anonymous.push((await fetch(`${app.url}${path}`)).status)
      expect(anonymous).toEqual([200, 200, 429])
      // One counter per address across both instances: the self-chosen limit (3) is already reached.
      const selfChosen: number[] = []
      for (const [i, app] of [b, a].entries()) selfChosen.push((await fetch(`${app.url}${path}`, { headers: { 'x-app-id': `bot-${i}` } })).status)
      expect(selfChosen).toEqual([429, 429])
      expect(await raw.get('pair2:address:127.0.0.1')).toBe('5')
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('report Redis in /healthz', async () => {
    const [a, b] = await startPair('pair3:')
    try {
      expect(await (await fetch(`${a.url}/healthz`)).json()).toEqual({ status: 'ok', liquidity: 'snapshot', rateLimiter: { kind: 'redis', healthy: true } })
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })
})

describe('when Redis goes away', () => {
  it('lets requests through (fail open), counts and logs it, and limits again once Redis is back', async () => {
    const app = await startTestServer({ rateLimits: limits, redis: { url: redis.url, keyPrefix: 'outage:' } })
    try {
      await redis.stop()
      const during = await fetch(`${app.url}/v1/chains`)
      expect(during.status).toBe(200)
      expect(during.headers.get('ratelimit-limit')).toBeNull()
      expect(app.logs.some((entry) => entry.level === 'warn' && entry.msg === 'rate limiter failed; request let through')).toBe(true)
      expect(await (await fetch(`${app.url}/healthz`)).json()).toMatchObject({ status: 'degraded', rateLimiter: { kind: 'redis', healthy: false } })
      expect(await (await fetch(`${app.url}/metrics`)).text()).toMatch(/^weft_rate_limiter_failures_total [1-9]\d*$/m)

      await redis.restart()
      // The client reconnects on its own (capped back-off); wait for it (a bounded wait, not a timing assertion).
      for (let i = 0; i < 300 && !(await app.rateLimiter.isHealthy()); i++) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await app.rateLimiter.isHealthy()).toBe(true)
      const after: number[] = []
      for (let i = 0; i < 3; i++) after.push((await fetch(`${app.url}/v1/chains`)).status)
      expect(after).toEqual([200, 200, 429])
    } finally {
      await app.close()
      raw.destroy()
      raw = createClient({ url: redis.url })
      raw.on('error', () => {})
      await raw.connect()
    }
  })
})
