import { type Address, parseAbi } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import { readDeploylessMulticall } from '../readDeploylessMulticall.js'
import type { ReadPoolsParameters, ReadPoolsResult } from '../types.js'
import { getAerodromeV2PoolAddress } from './address.js'
import type { AerodromeV2PoolState } from './state.js'
import { sortTokens } from '../uniswapV2/readPools.js'

const poolAbi = parseAbi([
  'function metadata() view returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)',
  'function reserve0CumulativeLast() view returns (uint256)',
  'function index0() view returns (uint256)',
  'function index1() view returns (uint256)',
  'function lastObservation() view returns ((uint256 timestamp, uint256 reserve0Cumulative, uint256 reserve1Cumulative))',
  'function currentCumulativePrices() view returns (uint256 reserve0Cumulative, uint256 reserve1Cumulative, uint256 blockTimestamp)',
])

/** Pool.periodSize: a swap appends an observation when the last one is older than this. */
const OBSERVATION_PERIOD = 1800n
/** Seconds a fill may land after the block its quote read: an observation due within them counts as due. */
const OBSERVATION_MARGIN = 120n
/** The calls made per candidate pool, in this order. */
const CALLS_PER_POOL = 7
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

type CallResult = { status: 'success'; result: unknown } | { status: 'failure' } | undefined

const isZero = (call: CallResult) => call?.status === 'success' && call.result === 0n

/** The gas-relevant flags of AerodromeV2PoolState (only the true ones; unread ones stay absent). */
function freshStorage(accumulator: CallResult, index0: CallResult, index1: CallResult, observation: CallResult, current: CallResult) {
  const last = observation?.status === 'success' ? (observation.result as { timestamp: bigint }).timestamp : undefined
  const now = current?.status === 'success' ? (current.result as readonly bigint[])[2] : undefined
  return {
    ...(isZero(accumulator) ? { accumulatorsZero: true } : {}),
    ...(isZero(index0) ? { feesUnaccrued0: true } : {}),
    ...(isZero(index1) ? { feesUnaccrued1: true } : {}),
    ...(last !== undefined && now !== undefined && now + OBSERVATION_MARGIN - last > OBSERVATION_PERIOD ? { observationDue: true } : {}),
  }
}

/**
 * Reads every Aerodrome V2 pool among `tokens` (every pair, stable and volatile) on the given dexes
 * at one block, in deployless multicalls sized to the node's caps: each candidate's `metadata()` (reserves, curve, tokens
 * and `10 ** decimals` as the pool stores them), the fee its factory reports for it
 * (`getFee(pool, stable)`, custom fees included), each factory's `isPaused()`, and for the gas
 * estimate the pool's accumulator, fee indexes and last observation against the block's time. Candidates
 * without code or without reserves are no pools; a paused factory's pools and pools whose answers
 * do not match their derivation are skipped and reported. A node failure throws.
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
        const [token0, token1] = sortTokens(tokens[i]!, tokens[j]!)
        if (token0 === token1) continue
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
  const contracts = [
    ...dexes.map((dex) => ({ address: dex.factory, abi: factoryAbi, functionName: 'isPaused' })),
    ...candidates.flatMap((c) => [
      { address: c.address, abi: poolAbi, functionName: 'metadata' as const },
      { address: c.dex.factory, abi: factoryAbi, functionName: 'getFee' as const, args: [c.address, c.stable] as const },
      // For the gas estimate: storage the next swap writes from zero, and whether an observation is due.
      { address: c.address, abi: poolAbi, functionName: 'reserve0CumulativeLast' as const },
      { address: c.address, abi: poolAbi, functionName: 'index0' as const },
      { address: c.address, abi: poolAbi, functionName: 'index1' as const },
      { address: c.address, abi: poolAbi, functionName: 'lastObservation' as const },
      // Its third value is the block's timestamp.
      { address: c.address, abi: poolAbi, functionName: 'currentCumulativePrices' as const },
    ]),
  ]
  // Seven answers of an existing pool take ~1.5 kB in aggregate3's answer: 20 pools came to ~29 kB,
  // over the 24,576 bytes a deployless multicall may answer, and a fixed 10 per chunk only guessed.
  // readDeploylessMulticall sizes the chunks (in parallel, one block) and throws on a node failure,
  // where a failed chunk used to read as pools that do not exist.
  const results = await readDeploylessMulticall(client, blockNumber, contracts)
  const paused = new Set(dexes.filter((_, i) => results[i]?.status === 'success' && results[i]?.result === true).map((dex) => dex.id))
  candidates.forEach((c, i) => {
    const [metadata, fee, accumulator, index0, index1, observation, current] = results.slice(
      dexes.length + CALLS_PER_POOL * i,
      dexes.length + CALLS_PER_POOL * (i + 1),
    )
    if (!metadata || !fee) return
    // No code at the derived address (the pool was never created): nothing to report.
    if (metadata.status !== 'success' || !Array.isArray(metadata.result)) return
    const answer: unknown = metadata.result
    const [scale0, scale1, reserve0, reserve1, stable, token0, token1] = answer as readonly [bigint, bigint, bigint, bigint, boolean, Address, Address]
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
      ...freshStorage(accumulator, index0, index1, observation, current),
    })
  })
  return { pools, skipped }
}
