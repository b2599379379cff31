import type { Address, Hex } from 'viem'
import type { PoolStateBase } from '../types.js'

/**
 * A Balancer V2 weighted pool at one block, as the Vault and the pool report it. Integers as
 * base-10 strings; arrays in the pool's token order (the Vault's registration order).
 * `address` is the Vault (the pool's Swap.address), `poolId` its Swap.key.
 *
 * @example
 * const { pools } = await readBalancerV2Pools({ client, chain, blockNumber, tokens, dexes })
 * pools[0] // { family: 'balancerV2', address: vault, poolId, pool, tokens, balances: ['1000…', …], … }
 */
export type BalancerV2PoolState = PoolStateBase & {
  family: 'balancerV2'
  /** The Vault's pool id: the pool address, its specialization and a registration nonce. */
  poolId: Hex
  /** The pool contract (the first 20 bytes of `poolId`). */
  pool: Address
  tokens: Address[]
  /** Vault.getPoolTokens balances, raw token units. */
  balances: string[]
  /** getNormalizedWeights(): 18-decimal, summing to 1e18. */
  weights: string[]
  /**
   * getScalingFactors(): 18-decimal, 1e18 · 10^(18 − decimals). Weighted pools use rate providers
   * for yield protocol fees only, never in a swap or in these factors.
   */
  scalingFactors: string[]
  /** getSwapFeePercentage(): 18-decimal (1e15 = 0.1%). */
  swapFeePercentage: string
}
