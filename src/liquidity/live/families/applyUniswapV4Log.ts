import { type Hex, type Log, parseAbi, toEventSelector } from 'viem'
import { getDirectionalProtocolFee } from '../../../protocols/uniswapV4/fees.js'
import type { UniswapV4PoolState } from '../../../protocols/uniswapV4/state.js'
import { applyPositionChange } from '../applyPositionChange.js'
import { crossFreshOutside, crossedTicks } from '../freshOutsideLists.js'
import { createEventDecoder, readWord } from '../poolEvents.js'
import type { LogOutcome, TrackedPool } from '../trackedPool.js'

/**
 * The PoolManager's events about one pool (v4-core 1.0, IPoolManager and IProtocolFees), the pool
 * id first among the topics: see applyUniswapV4Log for what each does to the state.
 *
 * @example
 * decodeEventLog({ abi: uniswapV4PoolManagerEventsAbi, topics: log.topics, data: log.data })
 */
export const uniswapV4PoolManagerEventsAbi = parseAbi([
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  'event Donate(bytes32 indexed id, address indexed sender, uint256 amount0, uint256 amount1)',
  'event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)',
])

const decodeV4Log = createEventDecoder(uniswapV4PoolManagerEventsAbi)
const SWAP_TOPIC: Hex = toEventSelector(uniswapV4PoolManagerEventsAbi.find((event) => event.name === 'Swap')!)
// The Swap log's layout as the PoolManager emits it: signature, id, sender; six data words.
const SWAP_TOPICS = 3
const SWAP_WORDS = 6
const POOL_EVENT_TOPICS = new Set<Hex>(uniswapV4PoolManagerEventsAbi.map((event) => toEventSelector(event)))

/**
 * The pool id a PoolManager log is about (its first indexed topic), or undefined for a log of
 * no pool (ERC-6909 transfers, operator approvals, owner and controller changes).
 *
 * @example
 * uniswapV4PoolIdOfLog(swapLog) // '0x…'
 */
export function uniswapV4PoolIdOfLog(log: Pick<Log, 'topics'>): Hex | undefined {
  const topic = log.topics[0]
  return topic !== undefined && POOL_EVENT_TOPICS.has(topic) ? log.topics[1] : undefined
}

/**
 * Applies one PoolManager log of a tracked Uniswap V4 pool to its record, exactly as Pool.sol
 * changes its storage, so that the state stays what `readUniswapV4Pools` returns at the block:
 * - `Swap` sets the price, tick and active liquidity from the event while the tick stays in the
 *   same bitmap word (the reader's window is centred on it); a swap crossing no tick that moved the
 *   price in liquidity ends the freshness of its input's fee growth; a crossed tick's fee growth outside
 *   becomes global - outside, known only for a tick whose outside growth was zero in both
 *   currencies (it then stays zero only in a currency whose global growth is still zero);
 * - `ModifyLiquidity` adds or removes liquidity: the active liquidity when the range holds the
 *   tick, liquidityNet and liquidityGross of both ends inside the window (a tick appears when its
 *   gross leaves zero, with its fee growth outside set as `updateTick` sets it, and disappears when
 *   its gross returns to zero); a delta of 0 changes nothing;
 * - `Donate` ends the freshness of the fee growth of each currency donated;
 * - `ProtocolFeeUpdated` to 0 is applied; a change to a nonzero fee re-reads (the PoolManager's
 *   accruals of the pool's currencies become part of the state);
 * - re-read: a `Swap` whose direction's protocol fee is not 0 (the pool is re-read every block
 *   anyway, see the V4 live family), any other `Swap` that may write its input's fee growth from zero,
 *   one into another bitmap word or across a tick with fee growth outside, any log of a pool not delivered,
 *   and any log it cannot decode.
 *
 * @example
 * const outcome = applyUniswapV4Log(record, log)
 */
