import type { ModelRoute } from './decompose.js'
import { type Edge, type RouteGraph, SINK, SOURCE } from './types.js'

/**
 * A route graph layered by hop count, and where each of its edges came from.
 * Every path from its source to its sink has at most `maxHops` hops, and the graph is acyclic.
 */
export type LayeredGraph = {
  /** Node 0 is the output token (reached at any hop count), node 1 the input token before any hop. */
  graph: RouteGraph
  /** Per layered edge: the index of the edge of the original graph it copies. */
  origin: Int32Array
  /** The layered edges of each node pair (`from>to`), as the gas search wants them. */
  pairEdges: Map<string, number[]>
}

/**
 * Copies `graph` into layers by hop count: a node per (intermediate token,
 * hops used to reach it) that can still reach the output within the hops
 * left, each pool direction copied from every layer of its input token to the
 * next layer of its output token (the output token is one node; no edge leaves
 * it or returns to the input token). Copies share their pool's curve object;
 * the solver treats them as separate edges, so `layeredRoute` keeps each pool
 * to one layer. Undefined when no path of at most `maxHops` hops exists.
 *
 * @example
 * const layered = layerGraph(graph)
 * layered?.graph.edges.length // ≥ graph.edges.length on paths of at most graph.maxHops hops
 */
export function layerGraph(graph: RouteGraph): LayeredGraph | undefined {
  const { tokens, edges, maxHops } = graph
  // Hops to the output over edges a layered path may take (none leaves the output or enters the input).
  const toSink = hopsToSink(graph)
  // node[token * (maxHops + 1) + hops]: the layered node of a token reached after `hops` hops (-1: none).
  const width = maxHops + 1
  const node = new Int32Array(tokens.length * width).fill(-1)
  const layeredTokens = [tokens[SINK]!, tokens[SOURCE]!]
  const spot = [graph.spot[SINK]!, graph.spot[SOURCE]!]
  node[SOURCE * width] = SOURCE
  const layeredEdges: Edge[] = []
  const origin: number[] = []
  const pairEdges = new Map<string, number[]>()
  // Layer by layer: a token gets a node after `hops` hops when an edge from the layer before reaches
  // it and the output is still within the hops left, so every node lies on a source-sink path.
  for (let hops = 0; hops < maxHops; hops++)
    edges.forEach((edge, e) => {
      if (edge.from === SINK || edge.to === SOURCE) return
      const from = node[edge.from * width + hops]!
      if (from < 0 || toSink[edge.to]! > maxHops - hops - 1) return
      let to = edge.to === SINK ? SINK : node[edge.to * width + hops + 1]!
      if (to < 0) {
        to = layeredTokens.length
        node[edge.to * width + hops + 1] = to
        layeredTokens.push(tokens[edge.to]!)
        spot.push(graph.spot[edge.to]!)
      }
      const key = `${from}>${to}`
      const list = pairEdges.get(key)
      if (list) list.push(layeredEdges.length)
      else pairEdges.set(key, [layeredEdges.length])
      layeredEdges.push({ ...edge, from, to })
      origin.push(e)
    })
  if (!layeredEdges.some((edge) => edge.to === SINK)) return undefined
  return {
    graph: { tokens: layeredTokens, edges: layeredEdges, tokenPaths: graph.tokenPaths, pools: graph.pools, spot, maxHops },
    origin: Int32Array.from(origin),
    pairEdges,
  }
}

/**
 * A model route over the layered graph as a route over the original graph
 * (each layered edge replaced by the edge it copies). Outputs and gas carry
 * over unchanged when every pool is traded in one layer only (as `decompose`
 * leaves it: one input node per pool).
 *
 * @example
 * const model = unlayerRoute(layered, decompose(layered.graph, flow, 1e18)!)
 */
export function unlayerRoute(layered: LayeredGraph, model: ModelRoute): ModelRoute {
  // Paths that became the same once their loops were cut are one path with both shares.
  const byEdges = new Map<string, { edges: number[]; share: number }>()
  for (const path of model.paths) {
    const edges = unlayerPath(layered, path.edges)
    const key = edges.join(',')
    const seen = byEdges.get(key)
    if (seen) seen.share += path.share
    else byEdges.set(key, { edges, share: path.share })
  }
  const paths = [...byEdges.values()]
  return { ...model, paths, used: [...new Set(paths.flatMap((path) => path.edges))] }
}

/**
 * A layered path as edges of the original graph, with every loop through a token cut out. A
 * token has one node per hop count, so a layered path may pass a token twice (USDC -> WETH ->
 * USDC at no gas, where the two pools' prices leave a sliver of arbitrage); weft's paths visit
 * each token once, so the loop is dropped and the path goes on from the token's first visit.
 *
 * @example
 * const edges = unlayerPath(layered, model.paths[0].edges)
 */
export function unlayerPath(layered: LayeredGraph, path: readonly number[]): number[] {
  const { edges, tokens } = layered.graph
  const kept: number[] = []
  // Each token on the kept path: how many kept edges led to it.
  const arrivedAfter = new Map<unknown, number>([[tokens[SOURCE], 0]])
  for (const e of path) {
    const token = tokens[edges[e]!.to]
    const seen = arrivedAfter.get(token)
    if (seen === undefined) {
      kept.push(e)
      arrivedAfter.set(token, kept.length)
      continue
    }
    // Back at a token passed before: the edges since that visit form a loop.
    for (const dropped of kept.splice(seen)) arrivedAfter.delete(tokens[edges[dropped]!.to])
  }
  return kept.map((e) => layered.origin[e]!)
}

/** Fewest edges from every token to the output (tokens.length when there is no way), none leaving the output or entering the input. */
function hopsToSink(graph: RouteGraph): Int32Array {
  const { edges, tokens } = graph
  const hops = new Int32Array(tokens.length).fill(tokens.length)
  hops[SINK] = 0
  for (let round = 0; round < tokens.length; round++) {
    let changed = false
    for (const edge of edges) {
      if (edge.from === SINK || edge.to === SOURCE) continue
      if (hops[edge.to]! + 1 < hops[edge.from]!) {
        hops[edge.from] = hops[edge.to]! + 1
        changed = true
      }
    }
    if (!changed) break
  }
  return hops
}
