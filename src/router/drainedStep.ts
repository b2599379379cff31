import { type EdgeRate, type EdgeRates, edgeOf, pathRate } from './edgeRates.js'
import { type SwapMemo, quoteMemoized } from './swapMemo.js'
import type { ExecutedPath, Plan } from './types.js'

/** The fixed-point one of a move's ratio (2^40). */
export const RATIO_ONE = 1n << 40n

/**
 * A drained move's line search starts at this part of the donor's amount (2^-10: the polish's ten
 * doublings reach all of it), and an edge that cannot take this part of its total more counts as
 * drained once one edge is (a hair short of its end, it blocks a move of that size).
 */
export const DRAINED_SHIFT = 10n

/**
 * A move of the polish: `move` raw input off `donor`, move·ratio/RATIO_ONE of it to `taker`, the
 * rest to `filler` (or from it, when ratio is above one; -1: no filler, ratio is RATIO_ONE).
 */
export type PolishStep = { donor: number; taker: number; filler: number; ratio: bigint }

/**
 * The best move of a drained pool's capacity between two of the plan's paths through it, the
 * pool's input kept level; undefined when no edge of `rates` is drained or no such move gains.
 *
 * A pool the plan drains to its last tick's end takes no more, so the pairwise balance cannot
 * give more to a path through it, and it cannot tell a path that pays little for the pool's
 * capacity (a long way to the pool's input token) from one that pays much: the first keeps the
 * capacity, as its own rate beats the free paths'. Here a donor through the pool gives up input,
 * freeing the pool's input its last units carried (its rates before the pool, backward); a taker
 * through the same pool gets what fills exactly that (its rates before the pool, forward); the
 * input left over goes to the free path that gains most (or, when the taker needs more than the
 * donor freed, comes from the path that loses least). The move is ranked by its gain per raw unit
 * times the input the taker and the filler can take before another pool ends (hard bench 100:123
 * H16->H19 30% at 6 hops: USDT -> H19 drained, fed from H16 -> H17 -> H31 -> USDT at a 3.6% worse
 * rate than H16 -> USDT direct; 2.35 bp below Tines before).
 *
 * @example
 * const step = drainedStep(plan, edgeRates(plan, probe, memo).rates, probe, memo)
 * step?.taker // the path that takes the drained pool's capacity
 */
export function drainedStep(plan: Plan, rates: EdgeRates, probe: bigint, memo: SwapMemo | undefined): PolishStep | undefined {
  const paths = plan.paths
  let any = false
  for (const list of rates.values()) for (const edge of list) any ||= edge.drained
  if (!any) return undefined
  // A hair short of its end counts as drained too once a pool is: it blocks the moves below.
  for (const list of rates.values())
    for (const edge of list) {
      const wider = edge.total >> DRAINED_SHIFT
      if (!edge.drained && wider > 0n) edge.drained = !quoteMemoized(edge.state, edge.tokenIn, edge.tokenOut, edge.total + wider, memo)
    }
  const drainedHops = paths.map((p) => p.hops.filter((hop) => edgeOf(rates, hop)!.drained).length)
  const past = paths.map((p) => pathRate(p.hops, rates, 'forward'))
  const short = paths.map((p) => (p.amountIn >= probe ? pathRate(p.hops, rates, 'backward') : Infinity))
  // The most input a path can take more (a power-of-two part of its largest amount), its hops
  // short of their pools' ends; `except`: the drained edge the move keeps level. By edge, by path.
  const largest = paths.reduce((most, p) => (p.amountIn > most ? p.amountIn : most), 0n)
  const rooms = new Map<EdgeRate | undefined, Map<number, bigint>>()
  const roomOf = (index: number, except?: EdgeRate): bigint => {
    let byPath = rooms.get(except)
    if (!byPath) rooms.set(except, (byPath = new Map()))
    let room = byPath.get(index)
    if (room === undefined) {
      room = largest
      while (room >= probe && !takesMore(paths[index]!, room, rates, memo, except)) room >>= 1n
      if (room < probe) room = 0n
      byPath.set(index, room)
    }
    return room
  }
  let best: PolishStep | undefined
  let bestGain = 0
  for (const list of rates.values())
    for (const edge of list) {
      if (!edge.drained) continue
      const users = drainedUsers(paths, rates, edge)
      for (const donor of users) {
        if (!(short[donor.index]! < Infinity) || !(donor.preBackward > 0) || !Number.isFinite(donor.preBackward)) continue
        for (const taker of users) {
          // The taker passes no other drained edge (it takes more there).
          if (taker === donor || !(taker.preForward > 0) || drainedHops[taker.index]! > 1) continue
          // The taker's input per raw unit of the donor's, the pool's input level.
          const ratio = donor.preBackward / taker.preForward
          if (!Number.isFinite(ratio) || !(ratio > 0)) continue
          // The filler: the free path that gains most takes what is left over; or the path that
          // loses least gives what the taker needs beyond the donor's.
          let filler = -1
          if (ratio < 1) {
            for (let i = 0; i < paths.length; i++) if (drainedHops[i] === 0 && i !== taker.index && i !== donor.index && (filler < 0 || past[i]! > past[filler]!)) filler = i
          } else {
            for (let i = 0; i < paths.length; i++) if (i !== taker.index && i !== donor.index && short[i]! < Infinity && (filler < 0 || short[i]! < short[filler]!)) filler = i
          }
          if (filler < 0) continue
          // Per raw unit of the donor's input: what it loses, what the taker gains (the pool at its
          // backward rate: its input is level), the rest at the filler's rate.
          const gain = -short[donor.index]! + ratio * taker.rateKept + (1 - ratio) * (ratio < 1 ? past[filler]! : short[filler]!)
          if (!(gain > 0)) continue
          let room = roomOf(taker.index, edge)
          if (ratio < 1) room = minAmount(room, roomOf(filler))
          // The donor's input the taker's room covers (ratio ≥ 1 here when divided: finite).
          const movable = minAmount(paths[donor.index]!.amountIn, ratio < 1 ? room : BigInt(Math.floor(Number(room) / ratio)))
          const total = gain * Number(movable)
          if (total > bestGain) {
            bestGain = total
            // A hair under the rates' ratio: the drained pool's input must not grow by rounding.
            best = { donor: donor.index, taker: taker.index, filler, ratio: BigInt(Math.floor(ratio * (1 - 1e-9) * Number(RATIO_ONE))) }
          }
        }
      }
    }
  return best
}

