import type { TokenInfo } from '../chains/types.js'
import type { Token } from '../quote/types.js'
import { formatAmount } from './amounts.js'

/** What a formatter knows of a token: the quote's own `tokens` first, then the caller's list. */
export type DescribeToken = (address: string) => { symbol: string; decimals: number } | undefined

/**
 * A lookup over the quote's tokens and extra ones (a chain's token list: the
 * wrapped native token of a native trade's hops). The quote's own entries win.
 *
 * @example
 * createTokenDescriber(quote.tokens, getTokenBook(base))('0x4200000000000000000000000000000000000006') // { symbol: 'WETH', decimals: 18, … }
 */
export function createTokenDescriber(quoteTokens: readonly Token[], tokens: readonly TokenInfo[]): DescribeToken {
  const byAddress = new Map<string, { symbol: string; decimals: number }>()
  for (const t of tokens) if (!byAddress.has(t.address.toLowerCase())) byAddress.set(t.address.toLowerCase(), t)
  for (const t of quoteTokens) byAddress.set(t.address.toLowerCase(), t)
  return (address) => byAddress.get(address.toLowerCase())
}

/**
 * A long hex string (address, pool id) cut to its first 6 and last 4 characters.
 *
 * @example
 * shortenHex('0xb4cb800910b228ed3d0834cf79d697127bbb00e5') // '0xb4cb…00e5'
 */
export function shortenHex(hex: string): string {
  return hex.length > 13 ? `${hex.slice(0, 6)}…${hex.slice(-4)}` : hex
}

/**
 * An amount with its symbol, or the raw amount and the short address of a token nothing describes.
 *
 * @example
 * formatTokenAmount('1500000000000000000', weth, describe) // '1.5 WETH'
 */
export function formatTokenAmount(raw: string | bigint, token: string, describe: DescribeToken): string {
  const meta = describe(token)
  return meta ? `${formatAmount(raw, meta.decimals)} ${meta.symbol}` : `${raw} (raw) ${shortenHex(token)}`
}

/**
 * The symbol of a token, or its short address.
 *
 * @example
 * formatSymbol(weth, describe) // 'WETH'
 */
export function formatSymbol(token: string, describe: DescribeToken): string {
  return describe(token)?.symbol || shortenHex(token)
}

/**
 * A display number with about 6 significant digits; whole numbers from 1e6 to 1e21 in full.
 *
 * @example
 * formatSignificant(2999.3120571) // '2999.31'
 * formatSignificant(0.000333409791) // '0.00033341'
 * formatSignificant(1508823.98) // '1508824'
 */
export function formatSignificant(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value)
  if (Math.abs(value) >= 1e6 && Math.abs(value) < 1e21) return value.toFixed(0)
  const text = value.toPrecision(6)
  if (text.includes('e')) return text
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}

/**
 * A fee tier in hundredths of a bip as a percentage, with at least 2 decimals.
 *
 * @example
 * formatFeeTier(500) // '0.05%'
 * formatFeeTier(3000) // '0.30%'
 * formatFeeTier(1) // '0.0001%'
 */
export function formatFeeTier(pips: number): string {
  const percent = (pips / 10_000).toFixed(4).replace(/(\.\d\d\d*?)0+$/, '$1')
  return `${percent}%`
}

/**
 * Each amount's share of their sum in hundredths of a percent, rounded so the
 * shares add up to exactly 10000 (100.00%): floors, then the largest remainders
 * get the leftover units. All zeros (or no amounts) give all zeros.
 *
 * @example
 * getShares([1n, 1n, 1n]) // [3334, 3333, 3333]
 */
export function getShares(amounts: readonly bigint[]): number[] {
  const total = amounts.reduce((a, b) => a + b, 0n)
  if (total <= 0n) return amounts.map(() => 0)
  const floors = amounts.map((a) => (a * 10_000n) / total)
  const remainders = amounts.map((a) => (a * 10_000n) % total)
  let leftover = 10_000n - floors.reduce((a, b) => a + b, 0n)
  const order = amounts.map((_, i) => i).sort((i, j) => (remainders[j]! > remainders[i]! ? 1 : remainders[j]! < remainders[i]! ? -1 : i - j))
  for (const i of order) {
    if (leftover <= 0n) break
    floors[i] = floors[i]! + 1n
    leftover--
  }
  return floors.map(Number)
}

/**
 * Hundredths of a percent as a percentage with 2 decimals.
 *
 * @example
 * formatShare(6250) // '62.50%'
 */
export function formatShare(units: number): string {
  return `${(units / 100).toFixed(2)}%`
}
