import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type Curve, type RatePoint, getCurve } from './curves.js'
import { solveFlow } from './splitSolver.js'
import type { Hop } from './types.js'

/** Index of the output token in a route graph's tokens (the flow's sink; its price is 1). */
export const SINK = 0
/** Index of the input token in a route graph's tokens (the flow's source). */
export const SOURCE = 1
/** Longest path, in hops, when the caller does not say. */
export const DEFAULT_MAX_HOPS = 4

/** One pool traded in one direction, between two of the graph's tokens. */
export type Edge = {
  /** Token indices (SINK is the output token, SOURCE the input token). */
  from: number
  to: number
  hop: Hop
  curve: Curve
}

/**
 * What the split optimiser works on: the tokens a route may pass through, the
 * pool directions between them, and every token path they form.
 */
export type RouteGraph = {
  /** Index 0: the output token; 1: the input token; then intermediates. */
  tokens: Address[]
  edges: Edge[]
  /** Token-index sequences from the input to the output token, at most `maxHops` long. */
  tokenPaths: number[][]
  /** Pools considered, in the order given (the certificate's relaxation covers them in both directions). */
  pools: Pool[]
  /** Zero-size value of each token in raw output units (products of fee-free mid prices). */
  spot: number[]
  /** Longest path, in hops: every path of a route over the graph keeps to it. */
  maxHops: number
}

/**
 * A token beyond the connectors is screened when its paths' thinnest hop has this share in depth of
 * the trade's value, or of the ends' deepest pairs when those are thinner.
 */
const DEEP_SHARE = 1e-5
/** A pool whose 1%-impact depth is below this share of the trade's value cannot move the optimum (≪ 0.01 bp). */
const NEGLIGIBLE_SHARE = 1e-7
/** Tokens beyond the connectors screened by depth, the deepest first, for the dual prices to rank. */
const MAX_SCREENED = 24
/** Intermediates beyond the connectors a graph takes (each adds a price to the solve). */
const MAX_EXTRA_TOKENS = 8
/** An intermediate must promise at least this share of the trade's value (0.001 bp). */
const MIN_GAIN_SHARE = 1e-7
/** Pairs of tokens beyond the connectors whose gain is measured together. */
const MAX_PAIR_TRIALS = 8
/** Coordinate rounds of a pair's gain. */
const GAIN_ROUNDS = 3
/** Solver iterations for the base graph's prices that rank the intermediates. */
const RANKING_ITERATIONS = 30

/** The pools by token and the token they trade it with (the inner keys: a token's neighbours), and curves by pool direction. */
type Market = {
  pairs: ReadonlyMap<Address, ReadonlyMap<Address, readonly Pool[]>>
  /** The curve of a pool direction (cached; `exact`: sampled again when sampled around another input). */
  curveOf: (pool: Pool, a: Address, b: Address, scale: number, exact?: boolean) => Curve
}

/** What a route graph is built for. */
type Trade = { pools: readonly Pool[]; tokenIn: Address; tokenOut: Address; maxHops: number; size: number | { amountOut: number } }

/**
 * Builds the route graph for a trade of `size` (raw input units, or an exact
 * output in raw output units): token paths up to `maxHops` through the
 * connectors and through tokens beyond them with deep pools toward both ends.
 * Those are screened by depth (the thinnest hop of their best path), then
 * ranked by what they add at the gas-free optimum over the connectors: the
 * rise in the dual bound their pools bring at its prices (their own price
 * optimised), the best few kept. Pools too shallow to matter for this size
 * are left out of the optimisation (the certificate still covers them).
 *
 * @example
 * const graph = buildRouteGraph({ pools, tokenIn: weth, tokenOut: usdc, connectors, maxHops: 3 }, 1e18)
 * const forOutput = buildRouteGraph({ pools, tokenIn: weth, tokenOut: usdc, connectors, maxHops: 3 }, { amountOut: 3e9 })
 */
