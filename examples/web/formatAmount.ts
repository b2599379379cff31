// Amounts for people: exact decimal strings from base units (no floats), cut to a few significant
// digits. Truncated, never rounded up, so the page never shows more than the quote gives.
import { formatUnits } from 'viem'

/** Significant digits shown for an amount (the integer part is always shown whole). */
export const SIGNIFICANT_DIGITS = 6

/**
 * `2040683110n` at 6 decimals → `2,040.68`; `488123456789012n` at 18 → `0.000488123`;
 * `1234567891234n` at 6 → `1,234,567`. At most `significant` significant digits once the
 * integer part has room for them, thousands separated, trailing zeros dropped.
 */
export function formatAmount(raw: bigint, decimals: number, significant = SIGNIFICANT_DIGITS): string {
  const negative = raw < 0n
  const [whole = '0', fraction = ''] = formatUnits(negative ? -raw : raw, decimals).split('.')
  let kept: string
  if (whole !== '0') {
    kept = fraction.slice(0, Math.max(0, significant - whole.length))
  } else {
    // Below 1: leading zeros of the fraction are not significant.
    const zeros = fraction.length - fraction.replace(/^0+/, '').length
    kept = fraction.slice(0, zeros + significant)
  }
  kept = kept.replace(/0+$/, '')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${kept ? `.${kept}` : ''}`
}
