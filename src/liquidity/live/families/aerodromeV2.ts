import { type Address, type Hex, type Log, type PublicClient, type Transport, parseAbi, toEventSelector } from 'viem'
import { getAerodromeV2PoolAddress } from '../../../protocols/aerodromeV2/address.js'
import type { AerodromeV2PoolState } from '../../../protocols/aerodromeV2/state.js'
import type { LiveFamily } from '../liveFamily.js'
import { createEventDecoder, readWord } from '../poolEvents.js'
import type { LogOutcome, TrackedPool } from '../trackedPool.js'

/** The PoolFactory's `PoolCreated` (Aerodrome's interfaces/factories/IPoolFactory.sol): the curve is part of the pool's salt. */
const poolCreatedAbi = parseAbi(['event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256 allPoolsLength)'])
const decodeCreation = createEventDecoder(poolCreatedAbi)

/**
 * Every event an Aerodrome V2 Pool emits (interfaces/IPool.sol and its ERC-20): `Sync` carries
 * both reserves (uint256, unlike Uniswap V2's uint112: another topic), `Fees` the fee taken from
 * an input, the others change nothing the state holds (every reserve change ends in a `Sync`).
 *
 * @example
 * createEventDecoder(aerodromeV2PoolEventsAbi)(log)
 */
export const aerodromeV2PoolEventsAbi = parseAbi([
  'event Sync(uint256 reserve0, uint256 reserve1)',
  'event Fees(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed sender, address indexed to, uint256 amount0, uint256 amount1)',
  'event Swap(address indexed sender, address indexed to, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out)',
  'event Claim(address indexed sender, address indexed recipient, uint256 amount0, uint256 amount1)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
])

/** The factory's settings that change its pools' states: a pool's custom fee, and the pause that stops every pool. */
const factoryEventsAbi = parseAbi(['event SetCustomFee(address indexed pool, uint256 fee)', 'event SetPauseState(bool state)'])

const topicOf = (abi: typeof aerodromeV2PoolEventsAbi | typeof factoryEventsAbi, name: string): Hex => toEventSelector(abi.find((event) => event.name === name)!)
const SYNC_TOPIC = topicOf(aerodromeV2PoolEventsAbi, 'Sync')
const FEES_TOPIC = topicOf(aerodromeV2PoolEventsAbi, 'Fees')
const UNCHANGED_TOPICS: ReadonlySet<Hex> = new Set(['Mint', 'Burn', 'Swap', 'Claim', 'Transfer', 'Approval'].map((name) => topicOf(aerodromeV2PoolEventsAbi, name)))
const SET_CUSTOM_FEE_TOPIC = topicOf(factoryEventsAbi, 'SetCustomFee')
const SET_PAUSE_STATE_TOPIC = topicOf(factoryEventsAbi, 'SetPauseState')
// Sync(uint256, uint256) and Fees(indexed sender; uint256, uint256): two data words each.
const TWO_WORDS = 2 + 64 * 2
// SetCustomFee(address indexed pool, uint256 fee): signature and pool.
const SET_CUSTOM_FEE_TOPICS = 2

/** Pool.periodSize: `_update` appends an observation when the last one is older than this. */
const OBSERVATION_PERIOD = 1800
/** readAerodromeV2Pools' margin: an observation due within it counts as due. */
const OBSERVATION_MARGIN = 120

const lastObservationAbi = parseAbi(['function lastObservation() view returns ((uint256 timestamp, uint256 reserve0Cumulative, uint256 reserve1Cumulative))'])
// A deployless multicall returns its answer as code (24,576 bytes at most): ~100 bytes per answer.
const OBSERVATION_BATCH_BYTES = 8_000

/**
 * Applies one log of an Aerodrome V2 pool to its record, exactly:
 * - `Sync` sets both reserves (reserves reaching zero drop the pool, as the reader does);
 * - `Fees` in a token whose fee index was ever written, `Mint`, `Burn`, `Swap`, `Claim`,
 *   `Transfer`, `Approval` change nothing the state holds;
 * - re-read: a `Sync` on a pool not delivered yet; a `Sync` while the accumulators are zero
 *   (whether this one writes them depends on the time elapsed) or while an observation is due or
 *   its time unknown (whether this one appends it depends on the block's time, which the log does
 *   not carry); `Fees` in a token whose fee index is still zero (whether it leaves zero depends on
 *   the LP supply); any other log.
 * The observation falling due with time alone, no log saying so, is the record's `rereadAt`
 * (read with the pool): a `Sync` before it appends nothing (less than the period has passed).
 *
 * @example
 * const outcome = applyAerodromeV2Log(record, log)
 */
