// The gas-collapse check (findRoute) asks a greedy split over the best single paths when the chosen
// route holds one path and a split might pay its gas. With one such path, the greedy split can only
// give it the whole input, the very plan the single paths were already weighed as: it is skipped.
// It used to run its twenty parts anyway, a third of a small quote's allocation (hard bench 10:1).
import type { Address } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import { v2Pool } from '../../test/support/randomMarkets.js'
import { findRoute } from './findRoute.js'
import { greedySplit } from './greedySplit.js'
import { simulatePlan } from './simulatePlan.js'

vi.mock('./greedySplit.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./greedySplit.js')>()
  return { ...original, greedySplit: vi.fn(original.greedySplit) }
})

const token = (n: number) => `0x${(0xe0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, C] = [token(0), token(1), token(2)] as [Address, Address, Address]
const E18 = 10n ** 18n

describe('greedy split over one path', () => {
  it('is not run when its one path is a best single path: the route is that path alone', () => {
    const pool = v2Pool(A, B, 1000n * E18, 1000n * E18)
    const amountIn = 100n * E18
    // A tenth of the pool: about 9% price impact, far above two swaps' gas, so the check asks a split.
    vi.mocked(greedySplit).mockClear()
    const plan = findRoute({ pools: [pool], tokenIn: A, tokenOut: B, connectors: [], gasCostInOutput: 1e9 }, amountIn)!
    expect(plan.amountOut).toBe(simulatePlan([{ path: [{ pool, tokenIn: A, tokenOut: B }], amountIn }])!.amountOut)
    expect(vi.mocked(greedySplit)).not.toHaveBeenCalled()
  })

  it('two paths of equal depth still share the trade', () => {
    const direct = v2Pool(A, B, 1000n * E18, 1000n * E18)
    const pools = [direct, v2Pool(A, C, 1000n * E18, 1000n * E18), v2Pool(C, B, 1000n * E18, 1000n * E18)]
    vi.mocked(greedySplit).mockClear()
    const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors: [C], gasCostInOutput: 1e9 }, 100n * E18)!
    expect(plan.paths.length).toBe(2)
    expect(plan.amountOut).toBeGreaterThan(simulatePlan([{ path: [{ pool: direct, tokenIn: A, tokenOut: B }], amountIn: 100n * E18 }])!.amountOut)
  })
})
