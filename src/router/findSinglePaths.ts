import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type Curve, getCurve } from './curves.js'
import type { Hop, Path } from './types.js'

/** A walk reaching a token after some hops: what it holds there, its gas so far, and the hop that brought it (and from where). */
type Reached = { amount: number; gas: number; hop: Hop | undefined; step: Step | undefined; from: Reached | undefined }

/**
 * Shares of the amount the best single paths are also searched at: the best
 * path for the whole amount is often not the one that carries most of a split
 * (a deep route capped part way is best for half the amount), and tokens
 * beyond the majors become candidates through these paths.
 */
const PROBE_SHARES = [1, 0.5]
/**
 * Walks kept per token and hop count, the most held there first: the walk
 * holding most at a token need not end best net of gas (a walk a little
 * behind through cheaper pools can win once gas is weighed), nor at all (it
 * may have passed a token or pool the rest of the path needs). With gas
 * priced, the cheapest walk is kept beside them: when more than this many
 * hold more than it, each for more gas, it was the one dropped (hard bench
 * 1000:8 H16->H19 0.01% at 20 gwei: 2.33 bp below Tines' cheaper path).
 */
const WALKS_PER_TOKEN = 4
/**
 * Model error tolerated at a hop's output before it is rounded down to whole raw units (raw units):
 * the float curves agree with the pools far closer than this at a few units, so an output the model
 * puts a hair below a whole unit is not taken for one unit less.
 */
const WHOLE_UNIT_SLACK = 1e-6

/**
 * The best single paths of each length up to `maxHops` through ANY token the
 * pools hold (not only the route graph's candidates), in the float model, for
 * the whole amount and for half of it (PROBE_SHARES): a layered search where
 * layer k keeps, per token, up to WALKS_PER_TOKEN walks of k hops from the
 * input that no other beats on both what it holds there and its gas (a walk
 * never revisits a token or reuses a pool). Every curve increases with its
 * input, so the most a token can hold extends the most held at the token
 * before it. Per length, the walk ending with the most output and, when
 * `gasCost` (raw output units per gas unit) is positive, the one ending with
 * the most output net of the model's gas are kept. Each hop's output is
 * rounded down to whole raw units, as the pools pay (`wholeUnits: false`
 * keeps the fractions, for a probe of mid rates). Distinct paths, the most
 * output for the whole amount first. This is the floor every route is checked
 * against (the caller simulates the few paths returned and compares them net
 * of exact gas), and the route of last resort when the candidate graph cannot
 * fill the amount.
 *
 * @example
 * const paths = findSinglePaths(pools, weth, pepe, 1e18, 4) // a few paths per length, the best first
 */
