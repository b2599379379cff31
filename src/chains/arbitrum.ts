import type { ChainConfig } from './types.js'
import { UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V3_FEE_TIERS, UNISWAP_V3_INIT_CODE_HASH } from './uniswap.js'

/**
 * Arbitrum One (42161): planned, not yet quoted. Addresses lowercase.
 *
 * @example
 * listChains().chains.some((c) => c.id === arbitrum.id) // false until it is active
 */
export const arbitrum: ChainConfig = {
  id: 42161,
  name: 'Arbitrum One',
  status: 'planned',
  nativeSymbol: 'ETH',
  wrappedNative: { address: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1', symbol: 'WETH', decimals: 18 },
  tokens: [
    { address: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', symbol: 'USDC', decimals: 6 },
    { address: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', symbol: 'USDT', decimals: 6 },
    { address: '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1', symbol: 'DAI', decimals: 18 },
    { address: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1', symbol: 'WETH', decimals: 18 },
    { address: '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f', symbol: 'WBTC', decimals: 8 },
  ],
  usdStablecoins: [
    '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
    '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
    '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1',
  ],
  majorTokens: [
    '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
    '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
    '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1',
    '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
    '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f',
  ],
  dexes: [
    {
      id: 'uniswapV2',
      family: 'uniswapV2',
      protocol: 'Uniswap V2',
      fork: 'UniswapV2',
      factory: '0xf1d7cc64fb4452f05c498126312ebe29f30fbcf9',
      initCodeHash: UNISWAP_V2_INIT_CODE_HASH,
      feeBps: 30,
    },
    {
      id: 'uniswapV3',
      family: 'uniswapV3',
      protocol: 'Uniswap V3',
      fork: 'UniswapV3',
      factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
      initCodeHash: UNISWAP_V3_INIT_CODE_HASH,
      feeTiers: UNISWAP_V3_FEE_TIERS,
    },
  ],
  defaultGasPriceWei: 10_000_000n,
}
