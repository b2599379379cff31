import { type Address, concat, encodeAbiParameters, getCreate2Address, type Hex, keccak256 } from 'viem'
import type { DexConfig } from '../../chains/types.js'

/**
 * keccak256 of the EIP-1167 minimal-proxy creation code (OpenZeppelin `Clones`) that clones
 * `implementation`: the init-code hash of pools a factory deploys with `cloneDeterministic`.
 *
 * @example
 * getCloneInitCodeHash(AERODROME_SLIPSTREAM_POOL_IMPLEMENTATION) === AERODROME_SLIPSTREAM_INIT_CODE_HASH // true
 */
export function getCloneInitCodeHash(implementation: Address): Hex {
  return keccak256(
    concat(['0x3d602d80600a3d3981f3363d3d373d3d3d363d73', implementation, '0x5af43d82803e903d91602b57fd5bf3']),
  )
}

/**
 * The CREATE2 address of a Slipstream pool: salt keccak256(abi.encode(token0, token1, int24
 * tickSpacing)) from the dex's CLFactory and its clone init-code hash. Tokens in any order;
 * lowercase.
 *
 * @example
 * getSlipstreamPoolAddress(baseSlipstreamDex, weth, usdc, 100)
 */
export function getSlipstreamPoolAddress(
  dex: Pick<DexConfig, 'factory' | 'initCodeHash'>,
  tokenA: Address,
  tokenB: Address,
  tickSpacing: number,
): Address {
  const a = tokenA.toLowerCase() as Address
  const b = tokenB.toLowerCase() as Address
  const [token0, token1] = a < b ? [a, b] : [b, a]
  return getCreate2Address({
    from: dex.factory,
    salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'int24' }], [token0, token1, tickSpacing])),
    bytecodeHash: dex.initCodeHash,
  }).toLowerCase() as Address
}
