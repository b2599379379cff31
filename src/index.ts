// weft — the public surface, nothing else.

export { getQuote, type GetQuoteOptions, type GetQuoteReturnType, type GetQuoteErrorType, type QuoteDetails } from './quote/getQuote.js'
export type { ExecutedHop, ExecutedPath, Hop, Path, Plan, PlanSegment, RouteCertificate } from './router/types.js'
export { APP_ID_HEADER, parseQuoteParams, type ParseQuoteParamsOptions } from './quote/parseQuoteParams.js'
export { type BoundedCache, createBoundedCache, type CreateBoundedCacheParameters } from './liquidity/createBoundedCache.js'
export { normalizeIntent, type NormalizeIntentOptions } from './quote/normalizeIntent.js'
export type { RandomBytes } from './quote/uuid.js'
export type { AppConfig } from './quote/fees.js'
export type {
  Approval,
  Chain,
  DecString,
  Fee,
  FeeShareIntent,
  NormalizedIntent,
  Quote,
  QuoteIntent,
  Route,
  Swap,
  Token,
  Transaction,
} from './quote/types.js'

export { listChains, type ListChainsReturnType } from './chains/listChains.js'
export { defaultChains, defineChainConfig, resolveChains, type ChainsOption } from './chains/registry.js'
export { ethereum } from './chains/ethereum.js'
export { base } from './chains/base.js'
export { arbitrum } from './chains/arbitrum.js'
export { UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V3_INIT_CODE_HASH, UNISWAP_V3_FEE_TIERS } from './chains/uniswap.js'
export {
  AERODROME_SLIPSTREAM_INIT_CODE_HASH,
  PANCAKE_V3_FEE_TIERS,
  PANCAKE_V3_INIT_CODE_HASH,
  PANCAKE_V3_POOL_DEPLOYER,
  SUSHISWAP_V2_INIT_CODE_HASH,
} from './chains/forks.js'
export type { ChainConfig, ChainStatus, DexConfig, DexPoolKey, TokenInfo } from './chains/types.js'

export { QuoteError, type QuoteErrorCode, type QuoteErrorStatus, type ParamIssue, type QuoteErrorParameters } from './errors/QuoteError.js'

export { createSnapshotSource, type Snapshot, type CreateSnapshotSourceParameters } from './liquidity/createSnapshotSource.js'
export { createRpcSource, type CreateRpcSourceParameters } from './liquidity/createRpcSource.js'
export {
  createLiveSource,
  type CreateLiveSourceParameters,
  type LiveCheckpoint,
  type LiveSource,
  type LiveSourceStats,
  type LiveTrackingPolicy,
} from './liquidity/live/createLiveSource.js'
export type { DiscoveredPool, LogOutcome, TrackedPool } from './liquidity/live/trackedPool.js'
export { type DiscoveryOutcome, type LiveClient, type LiveFamily, poolKeyOf } from './liquidity/live/liveFamily.js'
export { defaultLiveFamilies } from './liquidity/live/liveFamilies.js'
export {
  REPLAY_BUNDLE_VERSION,
  WEFT_VERSION,
  createReplayBundle,
  type CreateReplayBundleParameters,
  type Jsonified,
  type ReplayBundle,
} from './liquidity/live/replayBundle.js'
export type { ParsedReplayBundle } from './liquidity/live/replayParseBundle.js'
export { replayQuote, type ReplayQuoteReturnType } from './liquidity/live/replayQuote.js'
export { recordQuote, type RecordQuoteOptions, type RecordQuoteReturnType } from './liquidity/live/replayRecordQuote.js'
export { trimReplayBundle } from './liquidity/live/replayTrimBundle.js'
export type { AccountToken, Liquidity, LiquidityReport, LiquidityRequest, LiquiditySource, TokenMetadata } from './liquidity/types.js'

