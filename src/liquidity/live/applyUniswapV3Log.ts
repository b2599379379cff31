import type { AbiEvent, Log } from 'viem'
import type { UniswapV3PoolState } from '../../protocols/uniswapV3/state.js'
import { type Hex, toEventSelector } from 'viem'
import { applyPositionChange } from './applyPositionChange.js'
import { crossFreshOutside, crossedTicks, type FreshOutsideLists } from './freshOutsideLists.js'
import { createEventDecoder, readWord, uniswapV3PoolEventsAbi } from './poolEvents.js'
import type { LogOutcome, TrackedPool } from './trackedPool.js'

/**
 * How a Uniswap V3 fork's pool emits its events, for {@link createV3LogApplier}: its whole event
 * ABI (Swap, Mint, Burn, Flash, Collect, ... under the v3-core names), the words of its Swap's data
 * (the first five are v3-core's: amount0, amount1, sqrtPriceX96, liquidity, tick; a fork may append
 * more, as PancakeSwap V3 appends its protocol fees), and the events of its own that change nothing
 * the state holds.
 *
 * @example
 * const applyForkLog = createV3LogApplier({ label: 'PancakeSwap V3', events: pancakeV3PoolEventsAbi, swapWords: 7, unchangedEvents: ['SetLmPoolEvent'] })
 */
export type V3LogLayout = {
  /** Names the fork in re-read reasons, e.g. `V3`. */
  label: string
  events: readonly AbiEvent[]
  swapWords: number
  /** Events besides `Collect` and `IncreaseObservationCardinalityNext` that change nothing the state holds. */
  unchangedEvents?: readonly string[]
  /**
   * The Swap words carrying the protocol fee the swap took in token0 and token1 (PancakeSwap V3:
   * 5 and 6), for a fork whose protocol share is below the whole swap fee: a fee taken then means
   * the input's fee growth left zero and protocol fees are owed, so the fresh slots after the swap
   * are known (see `nextFreshSlots`).
   */
  protocolFeeWords?: readonly [token0: number, token1: number]
}

// Words of Mint and Burn data and the topics counts (signature included), as v3-core emits them.
const MINT_WORDS = 4
const BURN_WORDS = 3
const SWAP_TOPICS = 3
const POSITION_TOPICS = 4

/**
 * Applies one log of a Uniswap V3 pool to its record, exactly as the pool changes its storage, so
 * that the state stays what `readUniswapV3Pools` would return at the block:
 * - `Swap` sets the price, tick and active liquidity from the event, while the tick stays in the
 *   same bitmap word (the reader's tick window is centred on that word); a crossed tick's fee
 *   growth outside becomes global - outside, known only for a tick whose outside growth was zero
 *   in both tokens (it then stays zero only in a token whose global growth is still zero);
 * - `Mint` and `Burn` add or remove liquidity: the active liquidity when the range holds the
 *   current tick, and liquidityNet / liquidityGross of both range ends inside the known window
 *   (a tick appears when its gross leaves zero, with its fee growth outside as Tick.update sets
 *   it, and disappears when it returns to zero);
 * - `Collect` and `IncreaseObservationCardinalityNext` change nothing the state holds, nor does a
 *   `Flash` on a pool without fresh slots;
 * - re-read: any log on a pool not delivered yet (e.g. `Initialize`), a `Swap` into another
 *   bitmap word (the window moves) or across a tick with fee growth outside, a `Swap` paying in
 *   a token whose fee growth is still fresh (when it crosses a tick or the log cannot say) or
 *   while the protocol-fee slot is fresh, a `Flash` while any slot is fresh (whether a slot left
 *   zero depends on fee amounts the log does not carry), `SetFeeProtocol`,
 *   `CollectProtocol`, and any log it cannot decode.
 *
 * @example
 * const outcome = applyUniswapV3Log(record, log)
 */
export const applyUniswapV3Log = createV3LogApplier({ label: 'V3', events: uniswapV3PoolEventsAbi, swapWords: 5 })

/**
 * The log applier of a Uniswap V3 fork whose pools change their state as v3-core's do (same swap,
 * same positions) but emit events in their own layout ({@link V3LogLayout}): the rules of
 * {@link applyUniswapV3Log}, with the fork's Swap topic and words, and its own events that change
 * nothing. Any other event of the fork is re-read.
 *
 * @example
 * const applyPancakeV3Log = createV3LogApplier({ label: 'PancakeSwap V3', events: pancakeV3PoolEventsAbi, swapWords: 7 })
 * const outcome = applyPancakeV3Log(record, log)
 */
