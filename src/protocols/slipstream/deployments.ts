import type { Address, Hex } from 'viem'

/**
 * Aerodrome's newer Slipstream CLFactory on Base, beside the legacy one weft configured first
 * (`AERODROME_SLIPSTREAM_FACTORY`, which Slipstream's own config now calls legacy). Source:
 * 0x-settler's `src/core/univ3forks/AerodromeSlipstream.sol` (`aerodromeFactoryV3_1`).
 *
 * @example
 * getSlipstreamPoolAddress({ factory: AERODROME_SLIPSTREAM_FACTORY_2, initCodeHash: AERODROME_SLIPSTREAM_INIT_CODE_HASH_2 }, weth, usdc, 50)
 */
export const AERODROME_SLIPSTREAM_FACTORY_2: Address = '0xade65c38cd4849adba595a4323a8c7ddfe89716a'

/**
 * The init-code hash of that factory's pools: the EIP-1167 clone of its pool implementation (same
 * source, `aerodromeInitHashV3_1`). Checked in src/chains/base.test.ts: it derives the WETH/USDC
 * spacing-50 pool 0xc758d81b9b81a6fcdad075bd471874a2c46b54e0, which other integrators list as a pool
 * of this factory. The implementation address itself is not taken from a source here.
 * @example AERODROME_SLIPSTREAM_INIT_CODE_HASH_2 // '0xe524…6f9d'
 */
export const AERODROME_SLIPSTREAM_INIT_CODE_HASH_2: Hex = '0xe524afc4d53c767ee9df4e3b4e1937f621368ef156aeffac97f1518b2b556f9d'
