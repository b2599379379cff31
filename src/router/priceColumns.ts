import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { scopeEdges } from './allPoolsBound.js'
import { type AllPoolsScope, allPoolsScope } from './allPoolsScope.js'
import type { FlowSolution } from './splitSolver.js'
import { type Edge, type RouteGraph, SINK, SOURCE } from './types.js'

/** A chain must promise at least this share of the trade's value at the candidate prices to be brought in (0.001 bp). */
const GAIN_SHARE = 1e-7
/** Golden-section steps of a chain's best input (in log input: far finer than the ranking needs). */
const PROFIT_STEPS = 48
/** The smallest input a chain's best input is searched from, as a share of the trade's value. */
const LEAST_INPUT_SHARE = 1e-12
/** The golden ratio's conjugate, (√5 − 1) / 2: the share of the bracket a golden-section step keeps. */
const GOLDEN = (Math.sqrt(5) - 1) / 2

/**
 * A column the candidate graph lacks: a chain of pools from a token the
 * candidate flow trades to another, through tokens it does not trade, that
 * earns `profit` (raw output units) at the candidate prices.
 */
export type Column = {
  /** The chain's intermediate tokens, in order. */
  tokens: Address[]
  /** The most the chain earns at the candidate prices: max over x of ν_end·chain(x) − ν_start·x. */
  profit: number
}

/**
 * Column generation for the candidate graph: the chains of pools that the
 * gas-free optimum over the candidates would gain from, priced at that
 * optimum's dual prices. A token the candidate flow trades (the input, the
 * output, and every graph token some edge of `flow` trades) has its price;
 * every other token of the all-pools scope is free. For each free token, the
 * cheapest way to buy it from a priced token and the dearest way to sell it
 * into one, at the pools' zero-size rates, hop by hop (a chain starts where
 * the candidate paths first reach its priced token and ends where they last
 * leave its other, so the whole path fits `graph.maxHops`): where selling
 * beats buying, the optimum gains from that chain, which the candidate
 * restriction leaves out (by weak duality, a graph whose prices admit no such
 * chain is optimal over every pool of the scope, up to the depth its pools
 * were modelled at). Each such chain is then valued at its best input on the
 * pools' curves, ends at their prices; the ones earning at least GAIN_SHARE of
 * the trade's value come back, the most first (one per distinct chain). A
 * token whose only chains reuse a token is skipped.
 *
 * @example
 * const flow = solveFlow(graph, graph.edges.map(() => true), 1e18)
 * const columns = priceColumns(pools, graph, flow, 1e18)
 * columns[0]?.tokens // the intermediates of the chain that gains most
 */