export function buildRouteGraph(
  parameters: { pools: readonly Pool[]; tokenIn: Address; tokenOut: Address; connectors: readonly Address[]; maxHops: number },
  size: number | { amountOut: number },
): RouteGraph {
  const { pools, tokenIn, tokenOut, maxHops } = parameters
  const pairs = new Map<Address, Map<Address, Pool[]>>()
  for (const pool of pools) {
    const tokens = pool.tokens
    for (let i = 0; i < tokens.length; i++) {
      let row = pairs.get(tokens[i]!)
      if (!row) pairs.set(tokens[i]!, (row = new Map()))
      for (let j = 0; j < tokens.length; j++) {
        if (i === j) continue
        let list = row.get(tokens[j]!)
        if (!list) row.set(tokens[j]!, (list = []))
        list.push(pool)
      }
    }
  }
  const curveCache = new Map<string, Curve>()
  // Sampled curves built around the graph's own expected input (not a screening guess).
  const resampled = new Set<string>()
  const market: Market = {
    pairs,
    curveOf: (pool, a, b, scale, exact = false) => {
      const key = `${pool.key}:${a}>${b}`
      let curve = curveCache.get(key)
      if (!curve || (exact && curve.sampled && !resampled.has(key))) {
        curveCache.set(key, (curve = getCurve(pool, a, b, scale)))
        if (exact) resampled.add(key)
      }
      return curve
    },
  }
  const trade: Trade = { pools, tokenIn, tokenOut, maxHops, size }
  const connectors = [...new Set(parameters.connectors.filter((c) => c !== tokenIn && c !== tokenOut))]
  const base = assembleGraph(market, trade, connectors)
  if (maxHops < 2) return base.graph
  const screened = screenIntermediates(market, trade, new Set(connectors))
  if (screened.tokens.length === 0) return base.graph
  if (base.graph.edges.length === 0) {
    const extras = screened.tokens.slice(0, MAX_EXTRA_TOKENS)
    return extras.length > 0 ? assembleGraph(market, trade, [...connectors, ...extras]).graph : base.graph
  }
  const extras = chooseByGain(market, base, screened, connectors, maxHops)
  return extras.length > 0 ? assembleGraph(market, trade, [...connectors, ...extras]).graph : base.graph
}

/** A graph with the input and the trade's value it was built for. */
type Assembled = { graph: RouteGraph; amountIn: number; tradeValue: number }

