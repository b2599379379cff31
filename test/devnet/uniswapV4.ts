// Uniswap V4 on a running devnet: the real PoolManager bytecode from @uniswap/v4-core 1.0.2, a test
// router that adds liquidity and swaps through unlock (test/contracts/V4TestRouter.sol), and pools of
// ERC-20 pairs and of native ETH, initialized at the devnet tokens' USD prices and seeded like the
// V3 ones. Pools with a hook (placed with anvil_setCode at an address whose low bits grant it
// beforeSwap) or a dynamic fee can be created too, for the "skipped" paths. Reusable: give it any
// Devnet and the pools to create; append the returned DexConfig to the chain config (`withUniswapV4`).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  maxUint256,
  parseAbi,
  parseEventLogs,
  zeroAddress,
} from 'viem'
import type { ChainConfig, DexConfig, DexPoolKey } from '../../src/chains/types.js'
import { UNISWAP_V4_FEE_TIERS, UNISWAP_V4_NO_INIT_CODE_HASH } from '../../src/protocols/uniswapV4/constants.js'
import { DYNAMIC_FEE_FLAG } from '../../src/protocols/uniswapV4/fees.js'
import { getUniswapV4PoolId, type UniswapV4PoolKey } from '../../src/protocols/uniswapV4/poolKey.js'
import { testTokenAbi, weth9Abi } from './abis.js'
import { compileTestContracts } from './compile.js'
import type { Devnet, DevnetPosition } from './deployDevnet.js'
import { getFullRangeTicks, getLiquidityForUsd, getNearestTick, getRawPrice, getSqrtPriceX96 } from './priceMath.js'
import { type DevnetTransaction, rpc, rpcBatch, sendDevnetTransaction, sendDevnetTransactions } from './rpc.js'
import type { DevnetPositionSpec, DevnetSymbol } from './universe.js'

const require = createRequire(import.meta.url)

/** The npm PoolManager artifact (foundry output: ABI and creation code). */
export const poolManagerArtifact = (() => {
  const json = JSON.parse(readFileSync(require.resolve('@uniswap/v4-core/out/PoolManager.sol/PoolManager.json'), 'utf8')) as {
    abi: Abi
    bytecode: { object: Hex }
  }
  return { abi: json.abi, bytecode: json.bytecode.object }
})()

/** The PoolManager functions and events the devnet helpers use (the npm ABI, narrowed). */
export const poolManagerAbi = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function initialize(PoolKey key, uint160 sqrtPriceX96) returns (int24 tick)',
  'function setProtocolFeeController(address controller)',
  'function setProtocolFee(PoolKey key, uint24 newProtocolFee)',
  'function unlock(bytes data) returns (bytes)',
  'function extsload(bytes32 slot) view returns (bytes32)',
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  'error CurrencyNotSettled()',
  'error AlreadyUnlocked()',
  'error ManagerLocked()',
  'error PoolNotInitialized()',
  'error SwapAmountCannotBeZero()',
  'error PriceLimitAlreadyExceeded(uint160 sqrtPriceCurrentX96, uint160 sqrtPriceLimitX96)',
  'error PriceLimitOutOfBounds(uint160 sqrtPriceLimitX96)',
  'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)',
])

/** V4TestRouter (test/contracts/V4TestRouter.sol). */
export const v4TestRouterAbi = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function modifyLiquidity(PoolKey key, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt) payable returns (int256 delta)',
  'function swap(PoolKey key, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, address recipient) payable returns (int256 delta)',
  'error UnexpectedCallback(address caller)',
  'error TransferFromFailed(address token)',
])

/** V4TestHook (test/contracts/V4TestHook.sol). */
export const v4TestHookAbi = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function setFee(address manager, PoolKey key, uint24 fee)',
])

/**
 * Where the test hooks are placed: the low 14 bits of a hook's address are its permissions. One
 * with BEFORE_SWAP (bit 7) only, and one with none (valid only for a dynamic-fee pool).
 */
export const V4_HOOK_ADDRESSES = {
  beforeSwap: '0x4444000000000000000000000000000000000080',
  dynamicFee: '0x4444000000000000000000000000000000004000',
} as const satisfies Record<string, Address>

