import { type Address, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { getUniswapV4PoolId, getUniswapV4PoolKey } from './poolKey.js'

const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address
const BASE_WETH = '0x4200000000000000000000000000000000000006' as Address

describe('V4 pool keys and ids', () => {
  it('hashes the key as PoolIdLibrary.toId: the ETH/USDC pools of the recorded Base quotes', () => {
    // /work/shared/fixtures/fabric/native-input.json routes through these two pool ids on Base.
    const key500 = { currency0: zeroAddress, currency1: BASE_USDC, fee: 500, tickSpacing: 10, hooks: zeroAddress }
    const key3000 = { ...key500, fee: 3000, tickSpacing: 60 }
    expect(getUniswapV4PoolId(key500)).toBe('0x96d4b53a38337a5733179751781178a2613306063c511b78cd02684739288c0a')
    expect(getUniswapV4PoolId(key3000)).toBe('0xe070797535b13431808f8fc81fdbe7b41362960ed0b55bc2b6117c49c51b7eb9')
  })

  it('builds keys from router tokens: the wrapped native token becomes address(0) for native pools, currencies sorted', () => {
    expect(getUniswapV4PoolKey(BASE_USDC, BASE_WETH, 500, 10, { native: true, weth: BASE_WETH })).toEqual({
      currency0: zeroAddress,
      currency1: BASE_USDC,
      fee: 500,
      tickSpacing: 10,
      hooks: zeroAddress,
    })
    expect(getUniswapV4PoolKey(BASE_USDC, BASE_WETH, 500, 10, { native: false, weth: BASE_WETH })).toMatchObject({
      currency0: BASE_WETH,
      currency1: BASE_USDC,
    })
    // Checksummed input, lowercase output.
    expect(getUniswapV4PoolKey('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', BASE_WETH, 100, 1, { native: true, weth: BASE_WETH }).currency1).toBe(BASE_USDC)
  })
})
