import type { ChainConfig } from './types.js'
import { UNISWAP_V4_POOL_MANAGER_BASE, UNISWAP_V4_FEE_TIERS, UNISWAP_V4_NO_INIT_CODE_HASH } from '../protocols/uniswapV4/constants.js'
import { BALANCER_V2_BASE_POOLS, BALANCER_V2_VAULT, BALANCER_V2_WEIGHTED_POOL_FACTORIES } from '../protocols/balancerV2/deployments.js'
import { UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V3_FEE_TIERS, UNISWAP_V3_INIT_CODE_HASH } from './uniswap.js'
import { AERODROME_V2_FACTORY_BASE, AERODROME_V2_INIT_CODE_HASH_BASE } from '../protocols/aerodromeV2/deployments.js'
import { AERODROME_SLIPSTREAM_FACTORY_2, AERODROME_SLIPSTREAM_INIT_CODE_HASH_2 } from '../protocols/slipstream/deployments.js'
import {
  AERODROME_SLIPSTREAM_FACTORY,
  AERODROME_SLIPSTREAM_INIT_CODE_HASH,
  AERODROME_SLIPSTREAM_TICK_SPACINGS,
  PANCAKE_V3_FACTORY,
  PANCAKE_V3_FEE_TIERS,
  PANCAKE_V3_INIT_CODE_HASH,
  PANCAKE_V3_POOL_DEPLOYER,
  SUSHISWAP_V2_INIT_CODE_HASH,
} from './forks.js'

/**
 * The fee tiers Base's Uniswap V3 factory enabled after launch, to their tick spacings: 0.02%, 0.03%
 * and 0.04% (Uniswap/sdks PR #99 adds them to the v3-sdk's FeeAmount/TICK_SPACINGS; Uniswap's
 * smart-order-router PR #704 routes them by default on Base only). The WETH/USDC pool at 400 derives
 * to 0x56c8989222ed293e3c4a22628d8bca633ce1eb99 (src/chains/base.test.ts). Ethereum's factory has
 * only the original four.
 */
const UNISWAP_V3_BASE_LATER_FEE_TIERS: Record<number, number> = { 200: 4, 300: 6, 400: 8 }

/**
 * Base (8453). Addresses lowercase.
 *
 * @example
 * const source = createRpcSource({ client: createPublicClient({ transport: http(url) }), chain: base })
 */
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
      feeTiers: { ...UNISWAP_V3_FEE_TIERS, ...UNISWAP_V3_BASE_LATER_FEE_TIERS },
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
      factory: '0x71524b4f93c58fcbf659783284e38825f0622859',
      initCodeHash: SUSHISWAP_V2_INIT_CODE_HASH,
      feeBps: 30,
    },
    {
      id: 'sushiswapV3',
      family: 'uniswapV3',
      protocol: 'Uniswap V3',
      fork: 'SushiSwapV3',
      factory: '0xc35dadb65012ec5796536bd9864ed8773abc74c4',
      initCodeHash: UNISWAP_V3_INIT_CODE_HASH,
      feeTiers: UNISWAP_V3_FEE_TIERS,
    },
    {
      id: 'aerodromeSlipstream',
      family: 'slipstream',
      protocol: 'Uniswap V3',
      fork: 'AeroDromeCL',
      factory: AERODROME_SLIPSTREAM_FACTORY,
      initCodeHash: AERODROME_SLIPSTREAM_INIT_CODE_HASH,
      tickSpacings: [...AERODROME_SLIPSTREAM_TICK_SPACINGS],
    },
    {
      // The newer CLFactory (sources in src/protocols/slipstream/deployments.ts), read beside the legacy one.
      id: 'aerodromeSlipstream2',
      family: 'slipstream',
      protocol: 'Uniswap V3',
      fork: 'AeroDromeCL',
      factory: AERODROME_SLIPSTREAM_FACTORY_2,
      initCodeHash: AERODROME_SLIPSTREAM_INIT_CODE_HASH_2,
      tickSpacings: [...AERODROME_SLIPSTREAM_TICK_SPACINGS],
    },
    {
      id: 'balancerV2',
      family: 'balancerV2',
      protocol: 'Balancer V2',
      fork: 'BalancerV2',
      // The Vault: Balancer pools are swapped through it (executor dex kind 5).
      factory: BALANCER_V2_VAULT,
      initCodeHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
      pools: [...BALANCER_V2_BASE_POOLS],
      poolFactories: [...BALANCER_V2_WEIGHTED_POOL_FACTORIES.base],
    },
    {
      id: 'uniswapV4',
      family: 'uniswapV4',
      protocol: 'Uniswap V4',
      fork: 'UniswapV4',
      // The singleton PoolManager: V4 pools are ids inside it (executor dex kind 4), not CREATE2 contracts.
      factory: UNISWAP_V4_POOL_MANAGER_BASE,
      initCodeHash: UNISWAP_V4_NO_INIT_CODE_HASH,
      feeTiers: { ...UNISWAP_V4_FEE_TIERS },
    },
    {
      // Aerodrome V2 (Solidly) volatile and stable pools: clones of the Pool implementation from its
      // PoolFactory (executor dex kind 7); sources in docs/protocols/aerodrome.md.
      id: 'aerodromeV2',
      family: 'aerodromeV2',
      protocol: 'Solidly',
      fork: 'AeroDrome',
      factory: AERODROME_V2_FACTORY_BASE,
      initCodeHash: AERODROME_V2_INIT_CODE_HASH_BASE,
    },
  ],
  defaultGasPriceWei: 10_000_000n,
}
