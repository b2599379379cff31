// A concentrated curve's capacity is never below the pool's. A range that starts at the current price
// (or ends at the known state's edge) had its capacity from start − end in floats: when the pool sits
// inside its last tick's range the two nearly cancel, and the tick's price, exp(tick · ln(1.0001)/2)
// with ln(1.0001) off by 1e-13 from 1.0001's rounding, was off by a large share of the difference. On
// the hard bench's 10-pool market of seed 34 (scripts/bench/hardMarket.ts), pool H2 -> H3 (one
// tick-wide range, drained to it) gave 2.3e-8 less than the pool, and the all-pools certificate of
// H0 -> H5 at 30% of depth, 6 hops, fell below an independent exact plan through it.
import { describe, expect, it } from 'vitest'
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { getCurve } from '../../src/router/curves.js'
import { routeHardTrade } from '../support/hardMarketRoute.js'

/** The bench's independent exact plan for seed 34 H0 -> H5 at 30%, 6 hops (scripts/bench/networkOptimum.ts): its flow, executed exactly. */
const INDEPENDENT_PLAN = 277397385364078712638417n

/** Shares of a pool direction's capacity the curve is checked at. */
const SHARES = [1e-6, 1e-3, 0.1, 0.5, 0.9, 0.999, 1]

describe('concentrated curve capacity at the last tick', () => {
  it('bounds an independent exact plan on seed 34 H0 -> H5 at 30%, 6 hops', () => {
    const plan = routeHardTrade(10, 34, 'H0->H5', 0.3, 6)!
    // Before: 277397382648217848512512.
    expect(plan.certificate!.allPoolsUpperBound!).toBeGreaterThanOrEqual(INDEPENDENT_PLAN)
    expect(plan.certificate!.upperBound).toBeGreaterThanOrEqual(plan.amountOut)
  })

  it('never gives less than the pool, on every concentrated pool of the 10-pool markets of seeds 1-60', () => {
    const below: string[] = []
    for (let seed = 1; seed <= 60; seed++) {
      const universe = createHardUniverse(10, seed)
      for (const { pool } of universe.market.pools)
        for (const tokenIn of pool.tokens)
          for (const tokenOut of pool.tokens) {
            if (tokenIn === tokenOut || pool.curveModel?.(tokenIn, tokenOut)?.kind !== 'concentrated') continue
            const curve = getCurve(pool, tokenIn, tokenOut, 1)
            // The largest input the pool fills (a quote past its state fails): the curve's end, then down.
            const end = BigInt(Math.floor(curve.limit()))
            for (const share of SHARES) {
              const amountIn = (end * BigInt(Math.round(share * 1e6))) / 10n ** 6n
              const exact = amountIn > 0n ? pool.quoteExactIn(tokenIn, tokenOut, amountIn)?.amountOut : undefined
              if (exact === undefined || exact === 0n) continue
              // The bound's own float slack (BOUND_SLACK, 1e-9) is not counted here: the model alone must hold to rounding.
              const model = curve.amountOut(Number(amountIn))
              if (model < Number(exact) * (1 - 1e-12)) below.push(`seed ${seed} ${pool.key} at ${share}: ${model} < ${exact}`)
            }
          }
    }
    expect(below).toEqual([])
  }, 20_000)
})