export function applyUniswapV4Log(record: TrackedPool, log: Pick<Log, 'topics' | 'data'>): LogOutcome {
  const decoded = decodeSwap(log) ?? decodeV4Log(log)
  if (!decoded) return { kind: 'reread', reason: 'unknown V4 PoolManager event' }
  const state = record.state as UniswapV4PoolState | null | undefined
  if (!state) return { kind: 'reread', reason: `${decoded.eventName} on a V4 pool not delivered yet` }
  const fresh = state.freshSlots
  if (!fresh || !state.freshOutside0 || !state.freshOutside1) return { kind: 'reread', reason: 'V4 state without its fresh-slot flags' }
  switch (decoded.eventName) {
    case 'Swap': {
      const { amount0, amount1, sqrtPriceX96, liquidity, tick } = decoded.args
      // The swapper's deltas: it pays (a negative delta) the input currency. A swap through no
      // liquidity pays nothing: the price still moves down selling currency0.
      const priceBefore = BigInt(state.sqrtPriceX96)
      const zeroForOne = amount0 < 0n ? true : amount1 < 0n ? false : sqrtPriceX96 < priceBefore ? true : sqrtPriceX96 > priceBefore ? false : undefined
      if (zeroForOne === undefined) return { kind: 'reread', reason: 'V4 Swap whose direction the log does not show' }
      if (getDirectionalProtocolFee(state.protocolFee, zeroForOne) !== 0) return { kind: 'reread', reason: 'V4 Swap accruing a protocol fee' }
      if (bitmapWord(tick, state.tickSpacing) !== bitmapWord(state.tick, state.tickSpacing)) return { kind: 'reread', reason: 'V4 Swap into another bitmap word' }
      // Moving down crosses the ticks in (tick, state.tick], moving up those in (state.tick, tick].
      const crossed = crossedTicks(state.ticks, state.tick, tick)
      // The input's fee growth, when still zero: an LP fee of 0 adds none. A swap crossing no
      // initialized tick ran at one liquidity (the event's); if it moved the price in liquidity, a
      // step took a fee of at least 1 (SwapMath rounds it up) and 1 * 2^128 / liquidity >= 1: the
      // growth left zero. Through no liquidity, no step credits any. Otherwise whether it did is unknown.
      let grew = false
      if ((zeroForOne ? fresh.feeGrowth0 : fresh.feeGrowth1) && state.lpFee !== 0) {
        if (crossed.length > 0 || (liquidity > 0n && sqrtPriceX96 === priceBefore)) return { kind: 'reread', reason: 'V4 Swap that may write a fresh fee growth' }
        grew = liquidity > 0n
      }
      // A fee growth still fresh before the swap is fresh at its crossings (the input's was re-read above).
      const lists = crossFreshOutside({ freshOutside0: state.freshOutside0, freshOutside1: state.freshOutside1 }, crossed, fresh.feeGrowth0, fresh.feeGrowth1)
      if (lists === 'reread') return { kind: 'reread', reason: 'V4 Swap across a tick with fee growth outside' }
      const next: UniswapV4PoolState = {
        ...state,
        sqrtPriceX96: sqrtPriceX96.toString(),
        tick,
        liquidity: liquidity.toString(),
        ...(crossed.length > 0 ? lists : {}),
        ...(grew ? { freshSlots: { ...fresh, [zeroForOne ? 'feeGrowth0' : 'feeGrowth1']: false } } : {}),
      }
      return { kind: 'next', record: { ...record, state: next } }
    }
    case 'ModifyLiquidity': {
      const { tickLower, tickUpper, liquidityDelta } = decoded.args
      if (liquidityDelta === 0n) return { kind: 'unchanged' }
      // A V4 state keeps its fresh-outside lists up to date even when it was read without them (absent: empty).
      const lists = { freshOutside0: state.freshOutside0 ?? [], freshOutside1: state.freshOutside1 ?? [] }
      return applyPositionChange(record, { ...state, ...lists }, tickLower, tickUpper, liquidityDelta, 'V4 ')
    }
    case 'Donate': {
      const { amount0, amount1 } = decoded.args
      // Pool.donate adds amount * 2^128 / liquidity (>= 1: liquidity < 2^128) to each donated currency's growth.
      const feeGrowth0 = fresh.feeGrowth0 && amount0 === 0n
      const feeGrowth1 = fresh.feeGrowth1 && amount1 === 0n
      if (feeGrowth0 === fresh.feeGrowth0 && feeGrowth1 === fresh.feeGrowth1) return { kind: 'unchanged' }
      return { kind: 'next', record: { ...record, state: { ...state, freshSlots: { ...fresh, feeGrowth0, feeGrowth1 } } as UniswapV4PoolState } }
    }
    case 'ProtocolFeeUpdated': {
      const { protocolFee } = decoded.args
      if (protocolFee === state.protocolFee) return { kind: 'unchanged' }
      if (protocolFee !== 0) return { kind: 'reread', reason: 'V4 ProtocolFeeUpdated to a nonzero fee' }
      const { rereadAt: _dropped, ...rest } = record
      const next: UniswapV4PoolState = { ...state, protocolFee, freshSlots: { ...fresh, protocolFees0: false, protocolFees1: false } }
      return { kind: 'next', record: { ...rest, state: next } }
    }
    default:
      return { kind: 'reread', reason: `V4 ${decoded.eventName} is not applied` }
  }
}

/** A signed integer of a word (int128, int24 are sign-extended to 32 bytes). */
const signed = (word: bigint) => BigInt.asIntN(256, word)

/** `Swap` read word by word (the commonest PoolManager log); undefined for any other log or layout. */
function decodeSwap({ topics, data }: Pick<Log, 'topics' | 'data'>) {
  if (topics[0] !== SWAP_TOPIC || topics.length !== SWAP_TOPICS || (data.length - 2) / 64 !== SWAP_WORDS) return undefined
  const [amount0, amount1, sqrtPriceX96, liquidity, tick] = [0, 1, 2, 3, 4].map((index) => readWord(data, index)!)
  return { eventName: 'Swap' as const, args: { amount0: signed(amount0!), amount1: signed(amount1!), sqrtPriceX96: sqrtPriceX96!, liquidity: liquidity!, tick: Number(signed(tick!)) } }
}

/** The bitmap word holding a tick: floor(floor(tick / spacing) / 256), as TickBitmap compresses it. */
function bitmapWord(tick: number, tickSpacing: number): number {
  return Math.floor(Math.floor(tick / tickSpacing) / 256)
}
