import {
  BaseError,
  type Address,
  type Hex,
  type PublicClient,
  type Transport,
  createPublicClient,
  custom,
  decodeAbiParameters,
  encodeAbiParameters,
  getAddress,
  hexToBigInt,
  numberToHex,
} from 'viem'

/**
 * The block number readers are given while the block is not known yet: the pinned reader sends
 * their reads at `latest` in one eth_call and learns the block from that same call. Any block
 * parameter a reader forwards to the client is replaced, so this value never reaches a node.
 */
export const PINNED_BLOCK = 2n ** 62n

/**
 * Where PinnedBatchRead runs, by state override: an address with no key and no code
 * ("ba7c4 read" in hex-speak), so nothing real is shadowed.
 */
const BATCH_ADDRESS = '0x00000000000000000000000000000000ba7c4ead' as Address

/**
 * Where the n-th deployless lens of a batch runs (n from 1): its creation code is placed there by
 * state override and PinnedBatchRead calls it, so its answer is return data, not deployed code.
 * Spare addresses like {@link BATCH_ADDRESS}, above every precompile.
 */
const LENS_ADDRESS_BASE = 0xba7c4ead_00000000n

// A read as a reader issued it. PinnedBatchRead knows calls and balances: a creation is sent as a
// call of its code by state override.
const READ_CALL = 0
const READ_CREATE = 1
const READ_BALANCE = 2
type Read = { kind: number; target: Address; data: Hex }
type Pending = { read: Read; resolve: (value: Hex) => void; reject: (error: unknown) => void }

const readsParameter = [
  {
    type: 'tuple[]',
    components: [
      { name: 'kind', type: 'uint8' },
      { name: 'target', type: 'address' },
      { name: 'data', type: 'bytes' },
    ],
  },
] as const
// Block number, base fee, how many reads ran (the rest did not fit the call's gas), their results.
const answerParameters = [
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'uint256' },
  {
    type: 'tuple[]',
    components: [
      { name: 'ok', type: 'bool' },
      { name: 'data', type: 'bytes' },
    ],
  },
] as const

/** The node refused the state override itself (invalid params, or says so), not a read. */
function refusesOverrides(error: unknown): boolean {
  const matches = (e: unknown) => {
    const { code, message, details } = (e ?? {}) as { code?: unknown; message?: unknown; details?: unknown }
    return code === -32602 || /override|too many (arguments|params)/i.test(`${String(details ?? '')} ${String(message ?? '')}`)
  }
  return error instanceof BaseError ? error.walk(matches) !== null : matches(error)
}

/** What {@link createPinnedReader} returns. */
export type PinnedReader = {
  /**
   * Runs one reader with a client whose eth_call and eth_getBalance join the shared batch. Every
   * reader of one quote is registered with `run` before `seal` is called.
   */
  run<T>(reader: (client: PublicClient<Transport, any>) => Promise<T>): Promise<T>
  /** No more readers: the batch goes out once every reader waits on it (or is done). */
  seal(): void
  /** The block every read saw (known after the first batch answered). */
  blockNumber(): bigint | null
  /** That block's base fee. */
  baseFeePerGas(): bigint | null
  /** eth_calls sent so far: sequential round trips (one per batch). */
  batches(): number
  /** JSON-RPC requests sent so far (one per batch; one per read without state overrides). */
  requests(): number
  /** Resolves when the first batch goes out: a request that needs no state can leave beside it. */
  whenSent(): Promise<void>
}

