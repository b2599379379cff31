import type { RatePoint } from './curves.js'
import type { FlowSolution } from './splitSolver.js'
import { type RouteGraph, SINK, SOURCE } from './types.js'

/** A route in the float model: paths (as edge indices) with their shares of the input. */
export type ModelRoute = {
  paths: { edges: number[]; share: number }[]
  /** Output of the route executed as a flow (each pool traded once with its total). */
  output: number
  /** Gas units of the pools it trades. */
  gas: number
  /** Edges it trades. */
  used: number[]
  /** The flow's paths fell short of the amount and were scaled up to it (not the flow's optimum). */
  short?: boolean
}

/** Paths carrying less than this share of the input are dropped from a split (their amount goes to the others). */
const MIN_SHARE = 1e-9
/** A decomposition whose paths fall short of the input by more than this share is infeasible. */
const SHORT_SHARE = 1e-6

/**
 * Turns a flow into paths. The flow's support (one direction per pool, cycles
 * broken at their thinnest edge) is first made exactly conserving: the input
 * is pushed through the tokens in topological order, each token's holdings
 * divided among its edges in the flow's proportions. That flow is then
 * decomposed greedily (at each token the edge with the most left, the path's
 * amount its bottleneck), so it needs at most one path per edge; executed as
 * a flow (proportional shares), the paths give back exactly the edge totals.
 * Undefined when the edges cannot take the whole amount. With `copiesApart`,
 * every edge counts as a pool of its own (the layer copies of a pool, even in
 * opposite directions, keep their trades: executed path by path, each trades
 * the pool on the state the last left).
 *
 * @example
 * const model = decompose(graph, solveFlow(graph, active, 1e18), 1e18)
 * model?.paths // [{ edges: [0, 3], share: 6e17 }, { edges: [1], share: 4e17 }]
 */
