import { formatUnits, parseUnits } from 'viem'
import { invalidParams } from '../errors/QuoteError.js'

const humanAmount = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/

/**
 * A human amount (`1.5`) in a token's smallest unit, as a base-10 string
 * (`1500000000000000000` for 18 decimals). Exact: an amount with more
 * fractional digits than the token has is refused, never rounded. Throws a 400
 * `QuoteError` naming `param` for anything that is not a plain decimal number.
 * Zero passes here; the quote rules refuse it.
 *
 * @example
 * toRawAmount('1.5', 6, 'amount') // '1500000'
 */
export function toRawAmount(text: string, decimals: number, param: string, symbol = 'the token'): string {
  if (!humanAmount.test(text)) throw invalidParams([{ param, message: `must be a decimal number such as 1.5 (got ${JSON.stringify(text)})` }])
  const fraction = text.split('.')[1] ?? ''
  if (fraction.length > decimals)
    throw invalidParams([{ param, message: `has ${fraction.length} decimals; ${symbol} has ${decimals}` }])
  return parseUnits(text.endsWith('.') ? text.slice(0, -1) : text, decimals).toString()
}

/**
 * A raw amount (base-10 string or bigint) in human units, exact, without trailing zeros.
 *
 * @example
 * formatAmount('4498968053', 6) // '4498.968053'
 */
export function formatAmount(raw: string | bigint, decimals: number): string {
  return formatUnits(BigInt(raw), decimals)
}
