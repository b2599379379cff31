// The server on the live source: anvil with the devnet's real Uniswap V2/V3 bytecode, followed in
// the server's main thread (`liquidity: { source: 'live' }`), quotes run on worker threads fed by
// the liquidity relay. Quotes equal getQuote on a live source of this process at the same block
// and follow third-party swaps; a source that has not reached its node recently answers 503, and
// so does one whose node is gone; a restart loads the checkpoint file and is warm.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveCheckpoint, type Quote, createLiveSource, getQuote } from '../../src/index.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { type TestServer, quotePath, startTestServer } from './support/server.js'

const roomy = { anonymous: { limit: 10_000, windowSeconds: 60 } }
const checkpointDir = mkdtempSync(join(tmpdir(), 'weft-live-server-'))

let anvil: Anvil
let devnet: Devnet
const started: TestServer[] = []

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31_337 })
  devnet = await deployDevnet(anvil)
})

afterAll(async () => {
  for (const app of started) await app.close().catch(() => {})
  await anvil?.stop()
})

const liveServer = async (settings: { pollingIntervalMs?: number; maxAgeMs?: number; checkpointEveryBlocks?: number } = {}, rpcUrl = anvil.rpcUrl) => {
  const app = await startTestServer({
    rateLimits: roomy,
    chains: [devnet.chain],
    overload: { workers: 2 },
    liquidity: { source: 'live', rpcUrls: { [devnet.chain.id]: rpcUrl }, checkpointDir, pollingIntervalMs: 100, checkpointEveryBlocks: 3, ...settings },
  })
  started.push(app)
  return app
}

type LiveHealth = { blockNumber: number | null; resumedFrom: number | null; pools: number; lastCheckpoint: { blockNumber: number; bytes: number; ms: number } | null }
const health = async (app: TestServer) => ((await (await fetch(`${app.url}/healthz`)).json()) as { live: Record<string, LiveHealth> }).live[String(devnet.chain.id)]!

