// Aerodrome V2 on a running devnet, from its real sources: Pool.sol and factories/PoolFactory.sol of
// sphere-mezo-solidity-files (pinned in package.json), compiled with solc-js 0.8.20 (the version
// their `^0.8.20` pragma names, installed as the `solc-0.8.20` alias) against
// @openzeppelin/contracts 5.4.0. The factory clones the Pool implementation (EIP-1167) at
// CREATE2 salt keccak256(abi.encodePacked(token0, token1, stable)); every pool is asserted to sit at
// getAerodromeV2PoolAddress before liquidity is sent to it.
import { type Address, type Hex, encodeDeployData, encodeFunctionData, getContractAddress, parseAbi } from 'viem'
import type { ChainConfig, DexConfig } from '../../src/chains/types.js'
import { getAerodromeV2PoolAddress } from '../../src/protocols/aerodromeV2/address.js'
import { getCloneInitCodeHash } from '../../src/protocols/slipstream/address.js'
import { testTokenAbi } from './abis.js'
import { type CompiledContract, compileNpmSolidity } from './compileNpmSolidity.js'
import type { Devnet } from './deployDevnet.js'
import { type DevnetTransaction, rpc, sendDevnetTransactions } from './rpc.js'
import type { DevnetSymbol } from './universe.js'


/** The solc-js release Aerodrome's pragma (`^0.8.20`) names, and the EVM Base ran when it deployed. */
const AERODROME_SOLC = 'solc-0.8.20'
const AERODROME_EVM_VERSION = 'paris'
/** Where the package keeps the Aerodrome V2 contracts. */
const AERODROME_SOURCES = 'sphere-mezo-solidity-files/domains/aerodrome/contracts'

/** The Pool and PoolFactory functions the tests call. */
export const aerodromePoolAbi = parseAbi([
  'function initialize(address, address, bool)',
  'function mint(address to) returns (uint256)',
  'function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)',
  'function getAmountOut(uint256 amountIn, address tokenIn) view returns (uint256)',
  'function getReserves() view returns (uint256, uint256, uint256)',
  'function metadata() view returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)',
  'function poolFees() view returns (address)',
  'function sync()',
  'event Swap(address indexed sender, address indexed to, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out)',
  'event Sync(uint256 reserve0, uint256 reserve1)',
  'error K()',
  'error InsufficientLiquidity()',
  'error InsufficientOutputAmount()',
  'error InsufficientInputAmount()',
  'error IsPaused()',
])
export const aerodromePoolFactoryAbi = parseAbi([
  'constructor(address implementation)',
  'function createPool(address tokenA, address tokenB, bool stable) returns (address)',
  'function getPool(address tokenA, address tokenB, bool stable) view returns (address)',
  'function getFee(address pool, bool stable) view returns (uint256)',
  'function setCustomFee(address pool, uint256 fee)',
  'function setFee(bool stable, uint256 fee)',
  'function setPauseState(bool state)',
  'function implementation() view returns (address)',
])

let compiled: Promise<{ Pool: CompiledContract; PoolFactory: CompiledContract; solcVersion: string }> | undefined

/**
 * Pool and PoolFactory compiled from the npm sources with solc-js 0.8.20 (optimizer 200 runs,
 * EVM paris), cached under .tmp/solc-cache by a hash of sources and settings.
 *
 * @example
 * const { Pool, PoolFactory } = await compileAerodrome()
 */
export function compileAerodrome(): Promise<{ Pool: CompiledContract; PoolFactory: CompiledContract; solcVersion: string }> {
  compiled ??= compileNpmSolidity({
    label: 'aerodrome',
    solcPackage: AERODROME_SOLC,
    evmVersion: AERODROME_EVM_VERSION,
    contracts: { Pool: `${AERODROME_SOURCES}/Pool.sol`, PoolFactory: `${AERODROME_SOURCES}/factories/PoolFactory.sol` },
  })
  return compiled
}

/** An Aerodrome V2 pool to create: its pair, curve, liquidity (USD per side at the devnet's prices) and custom fee. */
export type AerodromePoolSpec = {
  pair: readonly [DevnetSymbol, DevnetSymbol]
  stable: boolean
  /**
   * USD value of each side deposited (a stable pool's first deposit must be equal in 18-decimal
   * units: give stable pools tokens of one price, or `wholePerSide`).
   */
  usdPerSide: number
  /** Instead of `usdPerSide`: this many whole tokens of each side, whatever their prices. */
  wholePerSide?: number
  /** `setCustomFee` (bps; 420 is the factory's zero-fee marker). Absent: the factory's default. */
  customFee?: number
}

/** The default pools: volatile and stable pairs over 6-, 8- and 18-decimal tokens, some with custom fees. */
export const DEVNET_AERODROME_POOLS: readonly AerodromePoolSpec[] = [
  { pair: ['WETH', 'USDC'], stable: false, usdPerSide: 2_000_000 },
  { pair: ['WBTC', 'WETH'], stable: false, usdPerSide: 1_000_000, customFee: 12 },
  { pair: ['LINK', 'WETH'], stable: false, usdPerSide: 300_000 },
  { pair: ['USDC', 'USDT'], stable: true, usdPerSide: 3_000_000 },
  { pair: ['USDC', 'DAI'], stable: true, usdPerSide: 2_000_000, customFee: 1 },
  { pair: ['DAI', 'USDT'], stable: true, usdPerSide: 1_000_000, customFee: 420 },
]