/** The graph of every token path up to `maxHops` whose intermediates are among `connectors` (in their order). */
function assembleGraph(market: Market, trade: Trade, connectors: readonly Address[]): Assembled {
  const { pairs, curveOf } = market
  const { pools, tokenIn, tokenOut, maxHops, size } = trade
  const addressPaths: Address[][] = []
  const walk = (path: Address[]) => {
    const last = path[path.length - 1]!
    const next = pairs.get(last)
    if (!next) return
    if (next.has(tokenOut)) addressPaths.push([...path, tokenOut])
    if (path.length >= maxHops) return
    for (const c of connectors) if (next.has(c) && !path.includes(c)) walk([...path, c])
  }
  walk([tokenIn])

  // Zero-size token values from the pools' mid prices, best chain to the output token.
  const value = new Map<Address, number>([[tokenOut, 1]])
  const spotOf = (a: Address, b: Address) => {
    let best = 0
    for (const pool of poolsOf(pairs, a, b)) {
      const s = pool.spotPrice(a, b)
      if (Number.isFinite(s) && s > best) best = s
    }
    return best
  }
  for (let round = 0; round < maxHops + 1; round++)
    for (const path of addressPaths)
      for (let k = path.length - 2; k >= 0; k--) {
        const b = value.get(path[k + 1]!)
        if (b === undefined) continue
        const v = spotOf(path[k]!, path[k + 1]!) * b
        if (v > (value.get(path[k]!) ?? 0)) value.set(path[k]!, v)
      }
  const inValue = value.get(tokenIn) ?? 0
  // An exact-output size is turned into input at the best zero-size rate.
  const amountIn = typeof size === 'number' ? size : inValue > 0 ? size.amountOut / inValue : size.amountOut
  const tradeValue = amountIn * inValue

  // Curves for every pair a path uses; shallow pools dropped.
  const curves = new Map<string, { pool: Pool; curve: Curve }[]>()
  const pairEdges = (a: Address, b: Address) => {
    const key = `${a}>${b}`
    let list = curves.get(key)
    if (list) return list
    list = []
    const va = value.get(a) ?? 0
    const scale = va > 0 && inValue > 0 ? (amountIn * inValue) / va : amountIn
    for (const pool of poolsOf(pairs, a, b)) {
      const curve = curveOf(pool, a, b, scale, true)
      if (!(curve.rate0 > 0)) continue
      if (va > 0 && tradeValue > 0 && depth(curve) * va < NEGLIGIBLE_SHARE * tradeValue) continue
      list.push({ pool, curve })
    }
    curves.set(key, list)
    return list
  }
  const kept = addressPaths.filter((path) => {
    for (let k = 0; k + 1 < path.length; k++) if (pairEdges(path[k]!, path[k + 1]!).length === 0) return false
    return true
  })

  const tokens: Address[] = [tokenOut, tokenIn]
  const indexOf = new Map<Address, number>([
    [tokenOut, 0],
    [tokenIn, 1],
  ])
  const tokenPaths: number[][] = []
  const edges: Edge[] = []
  const seenPairs = new Set<string>()
  for (const path of kept) {
    const indices = path.map((token) => {
      let i = indexOf.get(token)
      if (i === undefined) {
        i = tokens.length
        tokens.push(token)
        indexOf.set(token, i)
      }
      return i
    })
    tokenPaths.push(indices)
    for (let k = 0; k + 1 < path.length; k++) {
      const key = `${path[k]}>${path[k + 1]}`
      if (seenPairs.has(key)) continue
      seenPairs.add(key)
      for (const { pool, curve } of pairEdges(path[k]!, path[k + 1]!))
        edges.push({ from: indices[k]!, to: indices[k + 1]!, hop: { pool, tokenIn: path[k]!, tokenOut: path[k + 1]! }, curve })
    }
  }
  const tokenSet = new Set(tokens)
  const graphPools = pools.filter((pool) => pool.tokens.filter((t) => tokenSet.has(t)).length >= 2)
  return { graph: { tokens, edges, tokenPaths, pools: graphPools, spot: tokens.map((t) => value.get(t) ?? 0), maxHops }, amountIn, tradeValue }
}

/**
 * Screened intermediates (the deepest first), pairs of them pooled with each other on a path
 * (input ... x -> y ... output, the deepest first), and the token values the screening found.
 */
type Screened = { tokens: Address[]; pairs: [Address, Address][]; value: Map<Address, number> }

/**
 * Tokens beyond the connectors pooled with either end whose best path of at
 * most `maxHops` (through connectors, or one more such token) has its
 * thinnest hop deep enough (each hop's depth summed over its pair's pools, at
 * 1% impact; DEEP_SHARE of the trade's value, or of the ends' deepest pairs
 * when those are thinner): the deepest MAX_SCREENED, half of them among each
 * end's neighbours. Token values come from each token's deepest pool to a
 * token already valued, from the output token outwards.
 */
