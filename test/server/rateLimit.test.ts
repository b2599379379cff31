// Rate limits by caller in memory mode, over HTTP: anonymous strictest,
// self-chosen looser (one shared budget per address: no stacking), issued apps
// (authenticated by x-api-key or an allowed origin) their own limit and custom
// fees; an issued id alone is self-chosen; the 429 body and headers. Then the
// in-memory limiter on its own, with an injected clock.
import { afterEach, describe, expect, it } from 'vitest'
import { type ServerConfig, createMemoryRateLimiter, openApiDocument, sha256Hex } from '../../examples/server/index.js'
import { createSnapshotSource, getQuote } from '../../src/index.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { checkSchema } from './support/schema.js'
import { type TestServer, base, quotePath, startTestServer } from './support/server.js'

const acmeRecipient = '0x0000000000000000000000000000000000ac3e01' as const
const treasury = '0x00000000000000000000000000000000007ea501' as const
const limits = {
  anonymous: { limit: 2, windowSeconds: 60 },
  selfChosen: { limit: 4, windowSeconds: 60 },
  issued: { limit: 6, windowSeconds: 60 },
}
const keys = { acme: 'acme-secret-4b1f9c2d7e', beta: 'beta-secret-0d93a1c5f8', gamma: 'gamma-secret-77c0e2b6a1' }
const apps = {
  'acme-issued-7f3c': {
    name: 'Acme wallet',
    fees: { feeBps: 25, feeRecipient: acmeRecipient },
    rateLimit: { limit: 3, windowSeconds: 60 },
    apiKeys: [keys.acme],
  },
  'beta-issued-91d2': { name: 'Beta bot', apiKeySha256: [sha256Hex(keys.beta)] },
  'gamma-issued-04aa': { fees: { serviceFeeBps: 2.5 }, rateLimit: { limit: 50, windowSeconds: 60 }, apiKeys: [keys.gamma] },
  'web-issued-5e2a': { name: 'Web wallet', rateLimit: { limit: 5, windowSeconds: 60 }, allowedOrigins: ['https://wallet.example'] },
}
const wethToUsdc = quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n })

let running: TestServer[] = []
afterEach(async () => {
  await Promise.all(running.map((app) => app.close()))
  running = []
})

async function start(config: ServerConfig = {}): Promise<TestServer> {
  const app = await startTestServer({ rateLimits: limits, apps, ...config })
  running.push(app)
  return app
}

/** Statuses of `n` sequential requests. */
async function statuses(app: TestServer, n: number, headers: (i: number) => Record<string, string> = () => ({}), path = '/v1/chains') {
  const result: number[] = []
  for (let i = 0; i < n; i++) result.push((await fetch(`${app.url}${path}`, { headers: headers(i) })).status)
  return result
}