/** A V4 pool to create: a pair ('ETH' for the native currency), fee, spacing, positions. */
export type UniswapV4PoolSpec = {
  pair: readonly [DevnetSymbol | 'ETH', DevnetSymbol]
  /** LP fee in hundredths of a bip, or DYNAMIC_FEE_FLAG (then `hooks` must be 'dynamicFee'). */
  fee: number
  tickSpacing: number
  positions: readonly DevnetPositionSpec[]
  /** A pool weft must skip: served by the test hook at {@link V4_HOOK_ADDRESSES}. */
  hooks?: keyof typeof V4_HOOK_ADDRESSES
  /** slot0's packed protocol fee (zeroForOne bits 0-11, oneForZero bits 12-23); default 0. */
  protocolFee?: number
  /** The LP fee a dynamic-fee pool's hook sets after initialization. */
  dynamicFee?: number
}

/**
 * The default V4 pools: native ETH/USDC on two tiers and WETH/USDC (ERC-20) on the tier Uniswap
 * V3 also has, so quotes split across V3 and V4 and across native and wrapped; a native ETH/WBTC
 * pool with a protocol fee; stables with spacing 1; ETH/LINK with gaps on both sides of its
 * full-range position; one pool with a non-standard fee / spacing pair (listed in the dex's
 * poolKeys); and a hooked and a dynamic-fee ETH/USDC pool that must be reported as skipped.
 */
export const DEVNET_UNISWAP_V4_POOLS: readonly UniswapV4PoolSpec[] = [
  {
    pair: ['ETH', 'USDC'],
    fee: 500,
    tickSpacing: 10,
    positions: [
      { range: 'full', usd: 2_000_000 },
      { range: [0.9, 1.1], usd: 3_000_000 },
      { range: [0.98, 1.02], usd: 1_000_000 },
    ],
  },
  {
    pair: ['ETH', 'USDC'],
    fee: 3000,
    tickSpacing: 60,
    positions: [
      { range: 'full', usd: 1_000_000 },
      { range: [0.7, 1.4], usd: 800_000 },
    ],
    protocolFee: (300 << 12) | 1000,
  },
  {
    pair: ['WETH', 'USDC'],
    fee: 500,
    tickSpacing: 10,
    positions: [
      { range: 'full', usd: 1_000_000 },
      { range: [0.95, 1.05], usd: 1_500_000 },
    ],
  },
  {
    pair: ['ETH', 'WBTC'],
    fee: 3000,
    tickSpacing: 60,
    positions: [
      { range: 'full', usd: 1_000_000 },
      { range: [0.8, 1.25], usd: 1_000_000 },
    ],
    protocolFee: (1000 << 12) | 250,
  },
  { pair: ['USDC', 'USDT'], fee: 100, tickSpacing: 1, positions: [{ range: [0.995, 1.005], usd: 2_000_000 }, { range: 'full', usd: 50_000 }] },
  { pair: ['DAI', 'USDC'], fee: 100, tickSpacing: 1, positions: [{ range: [0.99, 1.01], usd: 1_000_000 }] },
  {
    pair: ['ETH', 'LINK'],
    fee: 10000,
    tickSpacing: 200,
    positions: [
      { range: 'full', usd: 300_000 },
      { range: [0.7, 0.9], usd: 150_000 },
      { range: [1.1, 1.4], usd: 150_000 },
    ],
  },
  { pair: ['WBTC', 'USDC'], fee: 2500, tickSpacing: 50, positions: [{ range: 'full', usd: 800_000 }, { range: [0.9, 1.1], usd: 700_000 }] },
  { pair: ['ETH', 'USDC'], fee: 500, tickSpacing: 10, hooks: 'beforeSwap', positions: [{ range: 'full', usd: 5_000_000 }] },
  {
    pair: ['WETH', 'USDC'],
    fee: DYNAMIC_FEE_FLAG,
    tickSpacing: 60,
    hooks: 'dynamicFee',
    dynamicFee: 100,
    positions: [{ range: 'full', usd: 5_000_000 }],
  },
]

