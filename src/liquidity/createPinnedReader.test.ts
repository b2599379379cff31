// The pinned reader's scheduling, on a stand-in node (an EIP-1193 function, no chain): what goes
// into which batch, at which block. Batches against a real node are tested in test/rpcSource.test.ts.
import { type Hex, createPublicClient, custom, decodeAbiParameters, encodeAbiParameters, numberToHex, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { PINNED_BLOCK, createPinnedReader } from './createPinnedReader.js'

const readsParameter = [{ type: 'tuple[]', components: [{ name: 'kind', type: 'uint8' }, { name: 'target', type: 'address' }, { name: 'data', type: 'bytes' }] }] as const
// Block number, base fee, reads that ran, their results.
const answerParameters = [
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'tuple[]', components: [{ name: 'ok', type: 'bool' }, { name: 'data', type: 'bytes' }] },
] as const

/**
 * A node that answers each batch at `block`, echoing each read's data (a failed read for data
 * 0xdead); with `gasFor`, a batch runs only its first `gasFor` reads, as PinnedBatchRead does when
 * the call's gas runs out.
 */
function standInNode(block: bigint, gasFor = Number.POSITIVE_INFINITY) {
  const batches: { tag: string; reads: readonly { kind: number; data: Hex }[] }[] = []
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params: unknown[] }) {
        if (method === 'eth_gasPrice') return '0x1'
        if (method !== 'eth_call') throw new Error(`unexpected ${method}`)
        const [reads] = decodeAbiParameters(readsParameter, (params[0] as { data: Hex }).data)
        batches.push({ tag: params[1] as string, reads })
        const answer = (r: (typeof reads)[number]) => (r.kind === 2 ? numberToHex(123n, { size: 32 }) : r.data)
        const ran = reads.slice(0, gasFor)
        return encodeAbiParameters(answerParameters, [block, 7n, BigInt(ran.length), ran.map((r) => ({ ok: r.data !== '0xdead', data: answer(r) }))])
      },
    }),
  })
  return { client, batches }
}

const slowly = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('createPinnedReader', () => {
  it('waits for every reader, even one busy for a while, and sends one batch at latest', async () => {
    const node = standInNode(42n)
    const pinned = createPinnedReader(node.client)
    const first = pinned.run((client) => client.call({ to: zeroAddress, data: '0x01', blockNumber: PINNED_BLOCK }))
    const late = pinned.run(async (client) => {
      await slowly(30) // CPU or I/O before its read: the batch must not leave without it
      return client.call({ to: zeroAddress, data: '0x02', blockNumber: PINNED_BLOCK })
    })
    pinned.seal()
    expect([(await first).data, (await late).data]).toEqual(['0x01', '0x02'])
    expect(node.batches).toEqual([{ tag: 'latest', reads: [expect.objectContaining({ data: '0x01' }), expect.objectContaining({ data: '0x02' })] }])
    expect([pinned.blockNumber(), pinned.baseFeePerGas(), pinned.batches()]).toEqual([42n, 7n, 1])
  })

  it('runs a read that needed an earlier answer at the block the first batch saw', async () => {
    const node = standInNode(42n)
    const pinned = createPinnedReader(node.client)
    const chained = pinned.run(async (client) => {
      await client.call({ to: zeroAddress, data: '0x01', blockNumber: PINNED_BLOCK })
      return client.getBalance({ address: zeroAddress, blockNumber: PINNED_BLOCK })
    })
    pinned.seal()
    expect(await chained).toBe(123n)
    expect(node.batches.map((b) => b.tag)).toEqual(['latest', numberToHex(42n)])
    expect(pinned.batches()).toBe(2)
  })

  it('rejects a failed read like a node error and still answers the others', async () => {
    const pinned = createPinnedReader(standInNode(5n).client)
    const bad = pinned.run((client) => client.call({ to: zeroAddress, data: '0xdead', blockNumber: PINNED_BLOCK }))
    const good = pinned.run((client) => client.call({ to: zeroAddress, data: '0x01', blockNumber: PINNED_BLOCK }))
    pinned.seal()
    await expect(bad).rejects.toThrow()
    expect((await good).data).toBe('0x01')
  })

  it('learns the block with an empty batch when no reader had anything to read', async () => {
    const node = standInNode(9n)
    const pinned = createPinnedReader(node.client)
    pinned.seal()
    await pinned.whenSent()
    await slowly(5)
    expect(pinned.blockNumber()).toBe(9n)
    expect(node.batches).toEqual([{ tag: 'latest', reads: [] }])
  })

  it('sends the reads a batch could not run for its gas again, at the block it saw', async () => {
    const node = standInNode(42n, 2)
    const pinned = createPinnedReader(node.client)
    const reads = ['0x01', '0x02', '0x03', '0x04', '0x05'].map((data) => pinned.run((client) => client.call({ to: zeroAddress, data: data as Hex, blockNumber: PINNED_BLOCK })))
    pinned.seal()
    expect((await Promise.all(reads)).map((r) => r.data)).toEqual(['0x01', '0x02', '0x03', '0x04', '0x05'])
    expect(node.batches.map((b) => [b.tag, b.reads.length])).toEqual([['latest', 5], [numberToHex(42n), 3], [numberToHex(42n), 1]])
    expect(pinned.batches()).toBe(3)
  })
})
