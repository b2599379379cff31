import type { Pool } from '../../src/protocols/types.js'
import type { Plan } from '../../src/router/types.js'

/**
 * Replays a plan's executor segments the way WeftExecutor runs them: a ledger of what the fill
 * holds per token, each segment spending its amountIn of its first token (0: all of it), each
 * step trading the pool's state as the previous steps left it. Returns what reached `tokenOut`,
 * or undefined when a step cannot be filled or spends more than is held.
 */
export function replaySegments(plan: Plan, tokenIn: string, tokenOut: string): bigint | undefined {
  const held = new Map<string, bigint>([[tokenIn, plan.amountIn]])
  const states = new Map<string, Pool>()
  for (const segment of plan.segments) {
    const first = segment.hops[0]!.tokenIn
    const available = held.get(first) ?? 0n
    let amount = segment.amountIn === 0n ? available : segment.amountIn
    if (amount > available) return undefined
    held.set(first, available - amount)
    for (const hop of segment.hops) {
      const pool = states.get(hop.pool.key) ?? hop.pool
      const result = pool.quoteExactIn(hop.tokenIn, hop.tokenOut, amount)
      if (!result) return undefined
      states.set(pool.key, result.next)
      amount = result.amountOut
    }
    const last = segment.hops.at(-1)!.tokenOut
    held.set(last, (held.get(last) ?? 0n) + amount)
  }
  return held.get(tokenOut) ?? 0n
}
