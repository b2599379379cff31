import type { DevnetPositionSpec } from '../devnet/index.js'

/**
 * Positions whose ranges end every half percent around the price, beside a full-range one: trades
 * of tens of thousands of dollars cross several ticks. The tick-crossing gas tests mint them
 * before any swap, so every tick's outside words start at zero.
 */
export const TICK_CROSSING_POSITIONS: readonly DevnetPositionSpec[] = [
  { range: 'full', usd: 200_000 },
  { range: [0.9975, 1.0025], usd: 20_000 },
  { range: [0.995, 1.005], usd: 20_000 },
  { range: [0.9925, 1.0075], usd: 20_000 },
  { range: [0.99, 1.01], usd: 20_000 },
  { range: [0.985, 1.015], usd: 20_000 },
  { range: [0.98, 1.02], usd: 20_000 },
]

/**
 * Trades back and forth on WETH/USDC, in USD, run in order on one chain: each crosses back over
 * ticks an earlier one crossed (words rewritten), and the larger ones reach ticks no trade
 * crossed yet (words written from zero).
 */
export const TICK_CROSSING_TRADES: readonly [sell: 'WETH' | 'USDC', usd: number][] = [
  ['WETH', 3_000], ['USDC', 3_000], ['WETH', 10_000], ['USDC', 10_000], ['USDC', 20_000], ['WETH', 20_000],
  ['WETH', 28_000], ['USDC', 28_000],
  ['WETH', 40_000], ['USDC', 40_000], ['USDC', 60_000], ['WETH', 60_000], ['WETH', 15_000], ['USDC', 15_000],
]
