import { type Address, type Hex, type PublicClient, type Transport, encodeAbiParameters, hexToBigInt, keccak256, parseAbi } from 'viem'
import type { UniswapV4PoolState } from '../../../protocols/uniswapV4/state.js'
import type { TrackedPool } from '../trackedPool.js'

const extsloadAbi = parseAbi(['function extsload(bytes32[] slots) view returns (bytes32[])'])

// StateLibrary's layout: `_pools` is mapping slot 6 of the PoolManager; a pool's ticks mapping sits 4 slots past its state.
const POOLS_SLOT = 6n
const TICKS_OFFSET = 4n
const LOW_128_BITS = (1n << 128n) - 1n
// Slots per extsload call, and the calls' calldata per deployless multicall (its answer comes back
// as code, at most 24,576 bytes; ~32 bytes of answer per slot).
const SLOTS_PER_CALL = 256
const MULTICALL_BATCH_BYTES = 12_000
// The source re-reads a record whose `rereadAt` is at or before the block's timestamp: 0 means every block.
const EVERY_BLOCK = 0

/**
 * The storage slot of a V4 pool's TickInfo (its first word: liquidityGross in the low 128 bits,
 * liquidityNet in the high 128): keccak256(tick, keccak256(poolId, 6) + 4), as StateLibrary reads it.
 *
 * @example
 * getUniswapV4TickInfoSlot(poolId, -60)
 */
export function getUniswapV4TickInfoSlot(poolId: Hex, tick: number): Hex {
  const stateSlot = hexToBigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, POOLS_SLOT])))
  return keccak256(encodeAbiParameters([{ type: 'int256' }, { type: 'uint256' }], [BigInt(tick), stateSlot + TICKS_OFFSET]))
}

/**
 * What the live source keeps besides a V4 state, read at one block: each known tick's
 * liquidityGross through the PoolManager's `extsload` (a `ModifyLiquidity` that takes a tick's
 * gross to zero clears it, which liquidityNet alone cannot tell), in one deployless multicall; and
 * `rereadAt` for pools with a protocol fee: their state holds whether the PoolManager's accrued
 * protocol fees of a currency are zero, which any pool's swap and any collection (which emits no
 * event) change, so such a pool is re-read every block. Node errors propagate.
 *
 * @example
 * const withExtras = await readUniswapV4Extras(client, records, 123n)
 */
export async function readUniswapV4Extras(client: PublicClient<Transport, any>, records: readonly TrackedPool[], blockNumber: bigint): Promise<TrackedPool[]> {
  const calls: { record: number; ticks: number[] }[] = []
  records.forEach((record, index) => {
    const state = record.state as UniswapV4PoolState | null | undefined
    if (!state) return
    const ticks = state.ticks.map((t) => t.index)
    for (let start = 0; start < ticks.length; start += SLOTS_PER_CALL) calls.push({ record: index, ticks: ticks.slice(start, start + SLOTS_PER_CALL) })
  })
  const results =
    calls.length === 0
      ? []
      : await client.multicall({
          contracts: calls.map((call) => {
            const state = records[call.record]!.state as UniswapV4PoolState
            return {
              address: state.address as Address,
              abi: extsloadAbi,
              functionName: 'extsload' as const,
              args: [call.ticks.map((tick) => getUniswapV4TickInfoSlot(state.id, tick))] as const,
            }
          }),
          allowFailure: false,
          blockNumber,
          deployless: true,
          batchSize: MULTICALL_BATCH_BYTES,
        })
  const gross = records.map(() => new Map<number, bigint>())
  calls.forEach((call, index) => {
    const words = results[index] as readonly Hex[]
    call.ticks.forEach((tick, k) => gross[call.record]!.set(tick, hexToBigInt(words[k]!) & LOW_128_BITS))
  })
  return records.map((record, index) => {
    const state = record.state as UniswapV4PoolState | null | undefined
    if (!state) return record
    const { rereadAt: _previous, ...rest } = record
    return { ...rest, liquidityGross: gross[index]!, ...(state.protocolFee !== 0 ? { rereadAt: EVERY_BLOCK } : {}) }
  })
}
