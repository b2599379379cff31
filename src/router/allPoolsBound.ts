import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type AllPoolsScope, allPoolsScope } from './allPoolsScope.js'
import { type Curve, type RatePoint, getCurve } from './curves.js'
import { solveFlow } from './splitSolver.js'
import { type Edge, type Hop, type RouteGraph, SINK, SOURCE } from './types.js'

/**
 * Relative slack on every bound the router reports: the curve models are the
 * pools' ideal (unrounded) curves, at or above their exact outputs, up to float
 * rounding (≲1e-12 relative, measured on random V3 pools); the slack makes the
 * reported figure a true upper bound (≈1e-5 bp, far below any gap worth reporting).
 */
export const BOUND_SLACK = 1e-9

/** Bisection steps of one token's price (to ~1e-7 in log-price from its bracket: any price gives a valid bound). */
const PRICE_STEPS = 24
/** How far (in log-price) a token's price may move from where it starts. */
const PRICE_RANGE = 60
/** Relative margin on a curve's zero-size rate before the descent stops looking at it (far above float rounding). */
const NARROW_MARGIN = 1e-9
/** Newton evaluations that bracket a token's price before its bisection (it then asks the pools only inside the bracket). */
const SEED_STEPS = 16
/** The log-price bracket the Newton steps aim for: well inside the bisection's last step (2^-23). */
const SEED_WIDTH = 1e-9
/** Rounds of coordinate descent over the token prices. */
const ROUNDS = 2

/** A pool direction in a dual relaxation: token indices (prices) and its curve. */
export type BoundEdge = { from: number; to: number; curve: Curve }

/** The all-pools figure: the bound, the pools it covers, the prices it ended at, and the tokens it trades through (the most value first). */
export type AllPoolsBound = {
  bound: number
  pools: number
  prices: Map<Address, number>
  trading: Address[]
  /** The plain relaxation's figure alone (no hop layers): what compares like with like to a candidate graph's own relaxation. */
  relaxedBound?: number
  /**
   * The pool directions the layered relaxation trades at its prices (once per layer), each with its
   * surplus there (its output's value less its input's, raw output units): what a graph without
   * them may miss.
   */
  tradingHops?: { hop: Hop; surplus: number }[]
}

/** Scopes of at most this many tokens get a Newton solve before the descent (its dense step grows as tokens²). */
const NEWTON_TOKENS = 64

/**
 * An upper bound on the gas-free output of ANY route of at most `maxHops`
 * through every pool the source gave (any split, any token as an
 * intermediate): the dual of the convex routing problem over every pool
 * direction a ≤ maxHops path can use (a token counts when its fewest hops
 * from the input plus to the output fit), at token prices started from
 * `prices` (raw output units per raw unit; the route graph's solution, the
 * rest from the pools' mid prices) and lowered token by token (each price
 * where what its pools bring in balances what they take out). Any positive
 * prices give a valid bound (weak duality); BOUND_SLACK covers float rounding.
 * Compared with the candidate bound it shows what restricting the candidate
 * tokens may cost. Also returns the pools it covers, the prices it ended at
 * and the tokens the relaxation trades through (candidates worth adding).
 *
 * @example
 * const { bound, pools: covered } = allPoolsBound(pools, weth, usdc, 1e18, 4, new Map([[usdc, 1], [weth, 3e-9]]))
 */
