import { type PolishStep, RATIO_ONE, drainedStart, drainedStep } from './drainedStep.js'
import { type EdgeRates, edgeRates, pathRate } from './edgeRates.js'
import { leastInput } from './leastInput.js'
import { snapToTooth, toothed } from './snapToTooth.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Plan } from './types.js'

/** Rounds of the polish: each prices every path's margins once, then searches along the best pair. */
const POLISH_ROUNDS = 3
/** Hops a plan may hold per round (a flow of many paths gets fewer rounds, at least one: each round prices every hop). */
const ROUND_HOPS = 24
/**
 * A round whose move gains more than this share of the plan's value earns one more round, up to
 * MAX_ROUNDS: the rounds above are for a split a hair off its exact balance; a split far from it
 * (a greedy split's coarse parts over many paths) gains round after round (hard bench 100:104
 * H15->H19 30% at 6 hops: eight paths of 43 hops, one round, whose paths' exact rates differed
 * 7,000-fold; 542 bp more after seven rounds).
 */
const MORE_ROUNDS_GAIN = 1e-5
/**
 * The polish runs again with the other order (see polishSplit) only when the drained moves gained
 * more than this share of the plan's value (0.0003 bp). (A round's drained move still earns
 * another round whatever it gains: cut at this gain, or at 1e-7, hard bench 100:401 H0->H2 30% at
 * 20 gwei and 100:123 H0->H4 30% at 0.01 gwei, 6 hops, ended 0.03 bp lower.)
 */
const DRAINED_MORE_ROUNDS_GAIN = 3e-8
/** Rounds of the polish at most, however much each gains. */
const MAX_ROUNDS = 12
/** Exact plans each phase of a round's line search may simulate (moving out, then closing in). */
const LINE_STEPS = 10
/** The first probe, as a part of the thinnest path's input (2^-6). */
const PROBE_SHIFT = 6n
/** A round that moves nothing probes this many times finer next. */
const FINER = 16n
/**
 * Raw units a probe must move at every hop (its input change and its output's) for the rates to
 * resolve: a rate is a difference of integer amounts, off by up to a raw unit of each (2^-14: 0.6
 * bp of the rate). A hop into a token of few decimals moves few raw units for a small probe.
 */
const RESOLVE_UNITS = 1n << 14n

/**
 * The plan's split between its own paths balanced on exact simulation.
 * Each round prices every path's exact rate just past its amount and just
 * short of it (each hop's exact output for `probe` more or less input, at the
 * total the plan trades its pool at; one-sided, as a pool drained to its last
 * tick gains nothing past it), then searches along the move from the path
 * that loses least to the one that gains most, when that gains: the move
 * doubles from `probe` while the plan's exact value net of gas rises, then
 * closes in on the top (parabolas through the best three points; halving
 * toward a move that does not execute, so a move stops at a pool's end). When
 * a pool is drained to its end, a round first searches moving its capacity
 * from the path that pays least for it to the one that pays most (see
 * drainedStep), then the pairwise move, and such a round earns another;
 * the rounds then run again with the two moves searched side by side, the
 * better of the two plans kept (each order can end on a top the other
 * misses). A round
 * that moves nothing probes FINER times finer next (a kink, or a finer
 * imbalance). Last, each path is cut to the least input that still gives its
 * output (see trimRounding). The float model's split lands where the model's
 * curves balance; the exact pools, with each hop's integer rounding, balance
 * a hair away, where a 5% grid or a path-by-path search can land by chance.
 * Returns the better plan, or `plan`. `memo` (optional) holds swaps already
 * simulated in this search.
 *
 * @example
 * const polished = polishSplit(plan, 0, memo) // the same paths, their amounts balanced on exact output
 */
