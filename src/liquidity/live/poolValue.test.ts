import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../../chains/base.js'
import { uniswapV2Family } from '../../protocols/uniswapV2/family.js'
import type { UniswapV2PoolState } from '../../protocols/uniswapV2/state.js'
import { measurePool, poolValue, priceMajors } from './poolValue.js'

const dexIndex = base.dexes.findIndex((d) => d.family === 'uniswapV2')
const context = { chain: base, dex: base.dexes[dexIndex]!, dexIndex }
const token = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const [weth, usdc, dai, link] = [token(1), token(2), token(3), token(4)]

/** A V2 pair of `a` and `b` (sorted as the pair sorts them) with those raw reserves. */
function pair(a: Address, reserveA: bigint, b: Address, reserveB: bigint): UniswapV2PoolState {
  const flip = a > b
  return {
    family: 'uniswapV2',
    dex: context.dex.id,
    address: token(1000 + Number(BigInt(a) * 10n + BigInt(b))),
    token0: flip ? b : a,
    token1: flip ? a : b,
    reserve0: String(flip ? reserveB : reserveA),
    reserve1: String(flip ? reserveA : reserveB),
  }
}
const measure = (state: UniswapV2PoolState) => measurePool(uniswapV2Family, state, context, 1)!

describe('poolValue', () => {
  // 100 WETH against 300,000 USDC (6 decimals): 1 raw USDC is worth 1e18 / 3e9 raw WETH.
  const wethUsdc = pair(weth, 100n * 10n ** 18n, usdc, 300_000n * 10n ** 6n)
  // 50,000 USDC against 50,000 DAI (18 decimals).
  const usdcDai = pair(usdc, 50_000n * 10n ** 6n, dai, 50_000n * 10n ** 18n)

  it('measures a pool through its built Pool: depth per token (what it can pay out) and its own spot prices', () => {
    const measured = measure(wethUsdc)
    const wethIndex = measured.tokens.indexOf(weth)
    // A V2 pair can pay out all but a sliver of each reserve.
    expect(measured.depth[wethIndex]! / 1e20).toBeCloseTo(1, 6)
    expect(measured.depth[1 - wethIndex]! / 3e11).toBeCloseTo(1, 6)
    // Its own spot price: 3e9 raw USDC per 1e18 raw WETH, from whichever token is first.
    const usdcPerWeth = wethIndex === 0 ? measured.spotFromFirst[1]! : 1 / measured.spotFromFirst[1]!
    expect(usdcPerWeth / 3e-9).toBeCloseTo(1, 6)
    // Cached per state object.
    expect(measure(wethUsdc)).toBe(measured)
  })

  it('prices the majors through anchors, in rounds (DAI only through USDC)', () => {
    const prices = priceMajors(weth, [usdc, dai], [measure(usdcDai), measure(wethUsdc)])
    expect(prices.get(weth)).toBe(1)
    expect(prices.get(usdc)! / (1e18 / 3e9)).toBeCloseTo(1, 6)
    expect(prices.get(dai)! / (1 / 3000)).toBeCloseTo(1, 6)
  })

  it('values a pool as what it can pay out of each token at that token’s price, a non-major at the pool’s own price', () => {
    const prices = priceMajors(weth, [usdc, dai], [measure(usdcDai), measure(wethUsdc)])
    // 15,000 USDC against 1,000 LINK: $30,000 in all, 10 WETH.
    const linkUsdc = pair(link, 1_000n * 10n ** 18n, usdc, 15_000n * 10n ** 6n)
    expect(poolValue(measure(linkUsdc), prices)! / 1e19).toBeCloseTo(1, 5)
    expect(poolValue(measure(wethUsdc), prices)! / 2e20).toBeCloseTo(1, 5)
    // No major in it: no value through the majors.
    expect(poolValue(measure(pair(link, 10n ** 18n, token(5), 10n ** 18n)), prices)).toBeUndefined()
  })

  it('has no measure for a pool that cannot be built or has no spot price', () => {
    const broken: UniswapV2PoolState = { ...wethUsdc, reserve0: 'x' }
    expect(measurePool(uniswapV2Family, broken, context, 1)).toBeNull()
  })
})
