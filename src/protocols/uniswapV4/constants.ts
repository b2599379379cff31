import type { Address, Hex } from 'viem'

/**
 * The fee / tick spacing pairs of Uniswap V4 pools without hooks that the RPC
 * source tries for every token pair (V3's tiers, which most V4 pools reuse;
 * V4 itself lets a pool pick any spacing for any fee).
 * @example { ...dex, feeTiers: UNISWAP_V4_FEE_TIERS }
 */
export const UNISWAP_V4_FEE_TIERS: Readonly<Record<number, number>> = Object.freeze({ 100: 1, 500: 10, 3000: 60, 10000: 200 })

/**
 * V4 pools are not CREATE2 contracts: a V4 dex's `initCodeHash` is unused and set to zero.
 * @example { ...dex, initCodeHash: UNISWAP_V4_NO_INIT_CODE_HASH }
 */
export const UNISWAP_V4_NO_INIT_CODE_HASH: Hex = '0x0000000000000000000000000000000000000000000000000000000000000000'

/**
 * The PoolManager on Ethereum (docs.uniswap.org/contracts/v4/deployments).
 * @example ethereum.dexes.find((d) => d.factory === UNISWAP_V4_POOL_MANAGER_ETHEREUM)
 */
export const UNISWAP_V4_POOL_MANAGER_ETHEREUM: Address = '0x000000000004444c5dc75cb358380d2e3de08a90'

/**
 * The PoolManager on Base (docs.uniswap.org/contracts/v4/deployments).
 * @example base.dexes.find((d) => d.factory === UNISWAP_V4_POOL_MANAGER_BASE)
 */
export const UNISWAP_V4_POOL_MANAGER_BASE: Address = '0x498581ff718922c3f8e6a244956af099b2652b2b'
