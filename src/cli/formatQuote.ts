import { type Address, formatUnits, zeroAddress } from 'viem'
import type { ChainConfig, TokenInfo } from '../chains/types.js'
import { DEFAULT_SLIPPAGE_BPS } from '../quote/normalizeIntent.js'
import type { Fee, Quote, QuoteIntent } from '../quote/types.js'
import {
  type DescribeToken,
  createTokenDescriber,
  formatSignificant,
  formatSymbol,
  formatTokenAmount,
  shortenHex,
} from './formatParts.js'
import { type FormatRouteTreeOptions, formatRouteTree } from './formatRouteTree.js'

export type FormatQuoteOptions = FormatRouteTreeOptions & {
  /** The intent the quote answers: names the fees (integrator, referral), the slippage and the surplus share. */
  intent?: QuoteIntent
  /** The quote's chain: its name, native symbol, and treasury (which names the service fee). */
  chain?: ChainConfig
  /** Gas price (wei) the quote was made at, when known: the summary then prices the gas estimate. */
  gasPriceWei?: bigint
}

/**
 * A quote as a readable summary: sell and buy amounts with symbols, price both
 * ways, minimum received, price impact, each fee with what it is (integrator,
 * referral, service; the surplus share when the intent sets one), the gas
 * estimate, the approval to give, the transaction, and the route tree
 * ({@link formatRouteTree}). `tokens` describes tokens the quote's own list
 * does not. Pure: no I/O. No trailing newline.
 *
 * @example
 * const quote = await getQuote(intent, createSnapshotSource(defaultSnapshot))
 * console.log(formatQuote(quote, getTokenBook(base, defaultSnapshot), { intent, chain: base }))
 * // sell      1.5 WETH  (0x4200…0006)
 * // buy       4498.968053 USDC  (0x8335…2913)
 * // …
 */
export function formatQuote(quote: Quote, tokens: readonly TokenInfo[] = [], options: FormatQuoteOptions = {}): string {
  const describe = createTokenDescriber(quote.tokens, tokens)
  const { intent, chain } = options
  const sellToken = quote.tokens[0]?.address ?? intent?.sellToken ?? quote.route.swaps[0]?.[0]?.tokenIn ?? zeroAddress
  const buyToken = quote.tokens[1]?.address ?? intent?.buyToken ?? quote.route.swaps[0]?.at(-1)?.tokenOut ?? zeroAddress
  const nativeSymbol = chain?.nativeSymbol ?? describe(zeroAddress)?.symbol ?? 'native'
  const amount = (raw: string | bigint, token: string) => formatTokenAmount(raw, token, describe)
  const sym = (token: string) => formatSymbol(token, describe)

  const rows: [string, string][] = []
  const exactOut = intent?.buyAmount !== undefined
  rows.push(['sell', `${amount(quote.amountIn, sellToken)}  (${shortenHex(sellToken)})${exactOut ? '  needed for the exact output' : ''}`])
  rows.push(['buy', `${amount(quote.amountOut, buyToken)}  (${shortenHex(buyToken)})${exactOut ? '  exact output' : ''}`])
  rows.push([
    'price',
    quote.price === null || !(quote.price > 0)
      ? 'n/a'
      : // quote.price is the spot rate, output per input (decisions.md §4)
        `1 ${sym(sellToken)} = ${formatSignificant(quote.price)} ${sym(buyToken)}  ·  1 ${sym(buyToken)} = ${formatSignificant(1 / quote.price)} ${sym(sellToken)}  (spot)`,
  ])
  const slippage = intent ? (intent.slippageBps ?? DEFAULT_SLIPPAGE_BPS) : undefined
  rows.push(['minimum', `${amount(quote.minimumAmountOut, buyToken)}${slippage === undefined ? '' : `  (slippage ${formatBps(slippage)})`}`])
  rows.push(['impact', `${quote.priceImpactBps} bps  (${formatSignificant(quote.priceImpactBps / 100)}%)`])
  const feeLines = describeFees(quote.fees, describe, intent, chain)
  rows.push(['fees', feeLines[0] ?? 'none'])
  for (const line of feeLines.slice(1)) rows.push(['', line])
  rows.push(['gas', describeGas(quote.gasEstimate, options.gasPriceWei, nativeSymbol)])
  rows.push([
    'approval',
    quote.approval
      ? `approve ${amount(quote.approval.amount, quote.approval.token)} to ${quote.approval.spender}`
      : `none (native ${nativeSymbol} input, sent as the transaction value)`,
  ])
  const value = BigInt(quote.transaction.value)
  rows.push([
    'transaction',
    `to ${quote.transaction.to}, value ${formatUnits(value, 18)} ${nativeSymbol}, ${(quote.transaction.data.length - 2) / 2} bytes of calldata`,
  ])
  rows.push(['block', `${quote.blockNumber}${chain ? ` on ${chain.name}` : ''}`])
  rows.push(['id', quote.id + (quote.appId === null ? '' : `  (app ${quote.appId})`)])

  const labelWidth = Math.max(...rows.map(([label]) => label.length)) + 2
  const summary = rows.map(([label, text]) => `${label.padEnd(labelWidth)}${text}`.trimEnd())
  return [...summary, '', formatRouteTree(quote, tokens, options)].join('\n')
}

/** Basis points as a percentage: 50 → `0.5%`. */
function formatBps(bps: number): string {
  return `${formatSignificant(bps / 100)}%`
}

function describeGas(gasEstimate: number, gasPriceWei: bigint | undefined, nativeSymbol: string): string {
  if (gasPriceWei === undefined) return `${gasEstimate} (estimate)`
  const cost = BigInt(gasEstimate) * gasPriceWei
  return `${gasEstimate} (estimate)  ≈ ${formatUnits(cost, 18)} ${nativeSymbol} at ${formatUnits(gasPriceWei, 9)} gwei`
}

/**
 * One line per fee, named after the intent share it pays. getQuote lists the
 * shares in a fixed order (integrator, referral, service), skipping zero
 * amounts; each fee takes the first unused share with its recipient.
 */
function describeFees(fees: readonly Fee[], describe: DescribeToken, intent: QuoteIntent | undefined, chain: ChainConfig | undefined): string[] {
  const expected: { label: string; recipient: string; bps?: number }[] = []
  const lower = (a: Address | undefined) => a?.toLowerCase()
  if (intent?.feeBps && intent.feeRecipient) expected.push({ label: 'integrator', recipient: lower(intent.feeRecipient)!, bps: intent.feeBps })
  if (intent?.referralFeeBps && intent.referralFeeRecipient)
    expected.push({ label: 'referral', recipient: lower(intent.referralFeeRecipient)!, bps: intent.referralFeeBps })
  if (chain?.treasury) expected.push({ label: 'service', recipient: lower(chain.treasury)! })
  const used = new Set<number>()
  const lines = fees.map((fee) => {
    const index = expected.findIndex((e, i) => !used.has(i) && e.recipient === fee.recipient.toLowerCase())
    if (index >= 0) used.add(index)
    const share = index >= 0 ? expected[index]! : undefined
    const label = (share?.label ?? 'fee').padEnd(10)
    const rate = share?.bps === undefined ? '' : ` (${formatBps(share.bps)})`
    return `${label} ${formatTokenAmount(fee.amount, fee.token, describe)}${rate} to ${fee.recipient}`
  })
  if (intent?.surplusFeeBps && intent.surplusFeeRecipient)
    lines.push(`${'surplus'.padEnd(10)} ${formatBps(intent.surplusFeeBps)} of any surplus to ${intent.surplusFeeRecipient}, taken at fill time`)
  return lines
}
