import type { Address } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import type { TokenMetadata } from '../liquidity/types.js'

/** A description of a source's token list, with what it was made from. */
type Described = { chain: ChainConfig; entries: readonly TokenMetadata[]; metadata: Map<Address, TokenMetadata> }

/**
 * The last description per token list. A snapshot (and the live source between token changes)
 * hands out the same list, with the same entries, on every quote; the description is then the
 * same Map, which lets `buildPools` reuse its pools too.
 */
const described = new WeakMap<readonly TokenMetadata[], Described>()

/**
 * The tokens a quote can describe, by lowercased address: the chain config's (and its wrapped
 * native token), overridden by the source's entries with integer decimals (a `transferFeeBps` that
 * is not a bps figure becomes null: unknown). The same Map is returned while `fromSource` holds
 * the same entry objects for the same chain (entries are read, never changed, by getQuote).
 *
 * @example
 * const metadata = describeTokens(chain, liquidity.tokens)
 * metadata.get(usdc)?.decimals // 6
 */
export function describeTokens(chain: ChainConfig, fromSource: readonly TokenMetadata[]): Map<Address, TokenMetadata> {
  const known = Array.isArray(fromSource) ? described.get(fromSource) : undefined
  if (known && known.chain === chain && sameEntries(known.entries, fromSource)) return known.metadata
  const metadata = describe(chain, fromSource)
  if (Array.isArray(fromSource)) described.set(fromSource, { chain, entries: [...fromSource], metadata })
  return metadata
}

function sameEntries<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function describe(chain: ChainConfig, fromSource: readonly TokenMetadata[]): Map<Address, TokenMetadata> {
  const map = new Map<Address, TokenMetadata>()
  for (const t of chain.tokens) map.set(t.address, { ...t, transferFeeBps: 0 })
  map.set(chain.wrappedNative.address, { ...chain.wrappedNative, transferFeeBps: 0 })
  // A source entry describes a token only with integer decimals; anything less keeps what the chain config says.
  for (const t of fromSource) {
    if (!t || typeof t.address !== 'string' || !Number.isInteger(t.decimals) || t.decimals < 0 || t.decimals > 255) continue
    const address = t.address.toLowerCase() as Address
    map.set(address, {
      address,
      symbol: typeof t.symbol === 'string' ? t.symbol : (map.get(address)?.symbol ?? ''),
      decimals: t.decimals,
      // null: the source could not measure it (the token is then not traded); anything else that is
      // not a bps figure counts as unknown too.
      transferFeeBps:
        t.transferFeeBps === 0 || (Number.isInteger(t.transferFeeBps) && t.transferFeeBps! > 0 && t.transferFeeBps! < 10_000) ? t.transferFeeBps : null,
    })
  }
  return map
}
