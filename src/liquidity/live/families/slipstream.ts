import { type Address, decodeEventLog, parseAbi, toEventSelector } from 'viem'
import { getSlipstreamPoolAddress } from '../../../protocols/slipstream/address.js'
import { createV3LogApplier } from '../applyUniswapV3Log.js'
import type { LiveFamily } from '../liveFamily.js'
import { uniswapV3PoolEventsAbi } from '../poolEvents.js'
import { readTickGross } from './readTickGross.js'

/** The CLFactory's `PoolCreated` (Slipstream's core/interfaces/ICLFactory.sol): pools are keyed by tick spacing, not fee. */
const poolCreatedAbi = parseAbi(['event PoolCreated(address indexed token0, address indexed token1, int24 indexed tickSpacing, address pool)'])

/**
 * The logs of other contracts that change Slipstream pools' fees (a pool's `fee()` asks the
 * factory, which asks its swap-fee module): the CustomSwapFeeModule's `CustomFeeSet`, and the
 * factory's `SwapFeeModuleChanged` (every pool's fee may change).
 */
const feeEventsAbi = parseAbi([
  'event CustomFeeSet(address indexed pool, uint24 indexed fee)',
  'event SwapFeeModuleChanged(address indexed oldFeeModule, address indexed newFeeModule)',
])
const CUSTOM_FEE_SET_TOPIC = toEventSelector(feeEventsAbi[0])
const SWAP_FEE_MODULE_CHANGED_TOPIC = toEventSelector(feeEventsAbi[1])
// CustomFeeSet(address indexed pool, uint24 indexed fee): signature, pool, fee.
const CUSTOM_FEE_SET_TOPICS = 3

/**
 * Slipstream's `ticks(int24)` (core/interfaces/pool/ICLPoolState.sol): liquidityGross first, as in
 * v3-core, then liquidityNet, stakedLiquidityNet and the gauge's reward growth before v3-core's rest.
 *
 * @example
 * readTickGross(client, records, blockNumber, slipstreamTicksAbi)
 */
export const slipstreamTicksAbi = parseAbi([
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, int128 stakedLiquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, uint256 rewardGrowthOutsideX128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
])

/**
 * Applies one log of a Slipstream CLPool: its Initialize, Mint, Burn, Swap, Collect, Flash and
 * IncreaseObservationCardinalityNext are v3-core's, topic for topic and word for word (the pool's
 * `liquidity`, which the Swap carries, includes staked liquidity), so they follow
 * applyUniswapV3Log's rules; `CollectFees` (the gauge collecting its fees) changes nothing the
 * state holds. Staking (`stake`, called by the gauge) emits nothing and moves only staked
 * liquidity, which the state does not hold.
 *
 * @example
 * const outcome = applySlipstreamLog(record, log)
 */
export const applySlipstreamLog = createV3LogApplier({
  label: 'Slipstream',
  events: [...uniswapV3PoolEventsAbi, ...parseAbi(['event CollectFees(address indexed recipient, uint128 amount0, uint128 amount1)'])],
  swapWords: 5,
  unchangedEvents: ['CollectFees'],
})

/**
 * Aerodrome Slipstream in the live source: pools are discovered from the CLFactory's `PoolCreated`
 * (the spacing must be one of `DexConfig.tickSpacings` and the address the clone's CREATE2
 * derivation), read narrowed to their spacing with each tick's liquidityGross (Slipstream's
 * `ticks()` layout), and followed through applySlipstreamLog. A pool's fee is what its `fee()`
 * answers (the factory's swap-fee module, else the spacing's default): a module's `CustomFeeSet`
 * re-reads the pool it names, the factory's `SwapFeeModuleChanged` every pool of the dex. A
 * module whose fee moves without an event (the DynamicSwapFeeModule, whose fee follows the pool's
 * recent volatility) is not followed: its pools' fees are those of the last read.
 *
 * @example
 * createLiveSource({ client, chain: base, fromBlock, liveFamilies: [...defaultLiveFamilies] }) // slipstreamLiveFamily is among them
 */
export const slipstreamLiveFamily: LiveFamily = {
  id: 'slipstream',
  creationEvents: poolCreatedAbi,
  discover(log, dex, blockNumber) {
    let decoded
    try {
      decoded = decodeEventLog({ abi: poolCreatedAbi, topics: log.topics as never, data: log.data })
    } catch {
      return undefined
    }
    const token0 = decoded.args.token0.toLowerCase() as Address
    const token1 = decoded.args.token1.toLowerCase() as Address
    const { tickSpacing } = decoded.args
    const address = decoded.args.pool.toLowerCase() as Address
    if (!dex.tickSpacings?.includes(tickSpacing)) return { skipped: `tick spacing ${tickSpacing} is not configured`, address }
    if (getSlipstreamPoolAddress(dex, token0, token1, tickSpacing) !== address) return { skipped: 'pool address is not the CREATE2 derivation', address }
    return { pool: { address, family: dex.family, dex: dex.id, token0, token1, tickSpacing, createdAt: blockNumber } }
  },
  poolsChangedBy(log, dex) {
    // Any emitter's CustomFeeSet re-reads the pool it names (the module's address may change); a forged one costs a read, never a wrong state.
    if (log.topics[0] === CUSTOM_FEE_SET_TOPIC && log.topics.length === CUSTOM_FEE_SET_TOPICS) {
      return { pools: [`0x${log.topics[1]!.slice(-40)}`], reason: 'Slipstream custom fee set' }
    }
    if (log.topics[0] === SWAP_FEE_MODULE_CHANGED_TOPIC && log.address.toLowerCase() === dex.factory.toLowerCase()) {
      return { pools: 'all', reason: 'Slipstream swap fee module changed' }
    }
    return undefined
  },
  applyLog: applySlipstreamLog,
  narrow: (dex, pool) => (pool.tickSpacing !== undefined ? { ...dex, tickSpacings: [pool.tickSpacing] } : dex),
  readExtras: (client, records, blockNumber) => readTickGross(client, records, blockNumber, slipstreamTicksAbi),
}
