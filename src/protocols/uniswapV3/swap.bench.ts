import { bench, describe } from 'vitest'
import { simulateSwap, type SimulateSwapPool } from './swap.js'
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from './tickMath.js'

// A pool with an initialized tick every 60 ticks for 200 spacings either side
// of the price; swaps down to just past the n-th one cross exactly n ticks.
const E18 = 10n ** 18n
const ticks = Object.freeze(
  [
    { index: Math.ceil(MIN_TICK / 60) * 60, liquidityNet: 10n * E18 },
    ...Array.from({ length: 200 }, (_, k) => ({ index: -60 * (200 - k), liquidityNet: E18 })),
    ...Array.from({ length: 200 }, (_, k) => ({ index: 60 * (k + 1), liquidityNet: -E18 })),
    { index: Math.floor(MAX_TICK / 60) * 60, liquidityNet: -10n * E18 },
  ].map((tick) => Object.freeze(tick)),
)
const pool: SimulateSwapPool = {
  fee: 3000,
  tickSpacing: 60,
  sqrtPriceX96: getSqrtRatioAtTick(0) + 12345678901234567890n,
  tick: 0,
  liquidity: 210n * E18,
  ticks,
  tickLower: MIN_TICK,
  tickUpper: MAX_TICK,
}

describe('simulateSwap', () => {
  for (const crossed of [0, 10, 50]) {
    const amountIn = simulateSwap(pool, true, 10n ** 40n, getSqrtRatioAtTick(-60 * crossed - 30))!.amount0
    const amountOut = -simulateSwap(pool, true, amountIn)!.amount1
    bench(`exact in, ${crossed} ticks crossed`, () => {
      simulateSwap(pool, true, amountIn)
    })
    bench(`exact out, ${crossed} ticks crossed`, () => {
      simulateSwap(pool, true, -amountOut)
    })
  }
})
