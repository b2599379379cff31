// The exact local search over a plan's paths: each case is a small market where the plan the earlier
// steps hand it needs one move (a path added, one dropped, or one pool swapped for the one beside
// it), then balanced, to reach its best value net of gas.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { v2Pool } from '../../test/support/randomMarkets.js'
import { localSearch } from './localSearch.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { Path, Plan } from './types.js'

const token = (n: number) => `0x${(0xd0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B] = [0, 1].map(token) as [Address, Address]
const E18 = 10n ** 18n

describe('localSearch', () => {
  // Two A -> B pairs of the same depth, and a thin one.
  const deep: Path = [{ pool: v2Pool(A, B, 1_000n * E18, 1_000n * E18), tokenIn: A, tokenOut: B }]
  const twin: Path = [{ pool: v2Pool(A, B, 1_000n * E18, 1_000n * E18), tokenIn: A, tokenOut: B }]
  const thin: Path = [{ pool: v2Pool(A, B, 20n * E18, 20n * E18), tokenIn: A, tokenOut: B }]
  const amountIn = 100n * E18
  // Gas small against a 100 A trade through 1,000 A pairs (about 9% of price impact each alone).
  const gasCost = 1e9
  const value = (plan: Plan) => getNetOutput(plan, gasCost)

  it('adds a candidate path and balances the split', () => {
    const alone = simulatePlan([{ path: deep, amountIn }], { gasCostInOutput: gasCost })!
    const searched = localSearch(alone, { candidates: [twin], beside: () => [], gasCostInOutput: gasCost })
    expect(searched.paths.map((path) => path.path)).toEqual([deep, twin])
    expect(searched.amountIn).toBe(amountIn)
    // Two equal pairs balance at half each.
    const half = Number(amountIn / 2n)
    for (const path of searched.paths) expect(Math.abs(Number(path.amountIn) - half) / half).toBeLessThan(0.01)
    expect(value(searched)).toBeGreaterThan(value(alone))
  })

  it('swaps a pool for the deeper one beside it', () => {
    const onThin = simulatePlan([{ path: thin, amountIn }], { gasCostInOutput: gasCost })!
    const searched = localSearch(onThin, { candidates: [], beside: () => [deep], gasCostInOutput: gasCost })
    expect(searched.paths.some((path) => path.path === deep)).toBe(true)
    expect(value(searched)).toBeGreaterThan(value(onThin))
  })

  it('drops a path whose gas is worth more than it adds', () => {
    // 1% of the trade on the thin pair: at this gas price its swap (about 0.5 B) is worth more than
    // the 0.1 B its pair adds over the deep pair.
    const costly = 0.5e18 / 100_000
    const split = simulatePlan(
      [
        { path: deep, amountIn: 99n * E18 },
        { path: thin, amountIn: 1n * E18 },
      ],
      { gasCostInOutput: costly },
    )!
    const searched = localSearch(split, { candidates: [], beside: () => [], gasCostInOutput: costly })
    expect(searched.paths.map((path) => path.path)).toEqual([deep])
    expect(getNetOutput(searched, costly)).toBeGreaterThan(getNetOutput(split, costly))
  })

  it('returns the plan itself when no move improves it', () => {
    const split = simulatePlan(
      [
        { path: deep, amountIn: amountIn / 2n },
        { path: twin, amountIn: amountIn / 2n },
      ],
      { gasCostInOutput: gasCost },
    )!
    expect(localSearch(split, { candidates: [], beside: () => [], gasCostInOutput: gasCost })).toBe(split)
  })
})
