import { vi } from 'vitest'
import { UniswapV2Pool } from '../../src/protocols/uniswapV2/pool.js'
import { UniswapV3Pool } from '../../src/protocols/uniswapV3/pool.js'

/**
 * What `run` returns and how many exact swaps (V2 and V3 `quoteExactIn` calls, the hard markets'
 * two families) it simulated: a count of work that does not depend on the machine's load.
 *
 * @example
 * const { result: plan, swaps } = countExactSwaps(() => trade.route(6))
 */
export function countExactSwaps<T>(run: () => T): { result: T; swaps: number } {
  const v3 = vi.spyOn(UniswapV3Pool.prototype, 'quoteExactIn')
  const v2 = vi.spyOn(UniswapV2Pool.prototype, 'quoteExactIn')
  try {
    const result = run()
    return { result, swaps: v3.mock.calls.length + v2.mock.calls.length }
  } finally {
    v3.mockRestore()
    v2.mockRestore()
  }
}
