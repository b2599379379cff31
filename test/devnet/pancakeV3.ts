// PancakeSwap V3 on a running devnet: the real PancakeV3Factory and PancakeV3Pool bytecode from
// @pancakeswap/v3-core 1.0.2, a pool deployer standing in for PancakeV3PoolDeployer (whose artifact
// the package does not ship; see test/contracts/PancakeV3Devnet.sol), pools created, priced and
// seeded like the Uniswap ones. Reusable: give it any Devnet and the pools to create; append the
// returned DexConfig to the chain config (`withPancakeV3`).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
  concat,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  getCreate2Address,
  keccak256,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEventLogs,
} from 'viem'
import type { ChainConfig, DexConfig } from '../../src/chains/types.js'
import { PANCAKE_V3_FEE_TIERS, PANCAKE_V3_INIT_CODE_HASH } from '../../src/chains/forks.js'
import { testTokenAbi, weth9Abi } from './abis.js'
import { compileTestContracts } from './compile.js'
import type { Devnet, DevnetPosition, DevnetTokenRef } from './deployDevnet.js'
import { getFullRangeTicks, getLiquidityForUsd, getNearestTick, getRawPrice, getSqrtPriceX96, toRawAmount } from './priceMath.js'
import { type DevnetTransaction, rpc, rpcBatch, sendDevnetTransaction, sendDevnetTransactions } from './rpc.js'
import type { DevnetPositionSpec, DevnetSymbol } from './universe.js'

const require = createRequire(import.meta.url)

function readArtifact(path: string): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(require.resolve(path), 'utf8')) as { abi: Abi; bytecode: Hex }
}

/** The npm PancakeV3Pool artifact (ABI and creation code). */
export const pancakeV3PoolArtifact = readArtifact('@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json')
/** The npm PancakeV3Factory artifact. */
export const pancakeV3FactoryArtifact = readArtifact(
  '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json',
)

/** The PancakeV3Pool getters and events the devnet helpers use (the npm ABI, narrowed). */
export const pancakeV3PoolAbi = parseAbi([
  'function initialize(uint160 sqrtPriceX96)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint32 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
])

/** The PancakeV3Factory functions the helpers use. */
export const pancakeV3FactoryAbi = parseAbi([
  'function createPool(address tokenA, address tokenB, uint24 fee) returns (address pool)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
  'function poolDeployer() view returns (address)',
])

/** PancakeV3LiquidityProvider (test/contracts/PancakeV3Devnet.sol). */
export const pancakeV3LiquidityProviderAbi = parseAbi([
  'function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity) returns (uint256 amount0, uint256 amount1)',
  'function swap(address pool, address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96) returns (int256 amount0, int256 amount1)',
  'error UnexpectedCallback(address caller)',
  'error TransferFromFailed(address token, address from, address to, uint256 amount)',
  'error Reentered()',
])

/** A PancakeSwap V3 pool to create: a pair of devnet tokens, a fee tier and its positions. */
export type PancakeV3PoolSpec = {
  pair: readonly [DevnetSymbol, DevnetSymbol]
  /** Fee tier in hundredths of a bip: 100, 500, 2500 or 10000. */
  fee: number
  positions: readonly DevnetPositionSpec[]
}

/**
 * The default Pancake pools: WETH/USDC on two tiers, one of them (500) the same tier as a Uniswap
 * pool, so quotes split across the two protocols; stable pairs; WBTC/WETH; and LINK/WETH with a
 * gap on each side of its full-range position (ticks to cross, ranges without liquidity).
 */
