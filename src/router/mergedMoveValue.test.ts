// The greedy split's whole-path moves skip the plan's simulation when one path's simulation gives
// the moved plan's exact value; a move skipped on a wrong value would change the split, so the
// shortcut must agree with `simulatePlan` to the bit, and decline wherever paths share a pool.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool, v3Pool } from '../../test/support/randomMarkets.js'
import { mergedMoveValue } from './mergedMoveValue.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { Path, Plan } from './types.js'

const token = (n: number) => `0x${(0xe0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X, Y, Z] = [0, 1, 2, 3, 4].map(token) as [Address, Address, Address, Address, Address]
const E18 = 10n ** 18n

/** Paths from A to B sharing no pool: direct V2, through X (V2 then V3), through Y, through Z. */
function independentPaths(depth: bigint): Path[] {
  return [
    [{ pool: v2Pool(A, B, depth * E18, (depth * E18 * 9n) / 10n), tokenIn: A, tokenOut: B }],
    [
      { pool: v2Pool(A, X, 4n * depth * E18, 4n * depth * E18), tokenIn: A, tokenOut: X },
      { pool: v3Pool(X, B, { fee: 500, spacing: 10 }, 0, [[-600, 600, 50n * depth * E18], [-60, 60, 200n * depth * E18]], false), tokenIn: X, tokenOut: B },
    ],
    [
      { pool: v2Pool(A, Y, 2n * depth * E18, 3n * depth * E18), tokenIn: A, tokenOut: Y },
      { pool: v2Pool(Y, B, 3n * depth * E18, 2n * depth * E18), tokenIn: Y, tokenOut: B },
    ],
    [
      { pool: v2Pool(A, Z, depth * E18, depth * E18), tokenIn: A, tokenOut: Z },
      { pool: v3Pool(Z, B, { fee: 3000, spacing: 60 }, 120, [[-1200, 1200, 30n * depth * E18]], false), tokenIn: Z, tokenOut: B },
    ],
  ]
}

const valueOf = (plan: Plan | undefined, gasCost: number) => (plan ? getNetOutput(plan, gasCost) : -Infinity)

describe('mergedMoveValue', () => {
  it('gives the moved plan’s exact value when the paths share no pool', () => {
    let checked = 0
    for (const depth of [10n, 1000n])
      for (const shares of [[5n, 3n, 2n, 0n], [1n, 0n, 6n, 3n], [0n, 7n, 0n, 1n], [2n, 2n, 2n, 2n]]) {
        const paths = independentPaths(depth)
        const amounts = shares.map((share) => share * depth * 10n ** 16n)
        const gasCost = Number(depth) * 1e10
        const allocate = (values: readonly bigint[]) => paths.map((path, p) => ({ path, amountIn: values[p]! }))
        const plan = simulatePlan(allocate(amounts), { gasCostInOutput: gasCost })!
        for (let from = 0; from < paths.length; from++)
          for (let to = 0; to < paths.length; to++) {
            if (from === to || amounts[from] === 0n) continue
            const moved = [...amounts]
            moved[to] = moved[to]! + moved[from]!
            moved[from] = 0n
            const expected = valueOf(simulatePlan(allocate(moved), { gasCostInOutput: gasCost }), gasCost)
            expect(mergedMoveValue(plan, paths, amounts, from, to, gasCost)).toBe(expected)
            checked++
          }
      }
    expect(checked).toBeGreaterThan(60)
  })

  it('declines when the paths in use, or the path moved to, share a pool', () => {
    const paths = independentPaths(100n)
    const sharing: Path = [paths[1]![0]!, { pool: v2Pool(X, B, 100n * E18, 100n * E18), tokenIn: X, tokenOut: B }]
    const withSharing = [...paths, sharing]
    const allocate = (values: readonly bigint[]) => withSharing.map((path, p) => ({ path, amountIn: values[p]! }))
    // The sharing path unused: moving into it declines, moves between the others do not.
    const amounts = [E18, E18, E18, 0n, 0n]
    const plan = simulatePlan(allocate(amounts), { gasCostInOutput: 1e9 })!
    expect(mergedMoveValue(plan, withSharing, amounts, 0, 4, 1e9)).toBeUndefined()
    expect(mergedMoveValue(plan, withSharing, amounts, 0, 3, 1e9)).toBeDefined()
    // In use beside the path it shares with: every move declines.
    const inUse = [E18, E18, E18, 0n, E18]
    const shared = simulatePlan(allocate(inUse), { gasCostInOutput: 1e9 })!
    expect(mergedMoveValue(shared, withSharing, inUse, 0, 3, 1e9)).toBeUndefined()
  })
})
