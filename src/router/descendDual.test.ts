// descendDual brackets each token's price with Newton steps and then lets the bisection ask the
// pools only where what it knows does not decide: the prices and the bound must be the very ones
// a bisection asking the pools at every step reaches (the reference below), to the last bit.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { randomMarket } from '../../test/support/randomMarkets.js'
import { createRandom } from '../../test/support/random.js'
import { type BoundEdge, descendDual } from './allPoolsBound.js'
import { type RatePoint, getCurve } from './curves.js'
import { SINK, SOURCE } from './types.js'

/** The plain coordinate descent: every bracket step and all 24 bisection steps ask every edge of the token. */
function referenceDescent(edges: readonly BoundEdge[], tokenCount: number, amountIn: number, nu: Float64Array, rounds: number): number {
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  const balance = (k: number, price: number) => {
    let net = k === SOURCE ? amountIn : 0
    for (const edge of edges) {
      if (edge.from !== k && edge.to !== k) continue
      const a = edge.from === k ? price : nu[edge.from]!
      const b = edge.to === k ? price : nu[edge.to]!
      edge.curve.atRate(a / b, point)
      if (!(point.input > 0)) continue
      if (edge.to === k) net += point.output
      if (edge.from === k) net -= point.input
    }
    return net
  }
  const range = 60
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < tokenCount; k++) {
      if (k === SINK || !edges.some((edge) => edge.from === k || edge.to === k)) continue
      const start = Math.log(nu[k]!)
      let lo = start - 1
      let hi = start + 1
      for (let width = 2; lo > start - range && balance(k, Math.exp(lo)) > 0; width *= 2) lo = Math.max(start - range, start - width)
      for (let width = 2; hi < start + range && balance(k, Math.exp(hi)) < 0; width *= 2) hi = Math.min(start + range, start + width)
      for (let step = 0; step < 24; step++) {
        const middle = (lo + hi) / 2
        if (balance(k, Math.exp(middle)) > 0) hi = middle
        else lo = middle
      }
      nu[k] = Math.exp(hi)
    }
  let dual = nu[SOURCE]! * amountIn
  for (const edge of edges) {
    edge.curve.atRate(nu[edge.from]! / nu[edge.to]!, point)
    if (point.input > 0) dual += nu[edge.to]! * point.output - nu[edge.from]! * point.input
  }
  return dual
}

describe('descendDual', () => {
  it('reaches the same prices and bound as a bisection asking the pools at every step, to the bit', () => {
    const random = createRandom(4242)
    let compared = 0
    for (let m = 0; m < 60; m++) {
      // Pools 4% apart in price (arbitrage: many directions trade), prices started off by up to ±30%.
      const market = randomMarket(random, { tokens: 5 + Math.floor(random() * 6), skew: 0.08, density: 0.7 })
      const tokens: Address[] = [market.tokenOut, market.tokenIn, ...market.connectors, ...market.others]
      const index = new Map(tokens.map((t, i) => [t, i]))
      const edges: BoundEdge[] = []
      for (const pool of market.pools)
        for (const a of pool.tokens)
          for (const b of pool.tokens) {
            if (a === b || a === market.tokenOut || b === market.tokenIn) continue
            const curve = getCurve(pool, a, b, Number(market.amountIn))
            edges.push({ from: index.get(a)!, to: index.get(b)!, curve })
          }
      const start = new Float64Array(tokens.length)
      start[SINK] = 1
      for (let i = 1; i < tokens.length; i++) {
        const pool = market.pools.find((p) => p.tokens.includes(tokens[i]!) && p.tokens.includes(market.tokenOut))
        const mid = pool ? pool.spotPrice(tokens[i]!, market.tokenOut) : 1
        start[i] = (Number.isFinite(mid) && mid > 0 ? mid : 1) * Math.exp(0.6 * (random() - 0.5))
      }
      for (const amount of [Number(market.amountIn), Number(market.amountIn) * 1e-4]) {
        const fast = Float64Array.from(start)
        const slow = Float64Array.from(start)
        const rounds = 1 + (m % 3)
        const dual = descendDual(edges, tokens.length, amount, fast, rounds)
        const expected = referenceDescent(edges, tokens.length, amount, slow, rounds)
        expect([...fast]).toEqual([...slow])
        expect(dual).toBe(expected)
        compared++
      }
    }
    expect(compared).toBe(120)
  })
})
