import { type Abi, type Address, type PublicClient, type Transport, parseAbi } from 'viem'
import type { UniswapV3PoolState } from '../../../protocols/uniswapV3/state.js'
import type { TrackedPool } from '../trackedPool.js'

/** v3-core's `ticks(int24)`: liquidityGross is its first output (PancakeSwap V3 has the same layout). */
export const uniswapV3TicksAbi = parseAbi([
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
])

// A deployless call returns its answer as code (limit 24,576 bytes; ~350 bytes per ticks() result): chunks, sent in parallel.
const GROSS_BATCH_BYTES = 1_500

/**
 * Reads, at one block, the liquidityGross of every initialized tick the V3-style states hold, in
 * one multicall, and files it on each record (`TrackedPool.liquidityGross`): a `Burn` that takes a
 * tick's gross to zero clears it from the bitmap, which liquidityNet alone cannot tell. `ticksAbi`
 * is the pool's `ticks(int24)` with liquidityGross as its first output. Node errors propagate.
 *
 * @example
 * const withGross = await readTickGross(client, records, 123n)
 */
export async function readTickGross(
  client: PublicClient<Transport, any>,
  records: readonly TrackedPool[],
  blockNumber: bigint,
  ticksAbi: Abi = uniswapV3TicksAbi,
): Promise<TrackedPool[]> {
  const queries: { record: number; tick: number }[] = []
  records.forEach((record, index) => {
    const state = record.state as UniswapV3PoolState | null | undefined
    if (state) for (const tick of state.ticks) queries.push({ record: index, tick: tick.index })
  })
  const results =
    queries.length === 0
      ? []
      : await client.multicall({
          contracts: queries.map((q) => ({ address: records[q.record]!.pool.address as Address, abi: ticksAbi, functionName: 'ticks', args: [q.tick] })),
          allowFailure: false,
          blockNumber,
          deployless: true,
          batchSize: GROSS_BATCH_BYTES,
        })
  const gross = records.map(() => new Map<number, bigint>())
  queries.forEach((q, index) => {
    const [liquidityGross] = results[index] as unknown as readonly [bigint, ...unknown[]]
    gross[q.record]!.set(q.tick, liquidityGross)
  })
  return records.map((record, index) => (record.state ? { ...record, liquidityGross: gross[index]! } : record))
}
