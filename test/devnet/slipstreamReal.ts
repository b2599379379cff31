// Aerodrome Slipstream on a running devnet, from its real sources: core/CLPool.sol,
// core/CLFactory.sol and core/fees/CustomSwapFeeModule.sol of sphere-mezo-solidity-files (pinned in
// package.json), compiled with solc-js 0.7.6 (the version their `=0.7.6` pragma names, installed as
// the `solc-0.7.6` alias). The factory clones the CLPool implementation (EIP-1167) at CREATE2 salt
// keccak256(abi.encode(token0, token1, int24 tickSpacing)); every pool is asserted to sit at
// getSlipstreamPoolAddress (with getCloneInitCodeHash of the implementation) before liquidity is
// added. The factory's Voter and legacy CL factory, which no swap consults, are one small stand-in
// (test/contracts/SlipstreamFactoryDeps.sol). Liquidity is added through the devnet's
// V3LiquidityProvider: CLPool keeps Uniswap V3's mint and swap callbacks.
import { type Address, type Hex, encodeDeployData, encodeFunctionData, getContractAddress, parseAbi } from 'viem'
import type { ChainConfig, DexConfig } from '../../src/chains/types.js'
import { getCloneInitCodeHash, getSlipstreamPoolAddress } from '../../src/protocols/slipstream/address.js'
import { v3LiquidityProviderAbi } from './abis.js'
import { compileTestContracts } from './compile.js'
import { type CompiledContract, compileNpmSolidity } from './compileNpmSolidity.js'
import type { Devnet, DevnetPosition } from './deployDevnet.js'
import { getFullRangeTicks, getLiquidityForUsd, getNearestTick, getRawPrice, getSqrtPriceX96 } from './priceMath.js'
import { type DevnetTransaction, rpc, sendDevnetTransactions } from './rpc.js'
import type { DevnetPositionSpec, DevnetSymbol } from './universe.js'


/** The solc-js release Slipstream's pragma (`=0.7.6`) names. */
const SLIPSTREAM_SOLC = 'solc-0.7.6'
const SLIPSTREAM_EVM_VERSION = 'istanbul'
/** Where the package keeps the Slipstream contracts. */
const SLIPSTREAM_SOURCES = 'sphere-mezo-solidity-files/domains/aerodrome-slipstream/contracts'

/** The CLPool, CLFactory and fee-module functions the tests call. */
export const clPoolAbi = parseAbi([
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function liquidity() view returns (uint128)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, bool unlocked)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])
export const clFactoryAbi = parseAbi([
  'constructor(address voter, address legacyCLFactory, address poolImplementation)',
  'function createPool(address tokenA, address tokenB, int24 tickSpacing, uint160 sqrtPriceX96) returns (address)',
  'function getPool(address tokenA, address tokenB, int24 tickSpacing) view returns (address)',
  'function getSwapFee(address pool) view returns (uint24)',
  'function setSwapFeeModule(address module)',
  'function enableTickSpacing(int24 tickSpacing, uint24 fee)',
  'function poolImplementation() view returns (address)',
])
export const customSwapFeeModuleAbi = parseAbi(['constructor(address factory)', 'function setCustomFee(address pool, uint24 fee)'])

type SlipstreamBuild = { CLPool: CompiledContract; CLFactory: CompiledContract; CustomSwapFeeModule: CompiledContract; solcVersion: string }

let compiled: Promise<SlipstreamBuild> | undefined

/**
 * CLPool, CLFactory and CustomSwapFeeModule compiled from the npm sources with solc-js 0.7.6
 * (optimizer 200 runs), cached under .tmp/solc-cache by a hash of sources and settings.
 *
 * @example
 * const { CLPool, CLFactory } = await compileSlipstream()
 */
export function compileSlipstream(): Promise<SlipstreamBuild> {
  compiled ??= compileNpmSolidity({
    label: 'slipstream',
    solcPackage: SLIPSTREAM_SOLC,
    evmVersion: SLIPSTREAM_EVM_VERSION,
    contracts: {
      CLPool: `${SLIPSTREAM_SOURCES}/core/CLPool.sol`,
      CLFactory: `${SLIPSTREAM_SOURCES}/core/CLFactory.sol`,
      CustomSwapFeeModule: `${SLIPSTREAM_SOURCES}/core/fees/CustomSwapFeeModule.sol`,
    },
  })
  return compiled
}

/** A CLPool to create: its pair, tick spacing (one the factory enables), positions and custom fee. */
export type SlipstreamRealPoolSpec = {
  pair: readonly [DevnetSymbol, DevnetSymbol]
  tickSpacing: number
  positions: readonly DevnetPositionSpec[]
  /** `CustomSwapFeeModule.setCustomFee` (hundredths of a bip; 420 is the module's zero-fee marker). Absent: the spacing's default. */
  customFee?: number
}