export function findSinglePaths(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  amountIn: number,
  maxHops: number,
  gasCost = 0,
  { wholeUnits = true }: { wholeUnits?: boolean } = {},
): Path[] {
  if (!(amountIn > 0) || !Number.isFinite(amountIn) || maxHops < 1) return []
  // A pool pays whole raw units: what a hop hands on is its output rounded down. Without it, a dust
  // amount's walk through a token of few decimals (18-decimal dust into 6-decimal USDC: a millionth
  // of a unit) holds a fraction the exact swap rounds to nothing, and crowds out the walks that
  // fill (families soak: a 404 where a 2-hop path gave 599,324,690). Off for a zero-size rate probe.
  const held = wholeUnits ? (output: number) => Math.floor(output + WHOLE_UNIT_SLACK) : (output: number) => output
  const adjacency = adjacencyOf(pools)
  const toOutput = hopsToOutput(adjacency, tokenIn, tokenOut, maxHops)
  // A step's model curve is kept on the step (it depends on the pool's state alone); a sampled one
  // is built on first use in this search, around the first input it sees.
  const sampled = new Map<number, Curve>()
  const curveOf = (step: Step, from: Address, scale: number): Curve => {
    if (step.model) return step.model
    let curve = sampled.get(step.slot)
    if (curve) return curve
    curve = getCurve(step.pool, from, step.to, scale)
    if (curve.sampled) sampled.set(step.slot, curve)
    else step.model = curve
    return curve
  }
  // The capacities of the pool directions out of a token, lowest first (built on first use): a walk
  // holding more at a token is no better than one holding less when a pool out of it takes the
  // less and not the more (its exact-in swap must fill). Hard bench 100:13 H5->H10 30% at 4 hops:
  // the walks holding most DAI after 3 hops overfill the only DAI->H10 pool, and the one through
  // H22, holding less, was dropped as beaten: no path found, a 404 where one fills.
  const capacities = new Map<Address, Float64Array>()
  const limitsOut = (token: Address, scale: number): Float64Array => {
    let limits = capacities.get(token)
    if (limits) return limits
    const steps = token === tokenOut ? NO_STEPS : (adjacency.steps.get(token) ?? NO_STEPS)
    limits = Float64Array.from(steps.map((step) => curveOf(step, token, scale).limit())).sort()
    capacities.set(token, limits)
    return limits
  }
  // Whether a walk already passed `token` or traded `pool` (walks are at most maxHops long).
  const visits = (walk: Reached, token: Address, pool: Pool) => {
    for (let at: Reached | undefined = walk; at?.hop; at = at.from) if (at.hop.tokenIn === token || at.hop.pool === pool) return true
    return false
  }
  const found = new Map<string, { hops: Hop[]; steps: Step[] }>()
  const keep = (end: Reached | undefined) => {
    if (!end) return
    const hops: Hop[] = []
    const steps: Step[] = []
    for (let at: Reached | undefined = end; at?.hop; at = at.from) {
      hops.unshift(at.hop)
      steps.unshift(at.step!)
    }
    const key = hops.map((h) => `${h.pool.key}:${h.tokenIn}>${h.tokenOut}`).join()
    if (!found.has(key)) found.set(key, { hops, steps })
  }
  // Whether a walk of the first search met a pool that could not take what it held, at a token
  // where walks holding less were dropped as beaten: only then can the capacity-aware search keep a
  // walk this one did not (one it keeps is a walk dropped here, passing a pool the kept ones
  // overfill). A capacity met where nothing was dropped changes nothing, and at 30% of depth
  // nearly every quote meets one (hard bench 100:1 H12->H17 30%: the second search was a sixth
  // of the quote's CPU).
  let capacityMet = false
  // `capacityAware`: a walk beaten on what it holds is kept when a pool out of the token takes its
  // amount and not the other's (see limitsOut); off in the first search, so the floor's paths stay
  // as they were where no pool's capacity was met.
  const search = (capacityAware: boolean) => {
    const walksKept = gasCost > 0 ? WALKS_PER_TOKEN + 1 : WALKS_PER_TOKEN
    const limitsAt = capacityAware ? limitsOut : () => NO_LIMITS
    for (const share of PROBE_SHARES) {
      let layer = new Map<Address, Reached[]>([[tokenIn, [{ amount: amountIn * share, gas: 0, hop: undefined, step: undefined, from: undefined }]]])
      // Tokens of the walks in `layer` / `next` where walks were dropped as beaten.
      let droppedInLayer = new Set<Address>()
      for (let k = 1; k <= maxHops && layer.size > 0; k++) {
        const next = new Map<Address, Reached[]>()
        const droppedInNext = new Set<Address>()
        let mostOut: Reached | undefined
        let mostNet: Reached | undefined
        for (const [token, walks] of layer)
          for (const walk of walks)
            for (const step of adjacency.steps.get(token) ?? NO_STEPS) {
              const { to, pool } = step
              if (to === tokenIn) continue
              const hopsLeft = toOutput.get(to)
              if (hopsLeft === undefined || hopsLeft > maxHops - k || visits(walk, to, pool)) continue
              const curve = curveOf(step, token, walk.amount)
              if (!curve.covers(walk.amount)) {
                if (droppedInLayer.has(token)) capacityMet = true
                continue
              }
              const amount = held(curve.amountOut(walk.amount))
              if (!(amount > 0)) continue
              const gas = walk.gas + curve.gas(walk.amount)
              const list = to === tokenOut ? undefined : next.get(to)
              // A walk holding no more than one kept, for no less gas or through the same last pool, adds
              // nothing (later hops' outputs grow with their inputs, gas adds up); one it beats so goes.
              // With gas priced, the cheapest walk is kept through the same last pool too: it can end
              // best net of gas (hard bench 100:217 H4->H8 0.01% at 20 gwei, 4 hops: H4 -> H5 -> H6 ->
              // H7 -> H8 through cheap pools reached H7 through the same pool as the walk holding more
              // that reached H6 through USDC, and went; the route came 155 bp net below Tines' path).
              const cheapest = gasCost > 0 && list !== undefined && cheaperThanAll(list, gas)
              if (list && dominated(list, amount, gas, cheapest ? undefined : pool, limitsAt(to, amount))) {
                droppedInNext.add(to)
                continue
              }
              const reached: Reached = { amount, gas, hop: { pool, tokenIn: token, tokenOut: to }, step, from: walk }
              if (to === tokenOut) {
                // Every walk reaching the output competes, gross and net of gas.
                if (!mostOut || amount > mostOut.amount) mostOut = reached
                if (gasCost > 0 && (!mostNet || amount - gasCost * reached.gas > mostNet.amount - gasCost * mostNet.gas)) mostNet = reached
                continue
              }
              if (!list) {
                next.set(to, [reached])
                continue
              }
              const kept = undominated(list, amount, gas, pool, limitsAt(to, amount))
              // The cheapest walk kept, beaten through the same last pool alone, stays (see above).
              const cheapestKept = gasCost > 0 ? cheapestOf(list) : undefined
              if (cheapestKept && cheapestKept.gas < gas && !kept.includes(cheapestKept)) insertByAmount(kept, cheapestKept)
              if (kept.length < list.length) droppedInNext.add(to)
              insertByAmount(kept, reached)
              // Past the WALKS_PER_TOKEN most held, the one after them goes: with gas priced, the last
              // (the least held, so the least gas: the others beat it on nothing else) stays too.
              if (kept.length > walksKept) {
                kept.splice(WALKS_PER_TOKEN, 1)
                droppedInNext.add(to)
              }
              next.set(to, kept)
            }
        keep(mostOut)
        keep(mostNet)
        layer = next
        droppedInLayer = droppedInNext
      }
    }
  }
  // The whole amount through each path in the model (0 when a hop cannot take it), the most first.
  const whole = ({ hops, steps }: { hops: Hop[]; steps: Step[] }) => {
    let amount = amountIn
    for (let k = 0; k < hops.length; k++) {
      const curve = curveOf(steps[k]!, hops[k]!.tokenIn, amount)
      if (!curve.covers(amount)) return 0
      amount = held(curve.amountOut(amount))
    }
    return amount
  }
  search(false)
  // The walks holding most ran into a pool's capacity that walks holding less pass: searched again,
  // keeping those, and the paths of both searches weighed. Not only when no path found takes the
  // whole amount: one that does can be far from the best (hard bench 100:81 H18->H19 30% at 6
  // hops: the walks holding most DAI after 4 hops overfill the DAI->USDT->H19 route; the one path
  // found, through H0 and WETH, gave 111,334,934,413,882, the one through H29 and USDT
  // 253,068,167,861,744).
  if (capacityMet || ![...found.values()].some((path) => whole(path) > 0)) search(true)
  return [...found.values()]
    .map((path) => ({ path: path.hops, amount: whole(path) }))
    .sort((a, b) => b.amount - a.amount)
    .map((f) => f.path)
}

