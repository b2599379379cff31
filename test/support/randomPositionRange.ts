import { getFullRangeTicks } from '../devnet/priceMath.js'

/**
 * A random position range for the live-source activity generators, on `tickSpacing` and clamped
 * to the full range (an empty range comes back as lower >= upper, for the caller to skip):
 * - 60%: around the current tick, up to 40 spacings either side;
 * - 25%: wholly above or below the price, a few spacings from it;
 * - 15%: far outside the window the readers hold (300–700 spacings away; ×4 at spacing 1).
 * `random` draws the shape and the sides, `between` the distances, in that order.
 *
 * @example
 * const [lower, upper] = randomPositionRange(random, between, pool.tick, pool.tickSpacing)
 */
export function randomPositionRange(random: () => number, between: (low: number, high: number) => number, tick: number, tickSpacing: number): [lower: number, upper: number] {
  const center = Math.floor(tick / tickSpacing) * tickSpacing
  const shape = random()
  let lower: number
  let upper: number
  if (shape < 0.6) {
    lower = center - tickSpacing * between(0, 40)
    upper = center + tickSpacing * between(1, 40)
  } else if (shape < 0.85) {
    lower = center + tickSpacing * (random() < 0.5 ? between(1, 30) : -between(2, 60))
    upper = lower + tickSpacing * between(1, 20)
  } else {
    lower = center + tickSpacing * (random() < 0.5 ? 1 : -1) * between(300, 700) * (tickSpacing === 1 ? 4 : 1)
    upper = lower + tickSpacing * between(1, 50)
  }
  const [lowest, highest] = getFullRangeTicks(tickSpacing)
  return [Math.max(lowest, lower), Math.min(highest, upper)]
}