export const DEVNET_PANCAKE_V3_POOLS: readonly PancakeV3PoolSpec[] = [
  {
    pair: ['WETH', 'USDC'],
    fee: 500,
    positions: [
      { range: 'full', usd: 1_500_000 },
      { range: [0.9, 1.1], usd: 3_000_000 },
      { range: [0.98, 1.02], usd: 1_000_000 },
    ],
  },
  {
    pair: ['WETH', 'USDC'],
    fee: 2500,
    positions: [
      { range: 'full', usd: 1_000_000 },
      { range: [0.7, 1.4], usd: 1_000_000 },
    ],
  },
  { pair: ['USDC', 'USDT'], fee: 100, positions: [{ range: [0.995, 1.005], usd: 2_000_000 }, { range: 'full', usd: 100_000 }] },
  { pair: ['DAI', 'USDC'], fee: 100, positions: [{ range: [0.99, 1.01], usd: 1_000_000 }] },
  {
    pair: ['WBTC', 'WETH'],
    fee: 2500,
    positions: [
      { range: 'full', usd: 800_000 },
      { range: [0.8, 1.25], usd: 1_500_000 },
    ],
  },
  {
    pair: ['LINK', 'WETH'],
    fee: 10000,
    positions: [
      { range: 'full', usd: 300_000 },
      { range: [0.7, 0.9], usd: 150_000 },
      { range: [1.1, 1.4], usd: 150_000 },
    ],
  },
]

/** A Pancake pool the deploy created. Addresses lowercase; `tokens` sorted. */
export type PancakeDevnetPool = {
  address: Address
  family: 'pancakeV3'
  /** `DexConfig.id` of the deployment. */
  dex: string
  tokens: readonly [token0: Address, token1: Address]
  /** Devnet symbols, or the addresses of tokens the devnet does not list. */
  symbols: readonly [string, string]
  fee: number
  tickSpacing: number
  positions: DevnetPosition[]
}

/** The outcome of a raw Pancake swap, from the pool's Swap event. */
export type PancakeSwapResult = {
  amount0: bigint
  amount1: bigint
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
  receipt: TransactionReceipt
}

/** A PancakeSwap V3 deployment on a devnet, and helpers to move its pools. */
export type PancakeV3Deployment = {
  /** The dex entry to append to the chain config (factory: the pool deployer). */
  dex: DexConfig
  factory: Address
  /** The address every pool is CREATE2-deployed from (`dex.factory`). */
  poolDeployer: Address
  provider: Address
  pools: PancakeDevnetPool[]
  /** A pool by its two tokens (any order) and fee; throws when absent. */
  getPool(tokenA: DevnetTokenRef, tokenB: DevnetTokenRef, fee: number): PancakeDevnetPool
  /**
   * A raw swap through the provider. `amountSpecified` > 0: exact input; < 0: exact output. A
   * `from` other than the devnet deployer must have approved the provider.
   */
  swap(
    pool: PancakeDevnetPool,
    zeroForOne: boolean,
    amountSpecified: bigint,
    options?: { from?: Address; recipient?: Address; sqrtPriceLimitX96?: bigint },
  ): Promise<PancakeSwapResult>
  /** Adds a position, paid by the devnet deployer. */
  addLiquidity(pool: PancakeDevnetPool, tickLower: number, tickUpper: number, liquidity: bigint): Promise<void>
  /**
   * Creates a pool of any two tokens (e.g. an attack token) at price 1 in raw units with one
   * full-range position of `liquidity`, paid by the devnet deployer, who must hold about
   * `liquidity` of each token.
   */
  createPool(tokenA: Address, tokenB: Address, fee: number, liquidity: bigint): Promise<PancakeDevnetPool>
}

/** Options of {@link deployPancakeV3}. */
export type DeployPancakeV3Options = {
  /** Pools to create (default {@link DEVNET_PANCAKE_V3_POOLS}). */
  pools?: readonly PancakeV3PoolSpec[]
  /** `DexConfig.id` (default `pancakeV3`). */
  dexId?: string
}

/** Gas limits (about twice what each uses). */
const GAS = {
  deployCodeHolder: 7_000_000n,
  deployPoolDeployer: 1_500_000n,
  deployFactory: 4_000_000n,
  deployProvider: 2_000_000n,
  setFactory: 100_000n,
  approve: 100_000n,
  createPool: 9_000_000n,
  initialize: 250_000n,
  mint: 1_000_000n,
  swap: 5_000_000n,
  deposit: 100_000n,
}

const lower = (address: string) => address.toLowerCase() as Address

/**
 * The creation code of a contract whose runtime code is `code`: PUSH2 len, DUP1, PUSH1 12, PUSH1 0,
 * CODECOPY, PUSH1 0, RETURN, then the code.
 */