/**
 * Whether a walk kept in `list` holds at least `amount` for no more gas than `gas` or through
 * `pool`, the same last pool (undefined: gas alone counts), and no pool direction out of the token (`limits`, its capacities, lowest first)
 * takes `amount` but not what that walk holds (a loop, not `some` with a closure: the search's
 * innermost step, where a closure and its boxed floats are allocated for every candidate).
 */
function dominated(list: readonly Reached[], amount: number, gas: number, pool: Pool | undefined, limits: Float64Array): boolean {
  for (const other of list) if (other.amount >= amount && (other.gas <= gas || other.hop!.pool === pool) && !capacityBetween(limits, amount, other.amount)) return true
  return false
}

/** The walk of `list` (not empty) with the least gas. */
function cheapestOf(list: readonly Reached[]): Reached {
  let cheapest = list[0]!
  for (const other of list) if (other.gas < cheapest.gas) cheapest = other
  return cheapest
}

/** `walk` put into `list` (the most held first) after every walk holding at least as much. */
function insertByAmount(list: Reached[], walk: Reached): void {
  let at = list.length
  while (at > 0 && list[at - 1]!.amount < walk.amount) at--
  list.splice(at, 0, walk)
}

/** Whether `gas` is below every walk's of `list`. */
function cheaperThanAll(list: readonly Reached[], gas: number): boolean {
  for (const other of list) if (!(gas < other.gas)) return false
  return true
}