/**
 * The default pools: the factory's default spacings (1: 100, 50: 500, 100: 500, 200: 3000,
 * 2000: 10000) plus spacing 10 enabled here, custom fees (the zero-fee marker among them), and
 * several overlapping ranges per pool so swaps cross initialized ticks.
 */
export const DEVNET_SLIPSTREAM_REAL_POOLS: readonly SlipstreamRealPoolSpec[] = [
  {
    pair: ['WETH', 'USDC'],
    tickSpacing: 100,
    positions: [
      { range: 'full', usd: 1_000_000 },
      { range: [0.9, 1.1], usd: 3_000_000 },
      { range: [0.98, 1.01], usd: 2_000_000 },
      { range: [1.02, 1.3], usd: 500_000 },
      { range: [0.995, 1.003], usd: 300_000 },
      { range: [0.7, 0.99], usd: 400_000 },
    ],
  },
  {
    pair: ['WETH', 'USDC'],
    tickSpacing: 200,
    customFee: 2_345,
    positions: [
      { range: 'full', usd: 800_000 },
      { range: [0.8, 0.97], usd: 400_000 },
      { range: [0.97, 1.04], usd: 600_000 },
    ],
  },
  {
    pair: ['USDC', 'USDT'],
    tickSpacing: 1,
    positions: [
      { range: [0.995, 1.005], usd: 2_000_000 },
      { range: [0.9995, 1.0003], usd: 1_000_000 },
      { range: [0.999, 1.001], usd: 500_000 },
    ],
  },
  {
    pair: ['LINK', 'WETH'],
    tickSpacing: 2000,
    customFee: 420,
    positions: [
      { range: 'full', usd: 300_000 },
      { range: [0.5, 2], usd: 200_000 },
    ],
  },
  {
    pair: ['WBTC', 'USDC'],
    tickSpacing: 10,
    customFee: 30_000,
    positions: [
      { range: 'full', usd: 200_000 },
      { range: [0.95, 1.05], usd: 600_000 },
      { range: [0.99, 1.2], usd: 300_000 },
    ],
  },
]

/** Tick spacings enabled on the devnet factory beyond its constructor's, with their default fees. */
const EXTRA_TICK_SPACINGS: readonly (readonly [number, number])[] = [[10, 450]]

export type SlipstreamRealPool = {
  address: Address
  tokens: readonly [token0: Address, token1: Address]
  symbols: readonly [DevnetSymbol, DevnetSymbol]
  tickSpacing: number
  customFee?: number
  positions: DevnetPosition[]
}

export type SlipstreamRealDeployment = {
  /** The `slipstream` dex to append to the chain config. */
  dex: DexConfig
  factory: Address
  implementation: Address
  feeModule: Address
  /** The factory's Voter and FactoryRegistry stand-in (SlipstreamGaugeVoter when deployed with `gauges`). */
  voter: Address
  pools: SlipstreamRealPool[]
  solcVersion: string
}

const lower = (address: string) => address.toLowerCase() as Address

/**
 * Deploys the CLPool implementation, a CLFactory over it with a CustomSwapFeeModule, and the pools
 * of `specs` with liquidity from the deployer (the factory's owner and swap-fee manager).
 *
 * @example
 * const slipstream = await deploySlipstreamReal(devnet)
 * const chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, slipstream.dex] }
 */