export function polishSplit(plan: Plan, gasCostInOutput: number, memo?: SwapMemo): Plan {
  if (plan.paths.length < 2 || !(gasCostInOutput >= 0)) return plan
  const first = balance(plan, gasCostInOutput, memo, true)
  // No drained move gained: the two orders are the same rounds.
  if (!first.drainedMoved) return first.plan
  // The drained moves gained under DRAINED_MORE_ROUNDS_GAIN of the value in all: the other order's
  // top lies as close (on hard bench 100:7, 115, 123 and 401, of 26 such polishes, the other order
  // won 8, by at most 5.7e-8 of the value; of 77 where they gained more, 2, by up to 1.5e-8),
  // and it costs the polish again (100:123 H16->H19 30% gas-free at 6 hops: 9 of 13 ms).
  if (!(first.drainedGain > DRAINED_MORE_ROUNDS_GAIN * Math.abs(getNetOutput(plan, gasCostInOutput)))) return first.plan
  // The two orders end on different balances of a drained pool's paths (local tops): the better
  // kept, so no plan falls below the order that weighs the two moves side by side.
  const second = balance(plan, gasCostInOutput, memo, false)
  return getNetOutput(second.plan, gasCostInOutput) > getNetOutput(first.plan, gasCostInOutput) ? second.plan : first.plan
}

/**
 * polishSplit's rounds, with a drained pool's move searched first (`drainedFirst`) or beside the
 * pairwise move; the plan, whether a drained move was kept first in any round, and what those
 * moves gained (net of gas).
 */