export { defaultFamilies } from './protocols/defaultFamilies.js'
export { uniswapV2Family } from './protocols/uniswapV2/family.js'
export { uniswapV3Family } from './protocols/uniswapV3/family.js'
export { pancakeV3Family } from './protocols/pancakeV3/family.js'
export { slipstreamFamily } from './protocols/slipstream/family.js'
export { getSlipstreamPoolAddress, getCloneInitCodeHash } from './protocols/slipstream/address.js'
export { uniswapV4Family } from './protocols/uniswapV4/family.js'
export { UniswapV4Pool, type FreshState as UniswapV4FreshState } from './protocols/uniswapV4/pool.js'
export type { SimulateSwapPool as UniswapV4SimulateSwapPool } from './protocols/uniswapV4/swap.js'
export { getUniswapV4PoolId, getUniswapV4PoolKey, type UniswapV4PoolKey } from './protocols/uniswapV4/poolKey.js'
export { UNISWAP_V4_FEE_TIERS, UNISWAP_V4_POOL_MANAGER_BASE, UNISWAP_V4_POOL_MANAGER_ETHEREUM } from './protocols/uniswapV4/constants.js'
export type { UniswapV4PoolState, UniswapV4Tick } from './protocols/uniswapV4/state.js'
export { balancerV2Family } from './protocols/balancerV2/family.js'
export { BalancerV2WeightedPool, type BalancerV2PoolParameters } from './protocols/balancerV2/pool.js'
export { getBalancerV2PoolAddress } from './protocols/balancerV2/readPools.js'
export { BALANCER_V2_VAULT } from './protocols/balancerV2/deployments.js'
export type { BalancerV2PoolState } from './protocols/balancerV2/state.js'
export { aerodromeV2Family } from './protocols/aerodromeV2/family.js'
export { getAerodromeV2PoolAddress } from './protocols/aerodromeV2/address.js'
export type { AerodromeV2PoolState } from './protocols/aerodromeV2/state.js'
export type { PancakeV3PoolState } from './protocols/pancakeV3/state.js'
export type { SlipstreamPoolState } from './protocols/slipstream/state.js'
export { UniswapV2Pool } from './protocols/uniswapV2/pool.js'
export { UniswapV3Pool, type FreshSlots as UniswapV3FreshSlots } from './protocols/uniswapV3/pool.js'
export { simulateSwap, type SimulateSwapPool, type SimulateSwapReturnType } from './protocols/uniswapV3/swap.js'
export type { SwapCheckpoint, SwapTrail } from './protocols/uniswapV3/swapTrail.js'
export type { InitializedTick } from './protocols/uniswapV3/tickBitmap.js'
export { getUniswapV3PoolAddress } from './protocols/uniswapV3/readPools.js'
export { getUniswapV2PairAddress } from './protocols/uniswapV2/readPools.js'
export type { UniswapV2PoolState } from './protocols/uniswapV2/state.js'
export type { UniswapV3PoolState, UniswapV3Tick } from './protocols/uniswapV3/state.js'
export type { CrossedRange as UniswapV3CrossedRange } from './protocols/uniswapV3/freshOutside.js'
export type {
  ExecutorStep,
  Pool,
  PoolContext,
  PoolFamily,
  PoolLimits,
  PoolStateBase,
  ReadPoolsParameters,
  ReadPoolsResult,
  CurveModel,
  SwapResult,
} from './protocols/types.js'

export { weftExecutorAbi } from './executor/artifacts.js'
export { weftExecutorBytecode } from './executor/executorBytecode.js'
export { getExecutorAddress, getExecutorDeployData } from './executor/getExecutorAddress.js'
export { deployExecutor, type DeployExecutorParameters, type DeployExecutorReturnType } from './executor/deployExecutor.js'
export { buildFillCalldata, type FillOrder, type FillPath } from './executor/buildFillCalldata.js'
export { buildFillPaths, type BuildFillPathsOptions } from './executor/buildFillPaths.js'
export { DEFAULT_DEADLINE_SECONDS, getFillDeadline } from './executor/fillDeadline.js'

export { simulateQuote, RECOMMENDED_GAS_MARGIN_PERCENT, type SimulateQuoteParameters, type SimulateQuoteReturnType, type SimulatedFee } from './wallet/simulateQuote.js'
export { decodeFillRevert, describeFillRevert, type FillRevert, type FillRevertSource } from './wallet/decodeFillRevert.js'
export { getBalanceOverride, type GetBalanceOverrideParameters } from './wallet/getBalanceOverride.js'
export { SimulationRevertedError } from './errors/SimulationRevertedError.js'
export { buildFillCalls, type BuildFillCallsOptions, type BuildFillCallsReturnType, type FillCall, type SendCallsParams } from './wallet/buildFillCalls.js'
