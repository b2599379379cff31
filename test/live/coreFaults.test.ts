// Node faults beyond liveSource.test.ts's (every request failing; only eth_getLogs failing), on real
// Uniswap V2/V3 bytecode on anvil through a faulty transport: a node that stops answering (the
// sync times out, and its late answers must change nothing), a node answering a head behind the
// source's block, a failure at each request of a sync in turn (so mid-block: after the header,
// between two blocks' logs, during a re-read), and the node switching to another fork of the chain
// (a second anvil forked from the first). Each must give 503, never a stale quote, and then the
// live state must equal a fresh read of the node, bit for bit.
import { type EIP1193RequestFn, createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiveSource, QuoteError, createLiveSource } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, deployDevnet, rpc, startAnvil } from '../devnet/index.js'
import { createRandom } from '../support/random.js'
import { differences, mineSwapBlock } from './coreSupport.js'

/** What the transport does: pass through, hang until released, answer a lagging head, or fail the n-th request from now. */
type Fault = { kind: 'none' } | { kind: 'hang' } | { kind: 'slow'; ms: number } | { kind: 'lag'; head: bigint } | { kind: 'failNth'; remaining: number }

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let live: LiveSource
let fault: Fault = { kind: 'none' }
/** The node the transport talks to (switched to a fork in the last test). */
let nodeUrl = ''
/** Requests held by a hang, answered (late) on release. */
let held: (() => void)[] = []
let requests = 0
/** Request positions in a sync that were failed, one sync each (printed). */
let positionsFailed = 0
const random = createRandom(0xc0e)
const request = { chain: undefined as unknown as ChainConfig, tokenIn: '0x' as `0x${string}`, tokenOut: '0x' as `0x${string}` }

const toHex = (value: bigint) => `0x${value.toString(16)}`

const transport = custom(
  {
    async request({ method, params }) {
      requests++
      const forward = () => rpc(nodeUrl, method, params as unknown[])
      if (fault.kind === 'hang') return new Promise<unknown>((resolve, reject) => held.push(() => void forward().then(resolve, reject)))
      if (fault.kind === 'failNth' && --fault.remaining === 0) throw new Error(`injected fault on ${method}`)
      if (fault.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, (fault as { ms: number }).ms))
      if (fault.kind === 'lag') {
        // A node behind: its head is `fault.head`, and it knows no block past it.
        const head = fault.head
        if (method === 'eth_blockNumber') return toHex(head)
        if (method === 'eth_getBlockByNumber') {
          const [tag, full] = params as [string, boolean]
          if (tag === 'latest') return rpc(nodeUrl, method, [toHex(head), full])
          if (tag.startsWith('0x') && BigInt(tag) > head) return null
        }
      }
      return forward()
    },
  } as { request: EIP1193RequestFn },
  { retryCount: 0 },
)

const expectRefused = async () => {
  await expect(live.getLiquidity(request)).rejects.toSatisfy((error: unknown) => error instanceof QuoteError && error.statusCode === 503)
}
const expectExact = async (url = anvil.rpcUrl) => {
  const client = url === anvil.rpcUrl ? anvil.publicClient : createPublicClient({ transport: custom({ request: ({ method, params }) => rpc(url, method, params as unknown[]) }) })
  expect(await differences(live, client, devnet, chain)).toEqual([])
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  chain = devnet.chain
  nodeUrl = anvil.rpcUrl
  Object.assign(request, { chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })
  live = createLiveSource({ client: createPublicClient({ transport }), chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, syncTimeoutMs: 1_000 })
  await live.sync()
}, 60_000)

afterAll(async () => {
  console.log(`core faults: ${positionsFailed} request positions failed in turn, ${requests} requests; ${JSON.stringify({ ...live?.stats(), skipped: undefined })}`)
  await anvil?.stop()
})