function screenIntermediates(market: Market, trade: Trade, connectors: ReadonlySet<Address>): Screened {
  const { pairs, curveOf } = market
  const { tokenIn, tokenOut, maxHops, size } = trade
  const value = new Map<Address, number>([[tokenOut, 1]])
  const ends = new Set([tokenIn, tokenOut])
  const candidateSet = new Set<Address>()
  for (const end of ends) for (const t of pairs.get(end)?.keys() ?? []) if (!ends.has(t) && !connectors.has(t)) candidateSet.add(t)
  if (candidateSet.size === 0) return { tokens: [], pairs: [], value }
  const candidates = [...candidateSet].sort()
  const scope = new Set<Address>([tokenOut, tokenIn, ...connectors, ...candidates])

  // A pair's depth in units of its second token (each pool's 1%-impact input at its own mid price),
  // and the mid price of its deepest pool.
  let tradeValue = typeof size === 'number' ? 0 : size.amountOut
  const raw = typeof size === 'number' ? size : size.amountOut
  const pairDepths = new Map<string, { depth: number; price: number }>()
  const pairDepth = (a: Address, b: Address) => {
    const key = `${a}>${b}`
    let found = pairDepths.get(key)
    if (found) return found
    found = { depth: 0, price: 0 }
    let deepest = 0
    const v = value.get(a) ?? 0
    for (const pool of poolsOf(pairs, a, b)) {
      const mid = pool.spotPrice(a, b)
      if (!(mid > 0) || !Number.isFinite(mid)) continue
      const d = roughDepth(pool, a, b, () => curveOf(pool, a, b, tradeValue > 0 && v > 0 ? tradeValue / v : raw)) * mid
      if (!(d > 0)) continue
      found.depth += d
      if (d > deepest) {
        deepest = d
        found.price = mid
      }
    }
    pairDepths.set(key, found)
    return found
  }
  // Values in output units, round by round outwards from the output token.
  const order = [...scope].sort()
  for (let round = 0; round < scope.size; round++) {
    const found: [Address, number][] = []
    for (const token of order) {
      if (value.has(token)) continue
      let deepest = 0
      let tokenValue = 0
      for (const other of pairs.get(token)?.keys() ?? []) {
        const v = value.get(other)
        if (v === undefined || !scope.has(other)) continue
        const { depth: d, price } = pairDepth(token, other)
        if (d * v > deepest) {
          deepest = d * v
          tokenValue = price * v
        }
      }
      if (tokenValue > 0) found.push([token, tokenValue])
    }
    if (found.length === 0) break
    for (const [token, v] of found) value.set(token, v)
    if (typeof size === 'number' && value.has(tokenIn)) tradeValue = size * value.get(tokenIn)!
  }
  if (!(tradeValue > 0)) return { tokens: [], pairs: [], value }

  // A hop's depth in output units.
  const hop = (a: Address, b: Address): number => (pairs.get(a)?.has(b) ? pairDepth(a, b).depth * (value.get(b) ?? 0) : 0)
  // Best thinnest hop from the input to each connector, and from each to the output, within k hops through connectors.
  const majors = [...connectors].sort()
  const fromIn: Map<Address, number>[] = [new Map()]
  const toOut: Map<Address, number>[] = [new Map()]
  for (let k = 1; k < maxHops; k++) {
    const inK = new Map<Address, number>()
    const outK = new Map<Address, number>()
    for (const m of majors) {
      let a = hop(tokenIn, m)
      let b = hop(m, tokenOut)
      if (k > 1)
        for (const n of majors) {
          if (n === m) continue
          a = Math.max(a, fromIn[k - 1]!.get(m)!, Math.min(fromIn[k - 1]!.get(n)!, hop(n, m)))
          b = Math.max(b, toOut[k - 1]!.get(m)!, Math.min(hop(m, n), toOut[k - 1]!.get(n)!))
        }
      inK.set(m, a)
      outK.set(m, b)
    }
    fromIn.push(inK)
    toOut.push(outK)
  }
  // The same from the input to a candidate and from a candidate to the output, computed when asked.
  const reach = new Map<string, number>()
  const reachIn = (x: Address, k: number): number => {
    const key = `${x}<${k}`
    let best = reach.get(key)
    if (best !== undefined) return best
    best = hop(tokenIn, x)
    if (k > 1) for (const m of majors) if (pairs.get(x)!.has(m)) best = Math.max(best, Math.min(fromIn[k - 1]!.get(m)!, hop(m, x)))
    reach.set(key, best)
    return best
  }
  const reachOut = (x: Address, k: number): number => {
    const key = `${x}>${k}`
    let best = reach.get(key)
    if (best !== undefined) return best
    best = hop(x, tokenOut)
    if (k > 1) for (const m of majors) if (pairs.get(x)!.has(m)) best = Math.max(best, Math.min(hop(x, m), toOut[k - 1]!.get(m)!))
    reach.set(key, best)
    return best
  }
  // A path's thinnest hop, the shorter side (one hop: a direct pool) looked at first.
  const thinnest = (x: Address, k: number, y: Address, l: number, middle: () => number): number => {
    const first = k <= l ? reachIn(x, k) : reachOut(y, l)
    if (!(first > 0)) return 0
    const second = k <= l ? reachOut(y, l) : reachIn(x, k)
    if (!(second > 0)) return 0
    return Math.min(first, second, middle())
  }
  const score = new Map<Address, number>()
  const credit = (token: Address, s: number) => {
    if (s > (score.get(token) ?? 0)) score.set(token, s)
  }
  const open = () => Infinity
  for (const x of candidates) for (let k = 1; k < maxHops; k++) for (let l = 1; k + l <= maxHops; l++) credit(x, thinnest(x, k, x, l, open))
  // Two such tokens in a row: input ... x -> y ... output.
  const pairScore = new Map<string, { pair: [Address, Address]; score: number }>()
  for (const x of candidates)
    for (const y of pairs.get(x)!.keys()) {
      if (!candidateSet.has(y)) continue
      for (let k = 1; k + 1 < maxHops; k++)
        for (let l = 1; k + l + 1 <= maxHops; l++) {
          const s = thinnest(x, k, y, l, () => hop(x, y))
          credit(x, s)
          credit(y, s)
          const key = x < y ? `${x}${y}` : `${y}${x}`
          if (s > (pairScore.get(key)?.score ?? 0)) pairScore.set(key, { pair: [x, y], score: s })
        }
    }
  // Deep relative to the trade, or to the ends' deepest pairs when those are thinner (a trade the
  // ends cannot absorb still needs every pool of size to them).
  let deepestIn = 0
  let deepestOut = 0
  for (const t of [...majors, ...candidates]) {
    deepestIn = Math.max(deepestIn, hop(tokenIn, t))
    deepestOut = Math.max(deepestOut, hop(t, tokenOut))
  }
  const threshold = DEEP_SHARE * Math.min(tradeValue, deepestIn, deepestOut)
  const ranked = candidates
    .filter((t) => (score.get(t) ?? 0) >= threshold && (score.get(t) ?? 0) > 0)
    .sort((a, b) => score.get(b)! - score.get(a)! || (a < b ? -1 : 1))
  // Half the places for each end's own neighbours, so a thin end's pools are not crowded out by a
  // deep end's many (a major's neighbours reach everything through the other majors).
  const picked = new Set<Address>()
  for (const end of [tokenOut, tokenIn]) {
    let taken = 0
    for (const t of ranked) {
      if (taken >= MAX_SCREENED / 2) break
      if (!pairs.get(end)?.has(t)) continue
      picked.add(t)
      taken++
    }
  }
  const tokens = ranked.filter((t) => picked.has(t))
  const inPairs = [...pairScore.values()]
    .filter((p) => picked.has(p.pair[0]) && picked.has(p.pair[1]) && p.score >= threshold)
    .sort((a, b) => b.score - a.score || (a.pair.join() < b.pair.join() ? -1 : 1))
    .map((p) => p.pair)
  return { tokens, pairs: inPairs, value }
}

