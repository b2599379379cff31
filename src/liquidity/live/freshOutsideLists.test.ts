import { type Address, type Hex, encodeAbiParameters, encodeEventTopics } from 'viem'
import { describe, expect, it } from 'vitest'
import type { UniswapV3PoolState } from '../../protocols/uniswapV3/state.js'
import { getSqrtRatioAtTick } from '../../protocols/uniswapV3/tickMath.js'
import { applyUniswapV3Log } from './applyUniswapV3Log.js'
import { crossFreshOutside, crossedTicks, updateFreshOutside } from './freshOutsideLists.js'
import { uniswapV3PoolEventsAbi } from './poolEvents.js'
import type { TrackedPool } from './trackedPool.js'

const token0 = '0x1000000000000000000000000000000000000001' as Address
const token1 = '0x2000000000000000000000000000000000000002' as Address
const address = '0x3000000000000000000000000000000000000003' as Address
// Ticks at 880 (set up below the price: its words hold the global growth) and 1120 (above: zero),
// in the price's bitmap word.
const state: UniswapV3PoolState = {
  family: 'uniswapV3', dex: 'uniswapV3', address, token0, token1, fee: 500, tickSpacing: 10,
  sqrtPriceX96: String(getSqrtRatioAtTick(1000)), tick: 1000, liquidity: '1000', tickLower: -2560, tickUpper: 2559,
  ticks: [{ index: 880, liquidityNet: '1000' }, { index: 1120, liquidityNet: '-1000' }],
  freshOutside0: [1120], freshOutside1: [1120],
}
const record: TrackedPool = {
  pool: { address, family: 'uniswapV3', dex: 'uniswapV3', token0, token1, fee: 500, tickSpacing: 10, createdAt: 1 },
  state,
  liquidityGross: new Map([[880, 1000n], [1120, 1000n]]),
}
/** A Swap log moving the pool to `tick` (token1 in when moving up). */
const swapTo = (tick: number) => ({
  topics: encodeEventTopics({ abi: uniswapV3PoolEventsAbi, eventName: 'Swap', args: { sender: token0, recipient: token1 } }) as [Hex, ...Hex[]],
  data: encodeAbiParameters(
    [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }],
    tick > state.tick ? [-9n, 10n, getSqrtRatioAtTick(tick), 0n, tick] : [10n, -9n, getSqrtRatioAtTick(tick), 1000n, tick],
  ),
})
const mint = (tickLower: number, tickUpper: number) => ({
  topics: encodeEventTopics({ abi: uniswapV3PoolEventsAbi, eventName: 'Mint', args: { owner: token0, tickLower, tickUpper } }) as [Hex, ...Hex[]],
  data: encodeAbiParameters([{ type: 'address' }, { type: 'uint128' }, { type: 'uint256' }, { type: 'uint256' }], [token0, 500n, 1n, 1n]),
})
const stateAfter = (outcome: ReturnType<typeof applyUniswapV3Log>) => (outcome.kind === 'next' ? (outcome.record.state as UniswapV3PoolState) : outcome)

describe('fresh-outside lists in the live source', () => {
  it('crosses a tick whose words are zero to the global growth, and re-reads a tick whose words are not', () => {
    expect(crossedTicks(state.ticks, 1000, 1130)).toEqual([1120])
    expect(crossedTicks(state.ticks, 1000, 879)).toEqual([880])
    expect(crossedTicks(state.ticks, 1000, 1119)).toEqual([])
    expect(crossFreshOutside({ freshOutside0: [120], freshOutside1: [120] }, [120], false, true)).toEqual({ freshOutside0: [], freshOutside1: [120] })
    expect(crossFreshOutside({ freshOutside0: [120], freshOutside1: [] }, [120], false, false)).toBe('reread')
  })

  it('sets a new tick as Tick.update does and forgets a cleared one', () => {
    const fresh = [new Set<number>([60]), new Set<number>([60])] as const
    updateFreshOutside(fresh, -60, { initialized: true, atOrBelow: true, globalFresh0: true, globalFresh1: false })
    updateFreshOutside(fresh, 240, { initialized: true, atOrBelow: false, globalFresh0: false, globalFresh1: false })
    updateFreshOutside(fresh, 60, { initialized: false })
    expect(fresh.map((set) => [...set].sort((a, b) => a - b))).toEqual([[-60, 240], [240]])
  })

  it('applyUniswapV3Log keeps the lists a fresh read would give: swaps across ticks, mints of new ones', () => {
    // Up across 1120 (both words zero, both global growths nonzero): written from zero, no longer fresh.
    expect(stateAfter(applyUniswapV3Log(record, swapTo(1130)))).toMatchObject({ tick: 1130, freshOutside0: [], freshOutside1: [] })
    // Down across 880 (its words hold the growth at its setting up): unknown, re-read.
    expect(applyUniswapV3Log(record, swapTo(879))).toMatchObject({ kind: 'reread', reason: 'Swap across a tick with fee growth outside' })
    // A token whose global growth is still zero: the input may raise it before the crossing (re-read).
    const young = { ...record, state: { ...state, freshSlots: { feeGrowth0: false, feeGrowth1: true, protocolFees: false } } }
    expect(applyUniswapV3Log(young, swapTo(1130))).toMatchObject({ kind: 'reread' })
    // Mint over new ends: 940 at or below the price takes the global growth, 1240 above it starts at zero.
    expect(stateAfter(applyUniswapV3Log(record, mint(940, 1240)))).toMatchObject({ freshOutside0: [1120, 1240], freshOutside1: [1120, 1240] })
    // A state without the lists (an older one) keeps none.
    const unsaid = { ...record, state: { ...state, freshOutside0: undefined, freshOutside1: undefined } }
    expect(stateAfter(applyUniswapV3Log(unsaid, swapTo(1130)))).toMatchObject({ tick: 1130, freshOutside0: undefined })
  })

  it('lists a gauged pool\'s new ticks as reward-fresh (either side of the price), forgets cleared ones, and keeps crossed ones (priced high, never low)', () => {
    const gauged = { ...record, state: { ...state, gauge: { rewardGrowthFresh: false, freshRewardOutside: [1120] } } }
    expect(stateAfter(applyUniswapV3Log(gauged, mint(940, 1240)))).toMatchObject({ gauge: { rewardGrowthFresh: false, freshRewardOutside: [940, 1120, 1240] } })
    expect(stateAfter(applyUniswapV3Log(gauged, swapTo(1130)))).toMatchObject({ gauge: { freshRewardOutside: [1120] } })
    // Burning all of 880-1120's liquidity clears both ticks.
    const burn = {
      topics: encodeEventTopics({ abi: uniswapV3PoolEventsAbi, eventName: 'Burn', args: { owner: token0, tickLower: 880, tickUpper: 1120 } }) as [Hex, ...Hex[]],
      data: encodeAbiParameters([{ type: 'uint128' }, { type: 'uint256' }, { type: 'uint256' }], [1000n, 1n, 1n]),
    }
    expect(stateAfter(applyUniswapV3Log(gauged, burn))).toMatchObject({ ticks: [], gauge: { freshRewardOutside: [] } })
  })
})
