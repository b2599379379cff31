// The live source over viem's webSocket transport (anvil serves WebSocket on its HTTP port):
// discovery, reads and logs all go over the socket, and `start()` follows new blocks through an
// `eth_subscribe('newHeads')` subscription, not polling; after each block the state equals a fresh
// read; a head announced while a sync is in flight is followed right after that sync. And the
// browser-safety rule the live source depends on: nothing under src/ (tests aside) imports a Node
// built-in.
import { readFileSync, readdirSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Hex, type Transport, createPublicClient, hexToNumber, webSocket } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, createLiveSource } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from '../devnet/index.js'
import { createRandom } from '../support/random.js'
import { differences, mineSwapBlock } from './coreSupport.js'

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
const random = createRandom(0x3e5)
/** What went over the socket: subscriptions opened, and requests by method. */
const seen = { subscriptions: 0, methods: new Map<string, number>() }

/** viem's webSocket transport, counting its subscriptions and requests. */
function countedWebSocket(url: string): Transport {
  const inner = webSocket(url, { retryCount: 0 })
  return ((options: Parameters<Transport>[0]) => {
    const made = inner(options)
    const value = made.value!
    return {
      ...made,
      request: ((args: { method: string }) => {
        seen.methods.set(args.method, (seen.methods.get(args.method) ?? 0) + 1)
        return made.request(args as never)
      }) as typeof made.request,
      value: {
        ...value,
        subscribe: ((args: Parameters<typeof value.subscribe>[0]) => {
          seen.subscriptions++
          return value.subscribe(args)
        }) as typeof value.subscribe,
      },
    }
  }) as Transport
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  chain = devnet.chain
}, 60_000)

/** Resolves once `check` holds; rejects after 30 s naming `what` (each awaited event takes milliseconds; a sync on a loaded machine, a few seconds). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

afterAll(async () => {
  await anvil?.stop()
})

describe('createLiveSource over WebSocket', () => {
  it('syncs over the socket and follows blocks through a newHeads subscription, exact after each', async () => {
    const client = createPublicClient({ transport: countedWebSocket(anvil.rpcUrl.replace(/^http/, 'ws')) })
    expect(client.transport.type).toBe('webSocket')
    const live = createLiveSource({ client, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n })
    await live.sync()
    expect(await differences(live, anvil.publicClient, devnet, chain)).toEqual([])
    live.start()
    try {
      for (let k = 0; k < 5; k++) {
        await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
        const head = Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
        const deadline = Date.now() + 10_000
        while (live.stats().blockNumber !== head && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
        expect(live.stats().blockNumber).toBe(head)
        expect(await differences(live, anvil.publicClient, devnet, chain)).toEqual([])
      }
    } finally {
      live.stop()
    }
    console.log(`over WebSocket: ${seen.subscriptions} subscription(s); requests ${JSON.stringify(Object.fromEntries(seen.methods))}`)
    expect(seen.subscriptions).toBe(1)
    // Followed by subscription: viem did not poll the block number.
    expect(seen.methods.get('eth_blockNumber') ?? 0).toBe(0)
    expect(seen.methods.get('eth_getLogs')).toBeGreaterThanOrEqual(5)
    await client.transport.getRpcClient().then((socket: { close(): void }) => socket.close())
  })

  it('follows a head announced while a sync is in flight right after that sync, not at the next heartbeat', async () => {
    // The socket as the source sees it, with the test in charge of one race: the sync's gas price
    // answers wait until released, so a sync can be held after it has read its head; and the test
    // learns when the source's own subscription has delivered a head.
    const gasPrices: (() => void)[] = []
    let holding = false
    let latestRead = 0
    let subscribed = false
    const delivered = new Set<number>()
    const inner = webSocket(anvil.rpcUrl.replace(/^http/, 'ws'), { retryCount: 0 })
    const transport = ((options: Parameters<Transport>[0]) => {
      const made = inner(options)
      const value = made.value!
      return {
        ...made,
        request: (async (args: { method: string; params?: unknown[] }) => {
          if (args.method === 'eth_gasPrice' && holding) await new Promise<void>((resolve) => gasPrices.push(resolve))
          const answer = await made.request(args as never)
          if (args.method === 'eth_getBlockByNumber' && args.params?.[0] === 'latest') latestRead++
          return answer
        }) as typeof made.request,
        value: {
          ...value,
          subscribe: (async (args: Parameters<typeof value.subscribe>[0]) => {
            const subscription = await value.subscribe({
              ...args,
              onData: (data: { result?: { number?: Hex } }) => {
                args.onData(data as never)
                if (data.result?.number) delivered.add(hexToNumber(data.result.number))
              },
            } as never)
            subscribed = true
            return subscription
          }) as typeof value.subscribe,
        },
      }
    }) as Transport
    const client = createPublicClient({ transport })
    // No heartbeat within the test (maxAgeMs / 3 = 200 s): only an announced head can start a sync.
    const live = createLiveSource({ client, chain, families: [uniswapV2Family, uniswapV3Family], fromBlock: 0n, maxAgeMs: 600_000 })
    await live.sync()
    live.start()
    try {
      await until(() => subscribed, 'the newHeads subscription')
      holding = true
      await anvil.testClient.mine({ blocks: 1 })
      const first = Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
      // The sync the first head started read it and waits for its gas price: let it apply the block.
      await until(() => gasPrices.length === 1, `a sync started by block ${first}`)
      const readBefore = latestRead
      gasPrices.shift()!()
      // It applied the block and read the head again (still the first block): hold it there, in flight.
      await until(() => live.stats().blockNumber === first && latestRead > readBefore && gasPrices.length === 1, `block ${first} applied`)
      await anvil.testClient.mine({ blocks: 1 })
      const second = first + 1
      await until(() => delivered.has(second), `block ${second} delivered to the source`)
      holding = false
      gasPrices.shift()!()
      await until(() => live.stats().blockNumber === second, `block ${second}, announced during a sync, followed`)
    } finally {
      live.stop()
      holding = false
      for (const release of gasPrices.splice(0)) release()
    }
    await client.transport.getRpcClient().then((socket: { close(): void }) => socket.close())
  })

  it('nothing under src/ (tests aside) imports a Node built-in', () => {
    const root = fileURLToPath(new URL('../../src', import.meta.url))
    const builtins = new Set(builtinModules)
    const offenders: string[] = []
    const walk = (directory: string) => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          const source = readFileSync(path, 'utf8')
          for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
            if (specifier!.startsWith('node:') || builtins.has(specifier!.split('/')[0]!)) offenders.push(`${path}: ${specifier}`)
          }
        }
      }
    }
    walk(root)
    expect(offenders).toEqual([])
  })
})