/**
 * Chooses intermediates beyond the connectors by what they add to the
 * gas-free optimum over the base graph: at its dual prices, the rise in the
 * dual bound their pools bring (see `dualGain`), for each screened token on
 * its own and for pairs of tokens pooled with each other that no graph token
 * joins (two in a row, input ... x -> y ... output, or a token reached
 * through a connector the base graph lacks), the most first; then, with the
 * chosen ones priced in, the screened tokens pooled with a chosen one. At
 * most MAX_EXTRA_TOKENS, each promising at least MIN_GAIN_SHARE of the
 * trade's value.
 */
function chooseByGain(market: Market, base: Assembled, screened: Screened, connectors: readonly Address[], maxHops: number): Address[] {
  const { pairs } = market
  const { graph, amountIn, tradeValue } = base
  if (!(tradeValue > 0)) return []
  // Prices for a ranking: a solve cut short still prices what the base graph lacks.
  const flow = solveFlow(graph, graph.edges.map(() => true), amountIn, undefined, RANKING_ITERATIONS)
  const prices = new Map(graph.tokens.map((t, i) => [t, flow.prices[i]!]))
  const least = MIN_GAIN_SHARE * tradeValue
  const options: { tokens: Address[]; gain: number; prices: number[] }[] = []
  for (const x of screened.tokens) {
    const found = dualGain(market, base, prices, [x], screened.value)
    if (found.gain >= least) options.push({ tokens: [x], ...found })
  }
  const absent = connectors.filter((c) => !prices.has(c))
  if (maxHops >= 3) {
    // A connector the graph lacks with a screened token pooled with it, then the screening's pairs.
    const tries: [Address, Address][] = []
    for (const c of absent) for (const y of screened.tokens) if (pairs.get(c)?.has(y)) tries.push([c, y])
    tries.push(...screened.pairs)
    for (const pair of tries.slice(0, MAX_PAIR_TRIALS)) {
      const found = dualGain(market, base, prices, pair, screened.value)
      if (found.gain >= least) options.push({ tokens: pair, ...found })
    }
  }
  options.sort((a, b) => b.gain - a.gain || (a.tokens.join() < b.tokens.join() ? -1 : 1))
  const chosen: Address[] = []
  for (const { tokens, prices: found } of options) {
    const fresh = tokens.filter((t) => !chosen.includes(t) && !absent.includes(t))
    if (fresh.length === 0 || chosen.length + fresh.length > MAX_EXTRA_TOKENS) continue
    chosen.push(...fresh)
    tokens.forEach((t, i) => prices.set(t, found[i]!))
  }
  if (maxHops < 3 || chosen.length >= MAX_EXTRA_TOKENS) return chosen
  // The screened tokens pooled with a chosen one, with the chosen ones priced in.
  const more: { token: Address; gain: number }[] = []
  for (const y of screened.tokens) {
    if (chosen.includes(y) || !chosen.some((x) => pairs.get(y)?.has(x))) continue
    const found = dualGain(market, base, prices, [y], screened.value)
    if (found.gain >= least) more.push({ token: y, gain: found.gain })
  }
  more.sort((a, b) => b.gain - a.gain || (a.token < b.token ? -1 : 1))
  for (const { token } of more.slice(0, MAX_EXTRA_TOKENS - chosen.length)) chosen.push(token)
  return chosen
}

