import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import type { Hop, Path } from './types.js'

/**
 * Every simple path of at most `maxHops` pools from `tokenIn` to `tokenOut`
 * whose intermediate tokens are all connectors. Deterministic order (by the
 * pools' order in `pools`).
 *
 * @example
 * findPaths(pools, weth, link, { connectors: chain.majorTokens, maxHops: 3 })
 */
export function findPaths(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  { connectors, maxHops }: { connectors: readonly Address[]; maxHops: number },
): Path[] {
  const connectorSet = new Set(connectors)
  const byToken = new Map<Address, Pool[]>()
  for (const pool of pools) {
    for (const token of pool.tokens) {
      let list = byToken.get(token)
      if (!list) byToken.set(token, (list = []))
      list.push(pool)
    }
  }
  const paths: Path[] = []
  const visited = new Set<Address>([tokenIn])
  const hops: Hop[] = []
  const walk = (token: Address) => {
    for (const pool of byToken.get(token) ?? []) {
      if (hops.some((h) => h.pool === pool)) continue
      for (const next of pool.tokens) {
        if (next === token || visited.has(next)) continue
        if (next === tokenOut) {
          paths.push([...hops, { pool, tokenIn: token, tokenOut: next }])
          continue
        }
        if (hops.length + 1 >= maxHops || !connectorSet.has(next)) continue
        visited.add(next)
        hops.push({ pool, tokenIn: token, tokenOut: next })
        walk(next)
        hops.pop()
        visited.delete(next)
      }
    }
  }
  walk(tokenIn)
  return paths
}
