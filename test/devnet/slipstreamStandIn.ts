// Slipstream-keyed pools on a running devnet, for the slipstream family and the executor's kind-6
// step: no Slipstream bytecode is published on npm, so SlipstreamStandInFactory
// (test/contracts/SlipstreamStandIn.sol) deploys the real UniswapV3Pool (whose swap Slipstream's
// CLPool keeps) at the address Slipstream's keying gives (salt token0, token1, int24 tickSpacing),
// with a fee chosen apart from the spacing. The DexConfig it returns is a `slipstream` dex whose
// init-code hash is the UniswapV3Pool's (on Base it is the clone hash of the real factory).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Address, type Hex, concat, encodeDeployData, encodeFunctionData, getContractAddress, keccak256 } from 'viem'
import type { ChainConfig, DexConfig } from '../../src/chains/types.js'
import { getSlipstreamPoolAddress } from '../../src/protocols/slipstream/address.js'
import { uniswapV3PoolAbi, v3LiquidityProviderAbi } from './abis.js'
import { compileTestContracts } from './compile.js'
import type { Devnet, DevnetPosition } from './deployDevnet.js'
import { getFullRangeTicks, getLiquidityForUsd, getNearestTick, getRawPrice, getSqrtPriceX96 } from './priceMath.js'
import { type DevnetTransaction, rpc, sendDevnetTransactions } from './rpc.js'
import type { DevnetPositionSpec, DevnetSymbol } from './universe.js'

const require = createRequire(import.meta.url)
const uniswapV3PoolBytecode = (
  JSON.parse(readFileSync(require.resolve('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'), 'utf8')) as {
    bytecode: Hex
  }
).bytecode

/** A Slipstream-keyed pool to create. */
export type SlipstreamPoolSpec = {
  pair: readonly [DevnetSymbol, DevnetSymbol]
  tickSpacing: number
  /** The pool's swap fee (hundredths of a bip), independent of the spacing as on Slipstream. */
  fee: number
  positions: readonly DevnetPositionSpec[]
}

/** The default stand-in pools: WETH/USDC on two spacings (one beside the Uniswap pools), a stable pair, LINK/WETH. */
export const DEVNET_SLIPSTREAM_POOLS: readonly SlipstreamPoolSpec[] = [
  {
    pair: ['WETH', 'USDC'],
    tickSpacing: 100,
    fee: 420,
    positions: [
      { range: 'full', usd: 1_000_000 },
      { range: [0.9, 1.1], usd: 3_000_000 },
    ],
  },
  { pair: ['WETH', 'USDC'], tickSpacing: 200, fee: 3000, positions: [{ range: 'full', usd: 800_000 }] },
  { pair: ['USDC', 'USDT'], tickSpacing: 1, fee: 100, positions: [{ range: [0.995, 1.005], usd: 2_000_000 }] },
  {
    pair: ['LINK', 'WETH'],
    tickSpacing: 2000,
    fee: 10000,
    positions: [
      { range: 'full', usd: 300_000 },
      { range: [0.5, 2], usd: 200_000 },
    ],
  },
]

export type SlipstreamDevnetPool = {
  address: Address
  tokens: readonly [token0: Address, token1: Address]
  symbols: readonly [DevnetSymbol, DevnetSymbol]
  tickSpacing: number
  fee: number
  positions: DevnetPosition[]
}

export type SlipstreamStandInDeployment = {
  /** The `slipstream` dex to append to the chain config. */
  dex: DexConfig
  factory: Address
  pools: SlipstreamDevnetPool[]
}

const lower = (address: string) => address.toLowerCase() as Address

/**
 * Deploys the stand-in factory and its pools (priced and seeded like the devnet's Uniswap pools,
 * liquidity through the devnet's V3LiquidityProvider), and asserts each pool sits at its
 * Slipstream-keyed CREATE2 address.
 *
 * @example
 * const slipstream = await deploySlipstreamStandIn(devnet)
 * const chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, slipstream.dex] }
 */