export function priceColumns(pools: readonly Pool[], graph: RouteGraph, flow: FlowSolution, amountIn: number): Column[] {
  const maxHops = graph.maxHops
  const scope = allPoolsScope(pools, graph.tokens[SOURCE]!, graph.tokens[SINK]!, maxHops)
  const tradeValue = amountIn * flow.prices[SOURCE]!
  if (!scope || !(tradeValue > 0) || !Number.isFinite(tradeValue)) return []
  const count = scope.tokens.length
  const scopeIndex = indexOf(scope)
  // The priced tokens (by scope index; 0: free), with the fewest hops the candidate paths take to
  // reach each and to leave it for the output.
  const price = new Float64Array(count)
  const hopsIn = new Int32Array(count).fill(maxHops + 1)
  const hopsOut = new Int32Array(count).fill(maxHops + 1)
  const traded = new Uint8Array(graph.tokens.length)
  traded[SINK] = 1
  traded[SOURCE] = 1
  graph.edges.forEach((edge, e) => {
    if (flow.inputs[e]! > 0) traded[edge.from] = traded[edge.to] = 1
  })
  for (const path of graph.tokenPaths)
    path.forEach((token, k) => {
      const s = scopeIndex.get(graph.tokens[token]!)
      if (s === undefined || !traded[token] || !(flow.prices[token]! > 0)) return
      price[s] = flow.prices[token]!
      hopsIn[s] = Math.min(hopsIn[s]!, k)
      hopsOut[s] = Math.min(hopsOut[s]!, path.length - 1 - k)
    })
  if (!(price[SOURCE]! > 0) || !(price[SINK]! > 0)) return []
  const edges = scopeEdges(scope, amountIn, price)
  const chains = new ChainSearch(edges, price, hopsIn, hopsOut, maxHops)

  // Per free token, the best chain through it for every split of the hops between buying and
  // selling (each valued once: chains found from several of their tokens are the same chain).
  const valued = new Map<string, Column | undefined>()
  for (let t = 0; t < count; t++) {
    if (price[t]! > 0) continue
    for (let k = 1; k < maxHops; k++) {
      const bought = chains.cheapest(t, k)
      const sold = chains.dearest(t, maxHops - k)
      if (bought.hops < 0 || sold.hops < 0 || !(sold.value > bought.cost)) continue
      const route = chains.chain(t, bought.hops, sold.hops)
      if (!route) continue
      const key = route.join()
      if (valued.has(key)) continue
      const profit = chainProfit(edges, route, price, tradeValue)
      const intermediates = route.slice(1).map((e) => scope.tokens[edges[e]!.from]!)
      valued.set(key, profit >= GAIN_SHARE * tradeValue ? { tokens: intermediates, profit } : undefined)
    }
  }
  const columns: Column[] = []
  for (const column of valued.values()) if (column) columns.push(column)
  return columns.sort((a, b) => b.profit - a.profit || (a.tokens.join() < b.tokens.join() ? -1 : 1))
}

/** Each scope's token indices by address, kept with the scope (it is shared by every quote on its pool list and pair). */
const scopeIndices = new WeakMap<AllPoolsScope, ReadonlyMap<Address, number>>()

function indexOf(scope: AllPoolsScope): ReadonlyMap<Address, number> {
  let index = scopeIndices.get(scope)
  if (!index) scopeIndices.set(scope, (index = new Map(scope.tokens.map((token, i) => [token, i]))))
  return index
}

/**
 * The hop-by-hop search of priceColumns over the scope's edges: per free token
 * and hop count, the least it costs to buy one unit from a priced token (in
 * output units, over the zero-size rates of the pools in between) and the most
 * one unit sells for into a priced token, with the edge each came over.
 */
class ChainSearch {
  readonly count: number
  /** buy[k·count + t]: the least cost of a unit of t reached after exactly k hops; buyVia the edge it came over. */
  readonly buy: Float64Array
  readonly buyVia: Int32Array
  /** sell[l·count + t]: the most a unit of t brings with exactly l hops to the output; sellVia the edge it leaves over. */
  readonly sell: Float64Array
  readonly sellVia: Int32Array

  constructor(
    readonly edges: readonly Edge[],
    readonly price: Float64Array,
    hopsIn: Int32Array,
    hopsOut: Int32Array,
    readonly maxHops: number,
  ) {
    const count = price.length
    this.count = count
    const layers = (maxHops + 1) * count
    this.buy = new Float64Array(layers).fill(Infinity)
    this.sell = new Float64Array(layers)
    this.buyVia = new Int32Array(layers).fill(-1)
    this.sellVia = new Int32Array(layers).fill(-1)
    // A priced token starts a chain at its price where the candidate paths first reach it (and
    // ends one where they last leave it); its price is fixed, so no chain passes through it.
    for (let t = 0; t < count; t++) {
      if (!(price[t]! > 0)) continue
      if (t !== SINK && hopsIn[t]! < maxHops) this.buy[hopsIn[t]! * count + t] = price[t]!
      if (t !== SOURCE && hopsOut[t]! < maxHops) this.sell[hopsOut[t]! * count + t] = price[t]!
    }
    for (let k = 0; k < maxHops; k++) {
      const here = k * count
      const next = here + count
      for (let e = 0; e < edges.length; e++) {
        const { from, to, curve } = edges[e]!
        const rate = curve.rate0
        if (!(rate > 0)) continue
        if (!(price[to]! > 0)) {
          const cost = this.buy[here + from]! / rate
          if (cost < this.buy[next + to]!) {
            this.buy[next + to] = cost
            this.buyVia[next + to] = e
          }
        }
        if (!(price[from]! > 0)) {
          const value = this.sell[here + to]! * rate
          if (value > this.sell[next + from]!) {
            this.sell[next + from] = value
            this.sellVia[next + from] = e
          }
        }
      }
    }
  }