export function allPoolsBound(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  amountIn: number,
  maxHops: number,
  prices: ReadonlyMap<Address, number>,
): AllPoolsBound {
  // The tokens in scope, their hop distances and the pool directions between them: the same for
  // every quote on this pool list and pair (cached by allPoolsScope).
  const scope = allPoolsScope(pools, tokenIn, tokenOut, maxHops)
  if (!scope) return { bound: 0, pools: 0, prices: new Map(), trading: [], relaxedBound: 0 }
  const { fromIn, toOut, tokens } = scope

  // Mid-price values for tokens the caller did not price: outwards from the output token.
  const nu = new Float64Array(tokens.length)
  nu[SINK] = 1
  tokens.forEach((t, i) => {
    const p = prices.get(t)
    if (i !== SINK && p !== undefined && p > 0 && Number.isFinite(p)) nu[i] = p
  })
  const known = scopeCacheOf(scope)
  const edges = scopeEdges(scope, amountIn, nu)
  // The scope's own edges (every curve a model) are kept with it; a list built for this amount is
  // not, and keyed by it, the caches below would take an entry per quote (see touchingEdges).
  const lasting = known.edges === edges
  for (let round = 0; round <= maxHops + 1; round++) {
    let changed = false
    for (let d = 0; d < scope.directions.length; d++) {
      const { pool, tokenIn: a, tokenOut: b, from: i, to: j } = scope.directions[d]!
      if (nu[i]! > 0 || !(nu[j]! > 0)) continue
      let mid = known.mids[d]!
      if (Number.isNaN(mid)) known.mids[d] = mid = pool.spotPrice(a, b)
      if (Number.isFinite(mid) && mid > 0) {
        nu[i] = mid * nu[j]!
        changed = true
      }
    }
    if (!changed) break
  }
  for (let i = 0; i < tokens.length; i++) if (!(nu[i]! > 0)) nu[i] = 1

  // A small scope gets Newton on the relaxation first (as the candidates do), then the descent
  // from its prices; the lower of the two duals (both valid bounds).
  let dual = Infinity
  if (tokens.length <= NEWTON_TOKENS) {
    const relaxation: RouteGraph = { tokens: [...tokens], edges, tokenPaths: [], pools: [], spot: [...nu], maxHops }
    const flow = solveFlow(relaxation, edges.map(() => true), amountIn, Float64Array.from(nu))
    if (Number.isFinite(flow.dual) && flow.prices.every((p) => p > 0 && Number.isFinite(p))) {
      dual = flow.dual
      nu.set(flow.prices)
    }
  }
  const descended = descendDual(edges, tokens.length, amountIn, nu, ROUNDS, lasting)
  if (descended < dual) dual = descended
  // The relaxation above lets flow chain any number of its pools; the layered one honours the hop
  // limit. Both are valid bounds on routes of at most maxHops: the lower is reported.
  const relaxed = dual
  const tradingHops: { hop: Hop; surplus: number }[] = []
  const layered = layeredDual(edges, tokens, fromIn, toOut, maxHops, amountIn, nu, lasting, (hop, surplus) => tradingHops.push({ hop, surplus }))
  if (layered.dual < dual) dual = layered.dual
  // The tokens the relaxations trade through, by the value they send through them: the layered
  // one's first (its trades fit the hop limit, so its tokens are the ones a route can use), then
  // the plain one's at its prices.
  const traded = new Float64Array(tokens.length)
  tradedValue(edges, nu, (e) => edges[e]!.from, (e) => edges[e]!.to, traded)
  const ranked = (values: Float64Array) =>
    tokens
      .map((t, i) => ({ t, value: i === SINK || i === SOURCE ? 0 : values[i]! }))
      .filter((x) => x.value > 0)
      .sort((a, b) => b.value - a.value || (a.t < b.t ? -1 : 1))
      .map((x) => x.t)
  const tighterFirst = layered.dual < relaxed ? [layered.traded, traded] : [traded, layered.traded]
  const trading = [...new Set(tighterFirst.flatMap(ranked))]
  return { bound: dual * (1 + BOUND_SLACK), pools: scope.pools, prices: new Map(tokens.map((t, i) => [t, nu[i]!])), trading, relaxedBound: relaxed * (1 + BOUND_SLACK), tradingHops }
}

/**
 * The routable pool directions of an all-pools scope as edges (token indices
 * into `scope.tokens`), each with its curve: the family's model, or a curve
 * sampled around the trade's size in that token (`amountIn` valued at the
 * prices `nu` by scope index, 0 where unknown). The same list for every call
 * on a scope whose curves are all models (kept with the scope); read it,
 * never change it.
 *
 * @example
 * const edges = scopeEdges(allPoolsScope(pools, weth, usdc, 4)!, 1e18, prices)
 */
