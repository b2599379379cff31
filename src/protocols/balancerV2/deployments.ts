import type { Address, Hex } from 'viem'

/**
 * Balancer V2's Vault, at the same address on Ethereum and Base (task 20210418-vault of
 * balancer-deployments; `@balancer-labs/v2-deployments` 3.2.0 `20210418-vault/output/mainnet.json`,
 * and the Base deployment page of balancer-deployments).
 * @example { family: 'balancerV2', factory: BALANCER_V2_VAULT, pools: [...], poolFactories: [...] }
 */
export const BALANCER_V2_VAULT: Address = '0xba12222222228d8ba445958a75a0704d566bf2c8'

/**
 * WeightedPoolFactory deployments whose pools weft prices. v4 (20230320-weighted-pool-v4) is the live
 * factory on both chains; it deploys the same WeightedPool creation code as v3 (20230206-weighted-pool-v3:
 * both end in the metadata hash 0x8e9a1a26…5b4772), so v3's pools on Ethereum run identical code.
 * Older factories (2021 v1, 2022 v2) deploy other pool code and are not listed.
 * @example poolFactories: [...BALANCER_V2_WEIGHTED_POOL_FACTORIES.base]
 */
export const BALANCER_V2_WEIGHTED_POOL_FACTORIES = {
  ethereum: [
    '0x897888115ada5773e02aa29f775430bfb5f34c51', // v4
    '0x5dd94da3644ddd055fcf6b3e1aa310bb7801eb8b', // v3
  ],
  base: ['0x4c32a8a8fda4e24139b51b456b42290f51d6a1c4'], // v4
} as const satisfies Record<string, readonly Address[]>

/**
 * Weighted pools listed on Base (Balancer's own frontend pool allow-list for Base and the karpatkey
 * defi-kit Base pool list). The reader checks each against the factories at the quote's block, so a
 * pool that has gone (paused, another factory) is reported as skipped, never priced.
 * @example pools: [...BALANCER_V2_BASE_POOLS]
 */
export const BALANCER_V2_BASE_POOLS: readonly Hex[] = [
  '0x012e776cc3ed4c5adea3eda8677e82343e4de396000200000000000000000015', // 50WETH-50USDbC
  '0x35f823b87ea3c1918992f958b7764b4d37c7329400020000000000000000003e', // 50WETH-50USDbC
  '0x011f26a479d686e64e35b939c64933b9e6c445c900020000000000000000014a', // 57WETH-43USDC
  '0x2423d6e341270bcd5add138bc3d4058857d5455f00020000000000000000000e', // WETH-DAI
]
