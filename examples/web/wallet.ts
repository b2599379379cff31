// The wallet half of the page: an injected EIP-1193 provider (`window.ethereum`) connects an
// account; each quote is simulated for it (simulateQuote: the approval and the fill together) and
// "Approve and swap" sends buildFillCalls' calls — one atomic wallet_sendCalls batch where the
// wallet offers it, otherwise one transaction each, the fill with the simulation's gas limit.
import {
  BaseError,
  type Address,
  type EIP1193Provider,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  createPublicClient,
  createWalletClient,
  custom,
  getAddress,
  hexToNumber,
  isHex,
  parseEventLogs,
} from 'viem'
import {
  type Quote,
  type SimulateQuoteReturnType,
  buildFillCalls,
  decodeFillRevert,
  describeFillRevert,
  simulateQuote,
  weftExecutorAbi,
} from '../../src/index.js'

declare global {
  interface Window {
    ethereum?: EIP1193Provider
  }
}

/** A connected injected wallet. */
export type Wallet = {
  provider: EIP1193Provider
  account: Address
  chainId: number
}

/** The injected provider, or null when the browser has none. */
export function getInjectedProvider(): EIP1193Provider | null {
  return typeof window !== 'undefined' && window.ethereum ? window.ethereum : null
}

/** Asks the injected wallet for an account (the wallet shows its own prompt) and its chain. */
export async function connectWallet(provider: EIP1193Provider): Promise<Wallet> {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as Address[]
  if (!accounts[0]) throw new Error('The wallet shared no account')
  const chainId = hexToNumber((await provider.request({ method: 'eth_chainId' })) as Hex)
  return { provider, account: getAddress(accounts[0]), chainId }
}

/** Simulates the quote for the wallet's account, through the page's node when it has one. */
export function simulateForWallet(wallet: Wallet, quote: Quote, readClient: PublicClient | null): Promise<SimulateQuoteReturnType> {
  const client = readClient ?? createPublicClient({ transport: custom(wallet.provider) })
  return simulateQuote({ client, quote, sender: wallet.account })
}

/** Replays a reverted call on the state before its block and decodes why (a hint: the block may differ). */
async function replayRevert(reader: PublicClient, account: Address, call: { to: Address; data: Hex; value: bigint }, blockNumber: bigint): Promise<string | null> {
  try {
    await reader.call({ account, ...call, blockNumber: blockNumber - 1n })
    return null
  } catch (error) {
    const data = error instanceof BaseError ? (error.walk((e) => isHex((e as { data?: unknown }).data)) as { data?: Hex } | null)?.data : undefined
    return data ? describeFillRevert(decodeFillRevert(data)) : null
  }
}

/** What a fill did: the transactions (or batch) sent and what the receiver got by the Fill event. */
export type FillResult = { how: 'batch' | 'sequence'; transactionHashes: Hex[]; received: bigint }

/**
 * Sends the quote's calls from the wallet and waits for them. The approval is exact and, where the
 * wallet can batch atomically (EIP-5792 `atomic` capability), bound to the fill in one batch.
 */
export async function sendFill(wallet: Wallet, quote: Quote, simulated: SimulateQuoteReturnType, readClient: PublicClient | null): Promise<FillResult> {
  const walletClient = createWalletClient({ account: wallet.account, transport: custom(wallet.provider) })
  const reader = readClient ?? createPublicClient({ transport: custom(wallet.provider), pollingInterval: 500 })
  const { calls } = buildFillCalls(quote, { chainId: wallet.chainId, from: wallet.account })
  // A wallet without EIP-5792 answers "method not found": it cannot batch at all.
  const atomic = await walletClient.getCapabilities({ chainId: wallet.chainId }).then(
    (capabilities) => capabilities.atomic?.status,
    () => undefined,
  )
  let receipts: TransactionReceipt[]
  let how: FillResult['how']
  if (atomic === 'supported' || atomic === 'ready') {
    const { id } = await walletClient.sendCalls({ calls, forceAtomic: true })
    const status = await walletClient.waitForCallsStatus({ id })
    if (status.status !== 'success') throw new Error(`The wallet's batch ended ${status.status}`)
    receipts = await Promise.all((status.receipts ?? []).map((r) => reader.getTransactionReceipt({ hash: r.transactionHash })))
    how = 'batch'
  } else {
    receipts = []
    for (const [index, call] of calls.entries()) {
      const isFill = index === calls.length - 1
      const hash = await walletClient.sendTransaction({ ...call, chain: null, ...(isFill ? { gas: simulated.gasLimit } : {}) })
      const receipt = await reader.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') {
        const why = await replayRevert(reader, wallet.account, call, receipt.blockNumber)
        throw new Error(`${isFill ? 'The fill' : 'The approval'} reverted on chain (${hash})${why ? `: ${why}` : ''}`)
      }
      receipts.push(receipt)
    }
    how = 'sequence'
  }
  const fills = parseEventLogs({ abi: weftExecutorAbi, eventName: 'Fill', logs: receipts.flatMap((r) => r.logs) })
  if (fills.length !== 1) throw new Error('No Fill event in the receipts')
  return { how, transactionHashes: receipts.map((r) => r.transactionHash), received: fills[0]!.args.amountOut }
}
