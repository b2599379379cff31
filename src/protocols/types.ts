import type { Address } from 'viem'
import type { ChainConfig, DexConfig } from '../chains/types.js'

/**
 * A pool's state as a liquidity source delivers it: plain JSON (integers as
 * base-10 strings), tagged with its family and the chain dex it belongs to.
 * Each family defines the rest of its fields.
 */
export type PoolStateBase = {
  /** Family id (adapter), e.g. `uniswapV2`. */
  family: string
  /** `DexConfig.id` of the deployment the pool belongs to. */
  dex: string
  /** Pool address (for singleton vaults: the vault). */
  address: Address
}

/** One executor step, as the executor's `Step` struct takes it. */
export type ExecutorStep = {
  /** Index of the pool's dex in the executor's dex table (`ChainConfig.dexes`). */
  dex: number
  tokenIn: Address
  tokenOut: Address
  /** Family-specific: V3 fee tier (bits 0-23) and price limit (bits 24-183, 0: none); V2 unused (0). */
  param: bigint
}

/** The result of simulating one swap on an immutable pool state. */
export type SwapResult = {
  amountIn: bigint
  amountOut: bigint
  /** Gas this swap costs in the executor (the step, excluding the order's fixed overhead). */
  gas: bigint
  /** The pool's state after the swap. The original is unchanged. */
  next: Pool
}

/** How far a pool can be traded in one direction with the state it holds. */
export type PoolLimits = { maxIn: bigint; maxOut: bigint }

/**
 * An immutable, simulatable pool. Every amount is exact: the same integer
 * math as the contract, bit for bit. Addresses are lowercase.
 * Modelled on tycho-simulation's ProtocolSim.
 */
export interface Pool {
  /** Swap.key: the pool address, or the pool id for singleton vaults. */
  readonly key: string
  /** Swap.address: the pool, or the vault holding it. */
  readonly address: Address
  readonly protocol: string
  readonly fork: string
  readonly family: string
  /** The tokens it trades (lowercase). */
  readonly tokens: readonly Address[]
  /** Mid price, fee-free, zero-size: raw units of tokenOut per raw unit of tokenIn. */
  spotPrice(tokenIn: Address, tokenOut: Address): number
  /** Exact-in simulation; `undefined` when the amount cannot be filled with the known state. */
  quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): SwapResult | undefined
  /** Exact-out simulation (least input for `amountOut`); `undefined` when it cannot be filled. */
  quoteExactOut(tokenIn: Address, tokenOut: Address, amountOut: bigint): SwapResult | undefined
  /** How much can be traded in this direction within the known state. */
  limits(tokenIn: Address, tokenOut: Address): PoolLimits
  /** The executor step that performs this swap. */
  buildStep(tokenIn: Address, tokenOut: Address): ExecutorStep
}

export type PoolContext = {
  chain: ChainConfig
  dex: DexConfig
  /** Index of `dex` in `chain.dexes` (the executor's dex table). */
  dexIndex: number
}

/** What a family's on-chain reader gets: the chain, the block, and the tokens to connect. */
export type ReadPoolsParameters = {
  client: import('viem').PublicClient
  chain: ChainConfig
  /** Block all reads are pinned to. */
  blockNumber: bigint
  /** Candidate tokens (lowercase, wrapped): every pair among them is a candidate pool. */
  tokens: readonly Address[]
  /** The family's dexes on this chain. */
  dexes: readonly DexConfig[]
}

/**
 * A pool family: turns its JSON state into a simulatable `Pool`, and reads
 * its pools from a chain. The router and the quote code know families only
 * through this interface; hosts pass the set they want.
 */
export interface PoolFamily<State extends PoolStateBase = PoolStateBase> {
  /** Family id, matched against `PoolStateBase.family` and `DexConfig.family`. */
  readonly id: string
  /** Executor dex kind (1 = Uniswap V2 pair, 2 = Uniswap V3 pool). */
  readonly executorKind: number
  /** Build a simulatable pool from its state. Throws on a malformed state. */
  fromState(state: State, context: PoolContext): Pool
  /** Discover and read this family's pools among `tokens` at one block. */
  readPools?(parameters: ReadPoolsParameters): Promise<State[]>
}
