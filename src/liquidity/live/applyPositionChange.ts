import type { PoolStateBase } from '../../protocols/types.js'
import { ascending, updateFreshOutside } from './freshOutsideLists.js'
import type { LogOutcome, TrackedPool } from './trackedPool.js'

/** What a position's liquidity change touches in a Uniswap V3-family or V4 pool state (integers as base-10 strings). */
export type PositionChangeState = PoolStateBase & {
  tick: number
  tickLower: number
  tickUpper: number
  liquidity: string
  ticks: { index: number; liquidityNet: string }[]
  freshSlots?: { feeGrowth0: boolean; feeGrowth1: boolean }
  freshOutside0?: number[]
  freshOutside1?: number[]
  gauge?: { rewardGrowthFresh: boolean; freshRewardOutside: number[] }
}

/**
 * A position's liquidity change of `delta` over [`tickLower`, `tickUpper`), as the V3 pool's
 * `_modifyPosition` and V4's `Pool.modifyLiquidity` apply it (the two keep ticks alike): both
 * ends' liquidityGross and liquidityNet inside the known window (a tick appears when its gross
 * leaves zero, with its fee growth outside as `Tick.update` sets it, and is cleared with its fee
 * growth words when the gross returns to zero), the active liquidity when the range holds the
 * current tick, and the fresh-outside lists when the state has them. A re-read when the record
 * cannot say (a held tick's gross unknown) or the change would take a liquidity below zero;
 * `label` names the family in the reasons (`'V4 '`, or `''`).
 *
 * @example
 * const outcome = applyPositionChange(record, state, -600, 600, 10n ** 18n, '') // a Mint of 1e18 liquidity
 */
export function applyPositionChange<State extends PositionChangeState>(record: TrackedPool, state: State, tickLower: number, tickUpper: number, delta: bigint, label: string): LogOutcome {
  const gross = new Map(record.liquidityGross ?? [])
  const ticks = new Map<number, bigint>(state.ticks.map((t) => [t.index, BigInt(t.liquidityNet)]))
  const lists = state.freshOutside0 && state.freshOutside1 ? ([new Set(state.freshOutside0), new Set(state.freshOutside1)] as const) : undefined
  const globalFresh = state.freshSlots ?? { feeGrowth0: false, feeGrowth1: false }
  // A gauged Slipstream pool's ticks whose reward growth outside is zero. A new tick's is zero above
  // the price and the reward growth at or below it, which the log does not carry: listed either
  // way (at worst priced ~17k high until a re-read). A crossing leaves the list as it is, for the
  // same reason: a tick still listed after its first crossing is priced high, never low.
  const freshReward = state.gauge ? new Set(state.gauge.freshRewardOutside) : undefined
  // The lower end adds liquidity crossing upward, the upper end removes it.
  for (const [index, netDelta] of [
    [tickLower, delta],
    [tickUpper, -delta],
  ] as const) {
    // Ends outside the known window are not part of the state; a later window move re-reads.
    if (index < state.tickLower || index > state.tickUpper) continue
    const held = ticks.get(index)
    const grossBefore = gross.get(index)
    if (held !== undefined && grossBefore === undefined) return { kind: 'reread', reason: `${label}liquidityGross of a tick unknown` }
    const grossAfter = (grossBefore ?? 0n) + delta
    if (grossAfter < 0n) return { kind: 'reread', reason: `${label}liquidityGross would go negative` }
    if (grossAfter === 0n) {
      // Clearing a tick deletes its whole info, fee growth outside included.
      gross.delete(index)
      ticks.delete(index)
      if (lists) updateFreshOutside(lists, index, { initialized: false })
      freshReward?.delete(index)
      continue
    }
    if (grossBefore === undefined) freshReward?.add(index)
    if (lists && grossBefore === undefined) {
      updateFreshOutside(lists, index, { initialized: true, atOrBelow: index <= state.tick, globalFresh0: globalFresh.feeGrowth0, globalFresh1: globalFresh.feeGrowth1 })
    }
    gross.set(index, grossAfter)
    ticks.set(index, (held ?? 0n) + netDelta)
  }
  // Active when tickLower <= tick < tickUpper (the pool's own test).
  const active = state.tick >= tickLower && state.tick < tickUpper
  const liquidity = active ? BigInt(state.liquidity) + delta : BigInt(state.liquidity)
  if (liquidity < 0n) return { kind: 'reread', reason: `${label}active liquidity would go negative` }
  const sorted = [...ticks.entries()].sort(([a], [b]) => a - b).map(([index, liquidityNet]) => ({ index, liquidityNet: liquidityNet.toString() }))
  const next: State = {
    ...state,
    liquidity: liquidity.toString(),
    ticks: sorted,
    ...(lists ? { freshOutside0: ascending(lists[0]), freshOutside1: ascending(lists[1]) } : {}),
    ...(state.gauge && freshReward ? { gauge: { ...state.gauge, freshRewardOutside: ascending(freshReward) } } : {}),
  }
  return { kind: 'next', record: { ...record, state: next, liquidityGross: gross } }
}