export async function deploySlipstreamReal(
  devnet: Devnet,
  options: {
    pools?: readonly SlipstreamRealPoolSpec[]
    dexId?: string
    /** A Voter that can give pools gauges (test/contracts/SlipstreamGaugeVoter.sol, see attachSlipstreamGauge) instead of the gaugeless stand-in. */
    gauges?: boolean
  } = {},
): Promise<SlipstreamRealDeployment> {
  const url = devnet.anvil.rpcUrl
  const specs = options.pools ?? DEVNET_SLIPSTREAM_REAL_POOLS
  const deployer = devnet.accounts.deployer
  const { CLPool, CLFactory, CustomSwapFeeModule, solcVersion } = await compileSlipstream()
  const depsName = options.gauges ? 'SlipstreamGaugeVoter' : 'SlipstreamFactoryDeps'
  const { [depsName]: deps } = await compileTestContracts({ files: [`test/contracts/${depsName}.sol`] })
  if (!deps) throw new Error(`${depsName}.sol did not compile`)

  let nonce = Number(await rpc<Hex>(url, 'eth_getTransactionCount', [deployer, 'pending']))
  const depsAddress = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce) }))
  const implementation = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + 1) }))
  const factory = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + 2) }))
  const feeModule = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + 3) }))
  const dex: DexConfig = {
    id: options.dexId ?? 'slipstream',
    family: 'slipstream',
    protocol: 'Uniswap V3',
    fork: 'AeroDromeCL',
    factory,
    initCodeHash: getCloneInitCodeHash(implementation),
    tickSpacings: [...new Set(specs.map((s) => s.tickSpacing))].sort((a, b) => a - b),
  }
  const phase1: DevnetTransaction[] = [
    { label: `deploy ${depsName}`, from: deployer, data: deps.bytecode, gas: 500_000n, nonce: nonce++ },
    { label: 'deploy the CLPool implementation', from: deployer, data: CLPool.bytecode, gas: 12_000_000n, nonce: nonce++ },
    {
      label: 'deploy the CLFactory',
      from: deployer,
      data: encodeDeployData({ abi: clFactoryAbi, bytecode: CLFactory.bytecode, args: [depsAddress, depsAddress, implementation] }),
      gas: 12_000_000n,
      nonce: nonce++,
    },
    {
      label: 'deploy the CustomSwapFeeModule',
      from: deployer,
      data: encodeDeployData({ abi: customSwapFeeModuleAbi, bytecode: CustomSwapFeeModule.bytecode, args: [factory] }),
      gas: 2_000_000n,
      nonce: nonce++,
    },
    {
      label: 'set the swap fee module',
      from: deployer,
      to: factory,
      data: encodeFunctionData({ abi: clFactoryAbi, functionName: 'setSwapFeeModule', args: [feeModule] }),
      gas: 200_000n,
      nonce: nonce++,
    },
  ]
  for (const [tickSpacing, fee] of EXTRA_TICK_SPACINGS) {
    phase1.push({
      label: `enable tick spacing ${tickSpacing}`,
      from: deployer,
      to: factory,
      data: encodeFunctionData({ abi: clFactoryAbi, functionName: 'enableTickSpacing', args: [tickSpacing, fee] }),
      gas: 200_000n,
      nonce: nonce++,
    })
  }
  const pools: SlipstreamRealPool[] = specs.map((spec) => {
    const a = devnet.getToken(spec.pair[0])
    const b = devnet.getToken(spec.pair[1])
    const [token0, token1] = lower(a.address) < lower(b.address) ? [a, b] : [b, a]
    phase1.push({
      label: `create CLPool ${spec.pair.join('/')} spacing ${spec.tickSpacing}`,
      from: deployer,
      to: factory,
      data: encodeFunctionData({
        abi: clFactoryAbi,
        functionName: 'createPool',
        args: [lower(token0.address), lower(token1.address), spec.tickSpacing, getSqrtPriceX96(getRawPrice(token0, token1))],
      }),
      gas: 1_000_000n,
      nonce: nonce++,
    })
    return {
      address: getSlipstreamPoolAddress(dex, token0.address, token1.address, spec.tickSpacing),
      tokens: [lower(token0.address), lower(token1.address)],
      symbols: [token0.symbol, token1.symbol],
      tickSpacing: spec.tickSpacing,
      ...(spec.customFee === undefined ? {} : { customFee: spec.customFee }),
      positions: [],
    }
  })
  const receipts = await sendDevnetTransactions(url, phase1)
  if (lower(receipts[2]?.contractAddress ?? '') !== factory) throw new Error('the CLFactory is not where expected')
  for (const pool of pools) {
    const code = await rpc<Hex>(url, 'eth_getCode', [pool.address, 'latest'])
    if (code === '0x') throw new Error(`no CLPool at its derived address ${pool.address}`)
  }

  const phase2: DevnetTransaction[] = []
  for (const [i, spec] of specs.entries()) {
    const pool = pools[i] as SlipstreamRealPool
    const token0 = devnet.getToken(pool.symbols[0])
    const token1 = devnet.getToken(pool.symbols[1])
    const price = getRawPrice(token0, token1)
    if (spec.customFee !== undefined) {
      phase2.push({
        label: `custom fee ${spec.customFee} on ${pool.address}`,
        from: deployer,
        to: feeModule,
        data: encodeFunctionData({ abi: customSwapFeeModuleAbi, functionName: 'setCustomFee', args: [pool.address, spec.customFee] }),
        gas: 200_000n,
      })
    }
    const inverted = pool.symbols[0] !== spec.pair[0]
    for (const position of spec.positions) {
      let [tickLower, tickUpper] = getFullRangeTicks(pool.tickSpacing)
      if (position.range !== 'full') {
        const [low, high] = inverted ? [1 / position.range[1], 1 / position.range[0]] : position.range
        tickLower = getNearestTick(price * low, pool.tickSpacing)
        tickUpper = Math.max(getNearestTick(price * high, pool.tickSpacing), tickLower + pool.tickSpacing)
      }
      const liquidity = getLiquidityForUsd({ price, tickLower, tickUpper, usd: position.usd, token0, token1 })
      pool.positions.push({ tickLower, tickUpper, liquidity })
      phase2.push({
        label: `add liquidity to CLPool ${pool.address}`,
        from: deployer,
        to: devnet.contracts.v3LiquidityProvider,
        data: encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'mint', args: [pool.address, deployer, tickLower, tickUpper, liquidity] }),
        gas: 1_500_000n,
      })
    }
  }
  await sendDevnetTransactions(url, phase2)
  return { dex, factory, implementation, feeModule, voter: depsAddress, pools, solcVersion }
}