function dataContractInitCode(code: Hex): Hex {
  const length = (code.length - 2) / 2
  if (length > 0xffff) throw new Error('code too long for a data contract')
  return concat([`0x61${length.toString(16).padStart(4, '0')}80600c6000396000f3`, code])
}

/**
 * The CREATE2 address of a Pancake pool from its deployer (not the factory).
 *
 * @example
 * getPancakePoolAddress(deployment.poolDeployer, weth, usdc, 500)
 */
export function getPancakePoolAddress(poolDeployer: Address, tokenA: Address, tokenB: Address, fee: number): Address {
  const [token0, token1] = lower(tokenA) < lower(tokenB) ? [lower(tokenA), lower(tokenB)] : [lower(tokenB), lower(tokenA)]
  const salt = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, fee]))
  return lower(getCreate2Address({ from: poolDeployer, salt, bytecodeHash: PANCAKE_V3_INIT_CODE_HASH }))
}

/**
 * Deploys PancakeSwap V3 onto a running devnet (the devnet deployer sends everything): the npm
 * factory, the stand-in pool deployer, a liquidity provider, and the pools of `options.pools`,
 * priced at the devnet tokens' USD prices and seeded with their positions. Asserts first that the
 * npm pool's creation code hashes to the mainnet init-code hash, and that every pool the factory
 * registers sits at its CREATE2 address from the deployer. ~40 transactions in a few blocks.
 *
 * @example
 * const pancake = await deployPancakeV3(devnet)
 * const chain = withPancakeV3(devnet.chain, pancake)
 */
