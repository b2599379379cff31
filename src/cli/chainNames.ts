import type { ChainConfig } from '../chains/types.js'
import { invalidParams } from '../errors/QuoteError.js'

/**
 * A chain's name as the CLI takes it: lowercase, words joined by `-`.
 *
 * @example
 * getChainSlug({ name: 'Arbitrum One' }) // 'arbitrum-one'
 */
export function getChainSlug(chain: Pick<ChainConfig, 'name'>): string {
  return chain.name.trim().toLowerCase().replace(/[\s_]+/g, '-')
}

/**
 * The chain a `--chain` value names: its id (`8453`), its slug or name in any
 * case (`base`, `Arbitrum One`, `arbitrum-one`), or the first word of its name
 * when only one chain has it (`arbitrum`). Anything else is a 400 `QuoteError`
 * on `chain` listing the known names. Planned chains are found too: the quote
 * rules refuse them with their own message.
 *
 * @example
 * findChain(defaultChains, 'base').id // 8453
 */
export function findChain(chains: readonly ChainConfig[], text: string): ChainConfig {
  const wanted = text.trim().toLowerCase().replace(/[\s_]+/g, '-')
  const byId = /^[0-9]+$/.test(wanted) ? chains.find((c) => String(c.id) === wanted) : undefined
  if (byId) return byId
  const bySlug = chains.find((c) => getChainSlug(c) === wanted)
  if (bySlug) return bySlug
  const byFirstWord = chains.filter((c) => getChainSlug(c).split('-')[0] === wanted)
  if (byFirstWord.length === 1) return byFirstWord[0]!
  const known = chains.map((c) => `${getChainSlug(c)} (${c.id})`).join(', ')
  throw invalidParams([{ param: 'chain', message: `${JSON.stringify(text)} is not a known chain (known: ${known})` }])
}