function balance(plan: Plan, gasCostInOutput: number, memo: SwapMemo | undefined, drainedFirst: boolean): { plan: Plan; drainedMoved: boolean; drainedGain: number } {
  const value = (candidate: Plan) => getNetOutput(candidate, gasCostInOutput)
  let anyDrainedMoved = false
  let drainedGain = 0
  let best = plan
  let bestValue = value(plan)
  // The first probe: a small part of the thinnest path (a move between paths is at its scale).
  let probe = plan.paths.reduce((least, p) => (p.amountIn < least ? p.amountIn : least), plan.amountIn) >> PROBE_SHIFT
  if (probe < 1n) probe = 1n
  // A flow of many paths gets fewer rounds: each round prices every hop of the plan.
  const hops = plan.paths.reduce((sum, p) => sum + p.hops.length, 0)
  let rounds = Math.min(POLISH_ROUNDS, Math.max(1, Math.floor(ROUND_HOPS / hops)))
  /**
   * One round's move at a probe of `size`: the line search from the path whose last raw units lose
   * least to the one whose next gain most (by `rates`), on exact values; whether it gained.
   */
  const searchMove = (size: bigint, rates: EdgeRates, bothWays = false): boolean => {
    const amounts = best.paths.map((p) => p.amountIn)
    const past = best.paths.map((p) => pathRate(p.hops, rates, 'forward'))
    const short = best.paths.map((p, i) => (amounts[i]! >= size ? pathRate(p.hops, rates, 'backward') : Infinity))
    // The path whose next raw units gain most takes from the one whose last lose least.
    let taker = 0
    for (let i = 1; i < past.length; i++) if (past[i]! > past[taker]!) taker = i
    let donor = -1
    for (let i = 0; i < short.length; i++) if (i !== taker && short[i]! < Infinity && (donor < 0 || short[i]! < short[donor]!)) donor = i
    if (donor < 0) return false
    if (!bothWays) return past[taker]! > short[donor]! && commit(lineSearch(size, { donor, taker, filler: -1, ratio: RATIO_ONE }))
    // Rates a tooth's rounding blurs (see snapToTooth): the pair searched both ways.
    if (!toothed(best, donor) && !toothed(best, taker)) return false
    if (commit(lineSearch(size, { donor, taker, filler: -1, ratio: RATIO_ONE }))) return true
    return amounts[taker]! >= size && commit(lineSearch(size, { donor: taker, taker: donor, filler: -1, ratio: RATIO_ONE }))
  }
  /** Keeps the line search's top, when it moved; whether it did. */
  const commit = (point: LinePoint | undefined | false): boolean => {
    if (!point) return false
    best = point.plan!
    bestValue = point.value
    return true
  }
  /**
   * A move of `move` raw input off `donor`: `taker` gets move·ratio/RATIO_ONE of it, `filler` the
   * rest (or gives what is missing when ratio > 1); undefined when an amount would fall below zero.
   */
  const movedAmounts = (base: readonly bigint[], step: PolishStep, move: bigint): bigint[] | undefined => {
    const trial = [...base]
    const added = step.ratio === RATIO_ONE ? move : (move * step.ratio) / RATIO_ONE
    trial[step.donor] = trial[step.donor]! - move
    trial[step.taker] = trial[step.taker]! + added
    if (step.filler >= 0) trial[step.filler] = trial[step.filler]! + move - added
    for (const amount of trial) if (amount < 0n) return undefined
    return trial
  }
  /**
   * The line search along `step`, on exact values: the move doubles from `size` while the value
   * rises, then the parabola through the best three points brackets the top; whether it gained.
   */
  const lineSearch = (size: bigint, step: PolishStep): LinePoint | undefined => {
    const base = best.paths.map((p) => p.amountIn)
    // The plan's own execution only (a flow's shared pools, or path by path).
    const mode = best.mode
    const paths = best.paths.map((p) => p.path)
    const limit = base[step.donor]!
    let top: LinePoint = { move: 0n, value: bestValue, plan: best }
    const tryMove = (move: bigint): LinePoint => {
      const trial = movedAmounts(base, step, move)
      const next = trial && simulatePlan(paths.map((path, i) => ({ path, amountIn: trial[i]! })), { gasCostInOutput, memo, mode })
      if (!next || next.amountIn !== plan.amountIn) return { move, value: -Infinity, plan: next }
      // On the top of its rounding tooth (see snapToTooth): the line search then weighs the
      // envelope of the teeth, not where in a tooth each trial happens to land.
      const snapped = snapToTooth(next, step.donor, step.taker, gasCostInOutput, memo)
      return { move, value: snapped ? value(snapped) : value(next), plan: snapped ?? next }
    }
    let below = top
    let above: LinePoint | undefined
    for (let step = 0, move = size; step < LINE_STEPS && !above; step++, move *= 2n) {
      const point = tryMove(move < limit ? move : limit)
      if (point.value > top.value) {
        below = top
        top = point
        if (point.move === limit) break
      } else above = point
    }
    for (let step = 0; above && step < LINE_STEPS; step++) {
      // The vertex of the parabola through the three points (the top between the other two).
      const [x0, x1, x2] = [Number(below.move), Number(top.move), Number(above.move)]
      const [f0, f1, f2] = [below.value, top.value, above.value]
      const denominator = (x1 - x0) * (f1 - f2) - (x1 - x2) * (f1 - f0)
      let move: bigint
      if (!Number.isFinite(f2)) {
        // A move that does not execute (a pool past its end): halve toward it, so the move stops at
        // the pool's capacity rather than short of it.
        move = (top.move + above.move) / 2n
      } else if (!Number.isFinite(f0)) {
        // One below the top that does not execute (a drained move's rounding): halve toward it.
        move = (below.move + top.move) / 2n
      } else {
        const vertex = x1 - ((x1 - x0) ** 2 * (f1 - f2) - (x1 - x2) ** 2 * (f1 - f0)) / (2 * denominator)
        if (!Number.isFinite(vertex)) break
        move = BigInt(Math.round(Math.min(Math.max(vertex, x0), x2)))
      }
      // On the top already: look halfway into the wider side instead.
      if (move === top.move) move = top.move - below.move > above.move - top.move ? (top.move + below.move) / 2n : (top.move + above.move) / 2n
      if (move === top.move || move <= below.move || move >= above.move) break
      const point = tryMove(move)
      if (point.value > top.value) {
        if (move < top.move) above = top
        else below = top
        top = point
      } else if (move < top.move) below = point
      else above = point
    }
    return top.move === 0n || top.plan === undefined ? undefined : top
  }
  for (let round = 0; round < rounds && probe > 0n && best.paths.length > 1; round++) {
    const before = bestValue
    const { rates, resolution } = edgeRates(best, probe, memo)
    // Unresolved rates (hard bench 100:25 H9->H13 0.01%: a probe moved ~590 raw units of WBTC, each
    // rate ±0.17%, thirty times the paths' true difference, and the polish moved the wrong way and
    // stopped 0.18 bp short): first a move at a probe widened until every hop moves RESOLVE_UNITS,
    // up to half the thinnest path (secant rates, on the right side of the balance when the split
    // is far from it); when it gains nothing, the round's own probe as before.
    const widest = best.paths.reduce((least, p) => (p.amountIn < least ? p.amountIn : least), plan.amountIn) >> 1n
    let moved = false
    // With a pool drained to its end (see drainedStep), its capacity moved between its paths: the
    // pairwise move cannot give a path through the pool more (hard bench 100:123 H16->H19 30% at
    // 6 hops). Drained first: that move, then the pairwise move on the rates where it left the
    // plan. Otherwise both searched from the plan, the better kept.
    const drained = drainedStep(best, rates, probe, memo)
    const drainedTop = drained && lineSearch(drainedStart(best.paths[drained.donor]!.amountIn, probe), drained)
    const beforeDrained = bestValue
    const drainedMoved = drainedFirst && commit(drainedTop)
    anyDrainedMoved ||= drainedMoved
    if (drainedMoved) drainedGain += bestValue - beforeDrained
    if (resolution < RESOLVE_UNITS && probe < widest) {
      const widened = (probe * RESOLVE_UNITS) / (resolution > 0n ? resolution : 1n)
      const step = widened < widest ? widened : widest
      moved = searchMove(step, edgeRates(best, step, memo).rates)
    }
    if (!moved) moved = searchMove(probe, drainedMoved ? edgeRates(best, probe, memo).rates : rates)
    // Unresolved rates can point the wrong way (a hop's rounding is a raw unit of its output, and a
    // path through a token of few decimals gives a staircase: see snapToTooth): the same pair
    // moved the other way, its trials on their teeth' tops.
    if (!moved && resolution < RESOLVE_UNITS) moved = searchMove(probe, rates, true)
    if (!drainedFirst && drainedTop && drainedTop.value > bestValue) moved = commit(drainedTop)
    // The drained move at the probe, when its wider start gained nothing and no move did.
    if (!moved && !drainedMoved && drained) moved = commit(lineSearch(probe, drained))
    moved ||= drainedMoved
    // Balanced at this probe: finer moves may still gain (a one-sided rate over a shorter probe is
    // closer to the margin), down to the hops' integer rounding.
    if (!moved) probe /= FINER
    // Drained first, a round that moved a drained pool's capacity earns another too: each such
    // move shifts one pair's share, and the pool's other paths wait their turn (100:123 above:
    // 0.32 bp more).
    else if ((bestValue - before > MORE_ROUNDS_GAIN * Math.abs(before) || drainedMoved) && rounds < MAX_ROUNDS) rounds++
  }
  if (best.paths.length > 1) {
    const trimmed = trimRounding(best, gasCostInOutput, memo)
    if (trimmed && value(trimmed) > bestValue) {
      best = trimmed
      bestValue = value(trimmed)
    }
  }
  return { plan: best, drainedMoved: anyDrainedMoved, drainedGain }
}

