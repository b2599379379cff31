import type { Address, Hex } from 'viem'

// Deployments of the Uniswap V2/V3 forks on the built-in chains. Every value here is a fact
// published by its protocol; docs/protocols/forks.md names the source of each and how it was checked.

/**
 * keccak256 of PancakeV3Pool's creation code: the mainnet value, and the hash of the
 * @pancakeswap/v3-core 1.0.2 build (its pool constructor takes no arguments; it reads them from
 * the deployer).
 *
 * @example
 * const pancake = { id: 'pancakeV3', family: 'pancakeV3', protocol: 'Uniswap V3', fork: 'PancakeV3', factory: PANCAKE_V3_POOL_DEPLOYER, initCodeHash: PANCAKE_V3_INIT_CODE_HASH, feeTiers: { ...PANCAKE_V3_FEE_TIERS } }
 */
export const PANCAKE_V3_INIT_CODE_HASH: Hex = '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2'

/**
 * PancakeSwap V3 fee tiers (hundredths of a bip) enabled by its factory, to their tick spacing.
 *
 * @example
 * PANCAKE_V3_FEE_TIERS[2500] // 50
 */
export const PANCAKE_V3_FEE_TIERS: Record<number, number> = { 100: 1, 500: 10, 2500: 50, 10000: 200 }

/**
 * The PancakeV3PoolDeployer, which CREATE2-deploys every PancakeSwap V3 pool (the factory only
 * asks it to): the address pools derive from. The same on Ethereum and Base.
 *
 * @example
 * defineChainConfig({ ...base, dexes: [...base.dexes.filter((d) => d.family !== 'pancakeV3'), { ...pancake, factory: PANCAKE_V3_POOL_DEPLOYER }] })
 */
export const PANCAKE_V3_POOL_DEPLOYER: Address = '0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9'

/**
 * The PancakeV3Factory on Ethereum and Base (PancakeSwap's v3 address table,
 * developer.pancakeswap.finance/contracts/v3/addresses: the same on BSC, ETH, Base, ...). Pools
 * derive from the deployer; the factory emits their `PoolCreated` (`DexConfig.creationEmitter`).
 */
export const PANCAKE_V3_FACTORY: Address = '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865'

/**
 * keccak256 of SushiSwap's UniswapV2Pair build (the same on Ethereum and Base).
 *
 * @example
 * getUniswapV2PairAddress({ factory: sushiFactory, initCodeHash: SUSHISWAP_V2_INIT_CODE_HASH }, weth, usdc)
 */
export const SUSHISWAP_V2_INIT_CODE_HASH: Hex = '0xe18a34eb0e04b04f7a0ac29a6e80748dca96319b42c54d679cb821dca90c6303'

/** Aerodrome Slipstream's CLFactory on Base: the address its pools are CREATE2-cloned from. */
export const AERODROME_SLIPSTREAM_FACTORY: Address = '0x5e7bb104d84c7cb9b682aac2f3d509f5f406809a'

/** The CLPool implementation that factory's pools are EIP-1167 clones of. */
export const AERODROME_SLIPSTREAM_POOL_IMPLEMENTATION: Address = '0xec8e5342b19977b4ef8892e02d8daecfa1315831'

/**
 * keccak256 of the EIP-1167 clone creation code pointing at
 * `AERODROME_SLIPSTREAM_POOL_IMPLEMENTATION` (`getCloneInitCodeHash` computes it).
 *
 * @example
 * getSlipstreamPoolAddress({ factory: AERODROME_SLIPSTREAM_FACTORY, initCodeHash: AERODROME_SLIPSTREAM_INIT_CODE_HASH }, weth, usdc, 100)
 */
export const AERODROME_SLIPSTREAM_INIT_CODE_HASH: Hex = '0xffb9af9ea6d9e39da47392ecc7055277b9915b8bfc9f83f105821b7791a6ae30'

/**
 * The tick spacings the CLFactory enables at deployment (with default fees 100, 500, 500, 3000 and
 * 10000 hundredths of a bip). Its owner may enable more; a host lists them in its own config.
 */
export const AERODROME_SLIPSTREAM_TICK_SPACINGS: readonly number[] = [1, 50, 100, 200, 2000]
