import { parseAbi } from 'viem'
import { createV3LogApplier } from '../applyUniswapV3Log.js'
import type { LiveFamily } from '../liveFamily.js'
import { uniswapV3LiveFamily } from './uniswapV3.js'

/**
 * Every event a PancakeSwap V3 pool emits (@pancakeswap/v3-core 1.0.2, the PancakeV3Pool the
 * devnet deploys): v3-core's, except `Swap`, which appends the protocol fees (another topic, seven
 * data words), and `SetFeeProtocol`, whose fractions are uint32; plus `SetLmPoolEvent` (a farm's
 * LM pool attached, which no state field holds).
 *
 * @example
 * createEventDecoder(pancakeV3PoolEventsAbi)(log)
 */
export const pancakeV3PoolEventsAbi = parseAbi([
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)',
  'event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)',
  'event Flash(address indexed sender, address indexed recipient, uint256 amount0, uint256 amount1, uint256 paid0, uint256 paid1)',
  'event IncreaseObservationCardinalityNext(uint16 observationCardinalityNextOld, uint16 observationCardinalityNextNew)',
  'event SetFeeProtocol(uint32 feeProtocol0Old, uint32 feeProtocol1Old, uint32 feeProtocol0New, uint32 feeProtocol1New)',
  'event CollectProtocol(address indexed sender, address indexed recipient, uint128 amount0, uint128 amount1)',
  'event SetLmPoolEvent(address addr)',
])

// Pancake's Swap data: v3-core's five words, then protocolFeesToken0 and protocolFeesToken1 (the
// protocol fee this swap took in each token, not the totals owed: measured on the devnet's pool).
const PANCAKE_SWAP_WORDS = 7
const PROTOCOL_FEES_TOKEN0_WORD = 5
const PROTOCOL_FEES_TOKEN1_WORD = 6

/**
 * Applies one log of a PancakeSwap V3 pool exactly as applyUniswapV3Log applies a Uniswap V3
 * pool's (the swap and the positions are v3-core's), read in Pancake's layout, with one more
 * thing known: the protocol fee each swap took, which tells how it wrote the fresh slots (a first
 * swap on a fresh pool is applied instead of re-read when it took one); `SetLmPoolEvent`
 * changes nothing; `SetFeeProtocol` and `CollectProtocol` re-read (they move the protocol-fee
 * slot's freshness, which the gas estimate uses).
 *
 * @example
 * const outcome = applyPancakeV3Log(record, log)
 */
export const applyPancakeV3Log = createV3LogApplier({
  label: 'PancakeSwap V3',
  events: pancakeV3PoolEventsAbi,
  swapWords: PANCAKE_SWAP_WORDS,
  unchangedEvents: ['SetLmPoolEvent'],
  // PancakeV3Pool.setFeeProtocol accepts 0 or 1000–4000 ten-thousandths (checked on the real bytecode in the devnet): below the whole fee.
  protocolFeeWords: [PROTOCOL_FEES_TOKEN0_WORD, PROTOCOL_FEES_TOKEN1_WORD],
})

/**
 * PancakeSwap V3 in the live source. Its `PoolCreated` is v3-core's, emitted by the
 * PancakeV3Factory (`DexConfig.creationEmitter`), while pools are CREATE2-deployed by the
 * PancakeV3PoolDeployer (`DexConfig.factory`): a pool is taken only when its fee tier is the dex's
 * with the same spacing and its address is the derivation from the deployer. Pools are read
 * narrowed to their tier with each tick's liquidityGross (Pancake's `ticks()` starts as v3-core's)
 * and followed through applyPancakeV3Log. A dex without `creationEmitter` discovers nothing.
 *
 * @example
 * createLiveSource({ client, chain: base, fromBlock, liveFamilies: [...defaultLiveFamilies] }) // pancakeV3LiveFamily is among them
 */
export const pancakeV3LiveFamily: LiveFamily = {
  ...uniswapV3LiveFamily,
  id: 'pancakeV3',
  creationEmitters: (dex) => (dex.creationEmitter ? [dex.creationEmitter] : []),
  applyLog: applyPancakeV3Log,
}
