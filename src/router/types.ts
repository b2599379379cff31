import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import type { Curve } from './curves.js'

/** One hop of a candidate path: a pool and the direction it is traded in. */
export type Hop = { pool: Pool; tokenIn: Address; tokenOut: Address }

/** A candidate path from the sell token to the buy token. */
export type Path = readonly Hop[]

/** A swap as executed: the hop with its exact amounts and gas. */
export type ExecutedHop = Hop & { amountIn: bigint; amountOut: bigint; gas: bigint }

/** A path with its share of the input and its exact execution. */
export type ExecutedPath = { path: Path; amountIn: bigint; amountOut: bigint; hops: ExecutedHop[] }

/**
 * One path of the executor's order: it spends `amountIn` of its first hop's input token from what
 * the fill holds (0n: all of it), then each hop spends what the previous one produced. `amountIn`
 * and `amountOut` of each hop are the pool's totals.
 */
export type PlanSegment = { amountIn: bigint; hops: ExecutedHop[] }

/**
 * An exact plan. `paths` is the route as callers see it: each candidate path with its input and
 * its share of every pool it passes through (shares of a pool sum exactly to what it trades).
 * `segments` is what the executor runs, in order.
 */
export type Plan = {
  paths: ExecutedPath[]
  segments: PlanSegment[]
  /**
   * `paths`: each path runs after the previous one, on the states it left (the segments are the
   * paths). `flow`: each pool is traded once with its total, in topological order of the tokens.
   */
  mode: 'paths' | 'flow'

  amountIn: bigint
  amountOut: bigint
  /** Gas of all steps (excluding the order's fixed overhead). */
  gas: bigint
  /** How far the plan's gas-free output may be from the best possible (set by findRoute). */
  certificate?: RouteCertificate
}

/**
 * The router's optimality certificate: an upper bound on the gas-free output
 * of any split over the candidate token paths (any pools on their pairs), from
 * the dual of the convex routing problem at token prices optimised from the
 * solution's marginal rates (Σ over those pools of each one's largest
 * arbitrage value at the prices, plus the value of the input).
 */
export type RouteCertificate = {
  /** Upper bound on the gas-free output, in raw output units. */
  upperBound: bigint
  /** (upperBound − amountOut) / upperBound, in bps: the most the plan's gas-free output may lose to the optimum. */
  gapBps: number
  /** Pools the bound covers: every pool of every token pair the candidate paths step through. */
  candidatePools: number
  /** Pool directions the optimiser split over. */
  candidateEdges: number
  /** Token paths (in → … → out) the optimiser considered. */
  candidatePaths: number
  /** Paths the plan uses. */
  pathsUsed: number
  /** Solver iterations (root-find and Newton steps, over every re-solve). */
  iterations: number
  /**
   * Upper bound on the gas-free output of any route of at most maxHops through ALL pools the
   * source gave (any token an intermediate), raw output units; undefined when it could not be
   * formed. Against `upperBound` it shows what restricting the candidates may cost.
   */
  allPoolsUpperBound?: bigint
  /** (allPoolsUpperBound − amountOut) / allPoolsUpperBound, in bps. */
  allPoolsGapBps?: number
  /** Pools the all-pools bound covers (every pool a path of at most maxHops can use). */
  allPools?: number
}

/** What the router needs beyond the pools. */
export type RouteParameters = {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  /** Tokens paths may pass through (lowercase). */
  connectors: readonly Address[]
  /** Longest path, in hops (default 4), for every path of a route, flows included. */
  maxHops?: number
  /**
   * Value of one unit of gas in raw output-token units (gas price x the
   * native token's price in the output token). 0 ignores gas.
   */
  gasCostInOutput: number
}

/** Index of the output token in a route graph's tokens (the flow's sink; its price is 1). */
export const SINK = 0
/** Index of the input token in a route graph's tokens (the flow's source). */
export const SOURCE = 1
/** Longest path, in hops, when the caller does not say. */
export const DEFAULT_MAX_HOPS = 4
/** The longest path, in hops, a caller may ask for (`maxHops`): Tines goes to 6; see docs/decisions.md (Routing). */
export const MAX_HOPS = 6

/** One pool traded in one direction, between two of the graph's tokens. */
export type Edge = {
  /** Token indices (SINK is the output token, SOURCE the input token). */
  from: number
  to: number
  hop: Hop
  curve: Curve
}

/**
 * What the split optimiser works on: the tokens a route may pass through, the
 * pool directions between them, and every token path they form.
 */
export type RouteGraph = {
  /** Index 0: the output token; 1: the input token; then intermediates. */
  tokens: Address[]
  edges: Edge[]
  /** Token-index sequences from the input to the output token, at most `maxHops` long. */
  tokenPaths: number[][]
  /** Pools considered, in the order given (the certificate's relaxation covers them in both directions). */
  pools: Pool[]
  /** Zero-size value of each token in raw output units (products of fee-free mid prices). */
  spot: number[]
  /** Longest path, in hops: every path of a route over the graph keeps to it. */
  maxHops: number
  /**
   * Pool directions on the graph's token paths left out as too shallow at 1% impact for the trade
   * (see assembleGraph): what a rebuild at an optimum's margin may bring in.
   */
  shallow?: Hop[]
}
