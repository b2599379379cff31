import { type Address, parseAbi } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import type { ReadPoolsParameters, ReadPoolsResult } from '../types.js'
import { getAerodromeV2PoolAddress } from './address.js'
import type { AerodromeV2PoolState } from './state.js'

const poolAbi = parseAbi([
  'function metadata() view returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)',
])
const factoryAbi = parseAbi(['function getFee(address pool, bool stable) view returns (uint256)', 'function isPaused() view returns (bool)'])

/** The largest `10 ** decimals` a pool can store for an ERC-20 (`decimals()` is a uint8, and 10 ** 78 overflows uint256). */
const MAX_DECIMALS = 77
/** The factory's highest fee (`PoolFactory.MAX_FEE`, 3%); a larger answer is no Aerodrome factory's. */
const MAX_FEE_BPS = 300n

/** `10 ** d` back to d, or undefined when the value is no power of ten the pool could hold. */
function decimalsOf(scale: bigint): number | undefined {
  for (let decimals = 0; decimals <= MAX_DECIMALS; decimals++) if (10n ** BigInt(decimals) === scale) return decimals
  return undefined
}

/**
 * Reads every Aerodrome V2 pool among `tokens` (every pair, stable and volatile) on the given dexes
 * at one block, in one deployless multicall: each candidate's `metadata()` (reserves, curve, tokens
 * and `10 ** decimals` as the pool stores them), the fee its factory reports for it
 * (`getFee(pool, stable)`, custom fees included), and each factory's `isPaused()`. Candidates
 * without code or without reserves are no pools; a paused factory's pools and pools whose answers
 * do not match their derivation are skipped and reported.
 *
 * @example
 * const { pools, skipped } = await readAerodromeV2Pools({ client, chain: base, blockNumber, tokens, dexes: [aerodromeDex] })
 */
export async function readAerodromeV2Pools({ client, blockNumber, tokens, dexes }: ReadPoolsParameters): Promise<ReadPoolsResult<AerodromeV2PoolState>> {
  const candidates: { dex: DexConfig; address: Address; token0: Address; token1: Address; stable: boolean }[] = []
  const seen = new Set<string>()
  for (const dex of dexes) {
    for (let i = 0; i < tokens.length; i++) {
      for (let j = i + 1; j < tokens.length; j++) {
        const a = tokens[i]!.toLowerCase() as Address
        const b = tokens[j]!.toLowerCase() as Address
        if (a === b) continue
        const [token0, token1] = a < b ? [a, b] : [b, a]
        for (const stable of [false, true]) {
          const address = getAerodromeV2PoolAddress(dex, token0, token1, stable)
          if (seen.has(address)) continue
          seen.add(address)
          candidates.push({ dex, address, token0, token1, stable })
        }
      }
    }
  }
  const pools: AerodromeV2PoolState[] = []
  const skipped: ReadPoolsResult['skipped'] = []
  if (candidates.length === 0) return { pools, skipped }
  const results = await client.multicall({
    contracts: [
      ...dexes.map((dex) => ({ address: dex.factory, abi: factoryAbi, functionName: 'isPaused' as const })),
      ...candidates.flatMap((c) => [
        { address: c.address, abi: poolAbi, functionName: 'metadata' as const },
        { address: c.dex.factory, abi: factoryAbi, functionName: 'getFee' as const, args: [c.address, c.stable] as const },
      ]),
    ],
    allowFailure: true,
    blockNumber,
    deployless: true,
    batchSize: 0,
  })
  const paused = new Set(dexes.filter((_, i) => results[i]?.status === 'success' && results[i]?.result === true).map((dex) => dex.id))
  candidates.forEach((c, i) => {
    const metadata = results[dexes.length + 2 * i]!
    const fee = results[dexes.length + 2 * i + 1]!
    // No code at the derived address (the pool was never created): nothing to report.
    if (metadata.status !== 'success' || !Array.isArray(metadata.result)) return
    const [scale0, scale1, reserve0, reserve1, stable, token0, token1] = metadata.result as readonly [bigint, bigint, bigint, bigint, boolean, Address, Address]
    if (reserve0 === 0n || reserve1 === 0n) return
    const skip = (reason: string) => skipped.push({ address: c.address, reason: `aerodromeV2 pool: ${reason}` })
    if (paused.has(c.dex.id)) return skip(`factory ${c.dex.factory} is paused`)
    if (stable !== c.stable || token0.toLowerCase() !== c.token0 || token1.toLowerCase() !== c.token1) return skip('metadata() does not match its address')
    const decimals0 = decimalsOf(scale0)
    const decimals1 = decimalsOf(scale1)
    if (decimals0 === undefined || decimals1 === undefined) return skip(`decimals ${scale0}/${scale1} are no powers of ten`)
    if (fee.status !== 'success' || typeof fee.result !== 'bigint' || fee.result > MAX_FEE_BPS) return skip(`getFee ${fee.status === 'success' ? `returned ${fee.result}` : 'failed'}`)
    pools.push({
      family: 'aerodromeV2',
      dex: c.dex.id,
      address: c.address,
      token0: c.token0,
      token1: c.token1,
      stable: c.stable,
      reserve0: reserve0.toString(),
      reserve1: reserve1.toString(),
      decimals0,
      decimals1,
      feeBps: Number(fee.result),
    })
  })
  return { pools, skipped }
}
