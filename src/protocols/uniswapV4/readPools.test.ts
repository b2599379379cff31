import { type Address, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { DexConfig } from '../../chains/types.js'
import { QuoteError } from '../../errors/QuoteError.js'
import { getUniswapV4PoolId } from './poolKey.js'
import { getUniswapV4Candidates } from './readPools.js'

const WETH = '0x4200000000000000000000000000000000000006' as Address
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address
const DAI = '0x50c5725949a6f0c72e6c4a641f24049a917db0cb' as Address
const HOOKS = '0x4444000000000000000000000000000000000080' as Address
const dex: DexConfig = {
  id: 'uniswapV4',
  family: 'uniswapV4',
  protocol: 'Uniswap V4',
  fork: 'UniswapV4',
  factory: '0x498581ff718922c3f8e6a244956af099b2652b2b',
  initCodeHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
  feeTiers: { 500: 10, 3000: 60 },
}

describe('getUniswapV4Candidates', () => {
  it('tries every pair on every fee tier without hooks, plus native keys for pairs with the wrapped native token', () => {
    const candidates = getUniswapV4Candidates(dex, [WETH, USDC, DAI], WETH)
    // 3 pairs x 2 tiers, plus 2 native pairs (ETH/USDC, ETH/DAI) x 2 tiers.
    expect(candidates).toHaveLength(10)
    const ids = new Set(candidates.map((c) => c.id))
    expect(ids.has(getUniswapV4PoolId({ currency0: zeroAddress, currency1: USDC, fee: 500, tickSpacing: 10, hooks: zeroAddress }))).toBe(true)
    expect(ids.has(getUniswapV4PoolId({ currency0: WETH, currency1: USDC, fee: 3000, tickSpacing: 60, hooks: zeroAddress }))).toBe(true)
    expect(candidates.every((c) => c.key.hooks === zeroAddress && c.skipReason === undefined)).toBe(true)
    expect(candidates.every((c) => c.key.currency0 < c.key.currency1)).toBe(true)
  })

  it('adds listed keys among the tokens, with the reason pools with hooks or a dynamic fee will be skipped', () => {
    const listed: DexConfig = {
      ...dex,
      feeTiers: {},
      poolKeys: [
        { currency0: zeroAddress, currency1: USDC, fee: 500, tickSpacing: 10, hooks: HOOKS },
        { currency0: WETH, currency1: USDC, fee: 0x800000, tickSpacing: 60, hooks: HOOKS },
        { currency0: zeroAddress, currency1: USDC, fee: 2500, tickSpacing: 50, hooks: zeroAddress },
        { currency0: zeroAddress, currency1: WETH, fee: 100, tickSpacing: 1, hooks: zeroAddress },
        // Not among the tokens: not read.
        { currency0: zeroAddress, currency1: '0x0000000000000000000000000000000000000bad', fee: 500, tickSpacing: 10, hooks: zeroAddress },
      ],
    }
    const candidates = getUniswapV4Candidates(listed, [WETH, USDC], WETH)
    expect(candidates.map((c) => c.skipReason === undefined)).toEqual([false, false, true, false])
    expect(candidates[0]!.skipReason).toMatch(/hooks 0x4444/)
    expect(candidates[1]!.skipReason).toMatch(/dynamic fee/)
    expect(candidates[3]!.skipReason).toMatch(/native and wrapped native/)
  })

  it('refuses a dex whose tiers or keys no PoolManager could hold (500, the host’s configuration)', () => {
    const configs: DexConfig[] = [
      { ...dex, feeTiers: { 500: 0 } },
      { ...dex, feeTiers: { 500: 40000 } },
      { ...dex, feeTiers: { 1000001: 10 } },
      { ...dex, feeTiers: { [0x800000]: 10 } },
      { ...dex, poolKeys: [{ currency0: USDC, currency1: WETH, fee: 500, tickSpacing: 10, hooks: zeroAddress }] },
      { ...dex, poolKeys: [{ currency0: zeroAddress, currency1: 'nope' as Address, fee: 500, tickSpacing: 10, hooks: zeroAddress }] },
    ]
    for (const config of configs) {
      let error: unknown
      try {
        getUniswapV4Candidates(config, [WETH, USDC], WETH)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(QuoteError)
      expect((error as QuoteError).statusCode).toBe(500)
    }
  })
})
