import { describe, expect, it } from 'vitest'
import { getCloneInitCodeHash, getSlipstreamPoolAddress } from '../protocols/slipstream/address.js'
import { getUniswapV2PairAddress } from '../protocols/uniswapV2/readPools.js'
import { getUniswapV3PoolAddress } from '../protocols/uniswapV3/readPools.js'
import { base } from './base.js'
import { ethereum } from './ethereum.js'
import { AERODROME_SLIPSTREAM_INIT_CODE_HASH, AERODROME_SLIPSTREAM_POOL_IMPLEMENTATION } from './forks.js'
import type { ChainConfig, DexConfig } from './types.js'

const dex = (chain: ChainConfig, id: string): DexConfig => {
  const found = chain.dexes.find((d) => d.id === id)
  if (!found) throw new Error(`${chain.name} has no dex ${id}`)
  return found
}

// Each config's factory + init-code hash must derive pools that exist on mainnet: these are
// well-known pool addresses, published independently of weft (docs/protocols/forks.md lists
// where each was checked). A wrong factory, deployer, hash or salt gives a different address.
const ETH = { weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdt: '0xdac17f958d2ee523a2206206994597c13d831ec7' } as const
const BASE = { weth: '0x4200000000000000000000000000000000000006', usdc: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' } as const

describe('fork deployments in the built-in chain configs', () => {
  it('keeps the Uniswap dexes first and adds the forks with the hosted service’s protocol/fork names', () => {
    for (const chain of [ethereum, base]) {
      expect(chain.dexes.slice(0, 2).map((d) => d.id)).toEqual(['uniswapV2', 'uniswapV3'])
      expect(dex(chain, 'pancakeV3')).toMatchObject({ family: 'pancakeV3', protocol: 'Uniswap V3', fork: 'PancakeV3' })
      expect(dex(chain, 'sushiswapV2')).toMatchObject({ family: 'uniswapV2', protocol: 'Uniswap V2', fork: 'SushiSwapV2', feeBps: 30 })
      expect(dex(chain, 'sushiswapV3')).toMatchObject({ family: 'uniswapV3', protocol: 'Uniswap V3', fork: 'SushiSwapV3' })
      expect(new Set(chain.dexes.map((d) => d.id)).size).toBe(chain.dexes.length)
    }
    expect(dex(base, 'aerodromeSlipstream')).toMatchObject({ family: 'slipstream', protocol: 'Uniswap V3', fork: 'AeroDromeCL' })
    expect(ethereum.dexes.some((d) => d.family === 'slipstream')).toBe(false)
  })

  it('PancakeSwap V3 pools derive from the pool deployer, not the factory (Ethereum and Base)', () => {
    expect(getUniswapV3PoolAddress(dex(ethereum, 'pancakeV3'), ETH.weth, ETH.usdc, 500)).toBe('0x1ac1a8feaaea1900c4166deeed0c11cc10669d36')
    // The two Base pools of the hosted service's recorded quote (shared/fixtures/fabric).
    expect(getUniswapV3PoolAddress(dex(base, 'pancakeV3'), BASE.usdc, BASE.weth, 100)).toBe('0x72ab388e2e2f6facef59e3c3fa2c4e29011c2d38')
    expect(getUniswapV3PoolAddress(dex(base, 'pancakeV3'), BASE.usdc, BASE.weth, 500)).toBe('0xb775272e537cc670c65dc852908ad47015244eaf')
    const fromFactory = { ...dex(ethereum, 'pancakeV3'), factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865' as const }
    expect(getUniswapV3PoolAddress(fromFactory, ETH.weth, ETH.usdc, 500)).not.toBe('0x1ac1a8feaaea1900c4166deeed0c11cc10669d36')
    expect(dex(base, 'pancakeV3').feeTiers).toEqual({ 100: 1, 500: 10, 2500: 50, 10000: 200 })
  })

  it('SushiSwap V2 and V3 pools derive from their factories', () => {
    expect(getUniswapV2PairAddress(dex(ethereum, 'sushiswapV2'), ETH.weth, ETH.usdc)).toBe('0x397ff1542f962076d0bfe58ea045ffa2d347aca0')
    expect(getUniswapV2PairAddress(dex(ethereum, 'sushiswapV2'), ETH.weth, ETH.usdt)).toBe('0x06da0fd433c1a5d7a4faa01111c044910a184553')
    expect(getUniswapV3PoolAddress(dex(ethereum, 'sushiswapV3'), ETH.usdc, ETH.weth, 500)).toBe('0x35644fb61afbc458bf92b15add6abc1996be5014')
    expect(getUniswapV3PoolAddress(dex(ethereum, 'sushiswapV3'), ETH.usdc, ETH.weth, 3000)).toBe('0x763d3b7296e7c9718ad5b058ac2692a19e5b3638')
    expect(getUniswapV2PairAddress(dex(base, 'sushiswapV2'), BASE.weth, BASE.usdc)).toBe('0x2f8818d1b0f3e3e295440c1c0cddf40aaa21fa87')
  })

  it('Slipstream pools are clones keyed by tick spacing: the Base CL100 WETH/USDC pool', () => {
    expect(getCloneInitCodeHash(AERODROME_SLIPSTREAM_POOL_IMPLEMENTATION)).toBe(AERODROME_SLIPSTREAM_INIT_CODE_HASH)
    const slipstream = dex(base, 'aerodromeSlipstream')
    expect(getSlipstreamPoolAddress(slipstream, BASE.weth, BASE.usdc, 100)).toBe('0xb2cc224c1c9fee385f8ad6a55b4d94e92359dc59')
    expect(getSlipstreamPoolAddress(slipstream, BASE.usdc, BASE.weth, 100)).toBe('0xb2cc224c1c9fee385f8ad6a55b4d94e92359dc59')
    expect(slipstream.tickSpacings).toEqual([1, 50, 100, 200, 2000])
  })
})
