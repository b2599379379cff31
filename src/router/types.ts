import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'

/** One hop of a candidate path: a pool and the direction it is traded in. */
export type Hop = { pool: Pool; tokenIn: Address; tokenOut: Address }

/** A candidate path from the sell token to the buy token. */
export type Path = readonly Hop[]

/** A swap as executed: the hop with its exact amounts and gas. */
export type ExecutedHop = Hop & { amountIn: bigint; amountOut: bigint; gas: bigint }

/** A path with its share of the input and its exact execution. */
export type ExecutedPath = { path: Path; amountIn: bigint; amountOut: bigint; hops: ExecutedHop[] }

/** An exact plan: paths in executor order, each simulated on the state the previous ones left. */
export type Plan = {
  paths: ExecutedPath[]
  amountIn: bigint
  amountOut: bigint
  /** Gas of all steps (excluding the order's fixed overhead). */
  gas: bigint
}

/** What the router needs beyond the pools. */
export type RouteParameters = {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  /** Tokens paths may pass through (lowercase). */
  connectors: readonly Address[]
  /** Longest path, in hops (default 3). */
  maxHops?: number
  /**
   * Value of one unit of gas in raw output-token units (gas price x the
   * native token's price in the output token). 0 ignores gas.
   */
  gasCostInOutput: number
}
