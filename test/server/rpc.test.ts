// The server on the RPC liquidity source: a real anvil with the devnet's real
// Uniswap V2/V3 bytecode, reached through `liquidity: { source: 'rpc', rpcUrls }`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRpcSource, getQuote } from '../../src/index.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { getFreePort } from './support/redis.js'
import { type TestServer, NATIVE, base, quotePath, startTestServer } from './support/server.js'

const roomy = { anonymous: { limit: 10_000, windowSeconds: 60 } }

let anvil: Anvil
let devnet: Devnet
let app: TestServer

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31_337 })
  devnet = await deployDevnet(anvil)
  app = await startTestServer({
    rateLimits: roomy,
    chains: [devnet.chain],
    liquidity: { source: 'rpc', rpcUrls: { [devnet.chain.id]: anvil.rpcUrl } },
  })
})

afterAll(async () => {
  await app?.close()
  await anvil?.stop()
})

describe('rpc liquidity', () => {
  it('serves only the chains it has a node for', async () => {
    expect(await (await fetch(`${app.url}/v1/chains`)).json()).toEqual({ chains: [{ id: 31_337, name: 'Devnet' }] })
    const response = await fetch(`${app.url}${quotePath({ chainId: base.chainId, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n })}`)
    expect(response.status).toBe(400)
    expect((await response.json()).details).toEqual([{ param: 'chainId', message: 'is a planned chain, not supported yet' }])
  })

  it('quotes through the node exactly as getQuote on createRpcSource does', async () => {
    const { tokens } = devnet
    for (const intent of [
      { chainId: 31_337, sellToken: tokens.WETH.address, buyToken: tokens.USDC.address, sellAmount: 3n * 10n ** 18n },
      { chainId: 31_337, sellToken: tokens.USDC.address, buyToken: NATIVE, sellAmount: 250_000n * 10n ** 6n },
    ] as const) {
      const response = await fetch(`${app.url}${quotePath(intent)}`)
      const served = await response.json()
      expect(response.status).toBe(200)
      const direct = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain: devnet.chain }), { chains: [devnet.chain] })
      expect(served.blockNumber).toBe(direct.blockNumber)
      for (const field of ['amountIn', 'amountOut', 'minimumAmountOut', 'route', 'approval', 'fees', 'priceImpactBps'] as const)
        expect(served[field], field).toEqual(direct[field])
      // The quote id's 16 calldata bytes cost 4 gas each when zero and 16 otherwise: estimates of two ids differ by a little.
      expect(Math.abs(served.gasEstimate - direct.gasEstimate)).toBeLessThanOrEqual(16 * 12 * 1.06)
      expect(BigInt(served.amountOut)).toBeGreaterThan(0n)
    }
  })

  it('503 when the node cannot be reached', async () => {
    const deadPort = await getFreePort()
    const down = await startTestServer({
      rateLimits: roomy,
      chains: [devnet.chain],
      liquidity: { source: 'rpc', rpcUrls: { [devnet.chain.id]: `http://127.0.0.1:${deadPort}` }, retryCount: 0, timeoutMs: 2000 },
    })
    try {
      const response = await fetch(
        `${down.url}${quotePath({ chainId: 31_337, sellToken: devnet.tokens.WETH.address, buyToken: devnet.tokens.USDC.address, sellAmount: 10n ** 18n })}`,
      )
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({ statusCode: 503, code: 'unavailable', details: null })
    } finally {
      await down.close()
    }
  })
})