/** Asks until the server answers 200 at `blockNumber` or later; resolves to the Quote and the time it took. */
async function quoteAtLeast(app: TestServer, intent: Record<string, string | bigint | number>, blockNumber: number): Promise<{ quote: Quote; ms: number }> {
  const startedAt = performance.now()
  for (;;) {
    const response = await fetch(`${app.url}${quotePath(intent)}`)
    const body = (await response.json()) as Quote & { statusCode?: number }
    if (response.status === 200 && body.blockNumber >= blockNumber) return { quote: body, ms: performance.now() - startedAt }
    if (response.status !== 200 && response.status !== 503) throw new Error(`unexpected ${response.status}: ${JSON.stringify(body)}`)
    if (performance.now() - startedAt > 20_000) throw new Error(`no quote at block ${blockNumber} within 20 s (last: ${response.status} ${JSON.stringify(body)})`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** The fields two quotes of one intent at one block share (id, its calldata bytes and their gas aside). */
const comparable = (quote: Quote) => {
  const { id: _id, transaction: _transaction, gasEstimate: _gas, ...rest } = quote
  return rest
}

describe('server on the live source', () => {
  let intent: Record<string, string | bigint | number>
  let coldMs = 0
  let lastBlock = 0

  it('quotes on worker threads from the live state, as getQuote on a live source here does, and follows swaps', async () => {
    const { tokens } = devnet
    intent = { chainId: devnet.chain.id, sellToken: tokens.WETH.address, buyToken: tokens.USDC.address, sellAmount: 3n * 10n ** 18n }
    const head = Number(await anvil.publicClient.getBlockNumber())
    const app = await liveServer()
    const first = await quoteAtLeast(app, intent, head)
    coldMs = first.ms
    const local = createLiveSource({ client: anvil.publicClient, chain: devnet.chain, fromBlock: 0n })
    await local.sync()
    const direct = await getQuote(intent as never, local, { chains: [devnet.chain] })
    expect(direct.blockNumber).toBe(first.quote.blockNumber)
    expect(comparable(first.quote)).toEqual(comparable(direct))

    // Third parties trade: the next quotes are at the new blocks, on the new prices.
    const weth = tokens.WETH.address.toLowerCase()
    for (const amount of [5n, 20n]) {
      // WETH sold into the pool the route starts with: its price moves against the quote.
      const used = devnet.pools.find((pool) => pool.address === first.quote.route.swaps[0]![0]!.address.toLowerCase())!
      if (used.family === 'uniswapV2') await devnet.v2Swap(used, 'WETH', amount * 10n ** 18n)
      else await devnet.v3Swap(used, used.tokens[0] === weth, amount * 10n ** 18n)
      const block = Number(await anvil.publicClient.getBlockNumber())
      const served = await quoteAtLeast(app, intent, block)
      await local.sync()
      const expected = await getQuote(intent as never, local, { chains: [devnet.chain] })
      expect(served.quote.blockNumber).toBe(block)
      expect(comparable(served.quote)).toEqual(comparable(expected))
      expect(served.quote.amountOut).not.toBe(first.quote.amountOut)
      lastBlock = block
    }
    const state = await health(app)
    expect(state.blockNumber).toBe(lastBlock)
    expect(state.resumedFrom).toBeNull()
    expect(state.pools).toBeGreaterThan(0)
    expect(app.logs.some((line) => line.msg === 'live source synced')).toBe(true)
  })

  it('restarts warm: the checkpoint written on close is loaded, and the first quote needs no discovery', async () => {
    const app = started[0]!
    await app.close()
    const file = join(checkpointDir, `live-${devnet.chain.id}.json`)
    expect(existsSync(file)).toBe(true)
    const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as LiveCheckpoint
    expect(checkpoint.blockNumber).toBe(lastBlock)

    await devnet.v2Swap(devnet.getPool('WETH', 'USDC', 'uniswapV2'), 'WETH', 10n ** 18n)
    const head = Number(await anvil.publicClient.getBlockNumber())
    // This one over a WebSocket (anvil serves both on one port): new heads are pushed, the poll is a fallback.
    const warm = await liveServer({ pollingIntervalMs: 60_000 }, anvil.rpcUrl.replace(/^http/, 'ws'))
    const { quote, ms } = await quoteAtLeast(warm, intent, head)
    expect(quote.blockNumber).toBe(head)
    expect(warm.logs.find((line) => line.msg === 'live checkpoint loaded')).toMatchObject({ blockNumber: lastBlock, pools: checkpoint.pools.length })
    expect((await health(warm)).resumedFrom).toBe(lastBlock)
    await devnet.v2Swap(devnet.getPool('WETH', 'USDC', 'uniswapV2'), 'WETH', 10n ** 18n)
    const pushed = Number(await anvil.publicClient.getBlockNumber())
    const followed = await quoteAtLeast(warm, intent, pushed)
    expect(followed.quote.blockNumber).toBe(pushed)
    expect(followed.ms).toBeLessThan(10_000)
    console.log(`first quote after start: cold ${coldMs.toFixed(0)} ms, warm ${ms.toFixed(0)} ms (${checkpoint.pools.length} pools, checkpoint ${readFileSync(file).length} bytes)`)
    await warm.close()
  })

  it('503 when the source has not reached its node recently (it polls too seldom for maxAgeMs)', async () => {
    const head = Number(await anvil.publicClient.getBlockNumber())
    // One sync at start, then none for ten minutes: once maxAgeMs has passed since that sync, every
    // quote is refused (how soon depends on how long the workers took to load on this machine).
    const app = await liveServer({ pollingIntervalMs: 600_000, maxAgeMs: 3_000 })
    const startedAt = performance.now()
    while ((await health(app)).blockNumber !== head && performance.now() - startedAt < 10_000) await new Promise((resolve) => setTimeout(resolve, 50))
    let response = await fetch(`${app.url}${quotePath(intent)}`)
    while (response.status === 200 && performance.now() - startedAt < 15_000) {
      expect(((await response.json()) as Quote).blockNumber).toBe(head)
      await new Promise((resolve) => setTimeout(resolve, 100))
      response = await fetch(`${app.url}${quotePath(intent)}`)
    }
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ statusCode: 503, code: 'unavailable', message: 'The live source has not reached its node recently' })
    await app.close()
  })

  it('503 once its node is gone, never a stale quote', async () => {
    const head = Number(await anvil.publicClient.getBlockNumber())
    const app = await liveServer({ checkpointEveryBlocks: 1_000 })
    await quoteAtLeast(app, intent, head)
    await anvil.stop()
    const startedAt = performance.now()
    let status = 200
    while (status === 200 && performance.now() - startedAt < 10_000) {
      status = (await fetch(`${app.url}${quotePath(intent)}`)).status
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe(503)
    const body = await (await fetch(`${app.url}${quotePath(intent)}`)).json()
    expect(body).toMatchObject({ statusCode: 503, code: 'unavailable', message: 'The live source lost its node' })
    expect(app.logs.some((line) => line.msg === 'live source sync failed')).toBe(true)
    const state = (await (await fetch(`${app.url}/healthz`)).json()) as { status: string; live: Record<string, LiveHealth & { lastError: string | null }> }
    expect(state.status).toBe('degraded')
    expect(state.live[String(devnet.chain.id)]!.lastError).toBeTypeOf('string')
  })
})
