import { type Address, type Hex, encodeFunctionData, erc20Abi, getAddress, isAddress, isHex, numberToHex } from 'viem'
import { invalidParams } from '../errors/QuoteError.js'
import type { Quote } from '../quote/types.js'

/** One call a wallet sends: viem's `sendCalls` / `sendTransaction` shape. */
export type FillCall = { to: Address; data: Hex; value: bigint }

/** The params object of EIP-5792 `wallet_sendCalls` (version 2.0.0), ready for `provider.request`. */
export type SendCallsParams = {
  version: '2.0.0'
  chainId: Hex
  from?: Address
  atomicRequired: boolean
  calls: { to: Address; data: Hex; value: Hex }[]
}

export type BuildFillCallsOptions = {
  /** The quote's chain: EIP-5792 requires it. */
  chainId: number
  /** The sending account, when the wallet should not pick it. */
  from?: Address
  /**
   * `wallet_sendCalls`'s `atomicRequired` (default true): the approval is only useful with the fill,
   * and an approval left behind by a failed fill is what exact approvals are meant to avoid.
   */
  atomicRequired?: boolean
  /**
   * Approve 0 before the exact approval (default false), for tokens that refuse to change a
   * non-zero allowance to another non-zero value (USDT on Ethereum).
   */
  resetAllowance?: boolean
}

export type BuildFillCallsReturnType = {
  /** The calls in order: the exact approval (when `quote.approval` is not null), then the fill. */
  calls: FillCall[]
  /** The same calls as one EIP-5792 `wallet_sendCalls` request's params. */
  sendCallsParams: [SendCallsParams]
}

/**
 * The calls a wallet sends to fill a quote: an approval of exactly `quote.approval.amount` to the
 * executor (ERC-20 input only), then `quote.transaction`. Both as a plain sequence (viem
 * `sendCalls({ calls })`, or one `sendTransaction` each, in order) and as the params of an
 * EIP-5792 `wallet_sendCalls` request that asks for both atomically. Pure: reads no chain, so it
 * does not skip an approval the sender may already have (a node call would be needed to know).
 *
 * @example
 * const { calls, sendCallsParams } = buildFillCalls(quote, { chainId: 8453, from: account })
 * const { id } = await provider.request({ method: 'wallet_sendCalls', params: sendCallsParams })
 * // or, with viem: await walletClient.sendCalls({ account, calls, forceAtomic: true })
 */
export function buildFillCalls(quote: Quote, options: BuildFillCallsOptions): BuildFillCallsReturnType {
  const { chainId, from, atomicRequired = true, resetAllowance = false } = options ?? {}
  const issues: { param: string; message: string }[] = []
  if (!Number.isSafeInteger(chainId) || chainId <= 0) issues.push({ param: 'chainId', message: 'must be a positive integer' })
  if (from !== undefined && !isAddress(from, { strict: false })) issues.push({ param: 'from', message: 'must be an address' })
  const transaction = quote?.transaction
  if (!transaction || !isAddress(transaction.to ?? '', { strict: false }) || !isHex(transaction.data) || !/^\d+$/.test(String(transaction.value)))
    issues.push({ param: 'quote.transaction', message: 'must be { to, data, value } as getQuote returns it' })
  const approval = quote?.approval
  if (approval && (!isAddress(approval.token ?? '', { strict: false }) || !isAddress(approval.spender ?? '', { strict: false }) || !/^\d+$/.test(String(approval.amount))))
    issues.push({ param: 'quote.approval', message: 'must be { token, spender, amount } or null' })
  if (issues.length > 0) throw invalidParams(issues)

  const approve = (amount: bigint): FillCall => ({
    to: getAddress(approval!.token),
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [getAddress(approval!.spender), amount] }),
    value: 0n,
  })
  const calls: FillCall[] = [
    ...(approval && resetAllowance ? [approve(0n)] : []),
    ...(approval ? [approve(BigInt(approval.amount))] : []),
    { to: getAddress(transaction.to), data: transaction.data, value: BigInt(transaction.value) },
  ]
  const params: SendCallsParams = {
    version: '2.0.0',
    chainId: numberToHex(chainId),
    ...(from === undefined ? {} : { from: getAddress(from) }),
    atomicRequired,
    calls: calls.map((c) => ({ to: c.to, data: c.data, value: numberToHex(c.value) })),
  }
  return { calls, sendCallsParams: [params] }
}