/** A V4 pool the deploy created. `tokens` are the currencies as weft's router names them (WETH for native). */
export type UniswapV4DevnetPool = {
  id: Hex
  key: UniswapV4PoolKey
  family: 'uniswapV4'
  /** `DexConfig.id` of the deployment. */
  dex: string
  native: boolean
  tokens: readonly [token0: Address, token1: Address]
  symbols: readonly [DevnetSymbol | 'ETH', DevnetSymbol]
  fee: number
  tickSpacing: number
  protocolFee: number
  hooks: Address
  positions: DevnetPosition[]
}

/** The outcome of a raw V4 swap, from the PoolManager's Swap event (the swapper's deltas). */
export type UniswapV4SwapResult = {
  amount0: bigint
  amount1: bigint
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
  /** The swap fee the pool charged (LP fee composed with the protocol fee). */
  fee: number
  receipt: TransactionReceipt
}

/** A Uniswap V4 deployment on a devnet, and helpers to move its pools. */
export type UniswapV4Deployment = {
  /** The dex entry to append to the chain config (factory: the PoolManager). */
  dex: DexConfig
  manager: Address
  router: Address
  pools: UniswapV4DevnetPool[]
  /** A pool by its two tokens ('ETH' for native), fee and, optionally, hooks. Throws when absent. */
  getPool(tokenA: DevnetSymbol | 'ETH', tokenB: DevnetSymbol | 'ETH', fee: number, hooks?: Address): UniswapV4DevnetPool
  /**
   * A raw swap through the router, V4 signs: `amountSpecified` < 0 is an exact input, > 0 an
   * exact output. A `from` other than the devnet deployer must have approved the router.
   * Native input is sent along as value (the router refunds what the pool did not take).
   */
  swap(
    pool: UniswapV4DevnetPool,
    zeroForOne: boolean,
    amountSpecified: bigint,
    options?: { from?: Address; recipient?: Address; sqrtPriceLimitX96?: bigint; value?: bigint },
  ): Promise<UniswapV4SwapResult>
  /** Adds a position owned by the router (salt 0), paid by the devnet deployer. */
  addLiquidity(pool: UniswapV4DevnetPool, tickLower: number, tickUpper: number, liquidity: bigint): Promise<void>
  /** Sets a pool's packed protocol fee (the deployer is the PoolManager's owner and fee controller). */
  setProtocolFee(pool: UniswapV4DevnetPool, protocolFee: number): Promise<void>
}

/** Options of {@link deployUniswapV4}. */
export type DeployUniswapV4Options = {
  /** Pools to create (default {@link DEVNET_UNISWAP_V4_POOLS}). */
  pools?: readonly UniswapV4PoolSpec[]
  /** `DexConfig.id` (default `uniswapV4`). */
  dexId?: string
}

/** Gas limits (about twice what each uses). */
const GAS = {
  deployManager: 12_000_000n,
  deployRouter: 3_000_000n,
  approve: 100_000n,
  deposit: 100_000n,
  setController: 100_000n,
  setProtocolFee: 150_000n,
  setFee: 150_000n,
  initialize: 300_000n,
  modifyLiquidity: 1_000_000n,
  swap: 6_000_000n,
}

const lower = (address: string) => address.toLowerCase() as Address

/**
 * Deploys Uniswap V4 onto a running devnet (the devnet deployer sends everything and owns the
 * PoolManager): the npm PoolManager, the test router, the test hooks when a spec names one, and
 * the pools of `options.pools`, priced at the devnet tokens' USD prices and seeded with their
 * positions (native amounts paid as value). Every pool is checked initialized at the expected
 * price through `extsload` before liquidity goes in. ~50 transactions in a few blocks.
 *
 * @example
 * const v4 = await deployUniswapV4(devnet)
 * const chain = withUniswapV4(devnet.chain, v4)
 */
