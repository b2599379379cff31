import type { ChainConfig } from './types.js'
import { UNISWAP_V4_POOL_MANAGER_ETHEREUM, UNISWAP_V4_FEE_TIERS, UNISWAP_V4_NO_INIT_CODE_HASH } from '../protocols/uniswapV4/constants.js'
import { BALANCER_V2_VAULT, BALANCER_V2_WEIGHTED_POOL_FACTORIES } from '../protocols/balancerV2/deployments.js'
import { UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V3_FEE_TIERS, UNISWAP_V3_INIT_CODE_HASH } from './uniswap.js'
import { PANCAKE_V3_FACTORY, PANCAKE_V3_FEE_TIERS, PANCAKE_V3_INIT_CODE_HASH, PANCAKE_V3_POOL_DEPLOYER, SUSHISWAP_V2_INIT_CODE_HASH } from './forks.js'

/**
 * Ethereum mainnet (1). Addresses lowercase.
 *
 * @example
 * const mine = defineChainConfig({ ...ethereum, executor: '0x…', treasury: '0x…' })
 */
export const ethereum: ChainConfig = {
  id: 1,
  name: 'Ethereum',
  status: 'active',
  nativeSymbol: 'ETH',
  wrappedNative: { address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', symbol: 'WETH', decimals: 18 },
  tokens: [
    { address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', decimals: 6 },
    { address: '0xdac17f958d2ee523a2206206994597c13d831ec7', symbol: 'USDT', decimals: 6 },
    { address: '0x6b175474e89094c44da98b954eedeac495271d0f', symbol: 'DAI', decimals: 18 },
    { address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', symbol: 'WETH', decimals: 18 },
    { address: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', symbol: 'WBTC', decimals: 8 },
    { address: '0x514910771af9ca656af840dff83e8264ecf986ca', symbol: 'LINK', decimals: 18 },
    { address: '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984', symbol: 'UNI', decimals: 18 },
    { address: '0x6982508145454ce325ddbe47a25d4ec3d2311933', symbol: 'PEPE', decimals: 18 },
  ],
  usdStablecoins: [
    '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '0xdac17f958d2ee523a2206206994597c13d831ec7',
    '0x6b175474e89094c44da98b954eedeac495271d0f',
  ],
  majorTokens: [
    '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '0xdac17f958d2ee523a2206206994597c13d831ec7',
    '0x6b175474e89094c44da98b954eedeac495271d0f',
    '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599',
  ],
  dexes: [
    {
      id: 'uniswapV2',
      family: 'uniswapV2',
      protocol: 'Uniswap V2',
      fork: 'UniswapV2',
      factory: '0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f',
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
    {
      id: 'pancakeV3',
      family: 'pancakeV3',
      protocol: 'Uniswap V3',
      fork: 'PancakeV3',
      factory: PANCAKE_V3_POOL_DEPLOYER,
      initCodeHash: PANCAKE_V3_INIT_CODE_HASH,
      creationEmitter: PANCAKE_V3_FACTORY,
      feeTiers: PANCAKE_V3_FEE_TIERS,
    },
    {
      id: 'sushiswapV2',
      family: 'uniswapV2',
      protocol: 'Uniswap V2',
      fork: 'SushiSwapV2',
      factory: '0xc0aee478e3658e2610c5f7a4a2e1777ce9e4f2ac',
      initCodeHash: SUSHISWAP_V2_INIT_CODE_HASH,
      feeBps: 30,
    },
    {
      id: 'sushiswapV3',
      family: 'uniswapV3',
      protocol: 'Uniswap V3',
      fork: 'SushiSwapV3',
      factory: '0xbaceb8ec6b9355dfc0269c18bac9d6e2bdc29c4f',
      initCodeHash: UNISWAP_V3_INIT_CODE_HASH,
      feeTiers: UNISWAP_V3_FEE_TIERS,
    },
    {
      id: 'balancerV2',
      family: 'balancerV2',
      protocol: 'Balancer V2',
      fork: 'BalancerV2',
      // The Vault: Balancer pools are swapped through it (executor dex kind 5).
      factory: BALANCER_V2_VAULT,
      initCodeHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
      pools: [],
      poolFactories: [...BALANCER_V2_WEIGHTED_POOL_FACTORIES.ethereum],
    },
    {
      id: 'uniswapV4',
      family: 'uniswapV4',
      protocol: 'Uniswap V4',
      fork: 'UniswapV4',
      // The singleton PoolManager: V4 pools are ids inside it (executor dex kind 4), not CREATE2 contracts.
      factory: UNISWAP_V4_POOL_MANAGER_ETHEREUM,
      initCodeHash: UNISWAP_V4_NO_INIT_CODE_HASH,
      feeTiers: { ...UNISWAP_V4_FEE_TIERS },
    },
  ],
  defaultGasPriceWei: 20_000_000_000n,
}