export function scopeEdges(scope: AllPoolsScope, amountIn: number, nu: Float64Array): Edge[] {
  const known = scopeCacheOf(scope)
  if (known.edges) return known.edges
  const built: Edge[] = []
  let modelled = true
  const scaleIn = amountIn * (nu[SOURCE]! > 0 ? nu[SOURCE]! : 1)
  scope.directions.forEach(({ pool, tokenIn: a, tokenOut: b, from: i, to: j, routable }, d) => {
    if (!routable) return
    const curve = known.curves[d] ?? getCurve(pool, a, b, nu[i]! > 0 ? scaleIn / nu[i]! : amountIn)
    if (curve.sampled) modelled = false
    else known.curves[d] = curve
    built.push({ from: i, to: j, hop: { pool, tokenIn: a, tokenOut: b }, curve })
  })
  // Every curve a model (none sampled around this amount): the same edges serve every amount.
  if (modelled) known.edges = built
  return built
}

/**
 * What the bound computes from a scope's pool states alone, kept with the scope (so per pool list
 * and pair): each direction's model curve, its mid price (NaN until asked), and the edges when
 * every routable direction has a model (sampled curves depend on the amount).
 */
type ScopeCache = { curves: (Curve | undefined)[]; mids: Float64Array; edges: Edge[] | undefined }

const scopeCaches = new WeakMap<AllPoolsScope, ScopeCache>()

function scopeCacheOf(scope: AllPoolsScope): ScopeCache {
  let known = scopeCaches.get(scope)
  if (!known) {
    known = { curves: new Array(scope.directions.length), mids: new Float64Array(scope.directions.length).fill(Number.NaN), edges: undefined }
    scopeCaches.set(scope, known)
  }
  return known
}

/**
 * Each token's edges (in edge order), by edge list: the bound's kept edges (and their layered copy)
 * are descended on once per quote. A list grown or shrunk since is indexed afresh; callers never
 * change a list's edges in place. Only lists that last (`lasting`) are kept: a list made for one
 * quote (the certificate's, a scope's sampled edges) never comes back, and its entry, held by the
 * map until a GC finds the list dead, was most of what each scavenge promoted (76 of 76 kB at
 * 10 pools; 11 kB without these entries).
 */
const touchingCache = new WeakMap<readonly BoundEdge[], { edgeCount: number; touching: Int32Array[] }>()

function touchingEdges(edges: readonly BoundEdge[], tokenCount: number, lasting: boolean): Int32Array[] {
  const known = lasting ? touchingCache.get(edges) : undefined
  if (known && known.touching.length === tokenCount && known.edgeCount === edges.length) return known.touching
  const lists: number[][] = Array.from({ length: tokenCount }, () => [])
  edges.forEach((edge, e) => {
    lists[edge.from]!.push(e)
    lists[edge.to]!.push(e)
  })
  const touching = lists.map((list) => Int32Array.from(list))
  if (lasting) touchingCache.set(edges, { edgeCount: edges.length, touching })
  return touching
}

/**
 * Lowers the dual of the convex routing problem over `edges` by coordinate
 * descent on the token prices `nu` (index 0 the output token, fixed at its
 * price; index 1 the input token, which brings `amountIn`): each price in turn
 * moves to where what its pools bring in balances what they take out (the
 * dual's slope in it), by bisection in log-price, `rounds` times. Updates `nu`
 * in place and returns the dual value there, a valid upper bound on the
 * output for any positive prices (weak duality; add BOUND_SLACK for float
 * rounding). Used on its own for the all-pools bound, and after the Newton
 * solve for the candidate bound (a token whose pools only take, never give,
 * is priced down to where none of them trades).
 *
 * @example
 * const dual = descendDual([{ from: 1, to: 0, curve }], 2, 1e18, Float64Array.of(1, 3e-9), 2)
 */