export function createV3LogApplier(layout: V3LogLayout): (record: TrackedPool, log: Pick<Log, 'topics' | 'data'>) => LogOutcome {
  const decodeLog = createEventDecoder(layout.events)
  const selectorOf = (name: string): Hex => toEventSelector(layout.events.find((event) => event.name === name)!)
  const topics = { swap: selectorOf('Swap'), mint: selectorOf('Mint'), burn: selectorOf('Burn') }
  const unchanged = new Set(['Collect', 'IncreaseObservationCardinalityNext', ...(layout.unchangedEvents ?? [])])
  return (record, log) => applyV3Log(record, log, layout, topics, decodeLog, unchanged)
}

type DecodeLog = (log: Pick<Log, 'topics' | 'data'>) => { eventName: string; args: unknown } | undefined

function applyV3Log(
  record: TrackedPool,
  log: Pick<Log, 'topics' | 'data'>,
  layout: V3LogLayout,
  topics: HotTopics,
  decodeLog: DecodeLog,
  unchanged: ReadonlySet<string>,
): LogOutcome {
  const decoded = decodeHotLog(log, topics, layout) ?? (decodeLog(log) as HotLog | { eventName: string; args: unknown } | undefined)
  if (!decoded) return { kind: 'reread', reason: `unknown ${layout.label} pool event` }
  const state = record.state as UniswapV3PoolState | null | undefined
  if (!state) return { kind: 'reread', reason: `${decoded.eventName} on a pool not delivered yet` }
  if (unchanged.has(decoded.eventName)) return { kind: 'unchanged' }
  const hot = decoded as HotLog | { eventName: 'Flash'; args: unknown }
  switch (hot.eventName) {
    case 'Swap': {
      const { sqrtPriceX96, liquidity, tick, amount0, amount1 } = hot.args
      const freshSlots = state.freshSlots && nextFreshSlots(state.freshSlots, amount0, amount1, 'protocolFees' in hot.args ? hot.args.protocolFees : undefined)
      if (freshSlots === 'reread') return { kind: 'reread', reason: 'Swap that may write a fresh slot' }
      if (bitmapWord(tick, state.tickSpacing) !== bitmapWord(state.tick, state.tickSpacing)) {
        return { kind: 'reread', reason: 'Swap into another bitmap word' }
      }
      const lists = crossedFreshOutside(state, tick)
      if (typeof lists === 'string') return { kind: 'reread', reason: lists }
      const next: UniswapV3PoolState = { ...state, sqrtPriceX96: sqrtPriceX96.toString(), tick, liquidity: liquidity.toString(), ...lists }
      // As the reader reports them: the slots still fresh, or no field when none is.
      if (freshSlots !== state.freshSlots) {
        if (freshSlots) next.freshSlots = freshSlots
        else delete next.freshSlots
      }
      return { kind: 'next', record: { ...record, state: next } }
    }
    case 'Mint':
      return applyPositionChange(record, state, hot.args.tickLower, hot.args.tickUpper, hot.args.amount, '')
    case 'Burn':
      if (hot.args.amount === 0n) return { kind: 'unchanged' }
      return applyPositionChange(record, state, hot.args.tickLower, hot.args.tickUpper, -hot.args.amount, '')
    case 'Flash':
      return state.freshSlots ? { kind: 'reread', reason: 'Flash while fresh slots are set' } : { kind: 'unchanged' }
    default:
      return { kind: 'reread', reason: `${decoded.eventName} is not applied` }
  }
}

type FreshSlots = NonNullable<UniswapV3PoolState['freshSlots']>

/**
 * The fresh-outside lists after a swap that moved the pool from `state.tick` to `tick` (nothing
 * when the state has none or the swap crossed no tick), or why the log cannot tell: a crossed
 * tick's fee growth outside becomes the global growth at the crossing (see `crossFreshOutside`),
 * and the input's global growth, when still zero before the swap, may have left zero before it.
 */
