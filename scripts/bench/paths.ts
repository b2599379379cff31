// Candidate paths and exact path quotes, written for the bench so the baselines
// do not lean on the router's own search.
import type { Address } from 'viem'
import type { Pool } from '../../src/protocols/types.js'
import type { Hop, Path } from '../../src/router/types.js'

/**
 * Every simple path of at most `maxHops` pools from `tokenIn` to `tokenOut`
 * whose intermediate tokens are connectors, in a deterministic order.
 *
 * @example
 * const paths = enumeratePaths(pools, usdc, weth, new Set(chain.majorTokens), 3)
 */
export function enumeratePaths(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  connectors: ReadonlySet<Address>,
  maxHops: number,
): Path[] {
  const byToken = new Map<Address, Pool[]>()
  for (const pool of pools)
    for (const token of pool.tokens) {
      const list = byToken.get(token)
      if (list) list.push(pool)
      else byToken.set(token, [pool])
    }
  const paths: Path[] = []
  const hops: Hop[] = []
  const seenTokens = new Set<Address>([tokenIn])
  const extend = (token: Address) => {
    for (const pool of byToken.get(token) ?? []) {
      if (hops.some((h) => h.pool === pool)) continue
      const next = pool.tokens[0] === token ? pool.tokens[1]! : pool.tokens[0]!
      if (seenTokens.has(next)) continue
      const hop = { pool, tokenIn: token, tokenOut: next }
      if (next === tokenOut) {
        paths.push([...hops, hop])
        continue
      }
      if (hops.length + 1 >= maxHops || !connectors.has(next)) continue
      hops.push(hop)
      seenTokens.add(next)
      extend(next)
      seenTokens.delete(next)
      hops.pop()
    }
  }
  extend(tokenIn)
  return paths
}

/** Exact output and gas of a path on the pools' current states (each hop on its own pool's state). */
export function quotePathExactIn(path: Path, amountIn: bigint): { amountOut: bigint; gas: bigint } | undefined {
  let amount = amountIn
  let gas = 0n
  for (const hop of path) {
    const result = hop.pool.quoteExactIn(hop.tokenIn, hop.tokenOut, amount)
    if (!result) return undefined
    amount = result.amountOut
    gas += result.gas
  }
  return { amountOut: amount, gas }
}

/** Least exact input (and gas) for which a path delivers `amountOut`, hop by hop from the end. */
export function quotePathExactOut(path: Path, amountOut: bigint): { amountIn: bigint; gas: bigint } | undefined {
  let amount = amountOut
  let gas = 0n
  for (let i = path.length - 1; i >= 0; i--) {
    const hop = path[i]!
    const result = hop.pool.quoteExactOut(hop.tokenIn, hop.tokenOut, amount)
    if (!result) return undefined
    amount = result.amountIn
    gas += result.gas
  }
  return { amountIn: amount, gas }
}

/** Pools a path uses, by key. */
export const poolKeysOf = (path: Path): string[] => path.map((h) => h.pool.key)

/**
 * Splits `total` by fractions (summing to about 1): floors, then gives the
 * rounding remainder to the largest share, so the shares sum to `total`.
 *
 * @example
 * splitByFractions(100n, [0.5, 0.5]) // [50n, 50n]
 */
export function splitByFractions(total: bigint, fractions: readonly number[]): bigint[] {
  const scale = 10n ** 15n
  const sum = fractions.reduce((a, b) => a + b, 0)
  const shares = fractions.map((f) => (total * BigInt(Math.round((f / sum) * 1e15))) / scale)
  let largest = 0
  for (let i = 1; i < shares.length; i++) if (fractions[i]! > fractions[largest]!) largest = i
  shares[largest] = shares[largest]! + (total - shares.reduce((a, b) => a + b, 0n))
  return shares
}
