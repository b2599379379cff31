// The router's promises on random V2 + V3 markets with gaps, empty ticks, drained pools and prices
// on tick boundaries (issue 9): curves never claim capacity the pool lacks nor give less than it
// (upper bounds), a route exists whenever a single path fills, it is never below the best single
// path through any token, it keeps to maxHops, it executes as simulated, and its certificate is a
// bound (gapBps ≥ 0; the all-pools figure at or above every single path).
import { describe, expect, it } from 'vitest'
import { bestSinglePath, randomMarket } from '../../test/support/randomMarkets.js'
import { createRandom } from '../../test/support/random.js'
import { replaySegments } from '../../test/support/replaySegments.js'
import { getCurve } from './curves.js'
import { findRoute } from './findRoute.js'

const CASES = 150


describe('curves on random V3 pools', () => {
  it('cover exactly what the pool can take and never model less output than it gives', () => {
    const random = createRandom(91)
    const bugs = { phantomCapacity: 0, missingCapacity: 0, belowExact: 0, emptyTickDropped: 0 }
    let checked = 0
    for (let m = 0; m < 40; m++) {
      const market = randomMarket(random)
      for (const pool of market.pools) {
        if (pool.family !== 'uniswapV3') continue
        for (const [a, b] of [pool.tokens, [...pool.tokens].reverse()] as [typeof pool.tokens[0], typeof pool.tokens[0]][]) {
          const curve = getCurve(pool, a, b, 1e18)
          const { maxIn } = pool.limits(a, b)
          checked++
          if (maxIn > 0n && !(curve.rate0 > 0)) bugs.emptyTickDropped++
          if (maxIn === 0n) {
            if (curve.covers(1)) bugs.phantomCapacity++
            continue
          }
          const limit = curve.limit()
          if (limit > Number(maxIn) * (1 + 1e-9)) bugs.phantomCapacity++
          if (limit < Number(maxIn) * (1 - 1e-5)) bugs.missingCapacity++
          for (const share of [1e-6, 1e-3, 0.1, 0.5, 0.999]) {
            const x = BigInt(Math.floor(Number(maxIn) * share))
            if (x <= 0n) continue
            const exact = pool.quoteExactIn(a, b, x)
            if (!exact) continue
            if (curve.amountOut(Number(x)) < Number(exact.amountOut) * (1 - 1e-10)) bugs.belowExact++
          }
        }
      }
    }
    console.log(`curves checked: ${checked}, ${JSON.stringify(bugs)}`)
    expect(checked).toBeGreaterThan(100)
    expect(bugs).toEqual({ phantomCapacity: 0, missingCapacity: 0, belowExact: 0, emptyTickDropped: 0 })
  })
})

describe('findRoute on random V2 + V3 markets', () => {
  it('routes whenever a single path fills, never below it, within maxHops, exactly, with a valid certificate', () => {
    const random = createRandom(2026)
    const bugs = { wrong404: 0, belowSingle: 0, tooManyHops: 0, replayMismatch: 0, negativeGap: 0, boundBelowSingle: 0 }
    let routed = 0
    let fillable = 0
    const gaps: number[] = []
    const allGaps: number[] = []
    const maxHops = 4
    for (let i = 0; i < CASES; i++) {
      const market = randomMarket(random, { skew: Number(process.env.SKEW ?? 0.04) })
      const { pools, tokenIn, tokenOut, connectors, amountIn } = market
      const single = bestSinglePath(pools, tokenIn, tokenOut, amountIn, maxHops)
      const plan = findRoute({ pools, tokenIn, tokenOut, connectors, maxHops, gasCostInOutput: 0 }, amountIn)
      if (single) fillable++
      if (!plan) {
        if (single) bugs.wrong404++
        continue
      }
      routed++
      if (single && plan.amountOut < single.amountOut) bugs.belowSingle++
      if (plan.paths.some((p) => p.hops.length > maxHops)) bugs.tooManyHops++
      if (replaySegments(plan, tokenIn, tokenOut) !== plan.amountOut) bugs.replayMismatch++
      const certificate = plan.certificate
      if (certificate) gaps.push(certificate.gapBps)
      if (certificate?.allPoolsGapBps !== undefined) allGaps.push(certificate.allPoolsGapBps)
      if (certificate && (certificate.gapBps < 0 || certificate.upperBound < plan.amountOut)) bugs.negativeGap++
      if (certificate && single && (certificate.allPoolsUpperBound ?? certificate.upperBound) < single.amountOut) bugs.boundBelowSingle++
    }
    const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]
    console.log(
      `random markets: ${CASES}, fillable: ${fillable}, routed: ${routed}, ${JSON.stringify(bugs)}, ` +
        `gapBps median ${quantile(gaps, 0.5)?.toExponential(2)} p99 ${quantile(gaps, 0.99)?.toExponential(2)} max ${quantile(gaps, 1)?.toExponential(2)}, ` +
        `all-pools gapBps median ${quantile(allGaps, 0.5)?.toExponential(2)} p99 ${quantile(allGaps, 0.99)?.toExponential(2)} max ${quantile(allGaps, 1)?.toExponential(2)}`,
    )
    expect(fillable).toBeGreaterThan(CASES / 2)
    expect(bugs).toEqual({ wrong404: 0, belowSingle: 0, tooManyHops: 0, replayMismatch: 0, negativeGap: 0, boundBelowSingle: 0 })
  })

  it('with gas priced in, is never below the best single path through any token net of gas', () => {
    const random = createRandom(77)
    let belowSingle = 0
    let routed = 0
    for (let i = 0; i < 80; i++) {
      const { pools, tokenIn, tokenOut, connectors, amountIn } = randomMarket(random)
      // About 1e-6 of the trade's output per 100k gas: enough to make extra hops and splits matter.
      const single = bestSinglePath(pools, tokenIn, tokenOut, amountIn, 4)
      if (!single) continue
      const gasCost = (Number(single.amountOut) * 10 ** (-8 + 4 * random())) / 100_000
      const net = bestSinglePath(pools, tokenIn, tokenOut, amountIn, 4, gasCost)!
      const plan = findRoute({ pools, tokenIn, tokenOut, connectors, maxHops: 4, gasCostInOutput: gasCost }, amountIn)
      if (!plan) {
        belowSingle++
        continue
      }
      routed++
      // A relative hair for float rounding of the two values.
      if (Number(plan.amountOut) - gasCost * Number(plan.gas) < net.value - Math.abs(net.value) * 1e-12) belowSingle++
    }
    console.log(`random markets with gas: routed ${routed}, below the best single path net of gas: ${belowSingle}`)
    expect(routed).toBeGreaterThan(40)
    expect(belowSingle).toBe(0)
  })
})
