import { type PoolStates, simulatePath, simulatePlan } from './simulatePlan.js'
import type { Path, Plan } from './types.js'

/** Equal parts of the input the greedy split hands out one at a time. */
const PARTS = 20

/**
 * A split over given paths found on exact simulation alone: the input in
 * PARTS equal parts, each given to the path whose next part adds the most
 * output on the pool states the parts before it left (paths sharing a pool
 * see each other's trades). For when the flow cannot be turned into paths of
 * at most maxHops: a split no worse than the best of these paths alone (the
 * caller weighs it against them on exact value, net of gas). Undefined when
 * no path takes a part.
 *
 * @example
 * const plan = greedySplit([viaWeth, viaUsdc, direct], 10n ** 18n, 0)
 */
export function greedySplit(paths: readonly Path[], amountIn: bigint, gasCostInOutput: number): Plan | undefined {
  if (paths.length === 0 || amountIn <= 0n) return undefined
  const part = amountIn / BigInt(PARTS)
  if (part <= 0n) return undefined
  const amounts = paths.map(() => 0n)
  let states: PoolStates = new Map()
  for (let k = 0; k < PARTS; k++) {
    // The last part takes the rounding remainder.
    const size = k === PARTS - 1 ? amountIn - part * BigInt(PARTS - 1) : part
    let best = -1
    let bestOut = 0n
    let bestStates: PoolStates | undefined
    paths.forEach((path, p) => {
      const trial: PoolStates = new Map(states)
      const executed = simulatePath(path, size, trial)
      if (executed && executed.amountOut > bestOut) {
        best = p
        bestOut = executed.amountOut
        bestStates = trial
      }
    })
    if (best < 0 || !bestStates) return undefined
    amounts[best] = amounts[best]! + size
    states = bestStates
  }
  return simulatePlan(
    paths.map((path, p) => ({ path, amountIn: amounts[p]! })),
    { gasCostInOutput },
  )
}
