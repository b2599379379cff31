// followLiveChain over a WebSocket, where the node's new-heads subscription drives the syncs and the
// poll is only a fallback (a minute here): a head announced while a sync is still in flight must be
// followed right after that sync, never left for the next poll. The test holds a sync in flight
// after it has read its head, so the race the server met under load happens every run.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type PublicClient, createPublicClient, webSocket } from 'viem'
import { type LiveChain, followLiveChain } from '../../examples/server/followLiveChain.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'

/** Far longer than any sync here: a block followed within a test means a new head drove it, not the poll. */
const FALLBACK_POLL_MS = 60_000
/** How long a followed block may take to show (the fix follows in milliseconds; the poll would take a minute). */
const FOLLOW_DEADLINE_MS = 10_000

let anvil: Anvil
let devnet: Devnet
let heads: PublicClient
const announced = new Set<number>()
let stopWatching: (() => void) | undefined

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31_337 })
  devnet = await deployDevnet(anvil)
  // The test's own new-heads subscription: it tells when the node has announced a block.
  heads = createPublicClient({ transport: webSocket(anvil.rpcUrl.replace(/^http/, 'ws')) }) as PublicClient
  stopWatching = heads.watchBlockNumber({ onBlockNumber: (blockNumber) => void announced.add(Number(blockNumber)) })
})

afterAll(async () => {
  stopWatching?.()
  await anvil?.stop()
})

/** Resolves once `check` holds; rejects after `deadlineMs` naming `what`. */
async function until(check: () => boolean, what: string, deadlineMs = FOLLOW_DEADLINE_MS): Promise<void> {
  const startedAt = performance.now()
  while (!check()) {
    if (performance.now() - startedAt > deadlineMs) throw new Error(`${what}: not within ${deadlineMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Mines one empty block and resolves to its number once the node has announced it to subscribers. */
async function mineAnnounced(): Promise<number> {
  await anvil.testClient.mine({ blocks: 1 })
  const blockNumber = Number(await anvil.publicClient.getBlockNumber())
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
    const start = Number(await anvil.publicClient.getBlockNumber())
    await until(() => follower.health().blockNumber === start, 'the first sync')

    // From now on every sync, once it has read its head and applied it, waits for `release`: the
    // sync is in flight exactly as one delayed by a loaded machine is.
    const sync = follower.source.sync
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let synced = 0
    follower.source.sync = async () => {
      const blockNumber = await sync()
      synced++
      await held
      return blockNumber
    }

    const first = await mineAnnounced()
    await until(() => synced > 0 && follower.health().blockNumber === first, `block ${first} followed`)
    // A second block is announced while the sync that followed the first is still in flight.
    const second = await mineAnnounced()
    // The announcement reached this process's sockets; give the follower's own socket a moment to read it too.
    await new Promise((resolve) => setTimeout(resolve, 250))
    release()
    await until(() => follower.health().blockNumber === second, `block ${second}, announced during a sync, followed`)
  } finally {
    await follower.close()
  }
})
