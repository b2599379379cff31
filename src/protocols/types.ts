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
 * A float description of one trading direction, for the router's split
 * optimiser only (never for an amount that reaches calldata). Amounts are raw
 * token units as floats; `fee` is a fraction of the input (0.003 = 0.3%).
 *
 * - `constantProduct`: out = reserveOut·x(1−fee) / (reserveIn + x(1−fee)).
 * - `concentrated`: Uniswap V3-style ranges of constant liquidity between
 *   initialized ticks (price 1.0001^tick of token1 in token0), traded from
 *   `sqrtPrice` towards `limitSqrtPrice`; gas grows by `gasPerTick` per
 *   initialized tick crossed and `gasPerWord` per further bitmap word.
 * - `stable`: the Solidly stable curve x³y + xy³ = k on the reserves in whole
 *   tokens (raw / `scaleIn`, raw / `scaleOut`, scale = 10 ** decimals), the fee
 *   taken off the input first (rounded down, as the pool takes it).
 *
 * @example
 * pool.curveModel?.(weth, usdc) // { kind: 'constantProduct', reserveIn: 1e21, reserveOut: 3e12, fee: 0.003, maxIn: 5e33, gas: 61100 }
 */
export type CurveModel =
  | {
      kind: 'constantProduct'
      reserveIn: number
      reserveOut: number
      fee: number
      maxIn: number
      gas: number
      /** The pool takes ⌊x·fee⌋ (Aerodrome), not x·fee: it credits up to one raw input unit more. */
      feeRoundsDown?: boolean
    }
  | { kind: 'stable'; reserveIn: number; reserveOut: number; scaleIn: number; scaleOut: number; fee: number; maxIn: number; gas: number }
  | {
      kind: 'concentrated'
      fee: number
      /** True when the input is token0 (the price falls). */
      zeroForOne: boolean
      /** Current sqrt price, sqrt(token1 per token0) in raw units. */
      sqrtPrice: number
      /** Current tick and active liquidity. */
      tick: number
      liquidity: number
      /** The active liquidity exactly (crossing every tick then ends at exactly 0: no phantom range). */
      exactLiquidity?: bigint
      /** Initialized ticks, sorted ascending (liquidityNet signed, as the contract applies it crossing upward). */
      ticks: readonly { readonly index: number; readonly liquidityNet: bigint }[]
      /** Sqrt price the model must not pass (the edge of the known state). */
      limitSqrtPrice: number
      gasBase: number
      gasPerTick: number
      /** Extra gas per bitmap word the swap moves into (256 tick spacings), and the tick spacing. */
      gasPerWord?: number
      tickSpacing?: number
    }

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
  /**
   * Optional, side-effect free: a float model of this direction for the
   * router's optimiser. Families without it are modelled from `quoteExactIn`.
   */
  curveModel?(tokenIn: Address, tokenOut: Address): CurveModel | undefined
}

export type PoolContext = {
  chain: ChainConfig
  dex: DexConfig
  /** Index of `dex` in `chain.dexes` (the executor's dex table). */
  dexIndex: number
  /**
   * The fee a token charges on every transfer, in bps (0 for ordinary tokens). Only families with
   * `transferFees` get pools that touch such tokens; they must price every transfer's fee.
   */
  transferFeeBps?: (token: Address) => number
}

/** What a family's on-chain reader gets: the chain, the block, and the tokens to connect. */
export type ReadPoolsParameters = {
  /** Any viem chain, as createRpcSource takes: an OP-stack client (viem's `base`) is not a plain PublicClient. */
  client: import('viem').PublicClient<import('viem').Transport, any>
  chain: ChainConfig
  /** Block all reads are pinned to. */
  blockNumber: bigint
  /** Candidate tokens (lowercase, wrapped): every pair among them is a candidate pool. */
  tokens: readonly Address[]
  /** The family's dexes on this chain. */
  dexes: readonly DexConfig[]
}

/** What a family's reader found: the pools it can price, and those it skipped. */
export type ReadPoolsResult<State extends PoolStateBase = PoolStateBase> = {
  pools: State[]
  skipped: { address: string; reason: string }[]
}

/**
 * A pool family: turns its JSON state into a simulatable `Pool`, and reads
 * its pools from a chain. The router and the quote code know families only
 * through this interface; hosts pass the set they want.
 */
export interface PoolFamily<State extends PoolStateBase = PoolStateBase> {
  /** Family id, matched against `PoolStateBase.family` and `DexConfig.family`. */
  readonly id: string
  /** Executor dex kind: the `KIND_*` constant of contracts/steps/ExecutorBase.sol that swaps this family's pools (test/executorLayout.test.ts holds them equal). */
  readonly executorKind: number
  /**
   * Whether this family's pools and executor step work with fee-on-transfer tokens (the pool
   * credits what arrived and the step measures what it received). Pools of other families that
   * touch such a token are skipped.
   */
  readonly transferFees?: boolean
  /** Build a simulatable pool from its state. Throws on a malformed state. */
  fromState(state: State, context: PoolContext): Pool
  /**
   * Discover and read this family's pools among `tokens` at one block. A family that finds pools it
   * will not price (hooks, dynamic fees, unknown pool types) returns them as `skipped`, with why:
   * the source's report lists them, so nothing is left out silently.
   */
  readPools?(parameters: ReadPoolsParameters): Promise<State[] | ReadPoolsResult<State>>
}