export function descendDual(edges: readonly BoundEdge[], tokenCount: number, amountIn: number, nu: Float64Array, rounds: number, lasting = false): number {
  const touching = touchingEdges(edges, tokenCount, lasting)
  let widest = 0
  for (const list of touching) widest = Math.max(widest, list.length)
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  const turn = new TokenDescent(edges, nu, amountIn, new Int32Array(widest), point)
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < tokenCount; k++) {
      if (k === SINK || touching[k]!.length === 0) continue
      const around = touching[k]!
      turn.start(k, around)
      const start = Math.log(nu[k]!)
      // Newton steps on the balance in log-price (each just past the root it predicts, a secant or
      // a halving when Newton cannot tell) to bracket the root within SEED_WIDTH: the bisection
      // below then finds nearly all its answers known (a handful of evaluations instead of
      // PRICE_STEPS + 2) and ends at the same price as asking the pools at every step.
      let x = start
      let value = turn.evaluate(x)
      for (let step = 0, previous = Infinity, halve = false; step < SEED_STEPS && !(turn.above0 - turn.atMost0 <= SEED_WIDTH); step++) {
        const lowest = Math.max(turn.atMost0, start - PRICE_RANGE)
        const highest = Math.min(turn.above0, start + PRICE_RANGE)
        const closed = turn.atMost0 > -Infinity && turn.above0 < Infinity
        // Once the root is bracketed, a step that did not halve the bracket is followed by a
        // bisection (the bracket at least halves every two steps).
        if (closed && turn.above0 - turn.atMost0 > previous / 2) halve = true
        if (closed) previous = turn.above0 - turn.atMost0
        let next = Number.NaN
        if (!halve && value === 0 && turn.slope === 0 && k !== SOURCE) {
          // Nothing trades here: the balance stays 0 up to the lowest price above at which a
          // pool starts selling the token in, and turns positive past it. Bracket that price.
          const from = Math.exp(x)
          let opens = Infinity
          for (const e of around) {
            const edge = edges[e]!
            if (edge.to !== k || !(edge.curve.rate0 > 0)) continue
            const price = nu[edge.from]! / edge.curve.rate0
            if (price > from && price < opens) opens = price
          }
          const at = Math.log(opens)
          if (!(at < start + 1)) {
            // None opens below the bisection's reach: the balance is ≤ 0 up to it.
            if (start + 1 > turn.atMost0 && start + 1 < turn.above0) turn.evaluate(start + 1)
            break
          }
          if (at - SEED_WIDTH / 4 > lowest && at - SEED_WIDTH / 4 < highest) turn.evaluate(at - SEED_WIDTH / 4)
          next = at + SEED_WIDTH / 4
        }
        if (!halve && turn.slope > 0) next = x - value / turn.slope + (value > 0 ? -SEED_WIDTH / 4 : SEED_WIDTH / 4)
        if (!halve && !(next > lowest && next < highest) && closed)
          // The secant between the bracket's ends, just past the root it predicts.
          next = turn.atMost0 - (turn.lowValue * (turn.above0 - turn.atMost0)) / (turn.highValue - turn.lowValue) + (SEED_WIDTH / 4) * (turn.lowValue + turn.highValue > 0 ? -1 : 1)
        if (!(next > lowest && next < highest)) {
          if (Number.isFinite(highest - lowest) && closed) next = (lowest + highest) / 2
          else if (value > 0) next = Math.max(x - 1, lowest === turn.atMost0 ? (x + lowest) / 2 : start - PRICE_RANGE)
          else next = Math.min(x + 1, highest === turn.above0 ? (x + highest) / 2 : start + PRICE_RANGE)
        }
        halve = false
        if (next === x) break
        x = next
        value = turn.evaluate(x)
      }
      // The bisection: the dual's slope in ν_k is the balance, increasing in ν_k: find where it
      // crosses 0, bracketed within a factor e^±PRICE_RANGE of where it starts (past that no pool
      // of it trades).
      let lo = start - 1
      let hi = start + 1
      for (let width = 2; lo > start - PRICE_RANGE && turn.positive(lo); width *= 2) lo = Math.max(start - PRICE_RANGE, start - width)
      for (let width = 2; hi < start + PRICE_RANGE && turn.negative(hi); width *= 2) hi = Math.min(start + PRICE_RANGE, start + width)
      for (let i = 0; i < PRICE_STEPS; i++) {
        const middle = (lo + hi) / 2
        if (turn.positive(middle)) hi = middle
        else lo = middle
      }
      nu[k] = Math.exp(hi)
    }
  let dual = nu[SOURCE]! * amountIn
  for (const edge of edges) {
    const a = nu[edge.from]!
    const b = nu[edge.to]!
    edge.curve.atRate(a / b, point)
    if (point.input > 0) dual += b * point.output - a * point.input
  }
  return dual
}

