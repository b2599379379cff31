import { describe, expect, it } from 'vitest'
import { getCloneInitCodeHash } from '../slipstream/address.js'
import { getAerodromeV2PoolAddress } from './address.js'
import { AERODROME_V2_FACTORY_BASE, AERODROME_V2_INIT_CODE_HASH_BASE, AERODROME_V2_POOL_IMPLEMENTATION_BASE } from './deployments.js'

const dex = { factory: AERODROME_V2_FACTORY_BASE, initCodeHash: AERODROME_V2_INIT_CODE_HASH_BASE }
const WETH = '0x4200000000000000000000000000000000000006'
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

describe('Aerodrome V2 pool addresses on Base', () => {
  it('the init-code hash is the clone hash of the Pool implementation', () => {
    expect(getCloneInitCodeHash(AERODROME_V2_POOL_IMPLEMENTATION_BASE)).toBe(AERODROME_V2_INIT_CODE_HASH_BASE)
  })
  it('derives the published vAMM-WETH/USDC pool, in either token order', () => {
    // 0xcDAC0d6c6C59727a65F871236188350531885C43: Aerodrome's volatile WETH/USDC pool on Base (basescan).
    expect(getAerodromeV2PoolAddress(dex, WETH, USDC, false)).toBe('0xcdac0d6c6c59727a65f871236188350531885c43')
    expect(getAerodromeV2PoolAddress(dex, USDC, WETH, false)).toBe('0xcdac0d6c6c59727a65f871236188350531885c43')
    // The stable flag is part of the salt: the stable pool of the same pair lives elsewhere.
    expect(getAerodromeV2PoolAddress(dex, WETH, USDC, true)).not.toBe('0xcdac0d6c6c59727a65f871236188350531885c43')
  })
})