export function decompose(graph: RouteGraph, flow: FlowSolution, amountIn: number, tooLong?: number[], copiesApart = false): ModelRoute | undefined {
  const { edges, tokens } = graph
  const poolOf = (e: number) => (copiesApart ? `${e}` : edges[e]!.hop.pool.key)
  const inputs = Float64Array.from(flow.inputs)
  // One direction per pool: the larger. Directions are told apart by input token, so the layer
  // copies of a pool (one token, several nodes of a layered graph) trade it together.
  const byPool = new Map<string, number>()
  edges.forEach((edge, e) => {
    if (!(inputs[e]! > 0)) return
    const other = byPool.get(poolOf(e))
    if (other === undefined) byPool.set(poolOf(e), e)
    else if (edges[other]!.hop.tokenIn !== edge.hop.tokenIn) {
      const drop = inputs[other]! >= inputs[e]! ? e : other
      inputs[drop] = 0
      byPool.set(poolOf(e), drop === e ? other : e)
    }
  })
  let taken = 0
  edges.forEach((edge, e) => {
    if (edge.from === SOURCE) taken += inputs[e]!
  })
  if (!(taken > 0)) return undefined
  // Short of the amount: past the pools' capacity when no edge out of the input can take the rest,
  // else a solve stopped at float resolution (the push below scales its proportions to the amount).
  if (taken < amountIn * (1 - 1e-9) && !edges.some((edge, e) => edge.from === SOURCE && inputs[e]! > 0 && edge.curve.covers(inputs[e]! + amountIn - taken))) return undefined

  routeDeadEnds(graph, flow.prices, inputs, byPool, poolOf)
  const uncut = Float64Array.from(inputs)
  const order = topologicalOrder(graph, inputs)
  // Two-way crossings (H0 -> H1 through one pool, H1 -> H0 through another): the cut above loses
  // their value; their simple paths, executed one after another, keep it. The better model wins.
  const crossings = uncut.some((x, e) => x !== inputs[e]) ? decomposeCrossings(graph, uncut, amountIn) : undefined
  const support = edges.map((_, e) => e).filter((e) => inputs[e]! > 0)
  support.sort((a, b) => order[edges[a]!.from]! - order[edges[b]!.from]! || a - b)
  const outflow = new Float64Array(tokens.length)
  for (const e of support) outflow[edges[e]!.from] = outflow[edges[e]!.from]! + inputs[e]!
  // Conserving flow: what each edge takes and gives.
  const held = new Float64Array(tokens.length)
  held[SOURCE] = amountIn
  const edgeIn = new Float64Array(edges.length)
  const edgeOut = new Float64Array(edges.length)
  for (let i = 0; i < support.length; ) {
    const from = edges[support[i]!]!.from
    let j = i
    while (j < support.length && edges[support[j]!]!.from === from) j++
    const group = support.slice(i, j)
    i = j
    if (from === SINK) continue
    // The token's holdings in the flow's proportions. A pool traded to the end of its known state
    // stops a margin short of it; what it cannot take goes to the token's other edges in proportion
    // (if none can, it stays as dust).
    const amounts = group.map((e) => (held[from]! * inputs[e]!) / outflow[from]!)
    const capped = group.map(() => false)
    for (let round = 0; round < group.length; round++) {
      let excess = 0
      group.forEach((e, k) => {
        const curve = edges[e]!.curve
        if (capped[k] || !(amounts[k]! > 0) || curve.covers(amounts[k]!)) return
        excess += amounts[k]! - curve.limit()
        amounts[k] = curve.limit()
        capped[k] = true
      })
      const open = amounts.reduce((sum, a, k) => (capped[k] ? sum : sum + a), 0)
      if (!(excess > 0) || !(open > 0)) break
      amounts.forEach((a, k) => {
        if (!capped[k]) amounts[k] = a + (excess * a) / open
      })
    }
    group.forEach((e, k) => {
      if (!(amounts[k]! > 0)) return
      edgeIn[e] = amounts[k]!
      edgeOut[e] = edges[e]!.curve.amountOut(amounts[k]!)
      held[edges[e]!.to] = held[edges[e]!.to]! + edgeOut[e]!
    })
  }

  // Greedy decomposition in each edge's own input units.
  const left = Float64Array.from(edgeIn)
  const paths: { edges: number[]; share: number }[] = []
  const leaving: number[][] = tokens.map(() => [])
  for (const e of support) leaving[edges[e]!.from]!.push(e)
  // A path keeps to maxHops: from a token with `hopsLeft`, only edges to tokens that reach the
  // output over the support within the hops that remain.
  const toSink = hopsToSink(graph, support)
  const outOf = (token: number, hopsLeft: number) => {
    let best = -1
    for (const e of leaving[token]!) if (left[e]! > 0 && toSink[edges[e]!.to]! <= hopsLeft - 1 && (best < 0 || left[e]! > left[best]!)) best = e
    return best
  }
  for (let guard = 0; guard <= support.length; guard++) {
    const trail: number[] = []
    const ratio: number[] = []
    let token = SOURCE
    let gain = 1
    let bottleneck = Infinity
    while (token !== SINK) {
      const e = outOf(token, graph.maxHops - trail.length)
      if (e < 0 || trail.length > tokens.length) break
      trail.push(e)
      ratio.push(gain)
      bottleneck = Math.min(bottleneck, left[e]! / gain)
      gain *= edgeOut[e]! / edgeIn[e]!
      token = edges[e]!.to
    }
    if (token !== SINK || !(bottleneck > 0)) {
      // A dead end holds only float dust: clear it so the next path avoids it.
      if (trail.length === 0) break
      left[trail[trail.length - 1]!] = 0
      continue
    }
    trail.forEach((e, k) => {
      left[e] = left[e]! - bottleneck * ratio[k]!
      if (left[e]! <= edgeIn[e]! * 1e-12) left[e] = 0
    })
    paths.push({ edges: trail, share: bottleneck })
  }
  const kept = paths.filter((p) => p.share >= amountIn * MIN_SHARE)
  if (kept.length === 0) return crossings
  const total = kept.reduce((sum, p) => sum + p.share, 0)
  // Paths that carry visibly less than the amount: the flow is past what its pools can take.
  const short = total < amountIn * (1 - SHORT_SHARE)
  if (short) {
    // Report the support edges that only paths longer than maxHops take (the caller may switch them
    // off): those on no such path through the support, and those whose flow stayed mostly
    // undecomposed (short paths took their inflow elsewhere) except the last hops into the output.
    if (tooLong) {
      const fromSource = hopsFromSource(graph, support)
      for (const e of support) if (fromSource[edges[e]!.from]! + 1 + toSink[edges[e]!.to]! > graph.maxHops) tooLong.push(e)
      if (tooLong.length === 0) for (const e of support) if (edges[e]!.to !== SINK && left[e]! > edgeIn[e]! / 2) tooLong.push(e)
    }
    if (crossings) return crossings
  }
  // Short of the amount, the paths found are scaled up to it: a feasible split (if the pools take
  // it) that exact simulation judges, marked short.
  for (const p of kept) p.share *= amountIn / total
  const { output, used, edgeInputs } = flowOutput(graph, kept, order)
  let gas = 0
  for (const e of used) gas += edges[e]!.curve.gas(edgeInputs[e]!)
  const acyclic: ModelRoute = short ? { paths: kept, output, gas, used, short } : { paths: kept, output, gas, used }
  return crossings && crossings.output > acyclic.output ? crossings : acyclic
}

