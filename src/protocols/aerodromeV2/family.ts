import { hostError } from '../../errors/QuoteError.js'
import type { PoolFamily } from '../types.js'
import { AerodromeV2Pool } from './pool.js'
import { readAerodromeV2Pools } from './readPools.js'
import type { AerodromeV2PoolState } from './state.js'

/** Largest token decimals a pool can scale by (10 ** 78 overflows uint256). */
const MAX_DECIMALS = 77
/** The factory's highest fee (`PoolFactory.MAX_FEE`, 3%). */
const MAX_FEE_BPS = 300

const toReserve = (value: string, field: string): bigint => {
  if (!/^\d+$/.test(value)) throw hostError(`aerodromeV2 state: ${field} must be a base-10 integer`)
  const reserve = BigInt(value)
  if (reserve >= 1n << 256n) throw hostError(`aerodromeV2 state: ${field} exceeds uint256`)
  return reserve
}

const toDecimals = (value: number, field: string): number => {
  if (!Number.isInteger(value) || value < 0 || value > MAX_DECIMALS) throw hostError(`aerodromeV2 state: ${field} must be an integer 0..${MAX_DECIMALS}`)
  return value
}

/**
 * The Aerodrome V2 (Solidly) family: volatile (x·y) and stable (x³y + xy³) pools, EIP-1167 clones
 * CREATE2-deployed by a PoolFactory (`DexConfig.factory`; `DexConfig.initCodeHash` is the clone's
 * init-code hash), each with the fee its factory reports. Executor kind 7 (Step.param bit 0: stable).
 *
 * @example
 * const quote = await getQuote(intent, source, { families: [...defaultFamilies, aerodromeV2Family] })
 */
export const aerodromeV2Family: PoolFamily<AerodromeV2PoolState> = {
  id: 'aerodromeV2',
  executorKind: 7,
  fromState(state, context) {
    const token0 = state.token0.toLowerCase() as AerodromeV2PoolState['token0']
    const token1 = state.token1.toLowerCase() as AerodromeV2PoolState['token1']
    if (token0 >= token1) throw hostError('aerodromeV2 state: token0 must sort below token1')
    if (typeof state.stable !== 'boolean') throw hostError('aerodromeV2 state: stable must be a boolean')
    if (!Number.isInteger(state.feeBps) || state.feeBps < 0 || state.feeBps > MAX_FEE_BPS) throw hostError(`aerodromeV2 state: feeBps must be an integer 0..${MAX_FEE_BPS}`)
    return new AerodromeV2Pool(
      state.address.toLowerCase() as AerodromeV2PoolState['address'],
      token0,
      token1,
      state.stable,
      toReserve(state.reserve0, 'reserve0'),
      toReserve(state.reserve1, 'reserve1'),
      toDecimals(state.decimals0, 'decimals0'),
      toDecimals(state.decimals1, 'decimals1'),
      state.feeBps,
      context,
      {
        accumulators: state.accumulatorsZero === true,
        fees0: state.feesUnaccrued0 === true,
        fees1: state.feesUnaccrued1 === true,
        observation: state.observationDue === true,
      },
    )
  },
  readPools: readAerodromeV2Pools,
}