/**
 * Coalesces every `eth_call` (a call or a deployless lens) and `eth_getBalance` that a quote's
 * readers issue into ONE eth_call of PinnedBatchRead (its creation code at a spare address by
 * state override; each lens's creation code at one more, where it is called rather than
 * created). The batch goes out once every registered reader is waiting on it or done (and one
 * more turn of the event loop brought no new read): readers spend CPU time building their
 * calls, so a timer alone would split them. The first batch runs at `latest` and returns the
 * block's number and base fee with the reads, so they are one block by construction, in one
 * round trip; a read issued later (it needed an earlier answer) waits for that block and runs at
 * it. Other methods go to `client` unchanged. A failed read rejects like a node's error; a failed
 * batch rejects all of its reads. Reads past the gas the node allows one eth_call (PinnedBatchRead
 * stops before them) go out in the next batch, at the same block.
 *
 * @example
 * const pinned = createPinnedReader(client)
 * const pools = pinned.run((reader) => readUniswapV2Pools({ client: reader, chain, blockNumber: PINNED_BLOCK, tokens, dexes }))
 * pinned.seal()
 * console.log(await pools, pinned.blockNumber())
 */
export function createPinnedReader(client: PublicClient<Transport, any>): PinnedReader {
  let pinned: bigint | null = null
  let baseFee: bigint | null = null
  let batches = 0
  let requests = 0
  let queue: Pending[] = []
  let sealed = false
  /** Per running reader: reads it waits on; readers that finished are removed. */
  const running = new Set<{ waiting: number }>()
  let timer: ReturnType<typeof setTimeout> | undefined
  /** The batch that will learn the block, while it is out. */
  let learning: Promise<void> | null = null
  let markSent: () => void = () => {}
  const firstSent = new Promise<void>((resolve) => (markSent = resolve))

  /**
   * Without state overrides (a node that refuses eth_call's third parameter) the reads go out one
   * by one, in parallel, at a block learned first: one more round trip, still one block.
   */
  let overridesRefused = false
  const sendOneByOne = async (sent: Pending[]) => {
    if (pinned === null) {
      batches++
      requests++
      markSent()
      pinned = hexToBigInt((await client.request({ method: 'eth_blockNumber' } as never)) as Hex)
    }
    const block = numberToHex(pinned)
    batches++
    requests += sent.length
    await Promise.all(
      sent.map(async ({ read, resolve, reject }) => {
        try {
          if (read.kind === READ_BALANCE) {
            const balance = (await client.request({ method: 'eth_getBalance', params: [read.target, block] } as never)) as Hex
            resolve(numberToHex(hexToBigInt(balance), { size: 32 }))
          } else {
            const call = read.kind === READ_CALL ? { to: read.target, data: read.data } : { data: read.data }
            resolve((await client.request({ method: 'eth_call', params: [call, block] } as never)) as Hex)
          }
        } catch (error) {
          reject(error)
        }
      }),
    )
  }

  const send = async (sent: Pending[]) => {
    if (overridesRefused) return sendOneByOne(sent)
    try {
      const { pinnedBatchReadBytecode } = await import('../executor/lensArtifacts.js')
      batches++
      requests++
      markSent()
      const block = pinned === null ? 'latest' : numberToHex(pinned)
      // A lens runs as the code of its own spare address, called: a CREATE would pay 200 gas per
      // byte of its answer in code deposit (a cold quote's answers came to ~75 kB, 15M gas, and the
      // lenses queued last ran out of the call's gas) and cap it at 24,576 bytes.
      const overrides: Record<Address, { code: Hex }> = { [BATCH_ADDRESS]: { code: pinnedBatchReadBytecode } }
      let lenses = 0
      const reads = sent.map(({ read }) => {
        if (read.kind !== READ_CREATE) return read
        lenses++
        const address = getAddress(numberToHex(LENS_ADDRESS_BASE + BigInt(lenses), { size: 20 }))
        overrides[address] = { code: read.data }
        return { kind: READ_CALL, target: address, data: '0x' as Hex }
      })
      const answer = (await client.request({
        method: 'eth_call',
        params: [{ to: BATCH_ADDRESS, data: encodeAbiParameters(readsParameter, [reads]) }, block, overrides],
      } as never)) as Hex
      const [number, fee, ran, results] = decodeAbiParameters(answerParameters, answer)
      if (pinned !== null && number !== pinned) throw new Error(`The node answered at block ${number}, not the pinned ${pinned}`)
      pinned = number
      baseFee = fee
      const answered = Number(ran)
      sent.slice(0, answered).forEach((pending, i) => {
        const result = results[i]
        if (!result) pending.reject(new Error('PinnedBatchRead answered without this read'))
        else if (result.ok) pending.resolve(result.data)
        else pending.reject(Object.assign(new Error('execution reverted'), { code: 3, data: result.data }))
      })
      // The reads past the gas the node allows one eth_call (many candidates: four families on
      // 22 tokens took ~45M, anvil allows 30M, geth 50M) did not run: they go out again at this
      // block (the first read always answers, its failure included: each batch makes progress).
      const unrun = sent.slice(answered)
      if (answered === 0 && unrun.length > 0) throw new Error('PinnedBatchRead ran no read')
      if (unrun.length > 0) await send(unrun)
    } catch (error) {
      if (pinned === null && refusesOverrides(error)) {
        overridesRefused = true
        return sendOneByOne(sent).catch((failure: unknown) => {
          for (const pending of sent) pending.reject(failure)
        })
      }
      for (const pending of sent) pending.reject(error)
    }
  }

  const flush = async () => {
    timer = undefined
    // Only one batch may run at `latest`: a later one waits for the block the first one saw.
    if (learning) await learning
    const sent = queue
    queue = []
    // An empty batch still learns the block (a quote whose readers had nothing to read).
    if (sent.length === 0 && (pinned !== null || learning)) return
    const sending = send(sent)
    if (pinned === null) learning = sending
    await sending
  }

  /** Schedules the batch when nothing else can join it: sealed, every reader waiting or done. */
  const maybeFlush = () => {
    const nothingYet = running.size === 0 && batches === 0 && !learning && timer === undefined
    if (!sealed || (queue.length === 0 && !nothingYet)) return
    for (const reader of running) if (reader.waiting === 0) return
    clearTimeout(timer)
    // One more turn of the event loop: sibling reads of the same reader (chunks) join too.
    timer = setTimeout(() => void flush(), 0)
  }

  const clientFor = (reader: { waiting: number }) => {
    const enqueue = (read: Read) =>
      new Promise<Hex>((resolve, reject) => {
        reader.waiting++
        let settled = false
        const settle = () => {
          if (settled) return
          settled = true
          reader.waiting--
        }
        queue.push({
          read,
          resolve: (value) => {
            settle()
            resolve(value)
          },
          reject: (error) => {
            settle()
            reject(error)
          },
        })
        maybeFlush()
      })
    const request = async ({ method, params }: { method: string; params?: unknown }) => {
      if (method === 'eth_call') {
        const [call] = params as [{ to?: Address | null; data?: Hex; input?: Hex }]
        const data = call.data ?? call.input ?? '0x'
        return call.to ? enqueue({ kind: READ_CALL, target: call.to, data }) : enqueue({ kind: READ_CREATE, target: BATCH_ADDRESS, data })
      }
      if (method === 'eth_getBalance') {
        const [address] = params as [Address]
        const balance = await enqueue({ kind: READ_BALANCE, target: address, data: '0x' })
        return numberToHex(hexToBigInt(balance))
      }
      return client.request({ method, params } as never)
    }
    // The node's client retries its own requests; a read's failure is final (a revert stays one).
    const transport = custom({ request }, { retryCount: 0 })
    return createPublicClient({ transport, ...(client.chain ? { chain: client.chain } : {}) }) as PublicClient<Transport, any>
  }

  return {
    run(readerFn) {
      const reader = { waiting: 0 }
      running.add(reader)
      const done = () => {
        running.delete(reader)
        maybeFlush()
      }
      const result = readerFn(clientFor(reader))
      result.then(done, done)
      return result
    },
    seal() {
      sealed = true
      maybeFlush()
    },
    blockNumber: () => pinned,
    baseFeePerGas: () => baseFee,
    batches: () => batches,
    requests: () => requests,
    whenSent: () => firstSent,
  }
}
