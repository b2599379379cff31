import {
  type Address,
  type Hex,
  type RpcTransactionReceipt,
  type TransactionReceipt,
  formatTransactionReceipt,
  numberToHex,
} from 'viem'

/** One JSON-RPC call. */
export type RpcCall = { method: string; params: readonly unknown[] }

type RpcResponse = { id: number; result?: unknown; error?: { code: number; message: string; data?: unknown } }

let nextId = 1

/**
 * Sends several JSON-RPC calls in one HTTP request (a JSON-RPC batch) and
 * returns their results in order. Throws on the first call that failed.
 * anvil may run a batch's calls concurrently: send dependent calls apart, or
 * give transactions explicit nonces.
 *
 * @example
 * const [block, chainId] = await rpcBatch<[Hex, Hex]>(url, [{ method: 'eth_blockNumber', params: [] }, { method: 'eth_chainId', params: [] }])
 */
export async function rpcBatch<T extends unknown[] = unknown[]>(url: string, calls: readonly RpcCall[]): Promise<T> {
  if (calls.length === 0) return [] as unknown as T
  const first = nextId
  nextId += calls.length
  const body = calls.map((call, i) => ({ jsonrpc: '2.0', id: first + i, method: call.method, params: call.params }))
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`RPC batch failed: HTTP ${response.status} ${await response.text()}`)
  const answers = (await response.json()) as RpcResponse[]
  const byId = new Map(answers.map((answer) => [answer.id, answer]))
  return calls.map((call, i) => {
    const answer = byId.get(first + i)
    if (!answer) throw new Error(`RPC batch: no answer to ${call.method}`)
    if (answer.error) {
      throw new Error(`RPC ${call.method} failed: ${answer.error.message}${answer.error.data ? ` (${JSON.stringify(answer.error.data)})` : ''}`)
    }
    return answer.result
  }) as T
}

/**
 * One JSON-RPC call over plain `fetch` (no client, no retries, no caching).
 *
 * @example
 * const receipt = await rpc<RpcTransactionReceipt>(url, 'eth_sendTransactionSync', [{ from, to, data, gas: '0x30d40' }])
 */
export async function rpc<T = unknown>(url: string, method: string, params: readonly unknown[]): Promise<T> {
  const [result] = await rpcBatch<[T]>(url, [{ method, params }])
  return result
}

/** A transaction from an unlocked anvil account. The gas limit is mandatory (see toolchain.md). */
export type DevnetTransaction = {
  /** Names the transaction in errors. */
  label: string
  from: Address
  /** Omitted: a contract creation. */
  to?: Address
  data?: Hex
  value?: bigint
  gas: bigint
  nonce?: number
}

function toRpcTransaction(tx: DevnetTransaction) {
  return {
    from: tx.from,
    ...(tx.to ? { to: tx.to } : {}),
    ...(tx.data ? { data: tx.data } : {}),
    ...(tx.value ? { value: numberToHex(tx.value) } : {}),
    gas: numberToHex(tx.gas),
    ...(tx.nonce !== undefined ? { nonce: numberToHex(tx.nonce) } : {}),
  }
}

/**
 * Throws, naming the transaction and the revert reason (replayed with
 * `eth_call` on the current state), when a receipt says it reverted.
 */
async function assertSucceeded(url: string, tx: DevnetTransaction, receipt: TransactionReceipt): Promise<void> {
  if (receipt.status === 'success') return
  let reason = receipt.gasUsed === tx.gas ? 'out of gas' : 'reverted'
  try {
    const { nonce: _, ...call } = toRpcTransaction(tx)
    await rpc(url, 'eth_call', [call, 'latest'])
    reason += ' (does not revert when replayed now)'
  } catch (error) {
    reason += `: ${(error as Error).message}`
  }
  throw new Error(`devnet transaction "${tx.label}" ${receipt.transactionHash} failed, ${reason}`)
}

/**
 * Sends one transaction and waits for its receipt in the same round trip
 * (`eth_sendTransactionSync`); throws when it reverted.
 *
 * @example
 * const receipt = await sendDevnetTransaction(anvil.rpcUrl, { label: 'mint', from, to: token, data, gas: 200_000n })
 */
export async function sendDevnetTransaction(url: string, tx: DevnetTransaction): Promise<TransactionReceipt> {
  const raw = await rpc<RpcTransactionReceipt>(url, 'eth_sendTransactionSync', [toRpcTransaction(tx)])
  const receipt = formatTransactionReceipt(raw)
  await assertSucceeded(url, tx, receipt)
  return receipt
}

/**
 * Sends many transactions in one JSON-RPC batch and waits for all receipts.
 * Nonces are assigned here, per sender, from `eth_getTransactionCount`, so
 * the batch executes in the order given whatever order anvil reads it in.
 * Throws naming the first transaction that reverted.
 *
 * @example
 * const receipts = await sendDevnetTransactions(anvil.rpcUrl, [deployA, deployB, callA])
 */
export async function sendDevnetTransactions(
  url: string,
  txs: readonly DevnetTransaction[],
  options: { timeoutMs?: number } = {},
): Promise<TransactionReceipt[]> {
  const senders = [...new Set(txs.filter((tx) => tx.nonce === undefined).map((tx) => tx.from.toLowerCase()))]
  const counts = await rpcBatch<Hex[]>(
    url,
    senders.map((sender) => ({ method: 'eth_getTransactionCount', params: [sender, 'pending'] })),
  )
  const nonces = new Map(senders.map((sender, i) => [sender, Number(counts[i])]))
  const numbered = txs.map((tx) => {
    if (tx.nonce !== undefined) return tx
    const sender = tx.from.toLowerCase()
    const nonce = nonces.get(sender) as number
    nonces.set(sender, nonce + 1)
    return { ...tx, nonce }
  })
  const hashes = await rpcBatch<Hex[]>(
    url,
    numbered.map((tx) => ({ method: 'eth_sendTransaction', params: [toRpcTransaction(tx)] })),
  )

  const receipts: (TransactionReceipt | undefined)[] = txs.map(() => undefined)
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (;;) {
    const missing = receipts.flatMap((receipt, i) => (receipt ? [] : [i]))
    if (missing.length === 0) break
    const answers = await rpcBatch<(RpcTransactionReceipt | null)[]>(
      url,
      missing.map((i) => ({ method: 'eth_getTransactionReceipt', params: [hashes[i]] })),
    )
    answers.forEach((answer, j) => {
      if (answer) receipts[missing[j] as number] = formatTransactionReceipt(answer)
    })
    if (answers.some((answer) => answer === null)) {
      if (Date.now() > deadline) {
        const label = numbered[missing[answers.indexOf(null)] as number]?.label
        throw new Error(`devnet transaction "${label}" was not mined in time`)
      }
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
  const done = receipts as TransactionReceipt[]
  for (const [i, receipt] of done.entries()) await assertSucceeded(url, numbered[i] as DevnetTransaction, receipt)
  return done
}
