import type { Quote } from '../quote/types.js'
import type { SimulateQuoteReturnType } from '../wallet/simulateQuote.js'
import { type DescribeToken, formatTokenAmount, shortenHex } from './formatParts.js'

/**
 * What `simulateQuote` found, as printed under the quote by `weft quote --simulate`: what the
 * receiver gets and each fee, each beside the quoted amount ("as quoted" or the difference), the
 * fill's gas against the quote's estimate, and the recommended gas limit. No trailing newline.
 *
 * @example
 * const simulated = await simulateQuote({ client, quote, sender })
 * console.log(formatSimulation(simulated, quote, { describe, sender, buyToken: intent.buyToken }))
 * // simulated  for 0xf39F…2266 through eth_simulateV1
 * // receives   2020.68 USDC  (as quoted)
 * // gas used   141100  (estimate 164144)  limit 176375 (+25%)
 */
export function formatSimulation(
  simulated: SimulateQuoteReturnType,
  quote: Quote,
  { describe, sender, buyToken }: { describe: DescribeToken; sender: string; buyToken: string },
): string {
  const versus = (got: bigint, quoted: bigint) => (got === quoted ? 'as quoted' : `quoted ${quoted}, ${got > quoted ? '+' : ''}${got - quoted} base units`)
  const lines = [
    `simulated  for ${shortenHex(sender)} through ${simulated.method}${simulated.receiver.toLowerCase() === sender.toLowerCase() ? '' : `, receiver ${shortenHex(simulated.receiver)}`}`,
    `receives   ${formatTokenAmount(simulated.amountOut, buyToken, describe)}  (${versus(simulated.amountOut, BigInt(quote.amountOut))})`,
    ...simulated.fees.map(
      (fee, i) => `fee paid   ${formatTokenAmount(fee.amount, fee.token, describe)} to ${shortenHex(fee.recipient)}  (${versus(fee.amount, BigInt(quote.fees[i]!.amount))})`,
    ),
    `gas used   ${simulated.gasUsed}  (estimate ${quote.gasEstimate})  limit ${simulated.gasLimit} (+25%)` +
      (simulated.approvalGasUsed === null ? '' : `; approval ${simulated.approvalGasUsed}`),
  ]
  return lines.join('\n')
}