export const slipstreamGaugeVoterAbi = parseAbi(['function attachGauge(address pool, address gauge, address nft)'])
export const clPoolGaugeAbi = parseAbi([
  'function stake(int128 stakedLiquidityDelta, int24 tickLower, int24 tickUpper, bool positionUpdate)',
  'function syncReward(uint256 rewardRate, uint256 rewardReserve, uint256 periodFinish)',
  'function stakedLiquidity() view returns (uint128)',
  'function rewardGrowthGlobalX128() view returns (uint256)',
])

/**
 * Gives `pool` a gauge as Aerodrome's CLGauge runs one on Base (a deployment made with `gauges`):
 * the Voter attaches `gauge` (an account anvil impersonates), which stakes `stakedShare` of each
 * position's liquidity over its range (`stake` without moving positions: the swap sees staked
 * liquidity per tick) and notifies `rewardPerSecond` for `seconds` (`syncReward`), so the pool's
 * reward growth moves whenever time passes.
 *
 * @example
 * await attachSlipstreamGauge(devnet, slipstream, slipstream.pools[0], { gauge: '0x…6a09e', stakedShare: 0.5, rewardPerSecond: 10n ** 15n, seconds: 604_800 })
 */
export async function attachSlipstreamGauge(
  devnet: Devnet,
  deployment: Pick<SlipstreamRealDeployment, 'voter'>,
  pool: SlipstreamRealPool,
  options: { gauge: Address; stakedShare: number; rewardPerSecond: bigint; seconds: number },
): Promise<void> {
  const url = devnet.anvil.rpcUrl
  const { gauge } = options
  await rpc(url, 'anvil_impersonateAccount', [gauge])
  await rpc(url, 'anvil_setBalance', [gauge, '0x56bc75e2d63100000'])
  const block = await rpc<{ timestamp: Hex }>(url, 'eth_getBlockByNumber', ['latest', false])
  const periodFinish = BigInt(block.timestamp) + BigInt(options.seconds)
  const share = BigInt(Math.round(options.stakedShare * 1_000_000))
  await sendDevnetTransactions(url, [
    {
      label: `attach gauge ${gauge} to ${pool.address}`,
      from: devnet.accounts.deployer,
      to: deployment.voter,
      data: encodeFunctionData({ abi: slipstreamGaugeVoterAbi, functionName: 'attachGauge', args: [pool.address, gauge, gauge] }),
      gas: 300_000n,
    },
  ])
  // Apart: transactions of two senders in one block need not run in the order sent.
  await sendDevnetTransactions(url, [
    ...pool.positions.map((position) => ({
      label: `stake in ${pool.address} [${position.tickLower}, ${position.tickUpper}]`,
      from: gauge,
      to: pool.address,
      data: encodeFunctionData({
        abi: clPoolGaugeAbi,
        functionName: 'stake',
        args: [(position.liquidity * share) / 1_000_000n, position.tickLower, position.tickUpper, false],
      }),
      gas: 500_000n,
    })),
    {
      label: `notify rewards to ${pool.address}`,
      from: gauge,
      to: pool.address,
      data: encodeFunctionData({
        abi: clPoolGaugeAbi,
        functionName: 'syncReward',
        args: [options.rewardPerSecond, options.rewardPerSecond * BigInt(options.seconds), periodFinish],
      }),
      gas: 300_000n,
    },
  ])
}

/** `chain` with the real Slipstream dex appended. */
export function withSlipstreamReal(chain: ChainConfig, deployment: Pick<SlipstreamRealDeployment, 'dex'>): ChainConfig {
  return { ...chain, dexes: [...chain.dexes, deployment.dex] }
}
