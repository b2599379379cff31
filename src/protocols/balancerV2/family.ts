import { type Address, type Hex, isAddress, maxUint256 } from 'viem'
import { hostError } from '../../errors/QuoteError.js'
import type { PoolFamily } from '../types.js'
import { ONE } from './fixedPoint.js'
import { BalancerV2WeightedPool, MAX_VAULT_BALANCE } from './pool.js'
import { getBalancerV2PoolAddress, readBalancerV2Pools } from './readPools.js'
import type { BalancerV2PoolState } from './state.js'

/** WeightedPool's bounds: 2 to 8 tokens, each weight at least 1%, a swap fee of at most 10%. */
const MAX_TOKENS = 8
const MIN_WEIGHT = 10n ** 16n
const MAX_SWAP_FEE = 10n ** 17n

const integer = (value: unknown, field: string): bigint => {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw hostError(`balancerV2 state: ${field} must be a base-10 integer`)
  const n = BigInt(value)
  if (n > maxUint256) throw hostError(`balancerV2 state: ${field} exceeds uint256`)
  return n
}

const integers = (values: unknown, count: number, field: string): bigint[] => {
  if (!Array.isArray(values) || values.length !== count) throw hostError(`balancerV2 state: ${field} must list one value per token`)
  return values.map((v, i) => integer(v, `${field}[${i}]`))
}

const isAddressValue = (value: unknown): value is Address => typeof value === 'string' && isAddress(value, { strict: false })

/**
 * The Balancer V2 family: weighted pools held by the Vault, swapped with `Vault.swap` (GIVEN_IN)
 * through executor dex kind 5. Only pools a configured WeightedPoolFactory created are read
 * (`DexConfig.pools`, `DexConfig.poolFactories`); `fromState` validates the JSON state.
 *
 * @example
 * const quote = await getQuote(intent, source, { families: [...defaultFamilies, balancerV2Family] })
 */
export const balancerV2Family: PoolFamily<BalancerV2PoolState> = {
  id: 'balancerV2',
  executorKind: 5,
  fromState(state, context) {
    const poolId = typeof state.poolId === 'string' ? (state.poolId.toLowerCase() as Hex) : undefined
    if (!poolId || !/^0x[0-9a-f]{64}$/.test(poolId)) throw hostError('balancerV2 state: poolId must be 32 bytes of hex')
    if (!isAddressValue(state.pool) || state.pool.toLowerCase() !== getBalancerV2PoolAddress(poolId)) {
      throw hostError('balancerV2 state: pool must be the address in the first 20 bytes of poolId')
    }
    if (!isAddressValue(state.address) || state.address.toLowerCase() !== context.dex.factory.toLowerCase()) {
      throw hostError('balancerV2 state: address must be the dex Vault')
    }
    const tokens = Array.isArray(state.tokens) ? state.tokens : []
    if (tokens.length < 2 || tokens.length > MAX_TOKENS || !tokens.every(isAddressValue)) {
      throw hostError('balancerV2 state: tokens must be 2 to 8 addresses')
    }
    const lowered = tokens.map((t) => t.toLowerCase() as Address)
    if (new Set(lowered).size !== lowered.length) throw hostError('balancerV2 state: tokens must be distinct')
    const balances = integers(state.balances, tokens.length, 'balances')
    if (balances.some((b) => b > MAX_VAULT_BALANCE)) throw hostError('balancerV2 state: a balance exceeds the Vault\'s 112 bits')
    const weights = integers(state.weights, tokens.length, 'weights')
    if (weights.some((w) => w < MIN_WEIGHT) || weights.reduce((a, b) => a + b, 0n) !== ONE) {
      throw hostError('balancerV2 state: weights must each be at least 1e16 and sum to 1e18')
    }
    const scalingFactors = integers(state.scalingFactors, tokens.length, 'scalingFactors')
    if (scalingFactors.some((s) => s === 0n)) throw hostError('balancerV2 state: scaling factors must be positive')
    const swapFee = integer(state.swapFeePercentage, 'swapFeePercentage')
    if (swapFee > MAX_SWAP_FEE) throw hostError('balancerV2 state: swapFeePercentage exceeds 10%')
    return new BalancerV2WeightedPool(
      {
        poolId,
        pool: state.pool.toLowerCase() as Address,
        vault: state.address.toLowerCase() as Address,
        tokens: lowered,
        weights,
        scalingFactors,
        swapFee,
      },
      balances,
      context,
    )
  },
  readPools: readBalancerV2Pools,
}
