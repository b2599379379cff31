import type { ChainConfig } from './types.js'
import { UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V3_FEE_TIERS, UNISWAP_V3_INIT_CODE_HASH } from './uniswap.js'

/** Base (8453). Addresses lowercase. */
export const base: ChainConfig = {
  id: 8453,
  name: 'Base',
  status: 'active',
  nativeSymbol: 'ETH',
  wrappedNative: { address: '0x4200000000000000000000000000000000000006', symbol: 'WETH', decimals: 18 },
  tokens: [
    { address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', symbol: 'USDC', decimals: 6 },
    { address: '0xfde4c96c8593536e31f229ea8f37b2ada2699bb2', symbol: 'USDT', decimals: 6 },
    { address: '0x50c5725949a6f0c72e6c4a641f24049a917db0cb', symbol: 'DAI', decimals: 18 },
    { address: '0x4200000000000000000000000000000000000006', symbol: 'WETH', decimals: 18 },
    { address: '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf', symbol: 'cbBTC', decimals: 8 },
    { address: '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca', symbol: 'USDbC', decimals: 6 },
    { address: '0x2ae3f1ec7f1f5012cfeab0185bfc7aa3cf0dec22', symbol: 'cbETH', decimals: 18 },
    { address: '0x940181a94a35a4569e4529a3cdfb74e38fd98631', symbol: 'AERO', decimals: 18 },
    { address: '0x4ed4e862860bed51a9570b96d89af5e1b0efefed', symbol: 'DEGEN', decimals: 18 },
  ],
  usdStablecoins: [
    '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    '0xfde4c96c8593536e31f229ea8f37b2ada2699bb2',
    '0x50c5725949a6f0c72e6c4a641f24049a917db0cb',
    '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca',
  ],
  majorTokens: [
    '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    '0xfde4c96c8593536e31f229ea8f37b2ada2699bb2',
    '0x50c5725949a6f0c72e6c4a641f24049a917db0cb',
    '0x4200000000000000000000000000000000000006',
    '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf',
  ],
  dexes: [
    {
      id: 'uniswapV2',
      family: 'uniswapV2',
      protocol: 'Uniswap V2',
      fork: 'UniswapV2',
      factory: '0x8909dc15e40173ff4699343b6eb8132c65e18ec6',
      initCodeHash: UNISWAP_V2_INIT_CODE_HASH,
      feeBps: 30,
    },
    {
      id: 'uniswapV3',
      family: 'uniswapV3',
      protocol: 'Uniswap V3',
      fork: 'UniswapV3',
      factory: '0x33128a8fc17869897dce68ed026d694621f6fdfd',
      initCodeHash: UNISWAP_V3_INIT_CODE_HASH,
      feeTiers: UNISWAP_V3_FEE_TIERS,
    },
  ],
  defaultGasPriceWei: 10_000_000n,
}