/** A point of the line search: the move, the plan's exact value there, and the plan. */
type LinePoint = { move: bigint; value: number; plan: Plan | undefined }

/**
 * The plan with each path cut to the least input that still gives its output (a hop into a token
 * of few decimals rounds its output down: up to a raw unit of that token, worth many raw units of
 * the input, is paid for nothing), the input freed given to the path whose next raw unit gains
 * most; undefined when nothing is freed or it does not execute. Paths that share a pool with
 * another keep their amounts (their hops' totals are not theirs alone).
 */
function trimRounding(plan: Plan, gasCostInOutput: number, memo: SwapMemo | undefined): Plan | undefined {
  const uses = new Map<string, number>()
  for (const path of plan.paths) for (const hop of path.hops) uses.set(hop.pool.key, (uses.get(hop.pool.key) ?? 0) + 1)
  const amounts = plan.paths.map((p) => p.amountIn)
  let freed = 0n
  plan.paths.forEach((path, i) => {
    if (path.hops.some((hop) => uses.get(hop.pool.key)! > 1)) return
    const needed = leastInput(path)
    if (needed < path.amountIn) {
      freed += path.amountIn - needed
      amounts[i] = needed
    }
  })
  if (freed === 0n) return undefined
  // The freed input to the path with the best rate just past its amount.
  const { rates } = edgeRates(plan, freed, memo)
  let taker = 0
  const forward = plan.paths.map((p) => pathRate(p.hops, rates, 'forward'))
  for (let i = 1; i < forward.length; i++) if (forward[i]! > forward[taker]!) taker = i
  amounts[taker] = amounts[taker]! + freed
  return simulatePlan(
    plan.paths.map((p, i) => ({ path: p.path, amountIn: amounts[i]! })),
    { gasCostInOutput, memo, mode: plan.mode },
  )
}
