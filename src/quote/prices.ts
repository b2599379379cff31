import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'

/** Pools indexed by unordered token pair. */
export type PairIndex = Map<string, Pool[]>

const pairKey = (a: Address, b: Address) => (a < b ? `${a}/${b}` : `${b}/${a}`)

/** Indexes pools by the pairs they trade. */
export function indexPairs(pools: readonly Pool[]): PairIndex {
  const index: PairIndex = new Map()
  for (const pool of pools) {
    for (let i = 0; i < pool.tokens.length; i++) {
      for (let j = i + 1; j < pool.tokens.length; j++) {
        const key = pairKey(pool.tokens[i]!, pool.tokens[j]!)
        let list = index.get(key)
        if (!list) index.set(key, (list = []))
        list.push(pool)
      }
    }
  }
  return index
}

function median(values: number[]): number | undefined {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => a - b)
  if (finite.length === 0) return undefined
  const mid = finite.length >> 1
  return finite.length % 2 === 1 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2
}

/**
 * A display-grade mid rate from `from` to `to` in raw units (raw `to` per raw
 * `from`): the median spot price of the direct pools, else through the
 * connector with the most pools to both ends, else along the fewest pairs
 * through any tokens (see `rateThroughAnyToken`). Undefined when no pool
 * path connects them. The median keeps one thin or skewed pool from setting the price.
 *
 * @example
 * const nativeRate = getMidRate(pairs, weth, usdc, chain.majorTokens) // e.g. 3e-9 (raw USDC per wei)
 */
export function getMidRate(index: PairIndex, from: Address, to: Address, connectors: readonly Address[]): number | undefined {
  if (from === to) return 1
  // A pair index is built once per pool list and never changed, nor are its pools: its rates are
  // fixed, and every quote on the same list asks the same few (the gas token's, each route token's
  // USD price), some through a breadth-first search over every pair.
  let byConnectors = ratesOf.get(index)
  if (!byConnectors) ratesOf.set(index, (byConnectors = new WeakMap()))
  let rates = byConnectors.get(connectors)
  if (!rates) byConnectors.set(connectors, (rates = new Map()))
  const key = `${from}>${to}`
  if (rates.has(key)) return rates.get(key)
  const rate = computeMidRate(index, from, to, connectors)
  rates.set(key, rate)
  return rate
}

/** Mid rates already found, per pair index and connector list, by `from>to`. */
const ratesOf = new WeakMap<PairIndex, WeakMap<readonly Address[], Map<string, number | undefined>>>()

function computeMidRate(index: PairIndex, from: Address, to: Address, connectors: readonly Address[]): number | undefined {
  const direct = median((index.get(pairKey(from, to)) ?? []).map((p) => p.spotPrice(from, to)))
  if (direct !== undefined) return direct
  let best: { rate: number; pools: number } | undefined
  for (const via of connectors) {
    if (via === from || via === to) continue
    const first = index.get(pairKey(from, via)) ?? []
    const second = index.get(pairKey(via, to)) ?? []
    const a = median(first.map((p) => p.spotPrice(from, via)))
    const b = median(second.map((p) => p.spotPrice(via, to)))
    if (a === undefined || b === undefined) continue
    const pools = Math.min(first.length, second.length)
    if (!best || pools > best.pools) best = { rate: a * b, pools }
  }
  return best?.rate ?? rateThroughAnyToken(index, from, to)
}

/** Each token's neighbours in a pair index (built once per index). */
const neighboursOf = new WeakMap<PairIndex, Map<Address, Address[]>>()

/** A token reached by the search below: its rate from the start, over how many pairs, and the fewest pools of any pair on the way. */
type Reached = { rate: number; pairs: number; pools: number }

/**
 * The mid rate along the fewest pairs from `from` to `to` through any tokens
 * (a breadth-first search; among equally short ways, the one whose thinnest
 * pair has the most pools), each pair at its pools' median spot price.
 * Tokens beyond the connectors are routed through (whole-graph routing), so
 * the output's value of gas must reach them too: without it a route to such
 * a token would weigh gas at nothing. Undefined when nothing connects them.
 */
function rateThroughAnyToken(index: PairIndex, from: Address, to: Address): number | undefined {
  let neighbours = neighboursOf.get(index)
  if (!neighbours) {
    neighbours = new Map()
    for (const key of index.keys()) {
      const [a, b] = key.split('/') as [Address, Address]
      for (const [one, other] of [[a, b], [b, a]] as const) {
        const list = neighbours.get(one)
        if (list) list.push(other)
        else neighbours.set(one, [other])
      }
    }
    neighboursOf.set(index, neighbours)
  }
  const reached = new Map<Address, Reached>([[from, { rate: 1, pairs: 0, pools: Number.POSITIVE_INFINITY }]])
  let layer: Address[] = [from]
  for (let depth = 1; layer.length > 0 && !reached.has(to); depth++) {
    const next: Address[] = []
    for (const token of layer) {
      const here = reached.get(token)!
      for (const other of neighbours.get(token) ?? []) {
        const known = reached.get(other)
        if (known && known.pairs < depth) continue
        const pairPools = index.get(pairKey(token, other)) ?? []
        const rate = median(pairPools.map((pool) => pool.spotPrice(token, other)))
        if (rate === undefined) continue
        const pools = Math.min(here.pools, pairPools.length)
        if (known && known.pools >= pools) continue
        if (!known) next.push(other)
        reached.set(other, { rate: here.rate * rate, pairs: depth, pools })
      }
    }
    layer = next
  }
  return reached.get(to)?.rate
}

/** USD price of one whole token, from its mid rate to the chain's stablecoins; null when no pool path exists. */
export function getPriceUsd(
  index: PairIndex,
  token: Address,
  decimals: number,
  stablecoins: readonly { address: Address; decimals: number }[],
  connectors: readonly Address[],
): number | null {
  if (stablecoins.some((s) => s.address === token)) return 1
  for (const stable of stablecoins) {
    const rate = getMidRate(index, token, stable.address, connectors)
    if (rate !== undefined) return rate * 10 ** (decimals - stable.decimals)
  }
  return null
}
