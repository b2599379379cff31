import { guarded } from '../errors/QuoteError.js'
import type { Chain } from '../quote/types.js'
import { type ChainsOption, resolveChains } from './registry.js'

/** The body of `GET /v1/chains`. */
export type ListChainsReturnType = { chains: Chain[] }

/**
 * The chains weft quotes on now (status `active`), as `{ chains: [{ id, name }] }`.
 * Planned chains are not listed.
 *
 * @example
 * listChains() // { chains: [{ id: 1, name: 'Ethereum' }, { id: 8453, name: 'Base' }] }
 */
export function listChains(options?: ChainsOption): ListChainsReturnType {
  return guarded(() => ({
    chains: resolveChains(options)
      .filter((chain) => chain.status === 'active')
      .map((chain) => ({ id: chain.id, name: chain.name })),
  }))
}