describe('limits by caller kind', () => {
  it('anonymous callers get the strictest limit, with rate-limit headers', async () => {
    const app = await start()
    const first = await fetch(`${app.url}/v1/chains`)
    expect(first.headers.get('ratelimit-limit')).toBe('2')
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    expect(first.headers.get('ratelimit-policy')).toBe('2;w=60')
    const reset = Number(first.headers.get('ratelimit-reset'))
    expect(reset).toBeGreaterThan(0)
    expect(reset).toBeLessThanOrEqual(60)
    expect(await statuses(app, 3)).toEqual([200, 429, 429])
  })

  it('429: the error body, Retry-After, and no quote computed', async () => {
    const app = await start()
    await statuses(app, 2, () => ({}), wethToUsdc)
    const response = await fetch(`${app.url}${wethToUsdc}`)
    const body = await response.json()
    expect(response.status).toBe(429)
    expect(body).toEqual({
      statusCode: 429,
      code: 'rate_limited',
      traceId: response.headers.get('x-trace-id'),
      message: expect.stringMatching(/^Rate limit exceeded: 2 requests per 60 s for anonymous callers; retry after \d+ s$/),
      details: null,
    })
    expect(checkSchema(openApiDocument as never, { $ref: '#/components/schemas/Error' }, body)).toEqual([])
    const retryAfter = Number(response.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(response.headers.get('ratelimit-remaining')).toBe('0')
    const metrics = await (await fetch(`${app.url}/metrics`)).text()
    expect(metrics).toMatch(/^weft_quote_duration_seconds_count\{outcome="ok"\} 2$/m)
    expect(metrics).toMatch(/^weft_http_requests_total\{route="\/v1\/quote",method="GET",status="429",app_kind="anonymous"\} 1$/m)
    expect(metrics).toMatch(/^weft_errors_total\{route="\/v1\/quote",code="rate_limited"\} 1$/m)
  })

  it('a self-chosen id gets a looser limit, per client address: switching ids does not reset it', async () => {
    const app = await start()
    expect(await statuses(app, 5, (i) => ({ 'x-app-id': `my-bot-${i}` }))).toEqual([200, 200, 200, 200, 429])
    // Dropping the id does not open a second budget: the address's one counter is spent.
    expect(await statuses(app, 2)).toEqual([429, 429])
  })

  it('anonymous then self-chosen from one address: never more than the larger limit in all', async () => {
    const app = await start()
    expect(await statuses(app, 3)).toEqual([200, 200, 429])
    // The same counter (now 3) against the self-chosen limit (4): one more request, not four.
    expect(await statuses(app, 2, () => ({ 'x-app-id': 'my-bot' }))).toEqual([200, 429])
    const limited = await fetch(`${app.url}/v1/chains`, { headers: { 'x-app-id': 'my-bot' } })
    expect((await limited.json()).message).toMatch(/^Rate limit exceeded: 4 requests per 60 s for self-chosen app ids; retry after \d+ s$/)
  })

  it('an issued id without its key or an allowed origin gets the self-chosen tier (and no app fees)', async () => {
    const app = await start()
    const headers = { 'x-app-id': 'acme-issued-7f3c' }
    const first = await fetch(`${app.url}/v1/chains`, { headers })
    expect(first.headers.get('ratelimit-limit')).toBe('4')
    expect(app.logs.find((entry) => entry.msg === 'request')).toMatchObject({ appIdKind: 'self-chosen', appId: 'acme-issued-7f3c' })
    // A key the server did not issue is ignored, a key of the app makes it issued.
    const wrongKey = await fetch(`${app.url}/v1/chains`, { headers: { ...headers, 'x-api-key': 'not-a-key-of-this-server' } })
    expect(wrongKey.headers.get('ratelimit-limit')).toBe('4')
    const rightKey = await fetch(`${app.url}/v1/chains`, { headers: { ...headers, 'x-api-key': keys.acme } })
    expect(rightKey.headers.get('ratelimit-limit')).toBe('3')
  })

  it('an x-api-key alone names its app (spanDEX sends no x-app-id); it wins over a different x-app-id', async () => {
    const app = await start()
    const alone = await (await fetch(`${app.url}${wethToUsdc}`, { headers: { 'x-api-key': keys.acme } })).json()
    expect(alone.appId).toBe('acme-issued-7f3c')
    expect(alone.fees).toHaveLength(1)
    const mixed = await (await fetch(`${app.url}${wethToUsdc}`, { headers: { 'x-api-key': keys.acme, 'x-app-id': 'beta-issued-91d2' } })).json()
    expect(mixed.appId).toBe('acme-issued-7f3c')
  })

  it('an issued app bound to origins: its pages are the app, and each address still has its own budget', async () => {
    const app = await start({ trustProxy: true, rateLimits: { ...limits, selfChosen: { limit: 2, windowSeconds: 60 } } })
    const from = (address: string, origin: string) => ({ 'x-forwarded-for': address, origin, 'x-app-id': 'web-issued-5e2a' })
    const page = await fetch(`${app.url}/v1/chains`, { headers: from('198.51.100.7', 'https://wallet.example') })
    expect(page.status).toBe(200)
    expect(app.logs.at(-1)).toMatchObject({ appIdKind: 'issued', authenticatedBy: 'origin' })
    // Another origin is not the app.
    await fetch(`${app.url}/v1/chains`, { headers: from('198.51.100.8', 'https://evil.example') })
    expect(app.logs.at(-1)).toMatchObject({ appIdKind: 'self-chosen' })
    // One address (origin forged or not) gets at most its self-chosen budget (2) of the app's quota.
    expect(await statuses(app, 2, () => from('198.51.100.7', 'https://wallet.example'))).toEqual([200, 429])
    // The app's own limit (5, of which 3 are spent) holds across addresses.
    expect(await statuses(app, 3, (i) => from(`203.0.113.${i + 1}`, 'https://wallet.example'))).toEqual([200, 200, 429])
  })

  it('an issued id gets its own limit, counted per id across client addresses', async () => {
    const app = await start({ trustProxy: true })
    const from = (address: string, apiKey?: string) => ({ 'x-forwarded-for': `10.9.9.9, ${address}`, ...(apiKey ? { 'x-api-key': apiKey } : {}) })
    // Acme: 3 per window, whichever address the requests come from.
    const acme = await statuses(app, 4, (i) => from(`198.51.100.${i + 1}`, keys.acme))
    expect(acme).toEqual([200, 200, 200, 429])
    // Beta (its key stored as a digest) has no limit of its own: the issued default (6).
    expect(await statuses(app, 7, () => from('198.51.100.1', keys.beta))).toEqual([200, 200, 200, 200, 200, 200, 429])
    // Anonymous callers count per address (the rightmost x-forwarded-for entry, one trusted hop).
    expect(await statuses(app, 3, () => from('203.0.113.1'))).toEqual([200, 200, 429])
    expect(await statuses(app, 1, () => from('203.0.113.2'))).toEqual([200])
  })

  it('logs and meters the caller kind', async () => {
    const app = await start()
    await fetch(`${app.url}/v1/chains`, { headers: { 'x-app-id': 'acme-issued-7f3c', 'x-api-key': keys.acme } })
    await fetch(`${app.url}/v1/chains`, { headers: { 'x-app-id': 'someone' } })
    await fetch(`${app.url}/v1/chains`)
    const lines = app.logs.filter((entry) => entry.msg === 'request')
    expect(lines.map((entry) => [entry.appIdKind, entry.appId, entry.appName])).toEqual([
      ['issued', 'acme-issued-7f3c', 'Acme wallet'],
      ['self-chosen', 'someone', undefined],
      ['anonymous', null, undefined],
    ])
    const metrics = await (await fetch(`${app.url}/metrics`)).text()
    for (const kind of ['issued', 'self-chosen', 'anonymous'])
      expect(metrics).toContain(`weft_http_requests_total{route="/v1/chains",method="GET",status="200",app_kind="${kind}"} 1`)
  })
})

describe('issued app fees', () => {
  const source = createSnapshotSource(defaultSnapshot)
  const intent = { chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n } as const

  it("an issued id's default integrator fee shows in the quote's fees", async () => {
    const app = await start()
    const response = await fetch(`${app.url}${wethToUsdc}`, { headers: { 'x-app-id': 'acme-issued-7f3c', 'x-api-key': keys.acme } })
    const quote = await response.json()
    expect(response.status).toBe(200)
    expect(quote.appId).toBe('acme-issued-7f3c')
    // WETH -> USDC on Base pays fees in USDC (the higher-ranked major), on the gross output.
    const gross = BigInt(quote.route.amountOut)
    expect(quote.fees).toEqual([{ token: base.USDC, amount: ((gross * 25n) / 10000n).toString(), recipient: acmeRecipient }])
    expect(BigInt(quote.amountOut)).toBe(gross - (gross * 25n) / 10000n)
    const direct = await getQuote({ ...intent, appId: 'acme-issued-7f3c' }, source, { apps: { 'acme-issued-7f3c': apps['acme-issued-7f3c'].fees } })
    expect(quote.fees).toEqual(direct.fees)
    expect(quote.amountOut).toBe(direct.amountOut)
  })

  it('a fee the request sets replaces the app default', async () => {
    const app = await start()
    const own = '0x00000000000000000000000000000000000fee99'
    const response = await fetch(`${app.url}${wethToUsdc}&feeBps=10&feeRecipient=${own}`, { headers: { 'x-api-key': keys.acme } })
    const quote = await response.json()
    expect(quote.fees).toHaveLength(1)
    expect(quote.fees[0].recipient).toBe(own)
  })

  it('a self-chosen id, or the same id in the query string, gets no custom fees', async () => {
    const app = await start()
    const selfChosen = await (await fetch(`${app.url}${wethToUsdc}`, { headers: { 'x-app-id': 'acme-issued-7f3d' } })).json()
    expect(selfChosen.fees).toEqual([])
    const inQuery = await (await fetch(`${app.url}${wethToUsdc}&x-app-id=acme-issued-7f3c`)).json()
    expect(inQuery.fees).toEqual([])
    expect(inQuery.appId).toBeNull()
    const withoutKey = await (await fetch(`${app.url}${wethToUsdc}`, { headers: { 'x-app-id': 'acme-issued-7f3c' } })).json()
    expect(withoutKey.appId).toBe('acme-issued-7f3c')
    expect(withoutKey.fees).toEqual([])
  })

  it("an issued id's service fee goes to the chain's configured treasury", async () => {
    const app = await start({ treasuries: { [base.chainId]: treasury } })
    const quote = await (await fetch(`${app.url}${wethToUsdc}`, { headers: { 'x-api-key': keys.gamma } })).json()
    const gross = BigInt(quote.route.amountOut)
    // 2.5 bps = 2,500 / 1e7 (weft's fee rates are in units of 1e-7).
    expect(quote.fees).toEqual([{ token: base.USDC, amount: ((gross * 2_500n) / 10_000_000n).toString(), recipient: treasury }])
    // Without a treasury there is no service fee.
    const plain = await start()
    expect((await (await fetch(`${plain.url}${wethToUsdc}`, { headers: { 'x-api-key': keys.gamma } })).json()).fees).toEqual([])
  })

  it('setApps issues a new id at run time', async () => {
    const app = await start()
    const before = await fetch(`${app.url}/v1/chains`, { headers: { 'x-app-id': 'delta-new' } })
    expect(before.headers.get('ratelimit-limit')).toBe('4')
    app.setApps({ ...apps, 'delta-new': { rateLimit: { limit: 40, windowSeconds: 60 }, apiKeys: ['delta-secret-5c8e01f2a9'] } })
    const after = await fetch(`${app.url}/v1/chains`, { headers: { 'x-api-key': 'delta-secret-5c8e01f2a9' } })
    expect(after.headers.get('ratelimit-limit')).toBe('40')
    expect(() => app.setApps({ 'bad\u0001id': {} })).toThrow(/Invalid server config: apps\["bad\\u0001id"\] is not a valid app id/)
  })
})

describe('createMemoryRateLimiter', () => {
  it('counts a fixed window and starts a new one when it ends', async () => {
    let now = 1_000_000
    const limiter = createMemoryRateLimiter({ now: () => now })
    const rule = { limit: 2, windowMs: 10_000 }
    expect(await limiter.hit('k', rule)).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 10_000 })
    now += 4_000
    expect(await limiter.hit('k', rule)).toEqual({ allowed: true, limit: 2, remaining: 0, resetMs: 6_000 })
    expect(await limiter.hit('k', rule)).toEqual({ allowed: false, limit: 2, remaining: 0, resetMs: 6_000 })
    expect((await limiter.hit('other', rule)).allowed).toBe(true)
    now += 6_000
    expect(await limiter.hit('k', rule)).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 10_000 })
  })

  it('never allows more than the limit to concurrent requests', async () => {
    const limiter = createMemoryRateLimiter()
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('burst', { limit: 7, windowMs: 60_000 })))
    expect(results.filter((r) => r.allowed)).toHaveLength(7)
  })
})
