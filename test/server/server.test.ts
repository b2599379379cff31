// The example HTTP server over real HTTP (global fetch) on the embedded snapshot:
// endpoint bodies against weft called directly, every error class with its body
// shape and trace id, CORS, /healthz, /metrics, /openapi.json and the log lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../../examples/server/index.js'
import { type LiquiditySource, type Quote, createSnapshotSource, getQuote, listChains } from '../../src/index.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { checkSchema } from './support/schema.js'
import { NATIVE, type TestServer, base, ethereum, quotePath, requestLog, startTestServer } from './support/server.js'

const roomy = { anonymous: { limit: 10_000, windowSeconds: 60 }, selfChosen: { limit: 10_000, windowSeconds: 60 } }
// Quotes run in worker threads as in production (custom sources answer through the main thread).
const workers = { workers: 2 }
const source = createSnapshotSource(defaultSnapshot)
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const doc = openApiDocument as unknown as Record<string, unknown>

let app: TestServer

beforeAll(async () => {
  app = await startTestServer({ rateLimits: roomy, overload: workers })
})

afterAll(async () => {
  await app?.close()
})

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}${path}`, { headers })
  const text = await response.text()
  return { response, status: response.status, text, body: text.length > 0 ? JSON.parse(text) : undefined }
}

/** Checks the decisions.md §3 error body, its trace id against the header and the log, and the OpenAPI Error schema. */
function expectErrorBody(result: Awaited<ReturnType<typeof get>>, status: number, code: string) {
  expect(result.status).toBe(status)
  expect(Object.keys(result.body)).toEqual(['statusCode', 'code', 'traceId', 'message', 'details'])
  expect(result.body.statusCode).toBe(status)
  expect(result.body.code).toBe(code)
  expect(result.body.traceId).toMatch(/^[0-9a-f]{32}$/)
  expect(result.response.headers.get('x-trace-id')).toBe(result.body.traceId)
  expect(typeof result.body.message).toBe('string')
  expect(checkSchema(doc, schema('Error'), result.body)).toEqual([])
  const line = requestLog(app.logs, result.body.traceId)
  expect(line).toMatchObject({ status, errorCode: code })
}

describe('GET /v1/chains', () => {
  it('answers listChains() as JSON', async () => {
    const { status, body, response } = await get('/v1/chains')
    expect(status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(body).toEqual(listChains())
    expect(body).toEqual({ chains: [{ id: 1, name: 'Ethereum' }, { id: 8453, name: 'Base' }] })
    expect(checkSchema(doc, schema('Chains'), body)).toEqual([])
  })
})

describe('GET /v1/quote', () => {
  const sameQuote = (served: Quote, direct: Quote) => {
    for (const field of ['blockNumber', 'amountIn', 'amountOut', 'minimumAmountOut', 'price', 'priceImpactBps', 'tokens', 'route', 'approval', 'fees'] as const)
      expect(served[field], field).toEqual(direct[field])
    // The quote id's 16 calldata bytes cost 4 gas each when zero and 16 otherwise: estimates of two ids differ by a little.
    expect(Math.abs(served.gasEstimate - direct.gasEstimate)).toBeLessThanOrEqual(16 * 12 * 1.06)
    expect(served.transaction.to).toBe(direct.transaction.to)
    expect(served.transaction.value).toBe(direct.transaction.value)
    // The id is fresh per quote; its 16 bytes travel in the calldata.
    expect(served.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(served.transaction.data).toContain(served.id.replaceAll('-', ''))
  }

  it('sells WETH for USDC on Base exactly as getQuote does', async () => {
    const { status, body, response } = await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n }))
    expect(status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const direct = await getQuote({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n }, source)
    sameQuote(body, direct)
    expect(body.amountOut).toBe(direct.amountOut)
    expect(BigInt(body.amountOut)).toBeGreaterThan(0n)
    expect(body.approval).toEqual({ token: base.WETH, amount: '1000000000000000000', spender: direct.transaction.to })
    expect(body.appId).toBeNull()
    expect(checkSchema(doc, schema('Quote'), body)).toEqual([])
  })

  it('maps every query parameter: native input, buyAmount, slippage, fees, receiver and the app id header', async () => {
    const feeRecipient = '0x00000000000000000000000000000000000fee01' as const
    const receiver = '0x00000000000000000000000000000000000bee02' as const
    const params = {
      chainId: ethereum.chainId,
      sellToken: NATIVE,
      buyToken: ethereum.USDC.toUpperCase().replace('0X', '0x'),
      buyAmount: 2_500_000_000n,
      slippageBps: 37,
      priceImpactLimitBps: 900,
      receiver,
      feeBps: 15,
      feeRecipient,
      referralFeeBps: 5,
      referralFeeRecipient: feeRecipient,
    }
    const { status, body } = await get(quotePath(params), { 'x-app-id': 'my wallet 1.0' })
    expect(status).toBe(200)
    const direct = await getQuote(
      { ...params, sellToken: NATIVE, buyToken: ethereum.USDC, buyAmount: 2_500_000_000n, appId: 'my wallet 1.0' },
      source,
    )
    sameQuote(body, direct)
    expect(body.appId).toBe('my wallet 1.0')
    expect(body.approval).toBeNull()
    expect(body.transaction.value).toBe(body.amountIn)
    expect(BigInt(body.amountOut)).toBeGreaterThanOrEqual(2_500_000_000n)
    expect(body.minimumAmountOut).toBe((BigInt(body.amountOut) - (BigInt(body.amountOut) * 37n) / 10000n).toString())
    expect(body.fees.map((fee: { recipient: string }) => fee.recipient)).toEqual([feeRecipient, feeRecipient])
    expect(checkSchema(doc, schema('Quote'), body)).toEqual([])
  })

  it('400: missing parameters, one detail each', async () => {
    const result = await get(quotePath({ chainId: base.chainId }))
    expectErrorBody(result, 400, 'invalid_request')
    expect(result.body.details).toEqual([
      { param: 'sellToken', message: 'is required' },
      { param: 'buyToken', message: 'is required' },
      { param: 'sellAmount', message: 'is required when buyAmount is absent' },
    ])
  })

  it('400: a repeated parameter, a planned chain, a malformed x-app-id', async () => {
    const repeated = await get(`${quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 1000 })}&sellAmount=2000`)
    expectErrorBody(repeated, 400, 'invalid_request')
    expect(repeated.body.details).toEqual([{ param: 'sellAmount', message: 'must be given once' }])

    const planned = await get(quotePath({ chainId: 42161, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 1000 }))
    expectErrorBody(planned, 400, 'invalid_request')
    expect(planned.body.details).toEqual([{ param: 'chainId', message: 'is a planned chain, not supported yet' }])

    const badAppId = await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 1000 }), {
      'x-app-id': 'x'.repeat(129),
    })
    expectErrorBody(badAppId, 400, 'invalid_request')
    expect(badAppId.body.details).toEqual([{ param: 'x-app-id', message: 'must be 1 to 128 printable ASCII characters' }])
  })

  it('400: price impact above priceImpactLimitBps, details null', async () => {
    const result = await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n, priceImpactLimitBps: 0 }))
    expectErrorBody(result, 400, 'invalid_request')
    expect(result.body.message).toMatch(/^Price impact of \d+(\.\d+)? bps too high \(limit = 0 bps\)$/)
    expect(result.body.details).toBeNull()
  })

  it('422: the same token on both sides, an unknown token', async () => {
    const same = await get(quotePath({ chainId: base.chainId, sellToken: base.USDC, buyToken: base.USDC, sellAmount: 1000 }))
    expectErrorBody(same, 422, 'unprocessable')
    expect(same.body.details).toEqual([{ param: 'buyToken', message: 'must differ from sellToken' }])

    const unknown = await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: '0x1111111111111111111111111111111111111111', sellAmount: 1000 }))
    expectErrorBody(unknown, 422, 'unprocessable')
    expect(unknown.body.details).toEqual([{ param: 'buyToken', message: 'is a token the liquidity source cannot describe (no decimals)' }])
  })

  it('404: no route for an amount the liquidity cannot fill', async () => {
    const result = await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, buyAmount: 10n ** 30n }))
    expectErrorBody(result, 404, 'not_found')
    expect(result.body.message).toBe('No route found')
    expect(result.body.details).toBeNull()
  })

  it('x-app-id in the query string is ignored (only the header identifies an app)', async () => {
    const { status, body } = await get(
      `${quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n })}&x-app-id=sneaky`,
    )
    expect(status).toBe(200)
    expect(body.appId).toBeNull()
  })
})

describe('500 and 503 from the liquidity source', () => {
  const start = (liquiditySource: LiquiditySource) => startTestServer({ rateLimits: roomy, overload: workers, liquidity: { source: 'custom', liquiditySource } })
  const path = quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n })

  it('503 when the source cannot answer', async () => {
    const down = await start({
      async getLiquidity() {
        throw new Error('connect ECONNREFUSED 10.0.0.1:8545')
      },
    })
    try {
      const response = await fetch(`${down.url}${path}`)
      const body = await response.json()
      expect(response.status).toBe(503)
      expect(body).toMatchObject({ statusCode: 503, code: 'unavailable', message: 'Liquidity source unavailable', details: null })
      expect(body.traceId).toBe(response.headers.get('x-trace-id'))
    } finally {
      await down.close()
    }
  })

  it('500 without a stack in the body; the log line carries the cause', async () => {
    const broken = await start({
      async getLiquidity(request) {
        // A host-written source returning malformed data.
        return { chainId: request.chain.id, blockNumber: 1, tokens: null as never, pools: [], report: { roundTrips: 0, requests: 0, skipped: [] } }
      },
    })
    try {
      const response = await fetch(`${broken.url}${path}`)
      const text = await response.text()
      const body = JSON.parse(text)
      expect(response.status).toBe(500)
      expect(body).toEqual({ statusCode: 500, code: 'internal_error', traceId: response.headers.get('x-trace-id'), message: 'Internal error', details: null })
      expect(text).not.toMatch(/at .*\.ts/)
      const line = requestLog(broken.logs, body.traceId)
      expect(line).toMatchObject({ level: 'error', status: 500, errorCode: 'internal_error' })
      expect(JSON.stringify(line?.error)).toMatch(/TypeError/)
    } finally {
      await broken.close()
    }
  })
})

describe('close', () => {
  it('lets a request in flight finish, then stops accepting connections', async () => {
    let reached!: () => void
    const inSource = new Promise<void>((resolve) => (reached = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = await startTestServer({
      rateLimits: roomy,
      overload: workers,
      liquidity: {
        source: 'custom',
        liquiditySource: {
          async getLiquidity(request) {
            reached()
            await gate
            return source.getLiquidity(request)
          },
        },
      },
    })
    const pending = fetch(`${slow.url}${quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n })}`)
    await inSource
    const closed = slow.close()
    release()
    const response = await pending
    expect(response.status).toBe(200)
    expect(BigInt((await response.json()).amountOut)).toBeGreaterThan(0n)
    await closed
    await expect(fetch(`${slow.url}/healthz`)).rejects.toThrow()
  })
})

describe('unknown routes and methods', () => {
  it('404 with the error body for an unknown path', async () => {
    const result = await get('/v2/quote?chainId=1')
    expectErrorBody(result, 404, 'not_found')
    expect(result.body.message).toBe('Unknown endpoint GET /v2/quote')
    expect(result.body.details).toBeNull()
  })

  it('HEAD is answered like GET, without a body', async () => {
    const response = await fetch(`${app.url}/v1/chains`, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.text()).toBe('')
  })

  it('405 for another method on a known path, with Allow', async () => {
    const response = await fetch(`${app.url}/v1/quote`, { method: 'POST', body: '{}' })
    const body = await response.json()
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(body).toMatchObject({ statusCode: 405, code: 'method_not_allowed', details: null })
    expect(checkSchema(doc, schema('Error'), body)).toEqual([])
  })
})

describe('CORS', () => {
  it('allows any origin by default and exposes the trace and rate-limit headers', async () => {
    const { response } = await get('/v1/chains', { origin: 'https://wallet.example' })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = response.headers.get('access-control-expose-headers')?.split(', ')
    expect(exposed).toEqual(expect.arrayContaining(['x-trace-id', 'ratelimit-remaining', 'retry-after']))
  })

  it('answers the preflight with the allowed method and the headers real clients send, without counting it', async () => {
    const response = await fetch(`${app.url}/v1/quote`, {
      method: 'OPTIONS',
      headers: { origin: 'https://wallet.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key,x-app-id,content-type' },
    })
    // spanDEX (Fabric) sends x-api-key; weft's own clients x-app-id.
    expect(response.headers.get('access-control-allow-headers')?.split(', ')).toEqual(expect.arrayContaining(['x-api-key', 'x-app-id', 'content-type', 'accept']))
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toContain('GET')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-app-id')
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0)
    expect(response.headers.get('ratelimit-limit')).toBeNull()
  })

  it('with a list of origins, echoes an allowed origin only', async () => {
    const strict = await startTestServer({ rateLimits: roomy, corsOrigins: ['https://wallet.example'] })
    try {
      const allowed = await fetch(`${strict.url}/v1/chains`, { headers: { origin: 'https://wallet.example' } })
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://wallet.example')
      expect(allowed.headers.get('vary')).toBe('origin')
      const other = await fetch(`${strict.url}/v1/chains`, { headers: { origin: 'https://evil.example' } })
      expect(other.status).toBe(200)
      expect(other.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await strict.close()
    }
  })
})

describe('operations endpoints', () => {
  it('/healthz', async () => {
    const { status, body } = await get('/healthz')
    expect(status).toBe(200)
    expect(body).toEqual({ status: 'ok', liquidity: 'snapshot', rateLimiter: { kind: 'memory', healthy: true } })
  })

  it('/metrics: the quote latency histogram, requests by status, errors by code', async () => {
    await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.DAI, sellAmount: 10n ** 17n }))
    await get(quotePath({ chainId: base.chainId }))
    const response = await fetch(`${app.url}/metrics`)
    const text = await response.text()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(text).toContain('# TYPE weft_quote_duration_seconds histogram')
    expect(text).toMatch(/^weft_quote_duration_seconds_bucket\{le="0\.005",outcome="ok"\} \d+$/m)
    expect(text).toMatch(/^weft_quote_duration_seconds_count\{outcome="ok"\} [1-9]\d*$/m)
    expect(text).toMatch(/^weft_quote_duration_seconds_count\{outcome="invalid_request"\} [1-9]\d*$/m)
    expect(text).toMatch(/^weft_http_requests_total\{route="\/v1\/quote",method="GET",status="200",app_kind="anonymous"\} [1-9]\d*$/m)
    expect(text).toMatch(/^weft_errors_total\{route="\/v1\/quote",code="invalid_request"\} [1-9]\d*$/m)
    expect(text).toMatch(/^weft_errors_total\{route="unknown",code="not_found"\} [1-9]\d*$/m)
  })

  it('/openapi.json: OpenAPI 3.1 with both paths, the spec\'s parameters and every error status', async () => {
    const { status, body } = await get('/openapi.json')
    expect(status).toBe(200)
    expect(body).toEqual(JSON.parse(JSON.stringify(openApiDocument)))
    expect(body.openapi).toBe('3.1.0')
    expect(Object.keys(body.paths).sort()).toEqual(['/v1/chains', '/v1/quote'])
    const quote = body.paths['/v1/quote'].get
    // quote-api.md's parameter table, in its order, then the header.
    expect(quote.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      ...['chainId', 'sellToken', 'buyToken', 'sellAmount', 'buyAmount', 'slippageBps', 'priceImpactLimitBps', 'receiver', 'feeBps', 'feeRecipient',
        'surplusFeeBps', 'surplusFeeRecipient', 'referralFeeBps', 'referralFeeRecipient'].map((name) => `query:${name}`),
      'header:x-app-id',
      'header:x-api-key',
    ])
    expect(quote.parameters.filter((p: { required: boolean }) => p.required).map((p: { name: string }) => p.name)).toEqual(['chainId', 'sellToken', 'buyToken'])
    expect(Object.keys(quote.responses).sort()).toEqual(['200', '400', '404', '422', '429', '500', '503'])
    // Every $ref resolves.
    for (const [, ref] of JSON.stringify(body).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) expect(body.components.schemas[ref!], ref).toBeDefined()
  })

  it('the schema checker rejects bodies that do not match (it can fail)', async () => {
    const { body } = await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n }))
    expect(checkSchema(doc, schema('Quote'), body)).toEqual([])
    expect(checkSchema(doc, schema('Quote'), { ...body, extra: 1 })).toEqual(['$.extra: not allowed'])
    const { appId: _, ...withoutAppId } = body
    expect(checkSchema(doc, schema('Quote'), withoutAppId)).toEqual(['$.appId: required'])
    expect(checkSchema(doc, schema('Quote'), { ...body, amountOut: 12 })).toHaveLength(1)
    expect(checkSchema(doc, schema('Quote'), { ...body, approval: { ...body.approval, token: 'WETH' } })).toHaveLength(1)
  })
})

describe('logs', () => {
  it('one JSON line per request: trace id, method, path, status, latency, app id kind', async () => {
    const { response } = await get(quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 15n }), {
      'x-app-id': 'log-test',
    })
    const traceId = response.headers.get('x-trace-id')!
    const lines = app.logs.filter((entry) => entry.traceId === traceId)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request', method: 'GET', path: '/v1/quote', status: 200, appIdKind: 'self-chosen', appId: 'log-test' })
    expect(typeof lines[0]!.latencyMs).toBe('number')
    expect(JSON.parse(JSON.stringify(lines[0]))).toEqual(lines[0])
    // Each request has its own trace id.
    const traceIds = app.logs.filter((entry) => entry.msg === 'request').map((entry) => entry.traceId)
    expect(new Set(traceIds).size).toBe(traceIds.length)
  })
})