/**
 * Decomposes a flow whose support has token cycles (two-way crossings) into
 * simple paths of at most maxHops without cutting them: greedily from the
 * input token, at each token the edge with the most left toward a token the
 * path has not visited (and from which the output is within the hops left),
 * the path's amount its bottleneck in input units. Executed one after another
 * (no flow order exists), the paths are modelled at each edge's average rate
 * over the whole flow. Undefined when the paths fall short of the amount.
 */
function decomposeCrossings(graph: RouteGraph, inputs: Float64Array, amountIn: number): ModelRoute | undefined {
  const { edges, tokens } = graph
  const support = edges.map((_, e) => e).filter((e) => inputs[e]! > 0)
  const rate = new Float64Array(edges.length)
  for (const e of support) rate[e] = edges[e]!.curve.amountOut(inputs[e]!) / inputs[e]!
  const left = Float64Array.from(inputs)
  const leaving: number[][] = tokens.map(() => [])
  for (const e of support) leaving[edges[e]!.from]!.push(e)
  const toSink = hopsToSink(graph, support)
  const paths: { edges: number[]; share: number }[] = []
  for (let guard = 0; guard <= 2 * support.length; guard++) {
    const trail: number[] = []
    const visited = new Set<number>([SOURCE])
    let token = SOURCE
    let gain = 1
    let bottleneck = Infinity
    const ratio: number[] = []
    while (token !== SINK) {
      const hopsLeft = graph.maxHops - trail.length
      let best = -1
      for (const e of leaving[token]!) {
        const to = edges[e]!.to
        if (!(left[e]! > 0) || visited.has(to) || toSink[to]! > hopsLeft - 1) continue
        if (best < 0 || left[e]! > left[best]!) best = e
      }
      if (best < 0) break
      trail.push(best)
      ratio.push(gain)
      bottleneck = Math.min(bottleneck, left[best]! / gain)
      gain *= rate[best]!
      token = edges[best]!.to
      visited.add(token)
    }
    if (token !== SINK || !(bottleneck > 0)) {
      if (trail.length === 0) break
      left[trail[trail.length - 1]!] = 0
      continue
    }
    trail.forEach((e, k) => {
      left[e] = left[e]! - bottleneck * ratio[k]!
      if (left[e]! <= inputs[e]! * 1e-12) left[e] = 0
    })
    paths.push({ edges: trail, share: bottleneck })
  }
  const kept = paths.filter((p) => p.share >= amountIn * MIN_SHARE)
  const total = kept.reduce((sum, p) => sum + p.share, 0)
  if (kept.length === 0 || total < amountIn * (1 - SHORT_SHARE)) return undefined
  let output = 0
  const used = new Set<number>()
  for (const p of kept) {
    p.share *= amountIn / total
    let amount = p.share
    for (const e of p.edges) {
      amount *= rate[e]!
      used.add(e)
    }
    output += amount
  }
  let gas = 0
  for (const e of used) gas += edges[e]!.curve.gas(inputs[e]!)
  return { paths: kept, output, gas, used: [...used] }
}

/**
 * Fewest support edges between `end` and every token (tokens.length where there is no way):
 * from the input token along the edges (`along`), or to the output token against them.
 */
