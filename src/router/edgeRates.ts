import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type SwapMemo, quoteMemoized } from './swapMemo.js'
import type { ExecutedHop, Plan } from './types.js'

/**
 * One pool and direction of a plan: the state it is first traded on, the total the plan trades
 * there, its exact rates (output per input) just past and just short of that total (NaN until
 * rated), and whether it is drained (cannot take the probe's more: a pool at its last tick's end).
 */
export type EdgeRate = { tokenIn: Address; tokenOut: Address; state: Pool; total: bigint; forward: number; backward: number; drained: boolean }

/** A plan's edges by pool key (a pool's few directions in a short list, found by their tokens). */
export type EdgeRates = Map<string, EdgeRate[]>

/**
 * The edge of `rates` a hop trades.
 *
 * @example
 * const edge = edgeOf(edgeRates(plan, 1000n, memo).rates, plan.paths[0]!.hops[0]!)
 * edge?.drained // whether that pool can take more
 */
export function edgeOf(rates: EdgeRates, hop: ExecutedHop): EdgeRate | undefined {
  const list = rates.get(hop.pool.key)
  if (list) for (const edge of list) if (edge.tokenIn === hop.tokenIn && edge.tokenOut === hop.tokenOut) return edge
  return undefined
}

/**
 * Every edge's rates at the plan's totals: each pool and direction once, at the total all paths
 * trade there, on the state its first trade saw. That holds for a flow (each pool traded once) and
 * for paths run one after another: a pool two paths share ends where its total takes it, and a
 * unit more on either path moves it from there (priced on each path's own state and amount, an
 * earlier path showed the pool's rate short of the later paths' trades, and could take more of a
 * pool the later ones had drained; hard bench 100:123 H16->H19 30% at 6 hops). Rates are over the
 * change `probe` more or less input makes at that hop (scaled by what the hop holds over what its
 * path put in: the first path through the edge sets it), exact. A hop that cannot take more gains
 * nothing; one that cannot give up the change loses all (Infinity). `resolution`: the fewest raw
 * units any hop's input change or nonzero output difference held (a rate is off by up to a raw
 * unit of each).
 *
 * @example
 * const { rates } = edgeRates(plan, plan.amountIn >> 10n, memo)
 * pathRate(plan.paths[0]!.hops, rates, 'forward') // output per raw unit more on the first path
 */
export function edgeRates(plan: Plan, probe: bigint, memo: SwapMemo | undefined): { rates: EdgeRates; resolution: bigint } {
  const rates: EdgeRates = new Map()
  for (const path of plan.paths)
    for (const hop of path.hops) {
      const edge = edgeOf(rates, hop)
      if (edge) {
        edge.total += hop.amountIn
        continue
      }
      const added: EdgeRate = { tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, state: hop.pool, total: hop.amountIn, forward: Number.NaN, backward: Number.NaN, drained: false }
      const list = rates.get(hop.pool.key)
      if (list) list.push(added)
      else rates.set(hop.pool.key, [added])
    }
  let resolution: bigint | undefined
  const resolves = (units: bigint) => {
    if (resolution === undefined || units < resolution) resolution = units
  }
  for (const path of plan.paths)
    for (const hop of path.hops) {
      const edge = edgeOf(rates, hop)!
      if (!Number.isNaN(edge.forward)) continue
      const { total, state } = edge
      let change = path.amountIn > 0n ? (probe * hop.amountIn) / path.amountIn : probe
      if (change < 1n) change = 1n
      const at = quoteMemoized(state, hop.tokenIn, hop.tokenOut, total, memo)?.amountOut ?? 0n
      const more = quoteMemoized(state, hop.tokenIn, hop.tokenOut, total + change, memo)?.amountOut
      const less = change > total ? undefined : change === total ? 0n : quoteMemoized(state, hop.tokenIn, hop.tokenOut, total - change, memo)?.amountOut
      const size = Number(change)
      // An output that does not move at all is a pool at its end (or a hop the probe's input change
      // already shows unresolved), not a coarse rate.
      resolves(change)
      if (more !== undefined && more > at) resolves(more - at)
      if (less !== undefined && at > less) resolves(at - less)
      edge.drained = more === undefined
      edge.forward = more === undefined ? 0 : Number(more - at) / size
      edge.backward = less === undefined ? Infinity : Number(at - less) / size
    }
  return { rates, resolution: resolution ?? 0n }
}

/**
 * A path's rate past (forward) or short of (backward) its amount: the product of its hops' rates.
 *
 * @example
 * const gain = pathRate(plan.paths[0]!.hops, edgeRates(plan, 1000n, memo).rates, 'forward')
 */
export function pathRate(hops: readonly ExecutedHop[], rates: EdgeRates, side: 'forward' | 'backward'): number {
  let rate = 1
  for (const hop of hops) rate *= edgeOf(rates, hop)![side]
  // A hop that gains nothing beside one that cannot give up its change (0 · Infinity).
  return Number.isNaN(rate) ? (side === 'forward' ? 0 : Infinity) : rate
}
