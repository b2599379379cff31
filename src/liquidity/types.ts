import type { Address } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import type { PoolStateBase } from '../protocols/types.js'

/** Token metadata a liquidity source knows. Address lowercase. */
export type TokenMetadata = {
  address: Address
  symbol: string
  decimals: number
  /**
   * Fee on transfer in bps: 0 for an ordinary token; `null` when the source tried to measure it
   * and could not (weft then refuses to trade the token: fail closed, never assumed fee-free).
   */
  transferFeeBps: number | null
}

/** What a quote asks a liquidity source for. Token addresses are lowercase and wrapped (never the zero address). */
export type LiquidityRequest = {
  chain: ChainConfig
  tokenIn: Address
  tokenOut: Address
  /**
   * Balances the quote would like to know at the same block (the receiver's and
   * fee recipients'), for its gas estimate: paying an empty balance costs more.
   * `token` is the zero address for native. A source may ignore it.
   */
  accounts?: readonly AccountToken[]
}

/** An account's balance of one token (zero address: native). */
export type AccountToken = { token: Address; account: Address }

/** How the source got its answer: for reports and benchmarks. */
export type LiquidityReport = {
  /** Sequential RPC round trips this answer cost (0 for snapshots or a warm cache). */
  roundTrips: number
  /** JSON-RPC requests sent. */
  requests: number
  /** Pools seen but not delivered, with why (unknown family, hooks, ...). */
  skipped: { address: string; reason: string }[]
}

/**
 * Pool states and token metadata, all of one block. A source either answers
 * consistently or throws (a `QuoteError` 503): never partial or mixed-block state.
 */
export type Liquidity = {
  chainId: number
  blockNumber: number
  /** Metadata of every token the pools touch that the source could describe. */
  tokens: TokenMetadata[]
  pools: PoolStateBase[]
  /** Gas price at that block, when the source knows it. */
  gasPriceWei?: bigint
  /** The requested `accounts` balances the source read, at the same block. */
  balances?: readonly (AccountToken & { balance: bigint })[]
  report: LiquidityReport
}

/**
 * Where a quote's pool states come from. Implementations: `createSnapshotSource`
 * (a JSON snapshot, no I/O) and `createRpcSource` (a viem PublicClient).
 * A host can write its own.
 */
export interface LiquiditySource {
  getLiquidity(request: LiquidityRequest): Promise<Liquidity>
}