/** A pool direction among the tokens a gain is measured on: prices by index (the free tokens first). */
type GainEdge = { curve: Curve; from: number; to: number }

/**
 * The rise in the dual bound that the pools of `free` tokens (to and from the
 * tokens `prices` knows, and among themselves) bring at those prices, the
 * free tokens' own prices chosen to minimise it (each where what its pools
 * bring in balances what they take out; coordinate by coordinate when there
 * are two). Pools into the output token's side never start from it, nor lead
 * back to the input. Returns the gain (raw output units) and the free prices.
 */
function dualGain(market: Market, base: Assembled, prices: ReadonlyMap<Address, number>, free: readonly Address[], values: ReadonlyMap<Address, number>): { gain: number; prices: number[] } {
  const { pairs, curveOf } = market
  const { graph, amountIn, tradeValue } = base
  const [tokenOut, tokenIn] = [graph.tokens[0]!, graph.tokens[1]!]
  const nu: number[] = free.map(() => 0)
  const index = new Map<Address, number>(free.map((t, i) => [t, i]))
  const scaleOf = (t: Address) => {
    const v = prices.get(t) ?? values.get(t) ?? 0
    return v > 0 ? tradeValue / v : amountIn
  }
  const edges: GainEdge[] = []
  free.forEach((x, i) => {
    for (const t of pairs.get(x)?.keys() ?? []) {
      let j = index.get(t)
      if (j !== undefined) {
        // Between two free tokens: both directions, once.
        if (j > i) for (const pool of poolsOf(pairs, x, t)) edges.push({ curve: curveOf(pool, x, t, scaleOf(x)), from: i, to: j }, { curve: curveOf(pool, t, x, scaleOf(t)), from: j, to: i })
        continue
      }
      const p = prices.get(t)
      if (p === undefined || !(p > 0)) continue
      j = nu.length
      nu.push(p)
      index.set(t, j)
      for (const pool of poolsOf(pairs, t, x)) {
        if (t !== tokenOut) edges.push({ curve: curveOf(pool, t, x, tradeValue / p), from: j, to: i })
        if (t !== tokenIn) edges.push({ curve: curveOf(pool, x, t, scaleOf(x)), from: i, to: j })
      }
    }
  })
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  // The dual's part from these pools, and its slope in free token k's price (what comes in less what goes out).
  const evaluate = (k: number): [number, number] => {
    let dual = 0
    let slope = 0
    for (const e of edges) {
      const a = nu[e.from]!
      const b = nu[e.to]!
      if (!(a > 0) || !(b > 0)) continue
      e.curve.atRate(a / b, point)
      if (point.input <= 0) continue
      dual += b * point.output - a * point.input
      if (e.to === k) slope += point.output
      if (e.from === k) slope -= point.input
    }
    return [dual, slope]
  }
  for (let round = 0; round < (free.length > 1 ? GAIN_ROUNDS : 1); round++)
    for (let k = 0; k < free.length; k++) {
      // Pools into k trade while ν_k·rate0 > ν_from, pools out of it while ν_k < rate0·ν_to.
      let lo = Infinity
      let hi = 0
      for (const e of edges) {
        if (!(e.curve.rate0 > 0)) continue
        if (e.to === k && nu[e.from]! > 0) lo = Math.min(lo, nu[e.from]! / e.curve.rate0)
        if (e.from === k && nu[e.to]! > 0) hi = Math.max(hi, e.curve.rate0 * nu[e.to]!)
      }
      if (!(lo < hi)) {
        // Nothing trades through k at any price: where its pools in (or else out) would start.
        nu[k] = lo < Infinity ? lo : hi
        continue
      }
      let a = Math.log(lo)
      let b = Math.log(hi)
      // To a millionth in price: a ranking, not a solve.
      for (let i = 0; i < 60 && b - a > 1e-6; i++) {
        const mid = (a + b) / 2
        nu[k] = Math.exp(mid)
        if (evaluate(k)[1] > 0) b = mid
        else a = mid
      }
      nu[k] = Math.exp((a + b) / 2)
    }
  return { gain: evaluate(-1)[0], prices: nu.slice(0, free.length) }
}

