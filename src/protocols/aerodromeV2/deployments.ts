import type { Address, Hex } from 'viem'

/**
 * Aerodrome's V2 PoolFactory on Base (the Aerodrome contracts repository's deployment table,
 * aerodrome-finance/contracts README; see docs/protocols/aerodrome.md).
 *
 * @example
 * getAerodromeV2PoolAddress({ factory: AERODROME_V2_FACTORY_BASE, initCodeHash: AERODROME_V2_INIT_CODE_HASH_BASE }, weth, usdc, false)
 */
export const AERODROME_V2_FACTORY_BASE: Address = '0x420dd381b31aef6683db6b902084cb0ffece40da'

/**
 * The Pool implementation that factory clones (`PoolFactory.implementation()`; "Pool" in the same
 * deployment table).
 * @example getCloneInitCodeHash(AERODROME_V2_POOL_IMPLEMENTATION_BASE) === AERODROME_V2_INIT_CODE_HASH_BASE
 */
export const AERODROME_V2_POOL_IMPLEMENTATION_BASE: Address = '0xa4e46b4f701c62e14df11b48dce76a7d793cd6d7'

/**
 * keccak256 of the EIP-1167 creation code cloning that implementation: the init-code hash Base's
 * Aerodrome V2 pools are CREATE2-derived with (`getCloneInitCodeHash` computes it; a unit test
 * checks it, and that it derives the published vAMM-WETH/USDC pool).
 * @example AERODROME_V2_INIT_CODE_HASH_BASE // '0x6f17…dc3c'
 */
export const AERODROME_V2_INIT_CODE_HASH_BASE: Hex = '0x6f178972b07752b522a4da1c5b71af6524e8b0bd6027ccb29e5312b0e5bcdc3c'