function supportHops(graph: RouteGraph, support: readonly number[], end: typeof SOURCE | typeof SINK, along: boolean): Int32Array {
  const { edges, tokens } = graph
  const hops = new Int32Array(tokens.length).fill(tokens.length)
  hops[end] = 0
  for (let round = 0; round < tokens.length; round++) {
    let changed = false
    for (const e of support) {
      const near = along ? edges[e]!.from : edges[e]!.to
      const far = along ? edges[e]!.to : edges[e]!.from
      const through = hops[near]! + 1
      if (through < hops[far]!) {
        hops[far] = through
        changed = true
      }
    }
    if (!changed) break
  }
  return hops
}

/** Fewest support edges from the input token to each token (tokens.length when it cannot reach it). */
const hopsFromSource = (graph: RouteGraph, support: readonly number[]): Int32Array => supportHops(graph, support, SOURCE, true)

/** Fewest support edges from each token to the output token (tokens.length when it cannot reach it). */
const hopsToSink = (graph: RouteGraph, support: readonly number[]): Int32Array => supportHops(graph, support, SINK, false)

/**
 * Gives each token the flow reaches but leaves by no edge its way out: its
 * outflow is below what the solve's prices resolve (pools so deep that the
 * flow moves their rates by less than a log-price's float precision, so the
 * solve leaves the token at their zero-size rate, taking nothing). Its inflow
 * is split over its edges out (none closing a cycle or trading a pool both
 * ways) at the token price where their marginal rates meet, found by
 * bisection in the price itself. `inputs` is updated in place.
 */
function routeDeadEnds(graph: RouteGraph, prices: Float64Array, inputs: Float64Array, byPool: Map<string, number>, poolOf: (e: number) => string): void {
  const { edges, tokens } = graph
  // Each token's edges out (index order), and those the flow uses: kept up to date as dead ends
  // are routed below (an input only ever goes from 0 to positive here), so a reachability walk
  // looks at a token's support edges only, not every edge of the graph. Built at the first dead
  // end (most flows have none): until then no input has changed, so they are the same lists.
  let leaving: number[][] = []
  let supportOut: number[][] = []
  let listed = false
  const list = () => {
    if (listed) return
    listed = true
    leaving = tokens.map(() => [])
    supportOut = tokens.map(() => [])
    edges.forEach((edge, e) => {
      leaving[edge.from]!.push(e)
      if (inputs[e]! > 0) supportOut[edge.from]!.push(e)
    })
  }
  const reaches = (from: number, target: number): boolean => {
    const seen = new Set<number>([from])
    const stack = [from]
    while (stack.length > 0) {
      const t = stack.pop()!
      if (t === target) return true
      for (const e of supportOut[t]!) {
        const to = edges[e]!.to
        if (!seen.has(to)) {
          seen.add(to)
          stack.push(to)
        }
      }
    }
    return false
  }
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  for (let round = 0; round < tokens.length; round++) {
    const inflow = new Float64Array(tokens.length)
    const leaves = new Uint8Array(tokens.length)
    edges.forEach((edge, e) => {
      if (inputs[e]! > 0) leaves[edge.from] = 1
    })
    // Only a token the flow does not leave can be a dead end: the inflow of the others is never
    // read (the same edges, in the same order, sum the inflow of those that can).
    edges.forEach((edge, e) => {
      if (!(inputs[e]! > 0) || leaves[edge.to] || edge.to === SOURCE || edge.to === SINK) return
      inflow[edge.to] = inflow[edge.to]! + edge.curve.amountOut(inputs[e]!)
    })
    let changed = false
    // Intermediate tokens only (the source and the sink are never dead ends).
    for (let t = 0; t < tokens.length; t++) {
      if (t === SOURCE || t === SINK) continue
      if (!(inflow[t]! > 0) || leaves[t]) continue
      list()
      const out = leaving[t]!.filter((e) => {
        const edge = edges[e]!
        if (!(edge.curve.rate0 > 0) || !(prices[edge.to]! > 0)) return false
        const taken = byPool.get(poolOf(e))
        return (taken === undefined || edges[taken]!.hop.tokenIn === edge.hop.tokenIn) && !reaches(edge.to, t)
      })
      if (out.length === 0) continue
      // What the edges take at a token price (summed in edge order; a loop, not reduce: reduce
      // boxes its float sum at every step, and the bisection below asks a hundred times).
      const taking = (price: number) => {
        let sum = 0
        for (const e of out) sum += edges[e]!.curve.atRate(price / prices[edges[e]!.to]!, point).input
        return sum
      }
      // Above `hi` no edge trades; step down until the edges take the inflow (or all they can).
      const hi = Math.max(...out.map((e) => edges[e]!.curve.rate0 * prices[edges[e]!.to]!))
      let upper = hi
      let lower = hi
      for (let width = 1e-12; width < 1 && taking(lower) < inflow[t]!; width *= 4) {
        upper = lower
        lower = hi * (1 - width)
      }
      for (let i = 0; i < 100 && upper - lower > hi * 1e-17; i++) {
        const mid = (lower + upper) / 2
        if (taking(mid) < inflow[t]!) upper = mid
        else lower = mid
      }
      for (const e of out) {
        const x = edges[e]!.curve.atRate(lower / prices[edges[e]!.to]!, point).input
        if (!(x > 0)) continue
        if (!(inputs[e]! > 0)) supportOut[t]!.push(e)
        inputs[e] = x
        byPool.set(poolOf(e), e)
        changed = true
      }
    }
    if (!changed) return
  }
}