export async function deployPancakeV3(devnet: Devnet, options: DeployPancakeV3Options = {}): Promise<PancakeV3Deployment> {
  const url = devnet.anvil.rpcUrl
  const specs = options.pools ?? DEVNET_PANCAKE_V3_POOLS
  const dexId = options.dexId ?? 'pancakeV3'
  const deployer = devnet.accounts.deployer
  const poolCode = pancakeV3PoolArtifact.bytecode
  if (keccak256(poolCode) !== PANCAKE_V3_INIT_CODE_HASH) {
    throw new Error(`the npm PancakeV3Pool creation code hashes to ${keccak256(poolCode)}, not the mainnet init-code hash`)
  }
  const compiled = await compileTestContracts({ files: ['test/contracts/PancakeV3Devnet.sol'] })
  const deployerContract = compiled.PancakeDevnetPoolDeployer
  const providerContract = compiled.PancakeV3LiquidityProvider
  if (!deployerContract || !providerContract) throw new Error('test/contracts/PancakeV3Devnet.sol did not compile')

  const startNonce = Number(await rpc<Hex>(url, 'eth_getTransactionCount', [deployer, 'pending']))
  let nonce = startNonce
  const phase1: DevnetTransaction[] = []
  const created: { label: string; index: number; address: Address }[] = []
  const deploy = (label: string, data: Hex, gas: bigint): Address => {
    const address = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce) }))
    created.push({ label, index: phase1.length, address })
    phase1.push({ label, from: deployer, data, gas, nonce: nonce++ })
    return address
  }
  const call = (label: string, to: Address, data: Hex, gas: bigint, value?: bigint) => {
    phase1.push({ label, from: deployer, to, data, gas, nonce: nonce++, ...(value ? { value } : {}) })
  }

  const codeHolder = deploy('deploy the PancakeV3Pool code holder', dataContractInitCode(poolCode), GAS.deployCodeHolder)
  const poolDeployer = deploy(
    'deploy PancakeDevnetPoolDeployer',
    encodeDeployData({ abi: deployerContract.abi, bytecode: deployerContract.bytecode, args: [codeHolder] }),
    GAS.deployPoolDeployer,
  )
  const factory = deploy(
    'deploy PancakeV3Factory',
    concat([pancakeV3FactoryArtifact.bytecode, encodeAbiParameters([{ type: 'address' }], [poolDeployer])]),
    GAS.deployFactory,
  )
  const provider = deploy('deploy PancakeV3LiquidityProvider', providerContract.bytecode, GAS.deployProvider)
  call(
    'set the pool deployer’s factory',
    poolDeployer,
    encodeFunctionData({ abi: deployerContract.abi, functionName: 'setFactoryAddress', args: [factory] }),
    GAS.setFactory,
  )
  for (const token of Object.values(devnet.tokens)) {
    call(
      `deployer approves the Pancake provider for ${token.symbol}`,
      token.address,
      encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [provider, maxUint256] }),
      GAS.approve,
    )
  }
  // The devnet deployer holds plenty of every TestToken; WETH for these pools is wrapped here.
  call('deployer wraps 100k WETH for Pancake pools', devnet.contracts.weth, encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }), GAS.deposit, 10n ** 23n)

  const pools: PancakeDevnetPool[] = []
  for (const spec of specs) {
    const tickSpacing = PANCAKE_V3_FEE_TIERS[spec.fee]
    if (tickSpacing === undefined) throw new Error(`Pancake ${spec.pair.join('/')}: unknown fee tier ${spec.fee}`)
    const a = devnet.getToken(spec.pair[0])
    const b = devnet.getToken(spec.pair[1])
    const [token0, token1] = a.address < b.address ? [a, b] : [b, a]
    call(
      `create Pancake ${spec.pair.join('/')} ${spec.fee}`,
      factory,
      encodeFunctionData({ abi: pancakeV3FactoryAbi, functionName: 'createPool', args: [token0.address, token1.address, spec.fee] }),
      GAS.createPool,
    )
    pools.push({
      address: getPancakePoolAddress(poolDeployer, token0.address, token1.address, spec.fee),
      family: 'pancakeV3',
      dex: dexId,
      tokens: [token0.address, token1.address],
      symbols: [token0.symbol, token1.symbol],
      fee: spec.fee,
      tickSpacing,
      positions: [],
    })
  }
  if (new Set(pools.map((pool) => pool.address)).size !== pools.length) throw new Error('a Pancake pool is listed twice')

  const receipts = await sendDevnetTransactions(url, phase1)
  for (const { label, index, address } of created) {
    const actual = receipts[index]?.contractAddress
    if (!actual || lower(actual) !== address) throw new Error(`${label}: deployed at ${actual}, expected ${address}`)
  }
  // Liquidity goes to precomputed addresses: first prove the factory put each pool there.
  const registered = await rpcBatch<Hex[]>(
    url,
    pools.map((pool) => ({
      method: 'eth_call',
      params: [
        { to: factory, data: encodeFunctionData({ abi: pancakeV3FactoryAbi, functionName: 'getPool', args: [pool.tokens[0], pool.tokens[1], pool.fee] }) },
        'latest',
      ],
    })),
  )
  pools.forEach((pool, i) => {
    const actual = lower(`0x${(registered[i] as Hex).slice(26)}`)
    if (actual !== pool.address) throw new Error(`Pancake pool ${pool.symbols.join('/')} ${pool.fee}: factory has ${actual}, CREATE2 gives ${pool.address}`)
  })

  const phase2: DevnetTransaction[] = []
  for (const [i, spec] of specs.entries()) {
    const pool = pools[i] as PancakeDevnetPool
    const token0 = devnet.getToken(pool.tokens[0])
    const token1 = devnet.getToken(pool.tokens[1])
    const price = getRawPrice(token0, token1)
    const name = `Pancake ${pool.symbols.join('/')} ${pool.fee}`
    phase2.push({
      label: `initialize ${name}`,
      from: deployer,
      to: pool.address,
      data: encodeFunctionData({ abi: pancakeV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(price)] }),
      gas: GAS.initialize,
    })
    // Ranges are written for the price of pair[0] in pair[1]; the pool's is token1 per token0.
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
        label: `add liquidity to ${name} [${tickLower}, ${tickUpper}]`,
        from: deployer,
        to: provider,
        data: encodeFunctionData({
          abi: pancakeV3LiquidityProviderAbi,
          functionName: 'mint',
          args: [pool.address, deployer, tickLower, tickUpper, liquidity],
        }),
        gas: GAS.mint,
      })
    }
  }
  await sendDevnetTransactions(url, phase2)

  // Phase 3: a live pool has collected protocol fees (Pancake charges 32% of the swap fee by
  // default) in both tokens, and collecting leaves a wei of each behind; a fresh pool writes that
  // slot from zero on its first swaps (a 20k store). A ~$1 swap each way brings the pools to the
  // state swaps meet on a chain that has been trading.
  await rpc(url, 'evm_increaseTime', [12])
  const phase3: DevnetTransaction[] = []
  for (const pool of pools) {
    for (const [index, zeroForOne] of [[0, true], [1, false]] as const) {
      const token = devnet.getToken(pool.tokens[index])
      phase3.push({
        label: `age Pancake ${pool.symbols.join('/')} ${pool.fee}: sell ~$1 of ${token.symbol}`,
        from: deployer,
        to: provider,
        data: encodeFunctionData({
          abi: pancakeV3LiquidityProviderAbi,
          functionName: 'swap',
          args: [pool.address, deployer, zeroForOne, toRawAmount(1 / token.priceUsd, token.decimals), 0n],
        }),
        gas: GAS.swap,
      })
    }
  }
  await sendDevnetTransactions(url, phase3)

  const dex: DexConfig = {
    id: dexId,
    family: 'pancakeV3',
    protocol: 'Uniswap V3',
    fork: 'PancakeV3',
    factory: poolDeployer,
    initCodeHash: PANCAKE_V3_INIT_CODE_HASH,
    feeTiers: { ...PANCAKE_V3_FEE_TIERS },
  }
  const send = (tx: DevnetTransaction) => sendDevnetTransaction(url, tx)
  return {
    dex,
    factory,
    poolDeployer,
    provider,
    pools,
    getPool(tokenA, tokenB, fee) {
      const a = devnet.getToken(tokenA).address
      const b = devnet.getToken(tokenB).address
      const pool = pools.find((p) => p.fee === fee && p.tokens.includes(a) && p.tokens.includes(b) && a !== b)
      if (!pool) throw new Error(`no Pancake pool ${tokenA}/${tokenB} ${fee} on the devnet`)
      return pool
    },
    async swap(pool, zeroForOne, amountSpecified, swapOptions = {}) {
      const from = swapOptions.from ?? deployer
      const receipt = await send({
        label: `Pancake swap on ${pool.symbols.join('/')} ${pool.fee}`,
        from,
        to: provider,
        data: encodeFunctionData({
          abi: pancakeV3LiquidityProviderAbi,
          functionName: 'swap',
          args: [pool.address, swapOptions.recipient ?? from, zeroForOne, amountSpecified, swapOptions.sqrtPriceLimitX96 ?? 0n],
        }),
        gas: GAS.swap,
      })
      const [event] = parseEventLogs({ abi: pancakeV3PoolAbi, eventName: 'Swap', logs: receipt.logs })
      if (!event) throw new Error('Pancake swap: the pool emitted no Swap event')
      const { amount0, amount1, sqrtPriceX96, tick, liquidity } = event.args
      return { amount0, amount1, sqrtPriceX96, tick, liquidity, receipt }
    },
    async addLiquidity(pool, tickLower, tickUpper, liquidity) {
      await send({
        label: `add liquidity to Pancake ${pool.symbols.join('/')} ${pool.fee} [${tickLower}, ${tickUpper}]`,
        from: deployer,
        to: provider,
        data: encodeFunctionData({
          abi: pancakeV3LiquidityProviderAbi,
          functionName: 'mint',
          args: [pool.address, deployer, tickLower, tickUpper, liquidity],
        }),
        gas: GAS.mint,
      })
    },
    async createPool(tokenA, tokenB, fee, liquidity) {
      const tickSpacing = PANCAKE_V3_FEE_TIERS[fee]
      if (tickSpacing === undefined) throw new Error(`unknown Pancake fee tier ${fee}`)
      const [token0, token1] = lower(tokenA) < lower(tokenB) ? [lower(tokenA), lower(tokenB)] : [lower(tokenB), lower(tokenA)]
      const address = getPancakePoolAddress(poolDeployer, token0, token1, fee)
      const [tickLower, tickUpper] = getFullRangeTicks(tickSpacing)
      const label = (token: Address) => Object.values(devnet.tokens).find((t) => t.address === token)?.symbol ?? token
      const pool: PancakeDevnetPool = {
        address,
        family: 'pancakeV3',
        dex: dexId,
        tokens: [token0, token1],
        symbols: [label(token0), label(token1)],
        fee,
        tickSpacing,
        positions: [{ tickLower, tickUpper, liquidity }],
      }
      await sendDevnetTransactions(url, [
        {
          label: `create Pancake pool ${token0}/${token1} ${fee}`,
          from: deployer,
          to: factory,
          data: encodeFunctionData({ abi: pancakeV3FactoryAbi, functionName: 'createPool', args: [token0, token1, fee] }),
          gas: GAS.createPool,
        },
        ...[token0, token1].map((token) => ({
          label: `deployer approves the Pancake provider for ${token}`,
          from: deployer,
          to: token,
          data: encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [provider, maxUint256] }),
          gas: GAS.approve,
        })),
      ])
      const registered = await rpc<Hex>(url, 'eth_call', [
        { to: factory, data: encodeFunctionData({ abi: pancakeV3FactoryAbi, functionName: 'getPool', args: [token0, token1, fee] }) },
        'latest',
      ])
      if (lower(`0x${registered.slice(26)}`) !== address) throw new Error(`Pancake pool ${token0}/${token1} ${fee} is not at ${address}`)
      await sendDevnetTransactions(url, [
        {
          label: `initialize Pancake pool ${address}`,
          from: deployer,
          to: address,
          data: encodeFunctionData({ abi: pancakeV3PoolAbi, functionName: 'initialize', args: [1n << 96n] }),
          gas: GAS.initialize,
        },
        {
          label: `add liquidity to Pancake pool ${address}`,
          from: deployer,
          to: provider,
          data: encodeFunctionData({ abi: pancakeV3LiquidityProviderAbi, functionName: 'mint', args: [address, deployer, tickLower, tickUpper, liquidity] }),
          gas: GAS.mint,
        },
      ])
      pools.push(pool)
      return pool
    },
  }
}

