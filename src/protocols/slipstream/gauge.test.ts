import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../chains/types.js'
import type { V3ForkPool } from '../pancakeV3/v3ForkPool.js'
import type { PoolContext } from '../types.js'
import { FRESH_SLOT_GAS } from '../uniswapV3/gas.js'
import { slipstreamFamily } from './family.js'
import { SLIPSTREAM_GAUGE_GAS } from './gas.js'
import type { SlipstreamPoolState } from './state.js'
import { createBareChain } from '../../../test/support/bareChain.js'

const TOKEN0 = '0x1111111111111111111111111111111111111111' as Address
const TOKEN1 = '0x2222222222222222222222222222222222222222' as Address
const E18 = 10n ** 18n

const dex: DexConfig = {
  id: 'slipstream',
  family: 'slipstream',
  protocol: 'Uniswap V3',
  fork: 'AeroDromeCL',
  factory: '0x5e7bb104d84c7cb9b682aac2f3d509f5f406809a',
  initCodeHash: '0xffb9af9ea6d9e39da47392ecc7055277b9915b8bfc9f83f105821b7791a6ae30',
  tickSpacings: [60],
}
const chain: ChainConfig = createBareChain({ id: 8453, name: 'Base', wrappedNative: TOKEN0, dexes: [dex] })
const context: PoolContext = { chain, dex, dexIndex: 0 }

// At price 1 (tick 0), spacing 60: a full range and three ranges whose ends 120, 600 and 1800 lie above the price.
const TICKS = [
  { index: -887220, liquidityNet: String(2n * E18) },
  { index: -600, liquidityNet: String(5n * E18) },
  { index: 120, liquidityNet: String(7n * E18) },
  { index: 600, liquidityNet: String(-5n * E18) },
  { index: 1800, liquidityNet: String(-7n * E18) },
  { index: 887220, liquidityNet: String(-2n * E18) },
]
const STATE: SlipstreamPoolState = {
  family: 'slipstream',
  dex: 'slipstream',
  address: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8',
  token0: TOKEN0,
  token1: TOKEN1,
  fee: 500,
  tickSpacing: 60,
  sqrtPriceX96: String(2n ** 96n),
  tick: 0,
  liquidity: String(7n * E18),
  ticks: TICKS,
  tickLower: -887272,
  tickUpper: 887272,
  freshOutside0: [],
  freshOutside1: [],
}
const ABOVE = [120, 600, 1800, 887220]

const quote = (state: SlipstreamPoolState, amountIn: bigint, tokenIn = TOKEN1, tokenOut = TOKEN0) => slipstreamFamily.fromState(state, context).quoteExactIn(tokenIn, tokenOut, amountIn)!

describe('Slipstream pools with a gauge: gas', () => {
  it('a swap that crosses nothing pays the gauge once', () => {
    const plain = quote(STATE, E18 / 100n)
    const gauged = quote({ ...STATE, gauge: { rewardGrowthFresh: true, freshRewardOutside: ABOVE } }, E18 / 100n)
    expect(gauged.amountOut).toBe(plain.amountOut)
    expect(gauged.gas - plain.gas).toBe(SLIPSTREAM_GAUGE_GAS.perSwap)
  })

  it('a crossing costs more, and a reward word written from zero 17.1k more again; the pool\'s reward growth from zero once', () => {
    // 20 tokens of token1 move the price up across several of the ticks above it.
    const amountIn = 20n * E18
    const plain = quote(STATE, amountIn)
    const rewrites = quote({ ...STATE, gauge: { rewardGrowthFresh: false, freshRewardOutside: [] } }, amountIn)
    const fresh = quote({ ...STATE, gauge: { rewardGrowthFresh: false, freshRewardOutside: ABOVE } }, amountIn)
    const first = quote({ ...STATE, gauge: { rewardGrowthFresh: true, freshRewardOutside: ABOVE } }, amountIn)
    const crossed = BigInt(ABOVE.filter((index) => index <= (plain.next as V3ForkPool).inner.tick).length)
    expect(crossed).toBeGreaterThanOrEqual(2n)
    const { perSwap, firstTickCrossed, perTickCrossed } = SLIPSTREAM_GAUGE_GAS
    expect(rewrites.gas - plain.gas).toBe(perSwap + firstTickCrossed + crossed * perTickCrossed)
    expect(fresh.gas - rewrites.gas).toBe(crossed * FRESH_SLOT_GAS)
    expect(first.gas - fresh.gas).toBe(FRESH_SLOT_GAS)
  })

  it('a later swap of the same fill writes no word from zero where an earlier one crossed', () => {
    const pool = slipstreamFamily.fromState({ ...STATE, gauge: { rewardGrowthFresh: true, freshRewardOutside: ABOVE } }, context)
    const up = pool.quoteExactIn(TOKEN1, TOKEN0, 20n * E18)!
    // Back down across the same ticks: the first swap wrote their reward words.
    const down = up.next.quoteExactIn(TOKEN0, TOKEN1, 20n * E18)!
    const { inner } = up.next as V3ForkPool
    const moved = { ...STATE, sqrtPriceX96: String(inner.sqrtPriceX96), tick: inner.tick, liquidity: String(inner.liquidity) }
    const rewritesOnly = quote({ ...moved, gauge: { rewardGrowthFresh: false, freshRewardOutside: [] } }, 20n * E18, TOKEN0, TOKEN1)
    expect(down.amountOut).toBe(rewritesOnly.amountOut)
    expect(down.gas).toBe(rewritesOnly.gas)
  })

  it('refuses a malformed gauge', () => {
    expect(() => slipstreamFamily.fromState({ ...STATE, gauge: { rewardGrowthFresh: 'yes' } } as never, context)).toThrow(/gauge must be/)
  })
})
