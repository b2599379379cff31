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

// Fee caps for batched transactions: far above any base fee a devnet reaches,
// and only base fee plus tip is charged.
const MAX_FEE_PER_GAS = 1_000_000_000_000n
const PRIORITY_FEE_PER_GAS = 1_000_000_000n

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

/** A call as `eth_call` takes it (quantities hex). */
export type RpcCallRequest = { from: Address; to: Address; data: Hex; value?: Hex; gas: Hex }

/**
 * How a call reverts when made now (`eth_call` at the latest block, over plain `fetch`): its raw
 * revert data (`0x` when the node gives none), or null when it does not revert. For tests that
 * decode the revert themselves.
 *
 * @example
 * const data = await getCallRevertData(anvil.rpcUrl, { from, to: executor, data: calldata, gas: numberToHex(6_000_000n) })
 */
export async function getCallRevertData(url: string, call: RpcCallRequest): Promise<Hex | null> {
  const [answer] = (await callBatchSettled(url, [call])) as [CallAnswer]
  if (!('error' in answer)) return null
  return (typeof answer.error.data === 'string' ? answer.error.data : '0x') as Hex
}

/** What a node answered to one `eth_call`: its return data, or its error (revert data in `data`). */
export type CallAnswer = { result: Hex } | { error: { message: string; data?: unknown } }

/**
 * Several `eth_call`s at the latest block in one JSON-RPC batch, each answered or refused: unlike
 * {@link rpcBatch}, a call that reverts does not fail the others. For tests that compare a
 * contract's verdict on many inputs with weft's.
 *
 * @example
 * const [answer] = await callBatchSettled(anvil.rpcUrl, [{ from, to: probe, data, gas: '0x7a120' }])
 * if ('error' in answer) console.log(answer.error.data) // the revert data
 */
export async function callBatchSettled(url: string, calls: readonly RpcCallRequest[]): Promise<CallAnswer[]> {
  if (calls.length === 0) return []
  const first = nextId
  nextId += calls.length
  const body = calls.map((call, i) => ({ jsonrpc: '2.0', id: first + i, method: 'eth_call', params: [call, 'latest'] }))
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const answers = (await response.json()) as RpcResponse[]
  const byId = new Map(answers.map((answer) => [answer.id, answer]))
  return calls.map((_, i) => {
    const answer = byId.get(first + i)
    if (!answer) throw new Error(`no answer to eth_call ${i}`)
    return answer.error ? { error: answer.error } : { result: answer.result as Hex }
  })
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
 * Sends many transactions and mines them in as few blocks as their gas limits
 * allow. Automine is paused; nonces are assigned here per sender, in the order
 * given; the transactions go out in JSON-RPC batches, each of which fits one
 * block by gas limit and is mined by one `evm_mine`. Throws naming the first
 * transaction that reverted.
 *
 * Why this shape, all measured on anvil 1.7.1:
 * - with automine on, a batch's calls run concurrently and a transaction that
 *   arrives ahead of its nonce is sometimes lost from the pool;
 * - a block builder that skips a transaction too big for the remaining gas
 *   then tries that sender's later transactions, and drops them for their
 *   nonce gap: so a batch never holds more gas limit than a block;
 * - full blocks raise the base fee past the caps anvil fills in, so fee caps
 *   are explicit (only base fee plus tip is charged).
 *
 * Transactions of different senders must not depend on each other: a block
 * orders senders by fee, not by position here.
 *
 * @example
 * const receipts = await sendDevnetTransactions(anvil.rpcUrl, [deployA, deployB, callA])
 */
export async function sendDevnetTransactions(
  url: string,
  txs: readonly DevnetTransaction[],
): Promise<TransactionReceipt[]> {
  if (txs.length === 0) return []
  const senders = [...new Set(txs.filter((tx) => tx.nonce === undefined).map((tx) => tx.from.toLowerCase()))]
  const [automine, block, ...counts] = await rpcBatch<[boolean, { gasLimit: Hex }, ...Hex[]]>(url, [
    { method: 'anvil_getAutomine', params: [] },
    { method: 'eth_getBlockByNumber', params: ['latest', false] },
    ...senders.map((sender) => ({ method: 'eth_getTransactionCount', params: [sender, 'pending'] })),
  ])
  const blockGasLimit = BigInt(block.gasLimit)
  const nonces = new Map(senders.map((sender, i) => [sender, Number(counts[i])]))
  const numbered = txs.map((tx) => {
    if (tx.gas > blockGasLimit) throw new Error(`devnet transaction "${tx.label}": gas ${tx.gas} exceeds the block gas limit`)
    if (tx.nonce !== undefined) return tx
    const sender = tx.from.toLowerCase()
    const nonce = nonces.get(sender) as number
    nonces.set(sender, nonce + 1)
    return { ...tx, nonce }
  })
  const chunks: DevnetTransaction[][] = [[]]
  let chunkGas = 0n
  for (const tx of numbered) {
    if (chunkGas + tx.gas > blockGasLimit) {
      chunks.push([])
      chunkGas = 0n
    }
    chunks[chunks.length - 1]?.push(tx)
    chunkGas += tx.gas
  }

  const hashes: Hex[] = []
  if (automine) await rpc(url, 'evm_setAutomine', [false])
  try {
    for (const chunk of chunks) {
      const sent = await rpcBatch<Hex[]>(
        url,
        chunk.map((tx) => ({
          method: 'eth_sendTransaction',
          params: [
            {
              ...toRpcTransaction(tx),
              maxFeePerGas: numberToHex(MAX_FEE_PER_GAS),
              maxPriorityFeePerGas: numberToHex(PRIORITY_FEE_PER_GAS),
            },
          ],
        })),
      ).catch(async (error: unknown) => {
        // Leave no half-sent batch behind to be mined later.
        await rpc(url, 'anvil_dropAllTransactions', [])
        throw error
      })
      hashes.push(...sent)
      await rpc(url, 'evm_mine', [])
      const status = await rpc<{ pending: Hex; queued: Hex }>(url, 'txpool_status', [])
      if (Number(status.pending) + Number(status.queued) > 0) {
        await rpc(url, 'anvil_dropAllTransactions', [])
        throw new Error(`${Number(status.pending) + Number(status.queued)} devnet transactions did not fit their block`)
      }
    }
  } finally {
    if (automine) await rpc(url, 'evm_setAutomine', [true])
  }

  const answers = await rpcBatch<(RpcTransactionReceipt | null)[]>(
    url,
    hashes.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
  )
  const receipts = answers.map((answer, i) => {
    if (!answer) throw new Error(`devnet transaction "${numbered[i]?.label}" was dropped`)
    return formatTransactionReceipt(answer)
  })
  for (const [i, receipt] of receipts.entries()) await assertSucceeded(url, numbered[i] as DevnetTransaction, receipt)
  return receipts
}