/**
 * Where a drained move's line search starts: a DRAINED_SHIFT part of the donor's amount (the
 * capacity a path holds at a poor price is a share of its amount, far above the probe), at least
 * the probe.
 *
 * @example
 * const start = drainedStart(plan.paths[step.donor]!.amountIn, probe)
 */
export function drainedStart(donorAmount: bigint, probe: bigint): bigint {
  const start = donorAmount >> DRAINED_SHIFT
  return start > probe ? start : probe
}

/** A path through a drained edge: the edge's input per raw unit more (forward) or less (backward) of the path's, and its rate with the edge at its backward rate. */
type DrainedUser = { index: number; preForward: number; preBackward: number; rateKept: number }

/** The plan's paths through `edge`, each with its rates before it (see DrainedUser). */
function drainedUsers(paths: readonly ExecutedPath[], rates: EdgeRates, edge: EdgeRate): DrainedUser[] {
  const users: DrainedUser[] = []
  paths.forEach((path, index) => {
    const at = path.hops.findIndex((hop) => edgeOf(rates, hop) === edge)
    if (at < 0) return
    let preForward = 1
    let preBackward = 1
    let rateKept = 1
    path.hops.forEach((hop, h) => {
      const rate = edgeOf(rates, hop)!
      if (h < at) {
        preForward *= rate.forward
        preBackward *= rate.backward
      }
      rateKept *= h === at ? rate.backward : rate.forward
    })
    users.push({ index, preForward, preBackward, rateKept })
  })
  return users
}

/** The lesser of two amounts. */
const minAmount = (a: bigint, b: bigint) => (a < b ? a : b)

/**
 * Whether every hop of `path` (but `except`'s edge) can take what `extra` more input at the path's
 * start adds to its edge's total (scaled by the hop's share of the path's input).
 */
function takesMore(path: ExecutedPath, extra: bigint, rates: EdgeRates, memo: SwapMemo | undefined, except?: EdgeRate): boolean {
  for (const hop of path.hops) {
    const edge = edgeOf(rates, hop)!
    if (edge === except) continue
    const change = path.amountIn > 0n ? (extra * hop.amountIn) / path.amountIn : extra
    if (!quoteMemoized(edge.state, hop.tokenIn, hop.tokenOut, edge.total + change, memo)) return false
  }
  return true
}
