import type { Address } from 'viem'
import type { Curve, RatePoint } from './curves.js'
import { type Assembled, type Market, poolsOf } from './market.js'
import type { Screened } from './screening.js'
import { solveFlow } from './splitSolver.js'
import { SINK, SOURCE } from './types.js'

/** Intermediates beyond the connectors a graph takes (each adds a price to the solve). */
export const MAX_EXTRA_TOKENS = 8
/** An intermediate must promise at least this share of the trade's value (0.001 bp). */
const MIN_GAIN_SHARE = 1e-7
/** Pairs of tokens beyond the connectors whose gain is measured together. */
const MAX_PAIR_TRIALS = 8
/** Coordinate rounds of a pair's gain. */
const GAIN_ROUNDS = 3
/** Solver iterations for the base graph's prices that rank the intermediates. */
const RANKING_ITERATIONS = 30

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
 *
 * @example
 * const extras = chooseByGain(market, assembleGraph(market, trade, connectors), screened, connectors, 4)
 */
export function chooseByGain(market: Market, base: Assembled, screened: Screened, connectors: readonly Address[], maxHops: number): Address[] {
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
  const [tokenOut, tokenIn] = [graph.tokens[SINK]!, graph.tokens[SOURCE]!]
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