/**
 * One token's turn in descendDual: its edges, the live ones among them, and what is known of its
 * balance in log-price x: ≤ 0 up to `atMost0`, < 0 up to `below0`, > 0 from `above0`, ≥ 0 from
 * `atLeast0`. The exact balance rises with the price (every curve's input falls as its rate
 * rises), and so does its float value: every term is monotone and float sums are monotone in each
 * term. So a sign known at one x holds beyond it, and the bisection asks the pools only where
 * nothing known decides. A class, not closures over descendDual's variables: a float a closure
 * assigns to a shared variable is boxed afresh on every assignment, a field is written in place.
 */
class TokenDescent {
  /** The token being priced and its edges. */
  k = SOURCE
  around: Int32Array = new Int32Array(0)
  /** The token's edges that may trade while its log-price stays in [liveLow, liveHigh] (the others give nothing there). */
  liveCount = 0
  liveLow = -Infinity
  liveHigh = Infinity
  /** The balance's slope in log-price at the last evaluation (a Newton step's denominator). */
  slope = 0
  atMost0 = -Infinity
  below0 = -Infinity
  above0 = Infinity
  atLeast0 = Infinity
  /** The balance at atMost0 and at above0 (a secant's ends). */
  lowValue = 0
  highValue = 0

  constructor(
    readonly edges: readonly BoundEdge[],
    readonly nu: Float64Array,
    readonly amountIn: number,
    readonly live: Int32Array,
    readonly point: RatePoint,
  ) {}

  /** Starts token `k`'s turn: every edge live, nothing known. */
  start(k: number, around: Int32Array): void {
    this.k = k
    this.around = around
    for (let i = 0; i < around.length; i++) this.live[i] = around[i]!
    this.liveCount = around.length
    this.liveLow = -Infinity
    this.liveHigh = Infinity
    this.atMost0 = -Infinity
    this.below0 = -Infinity
    this.above0 = Infinity
    this.atLeast0 = Infinity
    this.lowValue = 0
    this.highValue = 0
  }

  /**
   * What the token's edges in `list` bring in less what they take out at price `price` (plus the
   * trade's input for the input token); `slope` set to its derivative in log-price.
   */
  balance(price: number, list: Int32Array, count: number): number {
    const { edges, nu, point, k } = this
    let net = k === SOURCE ? this.amountIn : 0
    let slope = 0
    for (let i = 0; i < count; i++) {
      const edge = edges[list[i]!]!
      const a = edge.from === k ? price : nu[edge.from]!
      const b = edge.to === k ? price : nu[edge.to]!
      const rate = a / b
      edge.curve.atRate(rate, point)
      if (!(point.input > 0)) continue
      // d input / d rate is point.slope (≤ 0); the rate moves with the price as it (buying) or against it (selling).
      if (edge.to === k) {
        net += point.output
        slope -= rate * rate * point.slope
      }
      if (edge.from === k) {
        net -= point.input
        slope -= rate * point.slope
      }
    }
    this.slope = slope
    return net
  }

  /**
   * Keeps (in order, so every sum adds the same terms in the same order) the live edges that may
   * trade at some log-price in [low, high]: a curve trades only below its zero-size rate, and the
   * rate rises with the price of what it sells and falls with the price of what it buys.
   * NARROW_MARGIN keeps any edge float rounding could still let trade.
   */
  narrow(low: number, high: number): void {
    const { edges, nu, live, k } = this
    const lowPrice = Math.exp(low)
    const highPrice = Math.exp(high)
    let kept = 0
    for (let i = 0; i < this.liveCount; i++) {
      const edge = edges[live[i]!]!
      const rate0 = edge.curve.rate0
      const idle = edge.from === k ? lowPrice >= rate0 * nu[edge.to]! * (1 + NARROW_MARGIN) : nu[edge.from]! >= highPrice * rate0 * (1 + NARROW_MARGIN)
      if (!idle) live[kept++] = live[i]!
    }
    this.liveCount = kept
    this.liveLow = low
    this.liveHigh = high
  }