  /** The least cost of a unit of free token t within `hops` hops of the input, and the hop count it takes (-1: none). */
  cheapest(t: number, hops: number): { cost: number; hops: number } {
    let found = { cost: Infinity, hops: -1 }
    for (let k = 1; k <= hops; k++) if (this.buy[k * this.count + t]! < found.cost) found = { cost: this.buy[k * this.count + t]!, hops: k }
    return found
  }

  /** The most a unit of free token t brings within `hops` hops of the output, and the hop count it takes (-1: none). */
  dearest(t: number, hops: number): { value: number; hops: number } {
    let found = { value: 0, hops: -1 }
    for (let l = 1; l <= hops; l++) if (this.sell[l * this.count + t]! > found.value) found = { value: this.sell[l * this.count + t]!, hops: l }
    return found
  }

  /**
   * The chain through free token t bought over `buyHops` and sold over `sellHops` hops: its edges
   * from a priced token to a priced token (undefined when it passes a token twice).
   */
  chain(t: number, buyHops: number, sellHops: number): number[] | undefined {
    const { edges, count, price } = this
    const route: number[] = []
    for (let token = t, k = buyHops; !(price[token]! > 0); k--) {
      const e = this.buyVia[k * count + token]!
      route.unshift(e)
      token = edges[e]!.from
    }
    for (let token = t, l = sellHops; !(price[token]! > 0); l--) {
      const e = this.sellVia[l * count + token]!
      route.push(e)
      token = edges[e]!.to
    }
    const seen = new Set<number>([edges[route[0]!]!.from])
    for (const e of route) {
      if (seen.has(edges[e]!.to)) return undefined
      seen.add(edges[e]!.to)
    }
    return route
  }
}

/**
 * The most a chain of edges earns at the token prices `price`: max over its
 * input x of ν_end·chain(x) − ν_start·x (the chain's curves composed), by
 * golden section in log x (the composition of concave increasing curves is
 * concave, so the profit has one peak), from a negligible input to the whole
 * trade's value or the first pool's end.
 */
function chainProfit(edges: readonly Edge[], route: readonly number[], price: Float64Array, tradeValue: number): number {
  const first = edges[route[0]!]!
  const startPrice = price[first.from]!
  const endPrice = price[edges[route[route.length - 1]!]!.to]!
  const profitAt = (logInput: number) => {
    const input = Math.exp(logInput)
    let amount = input
    for (const e of route) amount = edges[e]!.curve.amountOut(amount)
    return endPrice * amount - startPrice * input
  }
  let low = Math.log((LEAST_INPUT_SHARE * tradeValue) / startPrice)
  let high = Math.log(Math.min(tradeValue / startPrice, first.curve.limit()))
  if (!(high > low)) return 0
  let left = high - GOLDEN * (high - low)
  let right = low + GOLDEN * (high - low)
  let atLeft = profitAt(left)
  let atRight = profitAt(right)
  for (let step = 0; step < PROFIT_STEPS; step++) {
    if (atLeft < atRight) {
      low = left
      left = right
      atLeft = atRight
      right = low + GOLDEN * (high - low)
      atRight = profitAt(right)
    } else {
      high = right
      right = left
      atRight = atLeft
      left = high - GOLDEN * (high - low)
      atLeft = profitAt(left)
    }
  }
  return Math.max(atLeft, atRight, 0)
}
