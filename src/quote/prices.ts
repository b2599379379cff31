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
 * connector with the most pools to both ends. Undefined when no pool connects them.
 * The median keeps one thin or skewed pool from setting the price.
 */
export function getMidRate(index: PairIndex, from: Address, to: Address, connectors: readonly Address[]): number | undefined {
  if (from === to) return 1
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
  return best?.rate
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
