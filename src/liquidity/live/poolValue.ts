import type { Address } from 'viem'
import type { PoolContext, PoolFamily, PoolStateBase } from '../../protocols/types.js'
import { buildPoolCached } from '../buildPoolCached.js'

/**
 * What the live source's liquidity measure needs of one pool state, family-agnostic (through the
 * built `Pool` only): for each token, the most the pool can pay out of it within the state it
 * holds (`limits(other, token).maxOut`: the reserve for a constant-product pool, the liquidity of
 * the known tick window for a concentrated one), and its own fee-free spot price from its first
 * token. Raw units, as floats (a measure ranks pools; it never reaches an amount).
 *
 * @example
 * const measure: PoolMeasure = { tokens: [weth, usdc], depth: [1e21, 3e12], spotFromFirst: [1, 3e-9] }
 */
export type PoolMeasure = {
  tokens: readonly Address[]
  /** Raw units of `tokens[i]` the pool can pay out. */
  depth: readonly number[]
  /** Raw units of `tokens[i]` per raw unit of `tokens[0]` at the pool's spot price (1 for `tokens[0]`). */
  spotFromFirst: readonly number[]
}

/** Measures per state object: states are immutable, so an unchanged pool is measured once. */
const measures = new WeakMap<object, PoolMeasure | null>()

/**
 * The measure of one pool state (see {@link PoolMeasure}), built through `buildPoolCached` (so the
 * pool a later quote needs is already built), cached per state object. `null` when the pool
 * cannot be built or gives no finite, positive spot price (it then has no value: see poolValue).
 *
 * @example
 * const measure = measurePool(uniswapV2Family, state, { chain, dex, dexIndex: 0 }, 123)
 */
export function measurePool(family: PoolFamily, state: PoolStateBase, context: PoolContext, blockNumber: number): PoolMeasure | null {
  const known = measures.get(state)
  if (known !== undefined) return known
  let measure: PoolMeasure | null = null
  try {
    const pool = buildPoolCached(family, state, context, blockNumber)
    const tokens = pool.tokens
    const depth = tokens.map((token) =>
      Math.max(0, ...tokens.filter((other) => other !== token).map((other) => Number(pool.limits(other, token).maxOut))),
    )
    const spotFromFirst = tokens.map((token, index) => (index === 0 ? 1 : pool.spotPrice(tokens[0]!, token)))
    if (tokens.length >= 2 && spotFromFirst.every((spot) => Number.isFinite(spot) && spot > 0) && depth.every(Number.isFinite)) {
      measure = { tokens, depth, spotFromFirst }
    }
  } catch {
    measure = null
  }
  measures.set(state, measure)
  return measure
}

/**
 * Prices of the value token and the majors, in raw value-token units per raw unit of each token,
 * from the spot prices of `anchors` (pools between two of them): the value token is 1; a major
 * takes its price from the anchor pairing it with an already priced token where that priced side
 * is deepest (in value), in rounds, so a major without a pool against the value token is priced
 * through another major.
 *
 * @example
 * const prices = priceMajors(weth, [usdc, dai], anchorMeasures) // Map { weth => 1, usdc => 3.3e8, ... }
 */
export function priceMajors(valueToken: Address, majors: readonly Address[], anchors: readonly PoolMeasure[]): Map<Address, number> {
  const prices = new Map<Address, number>([[valueToken, 1]])
  const wanted = new Set(majors.filter((token) => token !== valueToken))
  while (wanted.size > 0) {
    const best = new Map<Address, { price: number; weight: number }>()
    for (const anchor of anchors) {
      anchor.tokens.forEach((priced, pricedIndex) => {
        const pricedAt = prices.get(priced)
        if (pricedAt === undefined) return
        const weight = anchor.depth[pricedIndex]! * pricedAt
        anchor.tokens.forEach((token, index) => {
          if (!wanted.has(token)) return
          // 1 raw `token` is worth spot[priced]/spot[token] raw `priced`.
          const price = (pricedAt * anchor.spotFromFirst[pricedIndex]!) / anchor.spotFromFirst[index]!
          if (weight > (best.get(token)?.weight ?? 0)) best.set(token, { price, weight })
        })
      })
    }
    if (best.size === 0) break
    for (const [token, { price }] of best) {
      prices.set(token, price)
      wanted.delete(token)
    }
  }
  return prices
}

/**
 * A pool's value in raw value-token units: the sum over its tokens of what it can pay out of each
 * (`depth`) at that token's price. A token without a price of its own (not a major) is priced
 * through the pool's own spot price against its deepest priced token. `undefined` when none of the
 * pool's tokens is priced: the pool cannot be measured through the majors.
 *
 * @example
 * poolValue(measure, prices) // 2.1e22 (raw WETH units: 21,000 WETH)
 */
export function poolValue(measure: PoolMeasure, prices: ReadonlyMap<Address, number>): number | undefined {
  let reference = -1
  let referenceWeight = -1
  measure.tokens.forEach((token, index) => {
    const price = prices.get(token)
    if (price === undefined) return
    const weight = measure.depth[index]! * price
    if (weight > referenceWeight) [reference, referenceWeight] = [index, weight]
  })
  if (reference < 0) return undefined
  const referencePrice = prices.get(measure.tokens[reference]!)!
  let value = 0
  measure.tokens.forEach((token, index) => {
    const price = prices.get(token) ?? (referencePrice * measure.spotFromFirst[reference]!) / measure.spotFromFirst[index]!
    value += measure.depth[index]! * price
  })
  return value
}
