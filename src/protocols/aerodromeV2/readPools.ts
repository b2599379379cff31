import { type Address, parseAbi } from 'viem'
import type { DexConfig } from '../../chains/types.js'
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
/**
 * Calls per deployless multicall: 7 x 10 candidates. An existing pool's seven answers take about
 * 1.5 kB as aggregate3 returns them (each result's flag, offsets and padded bytes), so 20 pools
 * that all exist came to ~29 kB, over the 24,576-byte code limit: the whole chunk failed and its
 * pools read as absent (seen on the live forks test once enough pools existed). 10 stay under 15 kB.
 */
const MULTICALL_CHUNK_CALLS = 70
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
 * at one block, in one deployless multicall: each candidate's `metadata()` (reserves, curve, tokens
 * and `10 ** decimals` as the pool stores them), the fee its factory reports for it
 * (`getFee(pool, stable)`, custom fees included), each factory's `isPaused()`, and for the gas
 * estimate the pool's accumulator, fee indexes and last observation against the block's time. Candidates
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
    ...dexes.map((dex) => ({ address: dex.factory, abi: factoryAbi, functionName: 'isPaused' as const })),
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
  // A deployless multicall returns its results as the code of the contract it "deploys", which may
  // not exceed 24,576 bytes (CreateContractSizeLimit): the calls go out in chunks, all at the same block.
  const chunks: (typeof contracts)[] = []
  for (let start = 0; start < contracts.length; start += MULTICALL_CHUNK_CALLS) chunks.push(contracts.slice(start, start + MULTICALL_CHUNK_CALLS))
  const results = (
    await Promise.all(chunks.map((chunk) => client.multicall({ contracts: chunk, allowFailure: true, blockNumber, deployless: true, batchSize: 0 })))
  ).flat()
  const paused = new Set(dexes.filter((_, i) => results[i]?.status === 'success' && results[i]?.result === true).map((dex) => dex.id))
  candidates.forEach((c, i) => {
    const [metadata, fee, accumulator, index0, index1, observation, current] = results.slice(
      dexes.length + CALLS_PER_POOL * i,
      dexes.length + CALLS_PER_POOL * (i + 1),
    ) as (typeof results)[number][]
    if (!metadata || !fee) return
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
      ...freshStorage(accumulator, index0, index1, observation, current),
    })
  })
  return { pools, skipped }
}