  /** Records the balance `value` at log-price `x`, and narrows the live edges to the bracket the root is known to lie in. */
  record(x: number, value: number): void {
    if (value <= 0 && x > this.atMost0) {
      this.atMost0 = x
      this.lowValue = value
    }
    if (value < 0 && x > this.below0) this.below0 = x
    if (value > 0 && x < this.above0) {
      this.above0 = x
      this.highValue = value
    }
    if (value >= 0 && x < this.atLeast0) this.atLeast0 = x
    if (this.atMost0 > this.liveLow || this.above0 < this.liveHigh) this.narrow(this.atMost0, this.above0)
  }

  /** The balance at log-price `x` (over the live edges inside their range), recorded. */
  evaluate(x: number): number {
    const inside = x >= this.liveLow && x <= this.liveHigh
    const value = inside ? this.balance(Math.exp(x), this.live, this.liveCount) : this.balance(Math.exp(x), this.around, this.around.length)
    this.record(x, value)
    return value
  }

  /** Whether the balance at `x` is positive (asking the pools only when nothing known decides). */
  positive(x: number): boolean {
    return x >= this.above0 ? true : x <= this.atMost0 ? false : this.evaluate(x) > 0
  }

  /** Whether the balance at `x` is negative (asking the pools only when nothing known decides). */
  negative(x: number): boolean {
    return x <= this.below0 ? true : x >= this.atLeast0 ? false : this.evaluate(x) < 0
  }
}

/** Layered scopes of at most this many (token, hop) nodes get a Newton solve before the descent. */
const LAYERED_NEWTON_NODES = 96
/** Rounds of coordinate descent on the layered relaxation (its chains are longer: a price moves its neighbours' optimum). */
const LAYERED_ROUNDS = 3

/**
 * The dual of the routing problem over `edges` with the hop limit built in:
 * a node per token and hop count k (the token reached after k hops; it exists
 * for fromIn(t) ≤ k ≤ maxHops − toOut(t)), every pool direction a→b copied
 * from (a, k) to (b, k + 1), the output token one node at any hop count, the
 * input only at 0. A route of at most maxHops hops is a flow on this graph
 * with each hop on its own layer; a pool traded on several layers gives each
 * at most what its curve gives that layer's input alone (f(x)/x falls as x
 * grows), so every copy keeping the pool's whole curve is a relaxation, and
 * any positive node prices bound the output (weak duality). Prices start at
 * the tokens' own (`nu`, the same on every layer) and are lowered by Newton
 * (small scopes) and coordinate descent. Returns the dual value (Infinity
 * when nothing can be said; add BOUND_SLACK for float rounding), and the value
 * each token trades through its nodes at the prices reached; `onTrade` (optional) sees each pool
 * direction a layer trades there, with its surplus.
 */