/** Rank of each token in a topological order of the flow's support (edges in cycles are zeroed). */
function topologicalOrder(graph: RouteGraph, inputs: Float64Array): Int32Array {
  const { edges, tokens } = graph
  const n = tokens.length
  for (;;) {
    const indegree = new Int32Array(n)
    // Each token's used edges out, in edge order (a token's turn visits its own, not every edge).
    const leaving: number[][] = Array.from({ length: n }, () => [])
    edges.forEach((edge, e) => {
      if (!(inputs[e]! > 0)) return
      indegree[edge.to] = indegree[edge.to]! + 1
      leaving[edge.from]!.push(e)
    })
    const order = new Int32Array(n).fill(-1)
    const queue: number[] = []
    for (let t = 0; t < n; t++) if (indegree[t] === 0) queue.push(t)
    let rank = 0
    while (queue.length > 0) {
      const t = queue.shift()!
      order[t] = rank++
      for (const e of leaving[t]!) {
        const to = edges[e]!.to
        indegree[to] = indegree[to]! - 1
        if (indegree[to] === 0) queue.push(to)
      }
    }
    if (rank === n) return order
    // Break the thinnest edge among the tokens left in cycles.
    let thinnest = -1
    edges.forEach((edge, e) => {
      if (inputs[e]! > 0 && order[edge.from] === -1 && order[edge.to] === -1 && (thinnest < 0 || inputs[e]! < inputs[thinnest]!)) thinnest = e
    })
    if (thinnest < 0) return order
    inputs[thinnest] = 0
  }
}

/**
 * Output of paths executed as a flow: each edge trades once with the total its
 * paths bring, and hands each path its share of the output in proportion.
 */
function flowOutput(graph: RouteGraph, paths: { edges: number[]; share: number }[], order: Int32Array) {
  const { edges } = graph
  const edgeInputs = new Float64Array(edges.length)
  const carried = paths.map((p) => p.share)
  const position = paths.map(() => 0)
  const used: number[] = []
  // The paths waiting at each edge (each path waits at its next one).
  const waiting = new Map<number, number[]>()
  const wait = (i: number) => {
    const e = paths[i]!.edges[position[i]!]!
    const list = waiting.get(e)
    if (list) list.push(i)
    else waiting.set(e, [i])
  }
  const pending = new Set<number>()
  paths.forEach((p, i) => {
    for (const e of p.edges) pending.add(e)
    wait(i)
  })
  const sorted = [...pending].sort((a, b) => order[edges[a]!.from]! - order[edges[b]!.from]! || a - b)
  let output = 0
  for (const e of sorted) {
    const here = waiting.get(e) ?? []
    let total = 0
    for (const i of here) total += carried[i]!
    if (!(total > 0)) continue
    used.push(e)
    edgeInputs[e] = total
    const out = edges[e]!.curve.amountOut(total)
    for (const i of here) {
      carried[i] = (out * carried[i]!) / total
      position[i] = position[i]! + 1
      if (position[i] === paths[i]!.edges.length) output += carried[i]!
      else wait(i)
    }
  }
  return { output, used, edgeInputs }
}
