import { type Address, type PublicClient, type Transport, parseAbi, toEventSelector, zeroAddress } from 'viem'
import { getSlipstreamPoolAddress } from '../../../protocols/slipstream/address.js'
import { createV3LogApplier } from '../applyUniswapV3Log.js'
import type { LiveFamily } from '../liveFamily.js'
import { createEventDecoder, uniswapV3PoolEventsAbi } from '../poolEvents.js'
import type { TrackedPool } from '../trackedPool.js'
import { readTickGross } from './readTickGross.js'

/** The CLFactory's `PoolCreated` (Slipstream's core/interfaces/ICLFactory.sol): pools are keyed by tick spacing, not fee. */
const poolCreatedAbi = parseAbi(['event PoolCreated(address indexed token0, address indexed token1, int24 indexed tickSpacing, address pool)'])
const decodeCreation = createEventDecoder(poolCreatedAbi)

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
 * How a pool's fee is found (core/CLPool.sol, CLFactory.sol, fees/DynamicSwapFeeModule.sol): the
 * pool's factory, the factory's swap-fee module, and `secondsAgo()`, which only the
 * DynamicSwapFeeModule has (its fee follows the pool's tick against its TWAP: it moves with every
 * block and swap, no event saying so).
 */
const feeSourceAbi = parseAbi([
  'function factory() view returns (address)',
  'function swapFeeModule() view returns (address)',
  'function secondsAgo() view returns (uint32)',
])
// A deployless call returns its answer as code: a few dozen bytes per answer here.
const FEE_SOURCE_BATCH_BYTES = 8_000

/**
 * Reads, at one block, what the live source keeps besides Slipstream states: each tick's
 * liquidityGross (Slipstream's `ticks()` layout), and whether each dex's factory asks a dynamic
 * fee module (one pool per dex asked for its factory, the factory for its module, the module for
 * `secondsAgo()`): the pools of such a dex get `rereadAt` 0, re-read at every block, since their
 * fee moves without a log. Node errors propagate.
 *
 * @example
 * const withExtras = await readSlipstreamExtras(client, records, 123n)
 */
export async function readSlipstreamExtras(client: PublicClient<Transport, any>, records: readonly TrackedPool[], blockNumber: bigint): Promise<TrackedPool[]> {
  const [withGross, dynamicDexes] = await Promise.all([readTickGross(client, records, blockNumber, slipstreamTicksAbi), readDynamicFeeDexes(client, records, blockNumber)])
  return withGross.map(({ rereadAt: _earlier, ...record }): TrackedPool => (record.state && dynamicDexes.has(record.pool.dex) ? { ...record, rereadAt: 0 } : record))
}

/** The dex ids among `records` whose factory's swap-fee module is a dynamic one, at the block. */
async function readDynamicFeeDexes(client: PublicClient<Transport, any>, records: readonly TrackedPool[], blockNumber: bigint): Promise<Set<string>> {
  const byDex = new Map<string, Address>()
  for (const record of records) if (record.state && !byDex.has(record.pool.dex)) byDex.set(record.pool.dex, record.pool.address)
  const dexes = [...byDex.keys()]
  const ask = async (addresses: readonly Address[], functionName: 'factory' | 'swapFeeModule' | 'secondsAgo') =>
    addresses.length === 0
      ? []
      : client.multicall({
          contracts: addresses.map((address) => ({ address, abi: feeSourceAbi, functionName })),
          allowFailure: true,
          blockNumber,
          deployless: true,
          batchSize: FEE_SOURCE_BATCH_BYTES,
        })
  const addressOf = (result: { status: string; result?: unknown } | undefined) => (result?.status === 'success' && result.result !== zeroAddress ? (result.result as Address) : undefined)
  const factories = (await ask([...byDex.values()], 'factory')).map(addressOf)
  const modules = (await ask(factories.filter((f): f is Address => f !== undefined), 'swapFeeModule')).map(addressOf)
  const withModule = dexes.filter((_, i) => factories[i] !== undefined).map((dex, i) => ({ dex, module: modules[i] }))
  const asked = withModule.filter((entry): entry is { dex: string; module: Address } => entry.module !== undefined)
  const answers = await ask(asked.map((entry) => entry.module), 'secondsAgo')
  return new Set(asked.filter((_, i) => answers[i]?.status === 'success').map((entry) => entry.dex))
}

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
 * re-reads the pool it names, the factory's `SwapFeeModuleChanged` every pool of the dex. Under a
 * module whose fee moves without an event (the DynamicSwapFeeModule, whose fee follows the pool's
 * tick against its TWAP; Aerodrome's factories on Base use one), every pool of the dex is re-read
 * at every block (readSlipstreamExtras): exact, at one read per pool per block.
 *
 * @example
 * createLiveSource({ client, chain: base, fromBlock, liveFamilies: [...defaultLiveFamilies] }) // slipstreamLiveFamily is among them
 */
export const slipstreamLiveFamily: LiveFamily = {
  id: 'slipstream',
  creationEvents: poolCreatedAbi,
  discover(log, dex, blockNumber) {
    const decoded = decodeCreation(log)
    if (!decoded) return undefined
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
  readExtras: readSlipstreamExtras,
}
