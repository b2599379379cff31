import type { Address } from 'viem'
import type { PoolStateBase } from '../protocols/types.js'

/** The fields pool states of every family name their tokens in (V2/V3 forks, V4 keys, Balancer vault pools). */
const tokenFields = ['token0', 'token1', 'currency0', 'currency1'] as const

/**
 * The tokens a pool state trades (lowercase), read from the fields the
 * families use, without building the pool: enough for a liquidity source to
 * tell whether a token has a pool at all.
 *
 * @example
 * tokensOfPool({ family: 'uniswapV2', dex: 'uniswap-v2', address: '0x…', token0: '0xAb…', token1: '0xcd…' }) // ['0xab…', '0xcd…']
 */
export function tokensOfPool(pool: PoolStateBase): Address[] {
  const record = pool as PoolStateBase & Record<string, unknown>
  const found: Address[] = []
  for (const field of tokenFields) if (typeof record[field] === 'string') found.push((record[field] as string).toLowerCase() as Address)
  if (Array.isArray(record.tokens)) for (const token of record.tokens) if (typeof token === 'string') found.push(token.toLowerCase() as Address)
  return found
}