describe('createLiveSource: node faults on anvil', () => {
  it('a node that stops answering: the sync times out with a 503, its late answers change nothing, and the next sync is exact', async () => {
    await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
    const before = live.stats().blockNumber
    fault = { kind: 'hang' }
    const started = Date.now()
    await expect(live.sync()).rejects.toMatchObject({ statusCode: 503 })
    expect(Date.now() - started).toBeLessThan(5_000)
    await expectRefused()
    // The node answers at last, after the source gave up on it: the abandoned sync must not apply anything.
    fault = { kind: 'none' }
    for (const answer of held.splice(0)) answer()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(live.stats().blockNumber).toBe(before)
    await expectRefused()
    await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
    await live.sync()
    await expectExact()
  })

  it('a slow node that keeps answering: a sync longer than syncTimeoutMs in all is not cut short', async () => {
    for (let k = 0; k < 4; k++) await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
    fault = { kind: 'slow', ms: 300 }
    const started = Date.now()
    try {
      await live.sync()
    } finally {
      fault = { kind: 'none' }
    }
    // Each answer came within the timeout (1 s); the whole sync took longer.
    expect(Date.now() - started).toBeGreaterThan(1_000)
    await expectExact()
  })

  it('a node answering a head behind the source: 503 (never the older state as the head), exact once it catches up', async () => {
    await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
    await live.sync()
    const source = BigInt(live.stats().blockNumber!)
    for (let k = 0; k < 2; k++) await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
    for (const behind of [1n, 3n]) {
      fault = { kind: 'lag', head: source - behind }
      await expect(live.sync()).rejects.toMatchObject({ statusCode: 503 })
      await expectRefused()
      expect(live.stats().blockNumber).toBe(Number(source))
    }
    // Caught up with the source's block but not the chain's head: it follows as far as the node knows, and it is exact there.
    fault = { kind: 'lag', head: source + 1n }
    await live.sync()
    expect(live.stats().blockNumber).toBe(Number(source) + 1)
    fault = { kind: 'none' }
    await live.sync()
    await expectExact()
    expect(live.stats().reorgs).toBe(0)
  })

  it('a failure at each request of a sync in turn (header, gas price, a block’s logs, a re-read): 503, then exact', async () => {
    let failedAt = 0
    for (let n = 1; n <= 40; n++) {
      // Two blocks behind, so some failures land between the first block's logs and the second's.
      await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
      await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
      fault = { kind: 'failNth', remaining: n }
      const outcome = await live.sync().then(
        () => 'synced' as const,
        (error: unknown) => error,
      )
      const reached = fault.kind === 'failNth' && fault.remaining <= 0
      fault = { kind: 'none' }
      if (!reached) {
        // The sync needed fewer than n requests: every position has been failed once.
        expect(outcome).toBe('synced')
        break
      }
      expect(outcome).toBeInstanceOf(QuoteError)
      expect((outcome as QuoteError).statusCode).toBe(503)
      await expectRefused()
      failedAt = n
      positionsFailed = n
      await live.sync()
      await expectExact()
    }
    expect(failedAt).toBeGreaterThanOrEqual(4)
  }, 60_000)

  it('the node switches to another fork of the chain and back: rolled back to the common block, exact on each', async () => {
    await live.sync()
    const forkBlock = BigInt(live.stats().blockNumber!)
    const fork = await startAnvil({ args: ['--fork-url', anvil.rpcUrl, '--fork-block-number', forkBlock.toString()] })
    try {
      for (let k = 0; k < 3; k++) await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
      for (let k = 0; k < 4; k++) await mineSwapBlock(fork.rpcUrl, fork.publicClient, devnet, chain, random)
      await live.sync()
      await expectExact()
      const reorgs = live.stats().reorgs
      nodeUrl = fork.rpcUrl
      await live.sync()
      await expectExact(fork.rpcUrl)
      expect(live.stats().reorgs).toBe(reorgs + 1)
      expect(live.stats().deepestReorg).toBeGreaterThanOrEqual(3)
      // Back to the first node, which grew two more blocks meanwhile: its branch is the longer one.
      for (let k = 0; k < 2; k++) await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
      nodeUrl = anvil.rpcUrl
      await live.sync()
      await expectExact()
      expect(live.stats().reorgs).toBe(reorgs + 2)
      expect(live.stats().fullResyncs).toBe(0)
    } finally {
      nodeUrl = anvil.rpcUrl
      await fork.stop()
    }
  }, 60_000)
})
