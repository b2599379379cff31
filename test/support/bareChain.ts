import type { Address } from 'viem'
import type { ChainConfig, DexConfig } from '../../src/chains/types.js'

/**
 * A chain config with nothing but what a unit test names: an id and name, the wrapped native token
 * (symbol WETH, 18 decimals), the dexes (default none), a status (default active) and a default
 * gas price (default 1 wei); no listed tokens, stablecoins or major tokens.
 *
 * @example
 * const chain = createBareChain({ id: 8453, name: 'Base', wrappedNative: weth, dexes: [dex] })
 */
export function createBareChain(options: {
  id: number
  name: string
  wrappedNative: Address
  status?: ChainConfig['status']
  dexes?: DexConfig[]
  defaultGasPriceWei?: bigint
}): ChainConfig {
  const { id, name, wrappedNative, status = 'active', dexes = [], defaultGasPriceWei = 1n } = options
  return {
    id,
    name,
    status,
    nativeSymbol: 'ETH',
    wrappedNative: { address: wrappedNative, symbol: 'WETH', decimals: 18 },
    tokens: [],
    usdStablecoins: [],
    majorTokens: [],
    dexes,
    defaultGasPriceWei,
  }
}
