import { type Address, type Hex, encodeAbiParameters, keccak256, zeroAddress } from 'viem'

/**
 * A Uniswap V4 pool key (v4-core's PoolKey): the pool's identity inside the
 * PoolManager. `currency0 < currency1`; address(0) is the native token.
 */
export type UniswapV4PoolKey = {
  currency0: Address
  currency1: Address
  /** LP fee in hundredths of a bip, or 0x800000 for a dynamic fee. */
  fee: number
  tickSpacing: number
  hooks: Address
}

const POOL_KEY_ABI = [
  { type: 'address' },
  { type: 'address' },
  { type: 'uint24' },
  { type: 'int24' },
  { type: 'address' },
] as const

/**
 * The pool id: keccak256 of the ABI-encoded key (PoolIdLibrary.toId), lowercase.
 *
 * @example
 * getUniswapV4PoolId({ currency0: zeroAddress, currency1: usdc, fee: 500, tickSpacing: 10, hooks: zeroAddress })
 */
export function getUniswapV4PoolId(key: UniswapV4PoolKey): Hex {
  return keccak256(
    encodeAbiParameters(POOL_KEY_ABI, [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]),
  ).toLowerCase() as Hex
}

/**
 * The key of the pool of two tokens as weft's router names them (the wrapped
 * native token stands for native when `native`), with no hooks. Lowercase,
 * currencies sorted (native, address(0), always first).
 *
 * @example
 * getUniswapV4PoolKey(weth, usdc, 500, 10, { native: true, weth }) // { currency0: 0x000…, currency1: usdc, … }
 */
export function getUniswapV4PoolKey(
  tokenA: Address,
  tokenB: Address,
  fee: number,
  tickSpacing: number,
  options: { native: boolean; weth: Address },
): UniswapV4PoolKey {
  const weth = options.weth.toLowerCase()
  const map = (token: Address) => {
    const lower = token.toLowerCase() as Address
    return options.native && lower === weth ? zeroAddress : lower
  }
  const a = map(tokenA)
  const b = map(tokenB)
  const [currency0, currency1] = a < b ? [a, b] : [b, a]
  return { currency0, currency1, fee, tickSpacing, hooks: zeroAddress }
}