const NO_POOLS: readonly Pool[] = []
/** The pools trading `a` for `b`. */
const poolsOf = (pairs: Market['pairs'], a: Address, b: Address): readonly Pool[] => pairs.get(a)?.get(b) ?? NO_POOLS

/**
 * A pool direction's depth (the input that lowers its rate by about 1%) from
 * its model at the current price, without building its curve: the reserve for
 * a constant-product pair, the active liquidity for concentrated liquidity
 * (ticks ahead ignored). For screening; families without a model get their
 * curve's depth.
 */
function roughDepth(pool: Pool, a: Address, b: Address, curve: () => Curve): number {
  const model = pool.curveModel?.(a, b)
  if (model?.kind === 'constantProduct') return model.maxIn > 0 && model.reserveOut > 0 ? (model.reserveIn * 0.005) / (1 - model.fee) : 0
  if (model?.kind === 'concentrated') {
    const r = model.zeroForOne ? model.sqrtPrice : 1 / model.sqrtPrice
    const end = model.zeroForOne ? model.limitSqrtPrice : 1 / model.limitSqrtPrice
    return model.liquidity > 0 && r > end ? (model.liquidity * 0.005) / r / (1 - model.fee) : 0
  }
  return depth(curve())
}

/** Input that lowers a curve's marginal rate by 1%: its depth at the current price. */
export function depth(curve: Curve): number {
  return curve.atRate(curve.rate0 * 0.99, { input: 0, output: 0, slope: 0 }).input
}
