import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import type { Curve } from './curves.js'
import { type Market, type Trade, depth, poolsOf } from './market.js'

/**
 * A token beyond the connectors is screened when its paths' thinnest hop has this share in depth of
 * the trade's value, or of the ends' deepest pairs when those are thinner.
 */
const DEEP_SHARE = 1e-5
/** Tokens beyond the connectors screened by depth, the deepest first, for the dual prices to rank. */
const MAX_SCREENED = 24

/**
 * Screened intermediates (the deepest first), pairs of them pooled with each other on a path
 * (input ... x -> y ... output, the deepest first), and the token values the screening found.
 */
export type Screened = { tokens: Address[]; pairs: [Address, Address][]; value: Map<Address, number> }

/**
 * Tokens beyond the connectors pooled with either end whose best path of at
 * most `maxHops` (through connectors, or one more such token) has its
 * thinnest hop deep enough (each hop's depth summed over its pair's pools, at
 * 1% impact; DEEP_SHARE of the trade's value, or of the ends' deepest pairs
 * when those are thinner): the deepest MAX_SCREENED, half of them among each
 * end's neighbours. Token values come from each token's deepest pool to a
 * token already valued, from the output token outwards.
 *
 * @example
 * const screened = screenIntermediates(createMarket(pools), trade, new Set(chain.majorTokens))
 */
export function screenIntermediates(market: Market, trade: Trade, connectors: ReadonlySet<Address>): Screened {
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
  // By token, then the token it trades with (no `a>b` string built and hashed per question: the
  // passes below ask a pair again and again).
  const pairDepths = new Map<Address, Map<Address, { depth: number; price: number }>>()
  const pairDepth = (a: Address, b: Address) => {
    let row = pairDepths.get(a)
    if (!row) pairDepths.set(a, (row = new Map()))
    let found = row.get(b)
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
    row.set(b, found)
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
  // By token, then k (from the input, or to the output).
  const reachedIn = new Map<Address, number[]>()
  const reachedOut = new Map<Address, number[]>()
  const reachIn = (x: Address, k: number): number => {
    let byHops = reachedIn.get(x)
    if (!byHops) reachedIn.set(x, (byHops = []))
    let best = byHops[k]
    if (best !== undefined) return best
    best = hop(tokenIn, x)
    if (k > 1) for (const m of majors) if (pairs.get(x)!.has(m)) best = Math.max(best, Math.min(fromIn[k - 1]!.get(m)!, hop(m, x)))
    byHops[k] = best
    return best
  }
  const reachOut = (x: Address, k: number): number => {
    let byHops = reachedOut.get(x)
    if (!byHops) reachedOut.set(x, (byHops = []))
    let best = byHops[k]
    if (best !== undefined) return best
    best = hop(x, tokenOut)
    if (k > 1) for (const m of majors) if (pairs.get(x)!.has(m)) best = Math.max(best, Math.min(hop(x, m), toOut[k - 1]!.get(m)!))
    byHops[k] = best
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
 * A pool direction's depth (the input that lowers its rate by about 1%) from
 * its model at the current price, without building its curve: the reserve for
 * a constant-product pair, the active liquidity for concentrated liquidity
 * (ticks ahead ignored). For screening; families without a model get their
 * curve's depth.
 */
function roughDepth(pool: Pool, a: Address, b: Address, curve: () => Curve): number {
  const known = modelDepths.get(pool)?.get(a)?.get(b)
  if (known !== undefined) return known
  const model = pool.curveModel?.(a, b)
  let found: number
  if (model?.kind === 'constantProduct') found = model.maxIn > 0 && model.reserveOut > 0 ? (model.reserveIn * 0.005) / (1 - model.fee) : 0
  else if (model?.kind === 'concentrated') {
    const r = model.zeroForOne ? model.sqrtPrice : 1 / model.sqrtPrice
    const end = model.zeroForOne ? model.limitSqrtPrice : 1 / model.limitSqrtPrice
    found = model.liquidity > 0 && r > end ? (model.liquidity * 0.005) / r / (1 - model.fee) : 0
  } else return depth(curve())
  // A model's depth depends on the pool's state alone (states are immutable): kept with the pool.
  let byInput = modelDepths.get(pool)
  if (!byInput) modelDepths.set(pool, (byInput = new Map()))
  let byOutput = byInput.get(a)
  if (!byOutput) byInput.set(a, (byOutput = new Map()))
  byOutput.set(b, found)
  return found
}

/** Rough depths of pool directions with a model, by pool state, input and output token. */
const modelDepths = new WeakMap<Pool, Map<Address, Map<Address, number>>>()
