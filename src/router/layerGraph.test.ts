// The route graph layered by hop count: every source-sink path keeps to maxHops, the graph is
// acyclic, each layered edge copies an edge of the original graph; and findRoute held to 4 hops on
// a market whose deep route is 5 hops long keeps the good short routes (at least the greedy split
// on exact simulation over every path of at most 4 hops) and replays exactly.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { findRoute } from './findRoute.js'
import { greedySplit } from './greedySplit.js'
import { layerGraph, unlayerPath } from './layerGraph.js'
import { buildRouteGraph } from './routeGraph.js'
import { simulatePlan } from './simulatePlan.js'
import { type Path, SINK, SOURCE } from './types.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const token = (n: number) => `0x${(0xc0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X1, X2, X3, X4] = [0, 1, 2, 3, 4, 5].map(token) as [Address, Address, Address, Address, Address, Address]
const E18 = 10n ** 18n
const v2Pair = createV2Pairs({ nextAddress: createAddressCounter(0xf000) })
/** A V2 pair (0.3%) at price 1 holding `reserve` whole tokens of each side. */
const pair = (a: Address, b: Address, reserve: bigint) => v2Pair(a, b, reserve * E18, reserve * E18)

// A deep chain A -> X1 -> X2 -> X3 -> X4 -> B (5 hops), medium pools from each end into the chain's
// middle, and shallow pools from every Xi to both ends: the unconstrained flow runs the whole
// chain; within 4 hops the best split mixes its pieces with the shortcuts.
const chain = [pair(A, X1, 100_000n), pair(X1, X2, 100_000n), pair(X2, X3, 100_000n), pair(X3, X4, 100_000n), pair(X4, B, 100_000n)]
const shortcuts = [pair(A, X2, 20_000n), pair(X3, B, 20_000n), pair(A, X3, 5_000n), pair(X2, B, 5_000n)]
const shallow = [X1, X2, X3, X4].flatMap((x) => [pair(A, x, 500n), pair(x, B, 500n)])
const pools = [...chain, ...shortcuts, ...shallow]
const connectors = [X1, X2, X3, X4]

/** Every path of at most `maxHops` hops from A to B over `pools` visiting no token twice. */
function allPaths(maxHops: number): Path[] {
  const paths: Path[] = []
  const walk = (at: Address, path: Path, seen: Set<Address>) => {
    if (at === B) {
      paths.push(path)
      return
    }
    if (path.length === maxHops) return
    for (const pool of pools) {
      if (!pool.tokens.includes(at)) continue
      const next = pool.tokens.find((t) => t !== at)!
      if (seen.has(next)) continue
      walk(next, [...path, { pool, tokenIn: at, tokenOut: next }], new Set([...seen, next]))
    }
  }
  walk(A, [], new Set([A]))
  return paths
}

describe('layerGraph', () => {
  it('keeps every source-sink path to maxHops, acyclic, each edge a copy of an original one', () => {
    for (const maxHops of [2, 3, 4]) {
      const graph = buildRouteGraph({ pools, tokenIn: A, tokenOut: B, connectors, maxHops: 6 }, 1e21)
      const layered = layerGraph({ ...graph, maxHops })!
      expect(layered).toBeDefined()
      // Longest path from the source to each node, by relaxing in edge order until nothing changes:
      // on an acyclic graph it settles within as many rounds as nodes.
      const { tokens, edges } = layered.graph
      const longest = new Int32Array(tokens.length).fill(-1)
      longest[SOURCE] = 0
      let rounds = 0
      for (let changed = true; changed; rounds++) {
        changed = false
        for (const edge of edges)
          if (longest[edge.from]! >= 0 && longest[edge.from]! + 1 > longest[edge.to]!) {
            longest[edge.to] = longest[edge.from]! + 1
            changed = true
          }
        expect(rounds).toBeLessThanOrEqual(tokens.length)
      }
      expect(longest[SINK]).toBeLessThanOrEqual(maxHops)
      expect(longest[SINK]).toBeGreaterThan(0)
      edges.forEach((edge, e) => {
        const copied = graph.edges[layered.origin[e]!]!
        expect(edge.hop).toBe(copied.hop)
        expect(layered.graph.tokens[edge.from]).toBe(graph.tokens[copied.from])
        expect(layered.graph.tokens[edge.to]).toBe(graph.tokens[copied.to])
      })
    }
  })
})

describe('unlayerPath', () => {
  it('cuts the loops a layered path makes through a token it passed, leaving a path that visits each token once', () => {
    const graph = buildRouteGraph({ pools, tokenIn: A, tokenOut: B, connectors, maxHops: 6 }, 1e21)
    const layered = layerGraph({ ...graph, maxHops: 5 })!
    const { edges, tokens } = layered.graph
    // Every layered source-sink path that passes some token twice (each token has a node per hop count).
    const looping: number[][] = []
    const walk = (node: number, trail: number[]) => {
      if (node === SINK) {
        const passed = trail.map((e) => tokens[edges[e]!.to])
        if (new Set(passed).size < passed.length || passed.includes(tokens[SOURCE])) looping.push([...trail])
        return
      }
      edges.forEach((edge, e) => {
        if (edge.from === node) walk(edge.to, [...trail, e])
      })
    }
    walk(SOURCE, [])
    expect(looping.length).toBeGreaterThan(0)
    for (const path of looping) {
      const cut = unlayerPath(layered, path).map((e) => graph.edges[e]!)
      // Consecutive edges of the original graph from the input to the output, no token twice.
      expect(cut[0]!.from).toBe(SOURCE)
      expect(cut[cut.length - 1]!.to).toBe(SINK)
      cut.slice(1).forEach((edge, i) => expect(edge.from).toBe(cut[i]!.to))
      const visited = [SOURCE, ...cut.map((edge) => edge.to)]
      expect(new Set(visited).size).toBe(visited.length)
      expect(cut.length).toBeLessThan(path.length)
    }
  })
})

describe('findRoute within maxHops on a longer deep route', () => {
  for (const whole of [2_000n, 10_000n, 30_000n]) {
    it(`sells ${whole} at 4 hops no worse than the greedy exact split over every path of at most 4 hops`, () => {
      const amountIn = whole * E18
      const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors, maxHops: 4, gasCostInOutput: 0 }, amountIn)!
      for (const path of plan.paths) expect(path.hops.length).toBeLessThanOrEqual(4)
      // The plan replays to its amountOut, as the executor runs it.
      const replay = simulatePlan(plan.segments.map((segment) => ({ path: segment.hops, amountIn: segment.amountIn })))
      if (plan.mode === 'paths') expect(replay?.amountOut).toBe(plan.amountOut)
      const reference = greedySplit(allPaths(4), amountIn, 0)!
      // Within a hundredth of a bp of the reference (its 1%-steps may land a little above a float optimum).
      expect(Number(plan.amountOut)).toBeGreaterThanOrEqual(Number(reference.amountOut) * (1 - 1e-6))
    })
  }
})