function crossedFreshOutside(state: UniswapV3PoolState, tick: number): Partial<FreshOutsideLists> | string {
  const { freshOutside0, freshOutside1 } = state
  if (!freshOutside0 || !freshOutside1) return {}
  const crossed = crossedTicks(state.ticks, state.tick, tick)
  if (crossed.length === 0) return {}
  // Crossing moves the tick: down when selling token0.
  const zeroForOne = tick < state.tick
  const fresh = state.freshSlots ?? { feeGrowth0: false, feeGrowth1: false }
  if ((zeroForOne ? fresh.feeGrowth0 : fresh.feeGrowth1) && state.fee > 0) return 'Swap across a tick that may write a fresh fee growth'
  const lists = crossFreshOutside({ freshOutside0, freshOutside1 }, crossed, fresh.feeGrowth0, fresh.feeGrowth1)
  return lists === 'reread' ? 'Swap across a tick with fee growth outside' : lists
}

/**
 * The fresh slots after a swap, as the reader would report them (undefined: none left), or
 * `reread` when the log cannot say. The input token's fee growth may leave zero (the output's
 * cannot); protocol fees may accrue. Without the swap's protocol fees, any such slot re-reads.
 * With them (PancakeSwap V3, whose protocol share is at most 40% of the swap fee): a protocol fee
 * taken in the input token means a step charged a fee at nonzero liquidity whose LP share (at
 * least 60% of it, so at least 1) raised the input's fee growth by mulDiv(share, 2^128,
 * liquidity) >= 1, and protocol fees are owed; none taken leaves the owed slot as it was, and
 * the input's fee growth unknown only if it was still zero.
 */
function nextFreshSlots(fresh: FreshSlots, amount0: bigint, amount1: bigint, protocolFees: readonly [bigint, bigint] | undefined): FreshSlots | undefined | 'reread' {
  if (amount0 <= 0n && amount1 <= 0n) return 'reread'
  const zeroForOne = amount0 > 0n
  const growthFresh = zeroForOne ? fresh.feeGrowth0 : fresh.feeGrowth1
  if (!protocolFees) return fresh.protocolFees || growthFresh ? 'reread' : fresh
  if (protocolFees[0] === 0n && protocolFees[1] === 0n) return growthFresh ? 'reread' : fresh
  if ((zeroForOne ? protocolFees[0] : protocolFees[1]) === 0n) return 'reread'
  const next = { ...fresh, protocolFees: false, ...(zeroForOne ? { feeGrowth0: false } : { feeGrowth1: false }) }
  return next.feeGrowth0 || next.feeGrowth1 || next.protocolFees ? next : undefined
}

/** The topics of the hot events of one layout. */
type HotTopics = { swap: Hex; mint: Hex; burn: Hex }
type HotLog = NonNullable<ReturnType<typeof decodeHotLog>>

/** A signed integer of a word (int256 and narrower types are sign-extended to 32 bytes). */
const signed = (word: bigint) => BigInt.asIntN(256, word)

/**
 * `Swap`, `Mint` and `Burn` read word by word (most logs of a block are these); undefined for any
 * other log or an unexpected layout, which then goes through the generic decoder.
 */
function decodeHotLog({ topics, data }: Pick<Log, 'topics' | 'data'>, hot: HotTopics, layout: V3LogLayout) {
  const words = (data.length - 2) / 64
  if (topics[0] === hot.swap && topics.length === SWAP_TOPICS && words === layout.swapWords) {
    const [amount0, amount1, sqrtPriceX96, liquidity, tick] = [0, 1, 2, 3, 4].map((index) => readWord(data, index)!)
    const fees = layout.protocolFeeWords
    return {
      eventName: 'Swap' as const,
      args: {
        amount0: signed(amount0!),
        amount1: signed(amount1!),
        sqrtPriceX96: sqrtPriceX96!,
        liquidity: liquidity!,
        tick: Number(signed(tick!)),
        ...(fees ? { protocolFees: [readWord(data, fees[0])!, readWord(data, fees[1])!] as const } : {}),
      },
    }
  }
  if ((topics[0] === hot.mint || topics[0] === hot.burn) && topics.length === POSITION_TOPICS) {
    const mint = topics[0] === hot.mint
    if (words !== (mint ? MINT_WORDS : BURN_WORDS)) return undefined
    // Mint's data starts with the sender; Burn's with the amount.
    const args = { tickLower: Number(signed(BigInt(topics[2]!))), tickUpper: Number(signed(BigInt(topics[3]!))), amount: readWord(data, mint ? 1 : 0)! }
    return mint ? { eventName: 'Mint' as const, args } : { eventName: 'Burn' as const, args }
  }
  return undefined
}

/** The bitmap word holding a tick: floor(floor(tick / spacing) / 256), as the pool compresses it. */
function bitmapWord(tick: number, tickSpacing: number): number {
  return Math.floor(Math.floor(tick / tickSpacing) / 256)
}
