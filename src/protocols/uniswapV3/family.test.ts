import { describe, expect, it } from 'vitest'
import { uniswapV3Family } from './family.js'
import { UniswapV3Pool } from './pool.js'
import type { UniswapV3PoolState } from './state.js'

describe('uniswapV3Family', () => {
  it('is executor dex kind 2 with id uniswapV3', () => {
    expect(uniswapV3Family.id).toBe('uniswapV3')
    expect(uniswapV3Family.executorKind).toBe(2)
  })

  it('builds UniswapV3Pool instances from state', () => {
    const state: UniswapV3PoolState = {
      family: 'uniswapV3',
      dex: 'uniswapV3',
      address: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8',
      token0: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      token1: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
      fee: 3000,
      tickSpacing: 60,
      sqrtPriceX96: '79228162514264337593543950336',
      tick: 0,
      liquidity: '0',
      ticks: [],
      tickLower: -887272,
      tickUpper: 887272,
    }
    const dex = {
      id: 'uniswapV3', family: 'uniswapV3', protocol: 'Uniswap V3', fork: 'UniswapV3',
      factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984' as const, initCodeHash: '0x00' as const,
    }
    const pool = uniswapV3Family.fromState(state, { chain: { dexes: [dex] } as never, dex, dexIndex: 0 })
    expect(pool).toBeInstanceOf(UniswapV3Pool)
    expect(pool.family).toBe('uniswapV3')
    expect(pool.spotPrice(state.token0, state.token1)).toBe(1)
  })
})
