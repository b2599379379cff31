// A chain that makes no block for longer than maxAgeMs: after start(), the live source stays
// fresh while its node answers (a heartbeat sync finds the same head), and goes stale (503) once
// it is stopped. Before the heartbeat, a quiet devnet turned every quote into a 503.
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, QuoteError, createLiveSource } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from '../devnet/index.js'

const MAX_AGE_MS = 1_200
let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  chain = devnet.chain
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('createLiveSource on a quiet chain', () => {
  it('stays fresh without new blocks while started, and answers 503 once stopped', async () => {
    const client = createPublicClient({ transport: http(anvil.rpcUrl) })
    const live = createLiveSource({ client, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, maxAgeMs: MAX_AGE_MS })
    await live.sync()
    const request = { chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address }
    const head = live.stats().blockNumber
    live.start({ pollingInterval: 100 })
    try {
      await sleep(MAX_AGE_MS * 2.5)
      // No block was mined: the same block, still answered.
      expect(live.stats().blockNumber).toBe(head)
      const liquidity = await live.getLiquidity(request)
      expect(liquidity.blockNumber).toBe(head)
      expect(liquidity.pools.length).toBeGreaterThan(0)
    } finally {
      live.stop()
    }
    await sleep(MAX_AGE_MS * 1.5)
    const stale = await live.getLiquidity(request).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(stale).toBeInstanceOf(QuoteError)
    expect((stale as QuoteError).statusCode).toBe(503)
  }, 60_000)
})