export type AerodromeDevnetPool = {
  address: Address
  tokens: readonly [token0: Address, token1: Address]
  symbols: readonly [DevnetSymbol, DevnetSymbol]
  stable: boolean
}

export type AerodromeDeployment = {
  /** The `aerodromeV2` dex to append to the chain config. */
  dex: DexConfig
  factory: Address
  implementation: Address
  pools: AerodromeDevnetPool[]
  solcVersion: string
}

const lower = (address: string) => address.toLowerCase() as Address

/** Raw units of `usd` worth of a devnet token. */
function rawForUsd(devnet: Devnet, symbol: DevnetSymbol, usd: number): bigint {
  const token = devnet.getToken(symbol)
  const whole = usd / token.priceUsd
  return (BigInt(Math.round(whole * 1e6)) * 10n ** BigInt(token.decimals)) / 1_000_000n
}

/**
 * Deploys the Pool implementation, a PoolFactory over it, and the pools of `specs` with liquidity
 * from the deployer (which is the factory's fee manager, pauser and voter).
 *
 * @example
 * const aerodrome = await deployAerodrome(devnet)
 * const chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, aerodrome.dex] }
 */
export async function deployAerodrome(
  devnet: Devnet,
  options: { pools?: readonly AerodromePoolSpec[]; dexId?: string } = {},
): Promise<AerodromeDeployment> {
  const url = devnet.anvil.rpcUrl
  const specs = options.pools ?? DEVNET_AERODROME_POOLS
  const deployer = devnet.accounts.deployer
  const { Pool, PoolFactory, solcVersion } = await compileAerodrome()
  let nonce = Number(await rpc<Hex>(url, 'eth_getTransactionCount', [deployer, 'pending']))
  const implementation = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce) }))
  const factory = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + 1) }))
  const dex: DexConfig = {
    id: options.dexId ?? 'aerodromeV2',
    family: 'aerodromeV2',
    // The wire's naming (docs/protocols/aerodrome.md): the math family, then the deployment.
    protocol: 'Solidly',
    fork: 'AeroDrome',
    factory,
    initCodeHash: getCloneInitCodeHash(implementation),
  }
  const phase1: DevnetTransaction[] = [
    { label: 'deploy the Aerodrome Pool implementation', from: deployer, data: Pool.bytecode, gas: 8_000_000n, nonce: nonce++ },
    {
      label: 'deploy the Aerodrome PoolFactory',
      from: deployer,
      data: encodeDeployData({ abi: aerodromePoolFactoryAbi, bytecode: PoolFactory.bytecode, args: [implementation] }),
      gas: 3_000_000n,
      nonce: nonce++,
    },
  ]
  const pools: AerodromeDevnetPool[] = specs.map((spec) => {
    const a = devnet.getToken(spec.pair[0])
    const b = devnet.getToken(spec.pair[1])
    // Pools order tokens by address as numbers: compare lowercase.
    const [token0, token1] = lower(a.address) < lower(b.address) ? [a, b] : [b, a]
    phase1.push({
      label: `create Aerodrome ${spec.stable ? 'stable' : 'volatile'} ${spec.pair.join('/')}`,
      from: deployer,
      to: factory,
      data: encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'createPool', args: [lower(token0.address), lower(token1.address), spec.stable] }),
      gas: 3_000_000n,
      nonce: nonce++,
    })
    return {
      address: getAerodromeV2PoolAddress(dex, token0.address, token1.address, spec.stable),
      tokens: [lower(token0.address), lower(token1.address)],
      symbols: [token0.symbol, token1.symbol],
      stable: spec.stable,
    }
  })
  await sendDevnetTransactions(url, phase1)
  for (const pool of pools) {
    const code = await rpc<Hex>(url, 'eth_getCode', [pool.address, 'latest'])
    if (code === '0x') throw new Error(`no Aerodrome pool at its derived address ${pool.address}`)
  }

  const phase2: DevnetTransaction[] = []
  specs.forEach((spec, i) => {
    const pool = pools[i] as AerodromeDevnetPool
    for (const symbol of pool.symbols) {
      phase2.push({
        label: `fund Aerodrome ${pool.symbols.join('/')} with ${symbol}`,
        from: deployer,
        to: devnet.getToken(symbol).address,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [
            pool.address,
            spec.wholePerSide === undefined
              ? rawForUsd(devnet, symbol, spec.usdPerSide)
              : BigInt(spec.wholePerSide) * 10n ** BigInt(devnet.getToken(symbol).decimals),
          ],
        }),
        gas: 100_000n,
      })
    }
    phase2.push({
      label: `mint Aerodrome ${pool.symbols.join('/')} liquidity`,
      from: deployer,
      to: pool.address,
      data: encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'mint', args: [deployer] }),
      gas: 500_000n,
    })
    if (spec.customFee !== undefined) {
      phase2.push({
        label: `custom fee ${spec.customFee} on ${pool.symbols.join('/')}`,
        from: deployer,
        to: factory,
        data: encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'setCustomFee', args: [pool.address, BigInt(spec.customFee)] }),
        gas: 100_000n,
      })
    }
  })
  await sendDevnetTransactions(url, phase2)
  return { dex, factory, implementation, pools, solcVersion }
}

/** `chain` with the Aerodrome dex appended. */
export function withAerodrome(chain: ChainConfig, deployment: Pick<AerodromeDeployment, 'dex'>): ChainConfig {
  return { ...chain, dexes: [...chain.dexes, deployment.dex] }
}