export async function deployUniswapV4(devnet: Devnet, options: DeployUniswapV4Options = {}): Promise<UniswapV4Deployment> {
  const url = devnet.anvil.rpcUrl
  const specs = options.pools ?? DEVNET_UNISWAP_V4_POOLS
  const dexId = options.dexId ?? 'uniswapV4'
  const deployer = devnet.accounts.deployer
  const compiled = await compileTestContracts({ files: ['test/contracts/V4TestRouter.sol', 'test/contracts/V4TestHook.sol'] })
  const routerContract = compiled.V4TestRouter
  const hookContract = compiled.V4TestHook
  if (!routerContract || !hookContract) throw new Error('test/contracts/V4TestRouter.sol or V4TestHook.sol did not compile')

  let nonce = Number(await rpc<Hex>(url, 'eth_getTransactionCount', [deployer, 'pending']))
  const phase1: DevnetTransaction[] = []
  const created: { label: string; index: number; address: Address }[] = []
  const deploy = (label: string, data: Hex, gas: bigint): Address => {
    const address = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce) }))
    created.push({ label, index: phase1.length, address })
    phase1.push({ label, from: deployer, data, gas, nonce: nonce++ })
    return address
  }
  // Only phase 1 (whose creation addresses follow from the nonces) numbers its transactions here;
  // the later phases are numbered when sent.
  const call = (phase: DevnetTransaction[], label: string, to: Address, data: Hex, gas: bigint, value?: bigint) => {
    phase.push({ label, from: deployer, to, data, gas, ...(phase === phase1 ? { nonce: nonce++ } : {}), ...(value ? { value } : {}) })
  }

  const manager = deploy(
    'deploy PoolManager',
    concat([poolManagerArtifact.bytecode, encodeAbiParameters([{ type: 'address' }], [deployer])]),
    GAS.deployManager,
  )
  const router = deploy(
    'deploy V4TestRouter',
    concat([routerContract.bytecode, encodeAbiParameters([{ type: 'address' }], [manager])]),
    GAS.deployRouter,
  )
  for (const token of Object.values(devnet.tokens)) {
    call(
      phase1,
      `deployer approves the V4 router for ${token.symbol}`,
      token.address,
      encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [router, maxUint256] }),
      GAS.approve,
    )
  }
  call(phase1, 'deployer wraps 100k WETH for V4 pools', devnet.contracts.weth, encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }), GAS.deposit, 10n ** 23n)
  call(
    phase1,
    'deployer becomes the protocol fee controller',
    manager,
    encodeFunctionData({ abi: poolManagerAbi, functionName: 'setProtocolFeeController', args: [deployer] }),
    GAS.setController,
  )

  if (specs.some((spec) => spec.hooks !== undefined)) {
    await rpcBatch(
      url,
      Object.values(V4_HOOK_ADDRESSES).map((address) => ({ method: 'anvil_setCode', params: [address, hookContract.deployedBytecode] })),
    )
  }

  const weth = devnet.contracts.weth
  const pools: UniswapV4DevnetPool[] = []
  const phase2: DevnetTransaction[] = []
  const phase3: DevnetTransaction[] = []
  for (const spec of specs) {
    const native = spec.pair[0] === 'ETH'
    const tokenA = native ? devnet.tokens.WETH : devnet.getToken(spec.pair[0] as DevnetSymbol)
    const tokenB = devnet.getToken(spec.pair[1])
    const currencyA = native ? zeroAddress : tokenA.address
    const [c0, c1] = currencyA < tokenB.address ? [currencyA, tokenB.address] : [tokenB.address, currencyA]
    const hooks = spec.hooks === undefined ? zeroAddress : V4_HOOK_ADDRESSES[spec.hooks]
    const key: UniswapV4PoolKey = { currency0: c0, currency1: c1, fee: spec.fee, tickSpacing: spec.tickSpacing, hooks }
    const first = c0 === currencyA
    const [priced0, priced1] = first ? [tokenA, tokenB] : [tokenB, tokenA]
    const symbols = (first ? [spec.pair[0], spec.pair[1]] : [spec.pair[1], spec.pair[0]]) as [DevnetSymbol | 'ETH', DevnetSymbol]
    const pool: UniswapV4DevnetPool = {
      id: getUniswapV4PoolId(key),
      key,
      family: 'uniswapV4',
      dex: dexId,
      native,
      tokens: [c0 === zeroAddress ? weth : c0, c1],
      symbols,
      fee: spec.fee,
      tickSpacing: spec.tickSpacing,
      protocolFee: spec.protocolFee ?? 0,
      hooks,
      positions: [],
    }
    pools.push(pool)
    const name = poolName(pool)
    const price = getRawPrice(priced0, priced1)
    call(
      phase2,
      `initialize ${name}`,
      manager,
      encodeFunctionData({ abi: poolManagerAbi, functionName: 'initialize', args: [key, getSqrtPriceX96(price)] }),
      GAS.initialize,
    )
    if (spec.protocolFee) {
      call(
        phase2,
        `protocol fee of ${name}`,
        manager,
        encodeFunctionData({ abi: poolManagerAbi, functionName: 'setProtocolFee', args: [key, spec.protocolFee] }),
        GAS.setProtocolFee,
      )
    }
    if (spec.dynamicFee !== undefined) {
      call(
        phase2,
        `dynamic fee of ${name}`,
        hooks,
        encodeFunctionData({ abi: v4TestHookAbi, functionName: 'setFee', args: [manager, key, spec.dynamicFee] }),
        GAS.setFee,
      )
    }
    // Ranges are written for the price of pair[0] in pair[1]; the pool's is currency1 per currency0.
    const inverted = !first
    for (const position of spec.positions) {
      let [tickLower, tickUpper] = getFullRangeTicks(spec.tickSpacing)
      if (position.range !== 'full') {
        const [low, high] = inverted ? [1 / position.range[1], 1 / position.range[0]] : position.range
        tickLower = getNearestTick(price * low, spec.tickSpacing)
        tickUpper = Math.max(getNearestTick(price * high, spec.tickSpacing), tickLower + spec.tickSpacing)
      }
      const liquidity = getLiquidityForUsd({ price, tickLower, tickUpper, usd: position.usd, token0: priced0, token1: priced1 })
      pool.positions.push({ tickLower, tickUpper, liquidity })
      // Native is paid as value: at most the whole position in ETH, twice over; the router refunds the rest.
      const value = native ? BigInt(Math.ceil((2 * position.usd) / devnet.tokens.WETH.priceUsd)) * 10n ** 18n : 0n
      call(
        phase3,
        `add liquidity to ${name} [${tickLower}, ${tickUpper}]`,
        router,
        encodeFunctionData({ abi: v4TestRouterAbi, functionName: 'modifyLiquidity', args: [key, tickLower, tickUpper, liquidity, zeroHash32] }),
        GAS.modifyLiquidity,
        value,
      )
    }
  }
  if (new Set(pools.map((pool) => pool.id)).size !== pools.length) throw new Error('a V4 pool is listed twice')

  const receipts = await sendDevnetTransactions(url, phase1)
  for (const { label, index, address } of created) {
    const actual = receipts[index]?.contractAddress
    if (!actual || lower(actual) !== address) throw new Error(`${label}: deployed at ${actual}, expected ${address}`)
  }
  await sendDevnetTransactions(url, phase2)
  // Liquidity goes to pools named only by their keys: first prove each is initialized.
  const slots = await rpcBatch<Hex[]>(
    url,
    pools.map((pool) => ({
      method: 'eth_call',
      params: [{ to: manager, data: encodeFunctionData({ abi: poolManagerAbi, functionName: 'extsload', args: [getPoolStateSlot(pool.id)] }) }, 'latest'],
    })),
  )
  pools.forEach((pool, i) => {
    if (BigInt(slots[i] as Hex) % (1n << 160n) === 0n) throw new Error(`V4 pool ${poolName(pool)} is not initialized`)
  })
  await sendDevnetTransactions(url, phase3)

  // Keys the fee tiers do not generate (another fee / spacing pair, hooks, a dynamic fee) are listed.
  const tiers = UNISWAP_V4_FEE_TIERS
  const listed: DexPoolKey[] = pools
    .filter((pool) => pool.hooks !== zeroAddress || tiers[pool.fee] !== pool.tickSpacing)
    .map((pool) => ({ ...pool.key }))
  const dex: DexConfig = {
    id: dexId,
    family: 'uniswapV4',
    protocol: 'Uniswap V4',
    fork: 'UniswapV4',
    factory: manager,
    initCodeHash: UNISWAP_V4_NO_INIT_CODE_HASH,
    feeTiers: { ...tiers },
    poolKeys: listed,
  }
  const send = (tx: DevnetTransaction) => sendDevnetTransaction(url, tx)
  return {
    dex,
    manager,
    router,
    pools,
    getPool(tokenA, tokenB, fee, hooks = zeroAddress) {
      const pool = pools.find(
        (p) => p.fee === fee && p.hooks === lower(hooks) && p.symbols.includes(tokenA as never) && p.symbols.includes(tokenB as never),
      )
      if (!pool) throw new Error(`no V4 pool ${tokenA}/${tokenB} ${fee} on the devnet`)
      return pool
    },
    async swap(pool, zeroForOne, amountSpecified, swapOptions = {}) {
      const from = swapOptions.from ?? deployer
      const nativeIn = pool.native && zeroForOne
      // Native input: an exact input is sent exactly; an exact output gets generous value, refunded.
      const value = swapOptions.value ?? (nativeIn ? (amountSpecified < 0n ? -amountSpecified : 10n ** 24n) : 0n)
      const receipt = await send({
        label: `V4 swap on ${poolName(pool)}`,
        from,
        to: router,
        data: encodeFunctionData({
          abi: v4TestRouterAbi,
          functionName: 'swap',
          args: [pool.key, zeroForOne, amountSpecified, swapOptions.sqrtPriceLimitX96 ?? 0n, swapOptions.recipient ?? from],
        }),
        gas: GAS.swap,
        ...(value > 0n ? { value } : {}),
      })
      const [event] = parseEventLogs({ abi: poolManagerAbi, eventName: 'Swap', logs: receipt.logs })
      if (!event) throw new Error('V4 swap: the PoolManager emitted no Swap event')
      const { amount0, amount1, sqrtPriceX96, tick, liquidity, fee } = event.args
      return { amount0, amount1, sqrtPriceX96, tick, liquidity, fee, receipt }
    },
    async addLiquidity(pool, tickLower, tickUpper, liquidity) {
      await send({
        label: `add liquidity to ${poolName(pool)} [${tickLower}, ${tickUpper}]`,
        from: deployer,
        to: router,
        data: encodeFunctionData({ abi: v4TestRouterAbi, functionName: 'modifyLiquidity', args: [pool.key, tickLower, tickUpper, liquidity, zeroHash32] }),
        gas: GAS.modifyLiquidity,
        ...(pool.native ? { value: 10n ** 24n } : {}),
      })
    },
    async setProtocolFee(pool, protocolFee) {
      await send({
        label: `protocol fee of ${poolName(pool)}`,
        from: deployer,
        to: manager,
        data: encodeFunctionData({ abi: poolManagerAbi, functionName: 'setProtocolFee', args: [pool.key, protocolFee] }),
        gas: GAS.setProtocolFee,
      })
      pool.protocolFee = protocolFee
    },
  }
}

