import type { Address, Hex } from 'viem'

/** Whether weft quotes on a chain now (`active`) or will (`planned`). */
export type ChainStatus = 'active' | 'planned'

/** A token weft knows without reading the chain. Addresses are lowercase. */
export type TokenInfo = {
  address: Address
  symbol: string
  decimals: number
}

/**
 * One deployment of a pool family on a chain: a factory and the init-code hash
 * of its pools, so pool addresses are CREATE2-derived, never trusted.
 * Its position in `ChainConfig.dexes` is its index in the executor's dex table.
 */
export type DexConfig = {
  /** Unique id within the chain, e.g. `uniswapV3`. Pool states name it in `dex`. */
  id: string
  /** Pool family (adapter) id, e.g. `uniswapV2`, `uniswapV3`. */
  family: string
  /** Swap.protocol in quotes, e.g. `Uniswap V3`. */
  protocol: string
  /** Swap.fork in quotes, e.g. `UniswapV3`. */
  fork: string
  /** The address pools are CREATE2-deployed from (V3: the factory; PancakeV3: its pool deployer). */
  factory: Address
  /** keccak256 of the pool creation code. */
  initCodeHash: Hex
  /**
   * The contract that emits the pools' creation events when it is not `factory`, for the live
   * source's discovery. PancakeSwap V3: the PancakeV3Factory (it emits `PoolCreated`), while
   * `factory` is its pool deployer (pools derive from it). Absent: `factory` emits them.
   */
  creationEmitter?: Address
  /** V2 family: the swap fee in basis points (Uniswap V2: 30). */
  feeBps?: number
  /**
   * V3 family: fee tier (hundredths of a bip) to tick spacing. V4 family: the
   * fee / tick spacing pairs tried, without hooks, for every token pair.
   */
  feeTiers?: Record<number, number>
  /**
   * V4 family: pool keys to read besides the fee tiers' candidates, e.g. other
   * fee / tick spacing pairs, or pools with hooks or a dynamic fee, which are
   * read and reported as skipped (never priced).
   */
  poolKeys?: DexPoolKey[]
  /**
   * Slipstream family: the tick spacings its factory creates pools with. Pools are keyed by tick
   * spacing (CREATE2 salt token0, token1, tickSpacing) and each pool's fee is read from the pool.
   */
  tickSpacings?: number[]
  /**
   * Balancer V2 family (`factory` is then the Vault, `initCodeHash` unused): the pool ids to read.
   * Balancer pools are not derivable per pair, so only listed pools are quoted.
   */
  pools?: Hex[]
  /**
   * Balancer V2 family: the WeightedPoolFactory deployments whose pools are priced. A listed pool
   * that none of them created (another pool type, or a contract posing as a weighted pool) is skipped.
   */
  poolFactories?: Address[]
}

/**
 * A pool key a dex lists explicitly (V4 family): currencies sorted, address(0)
 * for the native token; `fee` 0x800000 marks a dynamic fee.
 */
export type DexPoolKey = {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
}

/**
 * Everything weft needs to know about a chain. It is data: hosts pass their
 * own (a devnet, an extra chain) through `defineChainConfig`.
 */
export type ChainConfig = {
  id: number
  name: string
  status: ChainStatus
  /** Symbol of the native token, addressed as the zero address. */
  nativeSymbol: string
  /** The wrapped native token (WETH9-compatible `deposit`/`withdraw`). */
  wrappedNative: TokenInfo
  /** Tokens known by symbol (majors first). Used for metadata and by the CLI. */
  tokens: TokenInfo[]
  /** USD stablecoins, used for `priceUsd`. */
  usdStablecoins: Address[]
  /**
   * Major tokens in fee-token rank order (stablecoins, then wrapped native,
   * then BTC tokens). Paths route through them; fees prefer the higher rank.
   */
  majorTokens: Address[]
  /** Pool deployments, in executor dex-table order. */
  dexes: DexConfig[]
  /** The executor to quote for. Defaults to its deterministic address for this config. */
  executor?: Address
  /** Receives the service fee and kept surplus. No treasury: no service fee. */
  treasury?: Address
  /** Gas price assumed when the liquidity source reports none (wei). */
  defaultGasPriceWei: bigint
}
