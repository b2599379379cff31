// Overload on the embedded snapshot with real worker threads: a quote past its budget
// is cut with a 503 and its worker replaced; a full queue answers 503 at once; heavy
// quotes never take the last worker, so a plain quote is answered while they run.
import { afterEach, describe, expect, it } from 'vitest'
import type { ServerConfig } from '../../examples/server/index.js'
import { type TestServer, base, quotePath, startTestServer } from './support/server.js'

const roomy = { anonymous: { limit: 100_000, windowSeconds: 60 }, selfChosen: { limit: 100_000, windowSeconds: 60 } }
const plain = quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n })
/** An exact-output quote for 100M USDC: about 100 ms of router CPU time on the embedded snapshot. */
const heavy = quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, buyAmount: 100_000_000n * 10n ** 6n })

let running: TestServer[] = []
afterEach(async () => {
  await Promise.all(running.map((app) => app.close()))
  running = []
})

async function start(overload: ServerConfig['overload']): Promise<TestServer> {
  // Callers told apart by x-forwarded-for (one trusted proxy), as behind a load balancer.
  const app = await startTestServer({ rateLimits: roomy, overload, trustProxy: true })
  running.push(app)
  return app
}

async function get(app: TestServer, path: string, client = '198.51.100.1') {
  const started = performance.now()
  const response = await fetch(`${app.url}${path}`, { headers: { 'x-forwarded-for': client } })
  const body = await response.json()
  return { status: response.status, body, response, ms: performance.now() - started }
}

const metric = async (app: TestServer, reason: string) => {
  const text = await (await fetch(`${app.url}/metrics`)).text()
  return Number(new RegExp(`^weft_quote_overload_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
}

describe('per-quote budget', () => {
  it('cuts a quote past its budget with 503 unavailable, replaces the worker, and keeps serving', async () => {
    // The budget counts the worker thread's CPU time; 100M USDC out of WETH takes the router about 100 ms of it.
    const app = await start({ workers: 2, budgetMs: 20, heavyQuoteMs: 10_000 })
    const cut = await get(app, heavy)
    expect(cut.status).toBe(503)
    expect(cut.body).toEqual({
      statusCode: 503,
      code: 'unavailable',
      traceId: cut.response.headers.get('x-trace-id'),
      message: "Quote exceeded the server's time budget of 20 ms",
      details: null,
    })
    expect(cut.response.headers.get('retry-after')).toBe('1')
    expect(app.logs.some((entry) => entry.msg === 'quote worker replaced')).toBe(true)
    expect(await metric(app, 'budget')).toBe(1)
    // The replacement worker loads, then a quote within the budget is answered (a generous wait, not a timing assertion).
    let status = 0
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await get(app, quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 15n }))).status
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(status).toBe(200)
  })
})

describe('bounded queues', () => {
  it('answers 503 at once when the heavy queue is full, while a plain quote is served', async () => {
    const app = await start({ workers: 2, budgetMs: 20_000, maxHeavyQueue: 1 })
    // Exact output of an unseen shape is heavy: one runs, one waits, the rest are refused at once.
    const heavies = Array.from({ length: 4 }, () => get(app, heavy))
    // Give the requests time to arrive, then a plain quote takes the worker heavy ones may not.
    await new Promise((resolve) => setTimeout(resolve, 150))
    const light = await get(app, plain, '203.0.113.9')
    const results = await Promise.all(heavies)
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 200, 503, 503])
    for (const refused of results.filter((r) => r.status === 503)) {
      expect(refused.body).toMatchObject({ statusCode: 503, code: 'unavailable', details: null })
      expect(refused.body.message).toMatch(/^Server busy: 1 heavy quotes waiting; retry shortly$/)
      expect(refused.response.headers.get('retry-after')).toBe('1')
    }
    expect(light.status).toBe(200)
    // The refusals did not wait for the quotes that ran.
    const slowestRefusal = Math.max(...results.filter((r) => r.status === 503).map((r) => r.ms))
    const fastestServed = Math.min(...results.filter((r) => r.status === 200).map((r) => r.ms))
    expect(slowestRefusal).toBeLessThan(fastestServed)
    expect(await metric(app, 'queue_full')).toBe(2)
    console.log(
      `overload: heavy served in ${results.filter((r) => r.status === 200).map((r) => r.ms.toFixed(0)).join(', ')} ms, ` +
        `refused in ${results.filter((r) => r.status === 503).map((r) => r.ms.toFixed(0)).join(', ')} ms; plain quote meanwhile ${light.ms.toFixed(0)} ms`,
    )
  })

  it('a shape that proved slow is heavy from then on; a fast one stays light', async () => {
    const app = await start({ workers: 2, budgetMs: 20_000, maxHeavyQueue: 0, heavyQuoteMs: 5 })
    // Exact input of an unseen shape starts light; 50M USDC -> WETH takes the router well over 5 ms of CPU.
    const slowExactIn = quotePath({ chainId: base.chainId, sellToken: base.USDC, buyToken: base.WETH, sellAmount: 50_000_000n * 10n ** 6n, priceImpactLimitBps: 10_000 })
    const first = await get(app, slowExactIn)
    expect(first.status).not.toBe(503)
    // Now heavy: with no heavy queue, two at once means one is refused.
    const pair = await Promise.all([get(app, slowExactIn), get(app, slowExactIn)])
    expect(pair.map((r) => r.status)).toContain(503)
    expect((await get(app, plain, '203.0.113.9')).status).toBe(200)
  })
})
