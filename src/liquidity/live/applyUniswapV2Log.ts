import { type Hex, type Log, toEventSelector } from 'viem'
import type { UniswapV2PoolState } from '../../protocols/uniswapV2/state.js'
import { readWord, uniswapV2PairEventsAbi } from './poolEvents.js'
import type { LogOutcome, TrackedPool } from './trackedPool.js'

/** Topics of the pair events that change nothing the state holds: skipped without decoding. */
const SYNC_TOPIC = toEventSelector(uniswapV2PairEventsAbi.find((event) => event.name === 'Sync')!)
// Sync(uint112 reserve0, uint112 reserve1): two data words, no indexed argument.
const SYNC_WORDS = 2
const UNCHANGED_TOPICS: ReadonlySet<Hex> = new Set(uniswapV2PairEventsAbi.filter((event) => event.name !== 'Sync').map((event) => toEventSelector(event)))

/**
 * Applies one log of a Uniswap V2 pair to its record, exactly:
 * - `Sync` sets both reserves (a pair whose reserves reach zero is no longer delivered, as the
 *   reader drops it);
 * - `Mint`, `Burn`, `Swap`, `Transfer`, `Approval` change nothing the state holds (every reserve
 *   change is followed by a `Sync`);
 * - re-read: a `Sync` on a pair not delivered yet (no reserves), a `Sync` while the price
 *   accumulators are still zero (whether this one wrote them depends on the time elapsed since
 *   the last update, which the log does not say), and any log it cannot decode.
 *
 * @example
 * const outcome = applyUniswapV2Log(record, log)
 */
export function applyUniswapV2Log(record: TrackedPool, log: Pick<Log, 'topics' | 'data'>): LogOutcome {
  if (log.topics[0] !== undefined && UNCHANGED_TOPICS.has(log.topics[0])) return { kind: 'unchanged' }
  if (log.topics[0] !== SYNC_TOPIC || log.topics.length !== 1 || log.data.length !== 2 + 64 * SYNC_WORDS) return { kind: 'reread', reason: 'unknown V2 pair event' }
  const reserve0 = readWord(log.data, 0)!
  const reserve1 = readWord(log.data, 1)!
  const state = record.state as UniswapV2PoolState | null | undefined
  if (!state) return { kind: 'reread', reason: 'Sync on a pair not delivered yet' }
  if (state.accumulatorsZero) return { kind: 'reread', reason: 'Sync while the price accumulators are zero' }
  if (reserve0 === 0n || reserve1 === 0n) return { kind: 'next', record: { ...record, state: null } }
  const next: UniswapV2PoolState = { ...state, reserve0: reserve0.toString(), reserve1: reserve1.toString() }
  return { kind: 'next', record: { ...record, state: next } }
}
