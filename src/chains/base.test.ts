import { describe, expect, it } from 'vitest'
import { getAerodromeV2PoolAddress } from '../protocols/aerodromeV2/address.js'
import { getSlipstreamPoolAddress } from '../protocols/slipstream/address.js'
import { getUniswapV3PoolAddress } from '../protocols/uniswapV3/readPools.js'
import { base } from './base.js'

const WETH = '0x4200000000000000000000000000000000000006'
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const dex = (id: string) => base.dexes.find((d) => d.id === id)!

describe("Base's config", () => {
  it('reads the Uniswap V3 fee tiers added after launch (200/300/400, spacings 4/6/8) beside the original four', () => {
    expect(dex('uniswapV3').feeTiers).toEqual({ 100: 1, 200: 4, 300: 6, 400: 8, 500: 10, 3000: 60, 10000: 200 })
    // The live WETH/USDC pool at 0.04%.
    expect(getUniswapV3PoolAddress(dex('uniswapV3'), WETH, USDC, 400)).toBe('0x56c8989222ed293e3c4a22628d8bca633ce1eb99')
  })
  it("reads Slipstream's newer CLFactory beside the legacy one, deriving a pool of it", () => {
    expect(getSlipstreamPoolAddress(dex('aerodromeSlipstream2'), WETH, USDC, 50)).toBe('0xc758d81b9b81a6fcdad075bd471874a2c46b54e0')
    expect(dex('aerodromeSlipstream2').factory).not.toBe(dex('aerodromeSlipstream').factory)
  })
  it('holds the Aerodrome V2 factory, deriving its published vAMM-WETH/USDC pool', () => {
    expect(getAerodromeV2PoolAddress(dex('aerodromeV2'), WETH, USDC, false)).toBe('0xcdac0d6c6c59727a65f871236188350531885c43')
  })
})