/** The walks of `list` that a walk holding `amount` for `gas` through `pool` does not beat (in order; see `dominated`). */
function undominated(list: readonly Reached[], amount: number, gas: number, pool: Pool, limits: Float64Array): Reached[] {
  const kept: Reached[] = []
  for (const other of list) if (!(amount >= other.amount && (gas <= other.gas || other.hop!.pool === pool) && !capacityBetween(limits, other.amount, amount))) kept.push(other)
  return kept
}

/** Whether a capacity of `limits` (sorted) lies in [less, more): a pool that takes `less` and not `more`. */
function capacityBetween(limits: Float64Array, less: number, more: number): boolean {
  if (!(more > less)) return false
  let lo = 0
  let hi = limits.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (limits[mid]! < less) lo = mid + 1
    else hi = mid
  }
  return lo < limits.length && limits[lo]! < more
}

/** One pool direction out of a token: the pool, the token it gives, and its slot for per-search curves. */
type Step = { pool: Pool; to: Address; slot: number; model?: Curve }

const NO_STEPS: readonly Step[] = []

/** No capacity between two amounts: dominance on what walks hold alone. */
const NO_LIMITS = new Float64Array(0)

/** Hop counts to the output kept per pool list (the most recently used pairs). */
const MAX_PAIRS_PER_LIST = 16

/** A pool list's steps by input token (pool order), and the hop counts to the output of recent pairs. */
type Adjacency = { pools: readonly Pool[]; steps: ReadonlyMap<Address, readonly Step[]>; slots: number; toOutput: Map<string, ReadonlyMap<Address, number>> }

/**
 * Keyed weakly by the pool list: getQuote hands the router the same list object while the
 * liquidity is the same (buildPools), so repeated quotes share the steps, and they go away with it.
 */
const adjacencies = new WeakMap<readonly Pool[], Adjacency>()

/** Every pool direction by input token, built once per pool list (afresh when the list changed in place). */
function adjacencyOf(pools: readonly Pool[]): Adjacency {
  const known = adjacencies.get(pools)
  if (known && known.pools.length === pools.length && known.pools.every((pool, i) => pool === pools[i])) return known
  const steps = new Map<Address, Step[]>()
  let slots = 0
  for (const pool of pools)
    for (const a of pool.tokens)
      for (const b of pool.tokens) {
        if (a === b) continue
        let list = steps.get(a)
        if (!list) steps.set(a, (list = []))
        list.push({ pool, to: b, slot: slots++, model: undefined })
      }
  const built: Adjacency = { pools: [...pools], steps, slots, toOutput: new Map() }
  adjacencies.set(pools, built)
  return built
}

/**
 * Fewest hops from each token to the output (over any pool, never out of the output nor into the
 * input), up to maxHops − 1: tokens that cannot reach the output in the hops left are not
 * expanded. Kept per pair on the pool list.
 */
function hopsToOutput(adjacency: Adjacency, tokenIn: Address, tokenOut: Address, maxHops: number): ReadonlyMap<Address, number> {
  const key = `${tokenIn}>${tokenOut}@${maxHops}`
  const known = adjacency.toOutput.get(key)
  if (known) {
    // Most recently used last: the first key is the one to drop.
    adjacency.toOutput.delete(key)
    adjacency.toOutput.set(key, known)
    return known
  }
  const toOutput = new Map<Address, number>([[tokenOut, 0]])
  for (let k = 1; k < maxHops; k++)
    for (const [a, list] of adjacency.steps) {
      if (toOutput.has(a)) continue
      if (list.some(({ to }) => to !== tokenIn && toOutput.get(to) === k - 1)) toOutput.set(a, k)
    }
  if (adjacency.toOutput.size >= MAX_PAIRS_PER_LIST) adjacency.toOutput.delete(adjacency.toOutput.keys().next().value!)
  adjacency.toOutput.set(key, toOutput)
  return toOutput
}