export async function deploySlipstreamStandIn(
  devnet: Devnet,
  options: { pools?: readonly SlipstreamPoolSpec[]; dexId?: string } = {},
): Promise<SlipstreamStandInDeployment> {
  const url = devnet.anvil.rpcUrl
  const specs = options.pools ?? DEVNET_SLIPSTREAM_POOLS
  const deployer = devnet.accounts.deployer
  const { SlipstreamStandInFactory: factoryContract } = await compileTestContracts({ files: ['test/contracts/SlipstreamStandIn.sol'] })
  if (!factoryContract) throw new Error('SlipstreamStandIn.sol did not compile')

  let nonce = Number(await rpc<Hex>(url, 'eth_getTransactionCount', [deployer, 'pending']))
  const holder = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce) }))
  const factory = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + 1) }))
  const length = (uniswapV3PoolBytecode.length - 2) / 2
  const phase1: DevnetTransaction[] = [
    {
      label: 'deploy the UniswapV3Pool code holder',
      from: deployer,
      data: concat([`0x61${length.toString(16).padStart(4, '0')}80600c6000396000f3`, uniswapV3PoolBytecode]),
      gas: 7_000_000n,
      nonce: nonce++,
    },
    {
      label: 'deploy SlipstreamStandInFactory',
      from: deployer,
      data: encodeDeployData({ abi: factoryContract.abi, bytecode: factoryContract.bytecode, args: [holder] }),
      gas: 2_000_000n,
      nonce: nonce++,
    },
  ]
  const dex: DexConfig = {
    id: options.dexId ?? 'slipstreamStandIn',
    family: 'slipstream',
    protocol: 'Uniswap V3',
    fork: 'AeroDromeCL',
    factory,
    initCodeHash: keccak256(uniswapV3PoolBytecode),
    tickSpacings: [...new Set(specs.map((s) => s.tickSpacing))].sort((a, b) => a - b),
  }
  const pools: SlipstreamDevnetPool[] = []
  for (const spec of specs) {
    const a = devnet.getToken(spec.pair[0])
    const b = devnet.getToken(spec.pair[1])
    const [token0, token1] = a.address < b.address ? [a, b] : [b, a]
    phase1.push({
      label: `create stand-in ${spec.pair.join('/')} spacing ${spec.tickSpacing}`,
      from: deployer,
      to: factory,
      data: encodeFunctionData({
        abi: factoryContract.abi,
        functionName: 'createPool',
        args: [token0.address, token1.address, spec.tickSpacing, spec.fee],
      }),
      gas: 9_000_000n,
      nonce: nonce++,
    })
    pools.push({
      address: getSlipstreamPoolAddress(dex, token0.address, token1.address, spec.tickSpacing),
      tokens: [token0.address, token1.address],
      symbols: [token0.symbol, token1.symbol],
      tickSpacing: spec.tickSpacing,
      fee: spec.fee,
      positions: [],
    })
  }
  const receipts = await sendDevnetTransactions(url, phase1)
  if (lower(receipts[1]?.contractAddress ?? '') !== factory) throw new Error('the stand-in factory is not where expected')
  for (const pool of pools) {
    const code = await rpc<Hex>(url, 'eth_getCode', [pool.address, 'latest'])
    if (code === '0x') throw new Error(`no pool at the Slipstream-keyed address ${pool.address}`)
  }

  const phase2: DevnetTransaction[] = []
  for (const [i, spec] of specs.entries()) {
    const pool = pools[i] as SlipstreamDevnetPool
    const token0 = devnet.getToken(pool.tokens[0])
    const token1 = devnet.getToken(pool.tokens[1])
    const price = getRawPrice(token0, token1)
    phase2.push({
      label: `initialize stand-in ${pool.address}`,
      from: deployer,
      to: pool.address,
      data: encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(price)] }),
      gas: 250_000n,
    })
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
        label: `add liquidity to stand-in ${pool.address}`,
        from: deployer,
        to: devnet.contracts.v3LiquidityProvider,
        data: encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'mint', args: [pool.address, deployer, tickLower, tickUpper, liquidity] }),
        gas: 1_000_000n,
      })
    }
  }
  await sendDevnetTransactions(url, phase2)
  return { dex, factory, pools }
}

/** `chain` with the stand-in dex appended. */
export function withSlipstreamStandIn(chain: ChainConfig, deployment: Pick<SlipstreamStandInDeployment, 'dex'>): ChainConfig {
  return { ...chain, dexes: [...chain.dexes, deployment.dex] }
}