function layeredDual(
  edges: readonly Edge[],
  tokens: readonly Address[],
  fromIn: ReadonlyMap<Address, number>,
  toOut: ReadonlyMap<Address, number>,
  maxHops: number,
  amountIn: number,
  nu: Float64Array,
  lasting: boolean,
  onTrade?: (hop: Hop, surplus: number) => void,
): { dual: number; traded: Float64Array } {
  const { nodes, tokenOfNode, layered } = layerEdges(edges, tokens, fromIn, toOut, maxHops, lasting)
  if (layered.length === 0) return { dual: Infinity, traded: new Float64Array(tokens.length) }
  const prices = Float64Array.from(tokenOfNode, (t) => nu[t]!)
  let dual = Infinity
  if (nodes.length <= LAYERED_NEWTON_NODES) {
    const relaxation: RouteGraph = { tokens: nodes, edges: layered, tokenPaths: [], pools: [], spot: [...prices], maxHops }
    const flow = solveFlow(relaxation, layered.map(() => true), amountIn, Float64Array.from(prices))
    if (Number.isFinite(flow.dual) && flow.prices.every((p) => p > 0 && Number.isFinite(p))) {
      dual = flow.dual
      prices.set(flow.prices)
    }
  }
  const descended = descendDual(layered, nodes.length, amountIn, prices, LAYERED_ROUNDS, lasting)
  // What each token's nodes trade at the prices reached (the layered flow's tokens).
  const traded = new Float64Array(tokens.length)
  tradedValue(layered, prices, (e) => tokenOfNode[layered[e]!.from]!, (e) => tokenOfNode[layered[e]!.to]!, traded, (e, point) => {
    const edge = layered[e]!
    onTrade?.(edge.hop, prices[edge.to]! * point.output - prices[edge.from]! * point.input)
  })
  return { dual: Number.isFinite(descended) && descended > 0 && descended < dual ? descended : dual, traded }
}

/** A layered copy of an edge list: its nodes (token, hop count), each node's token, and the copies. */
type Layers = { nodes: Address[]; tokenOfNode: number[]; layered: Edge[] }

/** Layered copies by edge list (the bound's edges are kept per scope when every curve is a model; only those are kept here). */
const layerCache = new WeakMap<readonly Edge[], Layers>()

/**
 * The edges copied layer by layer (see layeredDual): a node per token and hop count, every edge
 * from (a, k) to (b, k + 1) where a path of at most maxHops fits. It depends on the edge list and
 * the scope's hop distances alone, so it is built once per edge list (and must not be changed).
 */
function layerEdges(edges: readonly Edge[], tokens: readonly Address[], fromIn: ReadonlyMap<Address, number>, toOut: ReadonlyMap<Address, number>, maxHops: number, lasting: boolean): Layers {
  const known = lasting ? layerCache.get(edges) : undefined
  if (known) return known
  const nodes: Address[] = [tokens[SINK]!, tokens[SOURCE]!]
  const tokenOfNode: number[] = [SINK, SOURCE]
  const nodeIndex = new Map<string, number>()
  const node = (token: number, hops: number): number => {
    if (token === SINK) return SINK
    if (token === SOURCE) return SOURCE
    const key = `${token}@${hops}`
    let i = nodeIndex.get(key)
    if (i === undefined) {
      i = nodes.push(tokens[token]!) - 1
      tokenOfNode.push(token)
      nodeIndex.set(key, i)
    }
    return i
  }
  const layered: Edge[] = []
  for (const edge of edges) {
    const first = edge.from === SOURCE ? 0 : fromIn.get(tokens[edge.from]!)!
    const last = edge.from === SOURCE ? 0 : maxHops - 1 - toOut.get(tokens[edge.to]!)!
    for (let k = first; k <= last; k++) layered.push({ ...edge, from: node(edge.from, k), to: node(edge.to, k + 1) })
  }
  const built: Layers = { nodes, tokenOfNode, layered }
  if (lasting) layerCache.set(edges, built)
  return built
}

/**
 * Adds to `traded` (by token) the value each edge trades at prices `nu`
 * (its input at its tokens' price, and its output), the edges' tokens
 * given by `fromToken` and `toToken`; `onTrade` (optional) sees each edge that trades and its point.
 */
function tradedValue(
  edges: readonly BoundEdge[],
  nu: Float64Array,
  fromToken: (e: number) => number,
  toToken: (e: number) => number,
  traded: Float64Array,
  onTrade?: (e: number, point: RatePoint) => void,
): void {
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  edges.forEach((edge, e) => {
    edge.curve.atRate(nu[edge.from]! / nu[edge.to]!, point)
    if (!(point.input > 0)) return
    onTrade?.(e, point)
    traded[fromToken(e)] = traded[fromToken(e)]! + nu[edge.from]! * point.input
    traded[toToken(e)] = traded[toToken(e)]! + nu[edge.to]! * point.output
  })
}
