import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type Curve, getCurve } from './curves.js'
import type { Hop, Path } from './types.js'

/** A token reached after some hops: what it holds there and the hop that brought it (and from where). */
type Reached = { amount: number; hop: Hop | undefined; from: Reached | undefined }

/**
 * Shares of the amount the best single paths are also searched at: the best
 * path for the whole amount is often not the one that carries most of a split
 * (a deep route capped part way is best for half the amount), and tokens
 * beyond the majors become candidates through these paths.
 */
const PROBE_SHARES = [1, 0.5]

/**
 * The best single path of each length up to `maxHops` through ANY token the
 * pools hold (not only the route graph's candidates), in the float model, for
 * the whole amount and for half of it (PROBE_SHARES): a layered search where
 * layer k keeps, per token, the most any k-hop walk from the input can hold
 * there. Every curve increases with its input, so the best walk to a token
 * extends the best walk to the token before it; walks that reuse a pool or
 * revisit a token are dropped at the end. Gas is not weighed (the caller
 * simulates the few paths returned and compares them net of gas). Distinct
 * paths, the most output for the whole amount first. This is the floor every
 * route is checked against, and the route of last resort when the candidate
 * graph cannot fill the amount.
 *
 * @example
 * const paths = findSinglePaths(pools, weth, pepe, 1e18, 4) // a few paths per length, the best first
 */
export function findSinglePaths(pools: readonly Pool[], tokenIn: Address, tokenOut: Address, amountIn: number, maxHops: number): Path[] {
  if (!(amountIn > 0) || !Number.isFinite(amountIn) || maxHops < 1) return []
  const neighbours = new Map<Address, { pool: Pool; to: Address }[]>()
  for (const pool of pools)
    for (const a of pool.tokens)
      for (const b of pool.tokens) {
        if (a === b || a === tokenOut || b === tokenIn) continue
        let list = neighbours.get(a)
        if (!list) neighbours.set(a, (list = []))
        list.push({ pool, to: b })
      }
  // Hops from each token to the output (over any pool): tokens that cannot reach it in the hops
  // left are not expanded.
  const toOutput = new Map<Address, number>([[tokenOut, 0]])
  for (let k = 1; k < maxHops; k++)
    for (const [a, list] of neighbours) {
      if (toOutput.has(a)) continue
      if (list.some(({ to }) => toOutput.get(to) === k - 1)) toOutput.set(a, k)
    }
  const curves = new Map<string, Curve>()
  const curveOf = (pool: Pool, a: Address, b: Address, scale: number) => {
    const key = `${pool.key}:${a}>${b}`
    let curve = curves.get(key)
    if (!curve) curves.set(key, (curve = getCurve(pool, a, b, scale)))
    return curve
  }
  const found = new Map<string, Path>()
  for (const share of PROBE_SHARES) {
    let layer = new Map<Address, Reached>([[tokenIn, { amount: amountIn * share, hop: undefined, from: undefined }]])
    for (let k = 1; k <= maxHops && layer.size > 0; k++) {
      const next = new Map<Address, Reached>()
      for (const [token, reached] of layer) {
        if (token === tokenOut) continue
        for (const { pool, to } of neighbours.get(token) ?? []) {
          const hopsLeft = toOutput.get(to)
          if (hopsLeft === undefined || hopsLeft > maxHops - k) continue
          const curve = curveOf(pool, token, to, reached.amount)
          if (!curve.covers(reached.amount)) continue
          const amount = curve.amountOut(reached.amount)
          if (!(amount > (next.get(to)?.amount ?? 0))) continue
          next.set(to, { amount, hop: { pool, tokenIn: token, tokenOut: to }, from: reached })
        }
      }
      const end = next.get(tokenOut)
      if (end) {
        const hops: Hop[] = []
        for (let at: Reached | undefined = end; at?.hop; at = at.from) hops.unshift(at.hop)
        const tokens = new Set([tokenIn, ...hops.map((h) => h.tokenOut)])
        const poolKeys = new Set(hops.map((h) => h.pool.key))
        const key = hops.map((h) => `${h.pool.key}:${h.tokenIn}>${h.tokenOut}`).join()
        if (tokens.size === hops.length + 1 && poolKeys.size === hops.length && !found.has(key)) found.set(key, hops)
      }
      layer = next
    }
  }
  // The whole amount through each path in the model (0 when a hop cannot take it), the most first.
  const whole = (path: Path) => {
    let amount = amountIn
    for (const hop of path) {
      const curve = curveOf(hop.pool, hop.tokenIn, hop.tokenOut, amount)
      if (!curve.covers(amount)) return 0
      amount = curve.amountOut(amount)
    }
    return amount
  }
  return [...found.values()]
    .map((path) => ({ path, amount: whole(path) }))
    .sort((a, b) => b.amount - a.amount)
    .map((f) => f.path)
}