/**
 * `chain` with the V4 dex appended to its dex table (a new object; the executor's address follows
 * from the table, so deploy the executor for the returned config).
 *
 * @example
 * const chain = withUniswapV4(devnet.chain, v4)
 * const executor = await deployExecutor({ walletClient, publicClient, chain })
 */
export function withUniswapV4(chain: ChainConfig, deployment: Pick<UniswapV4Deployment, 'dex'>): ChainConfig {
  if (chain.dexes.some((dex) => dex.id === deployment.dex.id)) throw new Error(`chain ${chain.id} already has a dex ${deployment.dex.id}`)
  return { ...chain, dexes: [...chain.dexes, deployment.dex] }
}

/**
 * The storage slot where a pool's state starts in the PoolManager: keccak256(poolId, 6)
 * (StateLibrary._getPoolStateSlot); slot0 is there, the liquidity 3 slots on.
 *
 * @example
 * await publicClient.readContract({ address: manager, abi: poolManagerAbi, functionName: 'extsload', args: [getPoolStateSlot(id)] })
 */
export function getPoolStateSlot(id: Hex): Hex {
  return keccak256(concat([id, '0x0000000000000000000000000000000000000000000000000000000000000006']))
}

const zeroHash32 = '0x0000000000000000000000000000000000000000000000000000000000000000' as Hex

function poolName(pool: UniswapV4DevnetPool): string {
  const hooks = pool.hooks === zeroAddress ? '' : ` hooks ${pool.hooks}`
  return `V4 ${pool.symbols.join('/')} ${pool.fee}/${pool.tickSpacing}${hooks}`
}
