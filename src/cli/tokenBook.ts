import { type Address, zeroAddress } from 'viem'
import type { ChainConfig, TokenInfo } from '../chains/types.js'
import { invalidParams } from '../errors/QuoteError.js'
import type { TokenMetadata } from '../liquidity/types.js'
import { isAddressString, paramMessages } from '../quote/normalizeIntent.js'

/** Native tokens have 18 decimals on every EVM chain weft serves (getQuote assumes the same). */
export const NATIVE_DECIMALS = 18

/** Token metadata the snapshot or source knows, per chain. */
export type ChainTokenList = { chainId: number; tokens: readonly TokenMetadata[] }

/**
 * The tokens the CLI knows by symbol on a chain, in lookup priority: the
 * native token (the zero address, the chain's native symbol), the chain's
 * token list, its wrapped native token, then the token metadata of the
 * snapshots for that chain. Addresses lowercase, each listed once.
 *
 * @example
 * getTokenBook(base, defaultSnapshot).find((t) => t.symbol === 'USDC')?.decimals // 6
 */
export function getTokenBook(chain: ChainConfig, lists: readonly ChainTokenList[] = []): TokenInfo[] {
  const book: TokenInfo[] = []
  const seen = new Set<string>()
  const add = (t: { address: string; symbol: string; decimals: number }) => {
    const address = t.address.toLowerCase() as Address
    if (seen.has(address) || !Number.isInteger(t.decimals) || typeof t.symbol !== 'string') return
    seen.add(address)
    book.push({ address, symbol: t.symbol, decimals: t.decimals })
  }
  add({ address: zeroAddress, symbol: chain.nativeSymbol, decimals: NATIVE_DECIMALS })
  for (const t of chain.tokens) add(t)
  add(chain.wrappedNative)
  for (const list of lists) if (list.chainId === chain.id) for (const t of list.tokens) add(t)
  return book
}

/** A `--sell`/`--buy` value as a token: its address (as given), and what the book knows of it. */
export type ResolvedToken = { address: string; symbol?: string; decimals?: number }

/**
 * A `--sell`/`--buy` value as a token: a symbol of the book (any letter case;
 * an exact-case match wins a tie), or an address. An address of a token the
 * book does not list is returned with `decimals` undefined. A malformed
 * address (a value starting with `0x`), an unknown or an ambiguous symbol is a
 * 400 `QuoteError` naming `param`.
 *
 * @example
 * resolveToken(getTokenBook(base), 'weth', 'sellToken', 'Base').address // '0x4200…0006'
 */
export function resolveToken(
  book: readonly TokenInfo[],
  text: string,
  param: string,
  chainName: string,
): ResolvedToken {
  if (/^0x/i.test(text)) {
    if (!isAddressString(text)) throw invalidParams([{ param, message: paramMessages.address }])
    const known = book.find((t) => t.address === text.toLowerCase())
    return known ? { ...known, address: text } : { address: text }
  }
  const matches = book.filter((t) => t.symbol.toLowerCase() === text.toLowerCase())
  const exact = matches.filter((t) => t.symbol === text)
  const pick = exact.length === 1 ? exact : matches
  if (pick.length === 1) return pick[0]!
  if (pick.length > 1)
    throw invalidParams([
      { param, message: `${text} names ${pick.length} tokens on ${chainName} (${pick.map((t) => t.address).join(', ')}); give the address` },
    ])
  const symbols = book.map((t) => t.symbol).join(', ')
  throw invalidParams([{ param, message: `${JSON.stringify(text)} is not a token symbol of ${chainName} (known: ${symbols}) nor an address` }])
}