export function applyAerodromeV2Log(record: TrackedPool, log: Pick<Log, 'topics' | 'data'>): LogOutcome {
  const topic = log.topics[0]
  if (topic !== undefined && UNCHANGED_TOPICS.has(topic)) return { kind: 'unchanged' }
  const state = record.state as AerodromeV2PoolState | null | undefined
  if (topic === FEES_TOPIC && log.data.length === TWO_WORDS) {
    const [fee0, fee1] = [readWord(log.data, 0)!, readWord(log.data, 1)!]
    if (state && !(fee0 > 0n && state.feesUnaccrued0) && !(fee1 > 0n && state.feesUnaccrued1)) return { kind: 'unchanged' }
    return { kind: 'reread', reason: 'Aerodrome V2 Fees on an unaccrued fee index' }
  }
  if (topic !== SYNC_TOPIC || log.topics.length !== 1 || log.data.length !== TWO_WORDS) return { kind: 'reread', reason: 'unknown Aerodrome V2 pool event' }
  if (!state) return { kind: 'reread', reason: 'Sync on a pool not delivered yet' }
  if (state.accumulatorsZero) return { kind: 'reread', reason: 'Sync while the accumulators are zero' }
  if (state.observationDue || record.rereadAt === undefined) return { kind: 'reread', reason: 'Sync that may append an observation' }
  const reserve0 = readWord(log.data, 0)!
  const reserve1 = readWord(log.data, 1)!
  if (reserve0 === 0n || reserve1 === 0n) return { kind: 'next', record: { pool: record.pool, state: null } }
  const next: AerodromeV2PoolState = { ...state, reserve0: reserve0.toString(), reserve1: reserve1.toString() }
  return { kind: 'next', record: { ...record, state: next } }
}

/**
 * Reads, at one block, each delivered pool's last observation and files on its record the first
 * block timestamp at which the reader would call its observation due (`rereadAt`; none when it
 * already is). Node errors propagate; a pool whose `lastObservation()` fails gets none.
 *
 * @example
 * const withTimes = await readObservationTimes(client, records, 123n)
 */
export async function readObservationTimes(client: PublicClient<Transport, any>, records: readonly TrackedPool[], blockNumber: bigint): Promise<TrackedPool[]> {
  const asked = records.flatMap((record, index) => {
    const state = record.state as AerodromeV2PoolState | null | undefined
    return state && !state.observationDue ? [index] : []
  })
  const results =
    asked.length === 0
      ? []
      : await client.multicall({
          contracts: asked.map((index) => ({ address: records[index]!.pool.address, abi: lastObservationAbi, functionName: 'lastObservation' as const })),
          allowFailure: true,
          blockNumber,
          deployless: true,
          batchSize: OBSERVATION_BATCH_BYTES,
        })
  // Records come from a fresh read: any earlier time is replaced, or dropped when the observation is due.
  const next = records.map(({ rereadAt: _earlier, ...record }): TrackedPool => record)
  asked.forEach((recordIndex, i) => {
    const result = results[i]
    // Due once `now + margin - last > period`, i.e. from last + period - margin + 1 on.
    if (result?.status === 'success') next[recordIndex] = { ...next[recordIndex]!, rereadAt: Number(result.result.timestamp) + OBSERVATION_PERIOD - OBSERVATION_MARGIN + 1 }
  })
  return next
}

/**
 * Aerodrome V2 (volatile and stable pools) in the live source: pools are discovered from the
 * PoolFactory's `PoolCreated` (the address must be the clone's CREATE2 derivation from the
 * tokens and the curve), read by readAerodromeV2Pools with their last observation's time, and
 * followed through applyAerodromeV2Log. The factory's `SetCustomFee` re-reads the pool it names,
 * `SetPauseState` every pool of the dex. Not followed: `PoolFactory.setFee` (the default stable or
 * volatile fee) emits no event, so pools without a custom fee keep the fee of their last read
 * until something else re-reads them.
 *
 * @example
 * createLiveSource({ client, chain: base, fromBlock, liveFamilies: [...defaultLiveFamilies] }) // aerodromeV2LiveFamily is among them
 */
export const aerodromeV2LiveFamily: LiveFamily = {
  id: 'aerodromeV2',
  creationEvents: poolCreatedAbi,
  discover(log, dex, blockNumber) {
    const decoded = decodeCreation(log)
    if (!decoded) return undefined
    const token0 = decoded.args.token0.toLowerCase() as Address
    const token1 = decoded.args.token1.toLowerCase() as Address
    const address = decoded.args.pool.toLowerCase() as Address
    if (getAerodromeV2PoolAddress(dex, token0, token1, decoded.args.stable) !== address) return { skipped: 'pool address is not the CREATE2 derivation', address }
    return { pool: { address, family: dex.family, dex: dex.id, token0, token1, createdAt: blockNumber } }
  },
  poolsChangedBy(log, dex) {
    if (log.address.toLowerCase() !== dex.factory.toLowerCase()) return undefined
    if (log.topics[0] === SET_CUSTOM_FEE_TOPIC && log.topics.length === SET_CUSTOM_FEE_TOPICS) {
      return { pools: [`0x${log.topics[1]!.slice(-40)}`], reason: 'Aerodrome V2 custom fee set' }
    }
    if (log.topics[0] === SET_PAUSE_STATE_TOPIC) return { pools: 'all', reason: 'Aerodrome V2 factory paused or unpaused' }
    return undefined
  },
  applyLog: applyAerodromeV2Log,
  narrow: (dex) => dex,
  readExtras: readObservationTimes,
}
