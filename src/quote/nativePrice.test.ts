// options.nativePriceInBuyToken: the host's price of the native token in the buy token, which
// prices gas where no pool path links the wrapped native token to the output (without it such a
// route is chosen gas-free), and overrides the pools' mid rate where one does.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { QuoteError } from '../errors/QuoteError.js'
import { type Snapshot, createSnapshotSource } from '../liquidity/createSnapshotSource.js'
import { getQuote } from './getQuote.js'
import { parseNativePrice } from './nativePrice.js'

const WETH = base.wrappedNative.address
const [A, B] = ['0x00000000000000000000000000000000000a0001', '0x00000000000000000000000000000000000b0002'] as [Address, Address]
const E18 = 10n ** 18n
const id = '01900000-0000-7000-8000-000000000000'

/** A V2 pair state at price `priceOfA` (B per A), `reserveA` whole A deep, on one of Base's two V2 dexes. */
const v2 = (dex: 'uniswapV2' | 'sushiswapV2', address: string, a: Address, b: Address, reserveA: bigint, priceOfA: bigint) => {
  const [token0, token1, reserve0, reserve1] = a < b ? [a, b, reserveA, reserveA * priceOfA] : [b, a, reserveA * priceOfA, reserveA]
  return { family: 'uniswapV2', dex, address, token0, token1, reserve0: String(reserve0 * E18), reserve1: String(reserve1 * E18) }
}

/** Two equal A/B pairs (a split gains a little), and optionally a WETH/B pair pricing 1 ETH at `ethInB` B. */
const market = (ethInB?: bigint): Snapshot => ({
  chainId: base.id,
  blockNumber: 1,
  gasPriceWei: '10000000',
  tokens: [
    { address: A, symbol: 'A', decimals: 18, transferFeeBps: 0 },
    { address: B, symbol: 'B', decimals: 18, transferFeeBps: 0 },
    { address: WETH, symbol: 'WETH', decimals: 18, transferFeeBps: 0 },
  ],
  pools: [
    v2('uniswapV2', '0x00000000000000000000000000000000000c0001', A, B, 1_000_000n, 1n),
    v2('sushiswapV2', '0x00000000000000000000000000000000000c0002', A, B, 1_000_000n, 1n),
    ...(ethInB === undefined ? [] : [v2('uniswapV2', '0x00000000000000000000000000000000000c0003', WETH, B, 1_000_000n, ethInB)]),
  ] as Snapshot['pools'],
})

// 1,000 A through two 1,000,000-deep pairs: splitting gains about 0.5 B over one pair. At 1 gwei and
// 1,000,000 B per ETH a second path's gas (tens of thousands) costs tens of B: not worth it.
const intent = { chainId: base.id, sellToken: A, buyToken: B, sellAmount: 1_000n * E18 }
const gasPriceWei = 1_000_000_000n
const paths = async (snapshot: Snapshot, options: Parameters<typeof getQuote>[2] = {}) =>
  (await getQuote(intent, createSnapshotSource(snapshot), { id, gasPriceWei, ...options })).route.swaps.length

describe('parseNativePrice', () => {
  it('reads finite, non-negative decimals, as numbers or plain decimal strings', () => {
    expect(parseNativePrice('3012.5')).toBe(3012.5)
    expect(parseNativePrice('.25')).toBe(0.25)
    expect(parseNativePrice('1e-6')).toBe(1e-6)
    expect(parseNativePrice('0')).toBe(0)
    expect(parseNativePrice(42)).toBe(42)
  })

  it('refuses negatives, NaN, Infinity, non-numeric strings and other types', () => {
    for (const bad of [-1, '-1', Number.NaN, 'NaN', Number.POSITIVE_INFINITY, 'Infinity', '1e400', '', ' 3', '3 ', '0x10', '1,5', 'abc', '1.2.3', 3n, null, {}, [1], true])
      expect(parseNativePrice(bad)).toBeUndefined()
  })
})

describe('getQuote nativePriceInBuyToken', () => {
  it('is the host’s option: anything but a finite, non-negative decimal is a 500 QuoteError naming it', async () => {
    const source = createSnapshotSource(market())
    for (const bad of [-1, '-0.5', Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 'abc', '', '1e999', {}, null, 10n]) {
      const error = await getQuote(intent, source, { id, nativePriceInBuyToken: bad as never }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(QuoteError)
      expect(error).toMatchObject({ statusCode: 500, message: 'Invalid getQuote option nativePriceInBuyToken: must be a finite, non-negative decimal number or string' })
    }
  })

  it('prices gas on a market where no pool links WETH to the output: the route drops the path whose gas it cannot pay', async () => {
    // Without a price the route is chosen gas-free: two paths, whatever the gas price.
    expect(await paths(market())).toBe(2)
    expect(await paths(market(), { nativePriceInBuyToken: '1000000' })).toBe(1)
    expect(await paths(market(), { nativePriceInBuyToken: 1_000_000 })).toBe(1)
    // A price at which the second path's gas is worth a split's gain keeps the split; 0 is gas-free.
    expect(await paths(market(), { nativePriceInBuyToken: '0.001' })).toBe(2)
    expect(await paths(market(), { nativePriceInBuyToken: 0 })).toBe(2)
  })

  it('overrides the pools’ mid rate where a pool does link WETH to the output', async () => {
    // The pools price 1 ETH at 1 B: gas is worth next to nothing, the split stays; the host's price wins.
    expect(await paths(market(1n))).toBe(2)
    expect(await paths(market(1n), { nativePriceInBuyToken: '1000000' })).toBe(1)
  })

  it('is unused when the output is the wrapped native token (one is worth one)', async () => {
    const toWeth = { chainId: base.id, sellToken: B, buyToken: WETH, sellAmount: 10n * E18 }
    const source = createSnapshotSource(market(1n))
    const plain = await getQuote(toWeth, source, { id, gasPriceWei })
    const priced = await getQuote(toWeth, source, { id, gasPriceWei, nativePriceInBuyToken: '1000000' })
    expect(priced.route).toEqual(plain.route)
  })
})
