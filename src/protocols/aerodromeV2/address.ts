import { type Address, encodePacked, getCreate2Address, keccak256 } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import { sortTokens } from '../uniswapV2/readPools.js'

/**
 * The CREATE2 address of an Aerodrome V2 pool, as `PoolFactory.createPool` deploys it: an EIP-1167
 * clone of the pool implementation (`DexConfig.initCodeHash` is the clone's init-code hash, see
 * `getCloneInitCodeHash`) with salt keccak256(abi.encodePacked(token0, token1, stable)) from the
 * factory. Tokens in any order; lowercase.
 *
 * @example
 * getAerodromeV2PoolAddress(aerodromeDex, usdc, usdbc, true) // the sAMM-USDC/USDbC pool
 */
export function getAerodromeV2PoolAddress(
  dex: Pick<DexConfig, 'factory' | 'initCodeHash'>,
  tokenA: Address,
  tokenB: Address,
  stable: boolean,
): Address {
  const [token0, token1] = sortTokens(tokenA, tokenB)
  return getCreate2Address({
    from: dex.factory,
    salt: keccak256(encodePacked(['address', 'address', 'bool'], [token0, token1, stable])),
    bytecodeHash: dex.initCodeHash,
  }).toLowerCase() as Address
}