/**
 * `chain` with the Pancake dex appended to its dex table (a new object; the executor's address
 * follows from the table, so deploy the executor for the returned config).
 *
 * @example
 * const chain = withPancakeV3(devnet.chain, pancake)
 * const executor = await deployExecutor({ walletClient, publicClient, chain })
 */
export function withPancakeV3(chain: ChainConfig, deployment: Pick<PancakeV3Deployment, 'dex'>): ChainConfig {
  if (chain.dexes.some((dex) => dex.id === deployment.dex.id)) throw new Error(`chain ${chain.id} already has a dex ${deployment.dex.id}`)
  return { ...chain, dexes: [...chain.dexes, deployment.dex] }
}

/**
 * slot0's price, tick and feeProtocol and the active liquidity of a Pancake pool at `block`.
 *
 * @example
 * const { sqrtPriceX96, tick } = await readPancakeSlot(url, pool.address, 'latest')
 */
export async function readPancakeSlot(
  url: string,
  pool: Address,
  block: bigint | 'latest' = 'latest',
): Promise<{ sqrtPriceX96: bigint; tick: number; feeProtocol: number; liquidity: bigint }> {
  const at = block === 'latest' ? block : numberToHex(block)
  const [slot0, liquidity] = await rpcBatch<[Hex, Hex]>(url, [
    { method: 'eth_call', params: [{ to: pool, data: encodeFunctionData({ abi: pancakeV3PoolAbi, functionName: 'slot0' }) }, at] },
    { method: 'eth_call', params: [{ to: pool, data: encodeFunctionData({ abi: pancakeV3PoolAbi, functionName: 'liquidity' }) }, at] },
  ])
  const [sqrtPriceX96, tick, , , , feeProtocol] = decodeFunctionResult({ abi: pancakeV3PoolAbi, functionName: 'slot0', data: slot0 })
  return { sqrtPriceX96, tick, feeProtocol, liquidity: BigInt(liquidity) }
}
