// Executes a Quote's own transaction on anvil and measures what every party received.
import { type Address, type Hex, type TransactionReceipt, zeroAddress } from 'viem'
import { expect } from 'vitest'
import type { Quote } from '../../src/index.js'
import type { Devnet } from '../devnet/deployDevnet.js'

export type FillOutcome = {
  receipt: TransactionReceipt
  /** What the receiver's balance of the buy token (ETH for native) rose by, gas excluded. */
  received: bigint
  /** What each fee recipient's balance of its fee token rose by, in `quote.fees` order. */
  feesReceived: bigint[]
  /** The executor's balances after the fill, of every token the route touched and ETH. */
  executorLeft: Record<string, bigint>
}

const ETH = 'ETH' as const
const asRef = (token: Address) => (token === zeroAddress ? ETH : token)

/**
 * Approves exactly `quote.approval` (when present), sends `quote.transaction`
 * from `from` with an explicit gas limit, and measures balances around it.
 */
export async function executeQuote(
  devnet: Devnet,
  quote: Quote,
  buyToken: Address,
  from: Address,
  receiver: Address = from,
  /**
   * The transaction's gas limit (default: 6,000,000, or 1.5 times the quote's own gas estimate when that
   * is more: a fill of many paths needs more, and a fixed limit below the estimate only tests the
   * limit (the live forks' 33-path quote of 11.6M gas ran out of gas at 6M and succeeds given it).
   */
  gasLimit = maxGas(6_000_000n, (3n * BigInt(quote.gasEstimate)) / 2n),
): Promise<FillOutcome> {
  const { anvil } = devnet
  const wallet = anvil.walletClients.find((w) => w.account.address.toLowerCase() === from.toLowerCase())
  if (!wallet) throw new Error(`no unlocked wallet for ${from}`)
  if (quote.approval) {
    // Large exact-out trades can need more than a trader was funded with: top it up first.
    const needed = BigInt(quote.approval.amount)
    const held = await devnet.balanceOf(quote.approval.token, from)
    if (held < needed) await devnet.mint(quote.approval.token, from, needed - held)
    await devnet.approve(quote.approval.token, from, quote.approval.spender, needed)
  }

  const before = await devnet.balanceOf(asRef(buyToken), receiver)
  const feesBefore = await Promise.all(quote.fees.map((f) => devnet.balanceOf(asRef(f.token), f.recipient)))

  const hash = await wallet.sendTransaction({
    to: quote.transaction.to,
    data: quote.transaction.data as Hex,
    value: BigInt(quote.transaction.value),
    gas: gasLimit,
  })
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })

  const after = await devnet.balanceOf(asRef(buyToken), receiver)
  let received = after - before
  // Native output to the sender itself: add back what the sender paid for gas (and sent as value).
  if (buyToken === zeroAddress && receiver.toLowerCase() === from.toLowerCase())
    received += receipt.gasUsed * receipt.effectiveGasPrice + BigInt(quote.transaction.value)
  const feesReceived = await Promise.all(
    quote.fees.map(async (f, i) => {
      let delta = (await devnet.balanceOf(asRef(f.token), f.recipient)) - feesBefore[i]!
      if (f.token === zeroAddress && f.recipient.toLowerCase() === from.toLowerCase())
        delta += receipt.gasUsed * receipt.effectiveGasPrice + BigInt(quote.transaction.value)
      return delta
    }),
  )

  const touched = new Set<string>([ETH, devnet.contracts.weth])
  for (const path of quote.route.swaps) for (const s of path) touched.add(s.tokenIn).add(s.tokenOut)
  for (const t of quote.tokens) if (t.address !== zeroAddress) touched.add(t.address)
  const executorLeft: Record<string, bigint> = {}
  for (const token of touched) {
    if (token === zeroAddress) continue
    executorLeft[token] = await devnet.balanceOf(token as Address | typeof ETH, quote.transaction.to)
  }
  return { receipt, received, feesReceived, executorLeft }
}

/**
 * The exactness check every execution test makes: the fill succeeded, the receiver got exactly
 * `amountOut`, each fee recipient exactly its fee, and the executor kept nothing. A miss is
 * counted in `stats.mismatches` first, then asserted part by part so a failure names the part.
 */
export function expectExactFill(outcome: FillOutcome, quote: Quote, stats: { mismatches: number }): void {
  const exact =
    outcome.receipt.status === 'success' &&
    outcome.received === BigInt(quote.amountOut) &&
    outcome.feesReceived.every((f, k) => f === BigInt(quote.fees[k]!.amount))
  if (!exact) stats.mismatches++
  expect(outcome.receipt.status).toBe('success')
  expect(outcome.received).toBe(BigInt(quote.amountOut))
  expect(outcome.feesReceived).toEqual(quote.fees.map((f) => BigInt(f.amount)))
  for (const [token, left] of Object.entries(outcome.executorLeft)) expect(left, `executor holds ${token}`).toBe(0n)
}

/**
 * The gas check every execution test makes: the quote's gasEstimate covers the fill's gasUsed and
 * is at most 1.3 times it. Returns the ratio estimate / used, for the test's summary.
 *
 * @example
 * stats.ratios.push(expectGasCovered(outcome, quote))
 */
export function expectGasCovered(outcome: FillOutcome, quote: Quote): number {
  const gasUsed = Number(outcome.receipt.gasUsed)
  expect(quote.gasEstimate).toBeGreaterThanOrEqual(gasUsed)
  expect(quote.gasEstimate).toBeLessThanOrEqual(1.3 * gasUsed)
  return quote.gasEstimate / gasUsed
}

/** The larger of two gas amounts. */
const maxGas = (one: bigint, other: bigint) => (one > other ? one : other)
