// layeredRoute holds a pool the layered flow trades from several layers to one of them. When the
// pool is too shallow for every copy, each copy (holding the pool's whole depth in the free solve)
// trades it to its end: they trade the same, and the copy whose input is cheaper at the flow's
// prices (it gains more there) must keep it, whatever the order of the layers.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Pool } from '../protocols/types.js'
import type { Curve, RatePoint } from './curves.js'
import { layerGraph } from './layerGraph.js'
import { layeredRoute } from './layeredRoute.js'
import { type Edge, type RouteGraph, SINK, SOURCE } from './types.js'

/**
 * A fee-charging constant-product curve (out = R_out·n / (R_in + n), n = (1 − fee)·x) that takes at
 * most `maxIn`: a pool that ends within the trade.
 */
class CappedProduct implements Curve {
  readonly rate0: number
  readonly sampled = false
  private readonly gamma: number
  constructor(
    private readonly reserveIn: number,
    private readonly reserveOut: number,
    fee: number,
    private readonly maxIn = Infinity,
  ) {
    this.gamma = 1 - fee
    this.rate0 = (this.gamma * reserveOut) / reserveIn
  }
  amountOut(x: number): number {
    const net = this.gamma * Math.max(0, Math.min(x, this.maxIn))
    return (this.reserveOut * net) / (this.reserveIn + net)
  }
  marginal(x: number): number {
    const u = this.reserveIn + this.gamma * Math.max(0, Math.min(x, this.maxIn))
    return (this.gamma * this.reserveIn * this.reserveOut) / (u * u)
  }
  atRate(rate: number, into: RatePoint): RatePoint {
    into.input = 0
    into.output = 0
    into.slope = 0
    if (!(rate < this.rate0)) return into
    const u = Math.sqrt((this.gamma * this.reserveIn * this.reserveOut) / rate)
    const x = (u - this.reserveIn) / this.gamma
    into.slope = x >= this.maxIn ? 0 : -u / (2 * this.gamma * rate)
    into.input = Math.min(x, this.maxIn)
    into.output = this.amountOut(into.input)
    return into
  }
  gas(): number {
    return 100_000
  }
  covers(x: number): boolean {
    return x <= this.limit()
  }
  limit(): number {
    return this.maxIn
  }
}

const token = (n: number) => `0x${(0xd0 + n).toString(16).padStart(40, '0')}` as Address
// Token indices: B (the output) and A (the input) first, as in every route graph.
const [B, A, X, Y, Z] = [SINK, SOURCE, 2, 3, 4]
const RESERVE = 1e6

/** A graph edge `from -> to` through a pool named `pool` on `curve`. */
const edge = (from: number, to: number, pool: string, curve: Curve): Edge => ({
  from,
  to,
  hop: { pool: { key: pool } as Pool, tokenIn: token(from), tokenOut: token(to) },
  curve,
})

// X sells into the output through P, which takes 1,000 units at most, or through Y on two 5% pools.
// X is reached directly (after 1 hop, on a pool A -> X that the Y route loads) or through Z (after 2
// hops, on pools of fee `feeZX` into X). Within 3 hops, X after 2 hops has P alone to sell into,
// X after 1 hop has P and Y: P is worth more to the cheaper X, the one through Z when its pool
// charges no fee, the one reached directly when it charges 8% (the direct pool, loaded by the Y route, loses about 4%).
const market = (feeZX: number): RouteGraph => ({
  tokens: [B, A, X, Y, Z].map(token),
  edges: [
    edge(A, X, 'AX', new CappedProduct(RESERVE, RESERVE, 0)),
    edge(A, Z, 'AZ', new CappedProduct(RESERVE, RESERVE, 0)),
    edge(Z, X, 'ZX', new CappedProduct(RESERVE, RESERVE, feeZX)),
    edge(X, B, 'P', new CappedProduct(RESERVE, RESERVE, 0, 1_000)),
    edge(X, Y, 'XY', new CappedProduct(RESERVE, RESERVE, 0.05)),
    edge(Y, B, 'YB', new CappedProduct(RESERVE, RESERVE, 0.05)),
  ],
  tokenPaths: [
    [A, X, B],
    [A, X, Y, B],
    [A, Z, X, B],
  ],
  pools: [],
  spot: [1, 1, 1, 0.95, 1],
  maxHops: 3,
})

describe('layeredRoute', () => {
  it.each([
    { feeZX: 0, kept: 'AZ>ZX>P', dropped: 'AX>P' },
    { feeZX: 0.08, kept: 'AX>P', dropped: 'AZ>ZX>P' },
  ])('holds a pool every layer copy trades to its end to the copy that gains most there (fee into X through Z $feeZX)', ({ feeZX, kept, dropped }) => {
    const amount = 20_000
    const layered = layerGraph(market(feeZX))!
    const solved = layeredRoute(layered, amount)!
    // Both copies of P (after 1 hop, after 2) take its whole depth in the free solve.
    const copies = layered.graph.edges.filter((e) => e.hop.pool.key === 'P')
    expect(copies).toHaveLength(2)
    layered.graph.edges.forEach((e, k) => e.hop.pool.key === 'P' && expect(solved.free.inputs[k]).toBe(1_000))
    // P is kept for the cheaper X.
    const names = solved.model.paths.map((path) => path.edges.map((e) => layered.graph.edges[e]!.hop.pool.key).join('>'))
    expect(names).toContain(kept)
    expect(names).not.toContain(dropped)
    // And that is worth more than holding P to the other X (the copy it kept taken out).
    const keptCopy = copies.find((copy) => copy.from === (kept === 'AX>P' ? copies[0]! : copies[1]!).from)!
    const other = layeredRoute({ ...layered, graph: { ...layered.graph, edges: layered.graph.edges.filter((e) => e !== keptCopy) } }, amount)!
    expect(solved.model.output).toBeGreaterThan(other.model.output)
  })
})
