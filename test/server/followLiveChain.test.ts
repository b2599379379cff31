// followLiveChain over a WebSocket, where the node's new-heads subscription drives the syncs and the
// poll is only a fallback (ten minutes here): a head announced while a sync is still in flight must be
// followed right after that sync, never left for the next poll. The test holds a sync in flight
// after it has read its head, so the race the server met under load happens every run.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Hex, createPublicClient, hexToNumber, webSocket } from 'viem'
import { type LiveChain, followLiveChain } from '../../examples/server/followLiveChain.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'

/** Far longer than the test: a block followed within it means an announced head drove the sync, not the poll. */
const FALLBACK_POLL_MS = 600_000
/** How long an awaited event may take before the test gives up (each takes milliseconds; a sync on a loaded machine, a few seconds). */
const EVENT_DEADLINE_MS = 30_000

let anvil: Anvil
let devnet: Devnet
/** Blocks the node has announced to this test's own new-heads subscription. */
const announced = new Set<number>()
let unsubscribe: (() => Promise<unknown>) | undefined

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31_337 })
  devnet = await deployDevnet(anvil)
  const socket = createPublicClient({ transport: webSocket(anvil.rpcUrl.replace(/^http/, 'ws')) })
  // Awaited: the subscription is live before any block is mined.
  const subscription = await socket.transport.subscribe({
    params: ['newHeads'],
    onData: (data) => void announced.add(hexToNumber((data.result as { number: Hex }).number)),
  })
  unsubscribe = subscription.unsubscribe
})

afterAll(async () => {
  await unsubscribe?.().catch(() => undefined)
  await anvil?.stop()
})

/** Resolves once `check` holds; rejects after `deadlineMs` naming `what`. */
async function until(check: () => boolean, what: string, deadlineMs = EVENT_DEADLINE_MS): Promise<void> {
  const startedAt = performance.now()
  while (!check()) {
    if (performance.now() - startedAt > deadlineMs) throw new Error(`${what}: not within ${deadlineMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Mines one empty block and resolves to its number once the node has announced it to subscribers. */
async function mineAnnounced(): Promise<number> {
  await anvil.testClient.mine({ blocks: 1 })
  const blockNumber = Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
  await until(() => announced.has(blockNumber), `block ${blockNumber} announced`)
  return blockNumber
}

it('follows a head announced while a sync is in flight right after that sync, not at the next poll', async () => {
  const follower: LiveChain = followLiveChain({
    chain: devnet.chain,
    rpcUrl: anvil.rpcUrl.replace(/^http/, 'ws'),
    fromBlock: 0,
    checkpointFile: null,
    checkpointEveryBlocks: 1_000,
    pollingIntervalMs: FALLBACK_POLL_MS,
    log: () => {},
  })
  try {
    const start = Number(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
    await until(() => follower.health().blockNumber === start, 'the first sync')

    // The first sync to reach a later block, once it has read its head and applied it, waits for
    // `release`: that sync is in flight exactly as one delayed by a loaded machine is.
    const sync = follower.source.sync
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let heldAt: number | undefined
    follower.source.sync = async () => {
      const blockNumber = await sync()
      if (heldAt === undefined && blockNumber > start) {
        heldAt = blockNumber
        await held
      }
      return blockNumber
    }

    const first = await mineAnnounced()
    await until(() => heldAt === first, `block ${first} followed`)
    // A second block is announced while the sync that followed the first is still in flight.
    const second = await mineAnnounced()
    // The announcement reached this process's sockets; give the follower's own socket a moment to read it too.
    await new Promise((resolve) => setTimeout(resolve, 250))
    release()
    await until(() => follower.health().blockNumber === second, `block ${second}, announced during a sync, followed`)
    expect(follower.health()).toMatchObject({ blockNumber: second, lastError: null })
  } finally {
    await follower.close()
  }
})
