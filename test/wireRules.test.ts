// The wire rules of decisions.md §4–§8, held two ways: the rules reproduce the hosted recordings
// in ../fixtures/fabric (so the rules as written here are the hosted service's), and weft's quotes
// on the embedded snapshot obey the same rules: price against the execution rate and
// priceImpactBps, the minimum's rounding, the fee token, native ends, listed tokens, description.
// The shape itself (names, types, formats) is test/wireShape.test.ts.
import { readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type Address, getAddress, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { defaultSnapshot } from '../src/defaultSnapshot.js'
import { type Quote, type QuoteIntent, createSnapshotSource, getQuote } from '../src/index.js'

const fixtureDir = process.env.WEFT_FABRIC_FIXTURES ?? fileURLToPath(new URL('./fixtures/fabric/', import.meta.url))
/** The recordings as the wire has them (some fields the hosted service omits: gasEstimate, priceImpactBps). */
type Recording = Omit<Quote, 'gasEstimate' | 'priceImpactBps' | 'minimumAmountOut' | 'appId'> & { minimumAmountOut?: string; appId?: string | null }
const recordings: Record<string, Recording> = Object.fromEntries(
  readdirSync(fixtureDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(`${fixtureDir}/${f}`, 'utf8')) as Recording]),
)

const ETH = zeroAddress
const T = {
  USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  WETH: '0x4200000000000000000000000000000000000006',
  DEGEN: '0x4ed4e862860bed51a9570b96d89af5e1b0efefed',
} as const satisfies Record<string, Address>
const FEE_TO: Address = '0x484ce84a92a17c108c94a91bb222daef93eb8ce7'
const REFERRER: Address = '0xb774e63f89332186c668e0f29f8945bf53a7dd14'

// ---------- the rules, written once ----------

/** §4: the hosted rounding of the minimum. */
const minimumOf = (amountOut: bigint, slippageBps: number) => amountOut - (amountOut * BigInt(slippageBps)) / 10_000n

/** §8: the description of a route, to the character. */
function describeSwaps(swaps: Quote['route']['swaps']): string {
  return swaps
    .map((path, index) => {
      const tokens = [path[0]!.tokenIn, ...path.map((swap) => swap.tokenOut)].map((t) => getAddress(t))
      const text = `${index === 0 ? 'Swap' : 'with'} ${path[0]!.amountIn} x ${tokens.join(' -> ')} via ${path.map((s) => s.key).join(', ')}`
      return swaps.length > 1 ? `[Route ${index + 1}] ${text}` : text
    })
    .join('; ')
}

/** Whole tokens of output per whole token of input the route executed at (gross, before any fee). */
function executionRate(quote: Pick<Quote, 'route' | 'tokens'>, sell: Address, buy: Address): number {
  const decimals = (token: Address) => quote.tokens.find((t) => t.address === token)!.decimals
  return Number(quote.route.amountOut) / 10 ** decimals(buy) / (Number(quote.route.amountIn) / 10 ** decimals(sell))
}

/** §4: the impact a client computes from `price` (1 − execution rate / price), in bps, floored at 0. */
const impactFromPrice = (price: number, rate: number) => Math.max(0, 10_000 * (1 - rate / price))

/** §5: every address a route names. */
const routeAddresses = (quote: Pick<Quote, 'route'>) => new Set(quote.route.swaps.flat().flatMap((s) => [s.tokenIn, s.tokenOut]))

// ---------- the rules reproduce the recordings ----------

describe('the rules as written reproduce the hosted recordings', () => {
  const sides = {
    'native-input': [ETH, T.USDC],
    'native-output': [T.USDC, ETH],
    'usdc-weth-split-with-fees': [T.USDC, T.WETH],
  } as const satisfies Record<string, readonly [Address, Address]>

  test('the three recordings are here', () => {
    expect(Object.keys(recordings).sort()).toEqual(Object.keys(sides).sort())
  })

  test.each(Object.entries(sides))('%s', (name, [sell, buy]) => {
    const recording = recordings[name]!
    expect(recording.description).toBe(describeSwaps(recording.route.swaps))
    // Native ends, and tokens listing every address the route names.
    for (const path of recording.route.swaps) {
      expect(path[0]!.tokenIn).toBe(sell)
      expect(path.at(-1)!.tokenOut).toBe(buy)
    }
    expect(new Set(recording.tokens.map((t) => t.address))).toEqual(new Set([sell, buy, ...routeAddresses(recording)]))
    // price is output per input, above the execution rate by a small impact.
    const rate = executionRate(recording, sell, buy)
    expect(recording.price).toBeGreaterThan(rate)
    expect(impactFromPrice(recording.price!, rate)).toBeLessThan(100)
  })

  test('the minimum (2040683110 at the default 100 bps gives 2020276279) and the fee token', () => {
    const native = recordings['native-input']!
    expect(minimumOf(BigInt(native.amountOut), 100).toString()).toBe(native.minimumAmountOut)
    expect(minimumOf(2_040_683_110n, 100)).toBe(2_020_276_279n)
    expect(recordings['native-input']!.fees.map((f) => f.token)).toEqual([T.USDC])
    expect(recordings['native-output']!.fees.map((f) => f.token)).toEqual([T.USDC])
    expect(recordings['usdc-weth-split-with-fees']!.fees.map((f) => f.token)).toEqual([T.WETH, T.WETH])
  })
})

// ---------- weft's quotes obey them ----------

const source = createSnapshotSource(defaultSnapshot)
const withFees = { feeBps: 10, feeRecipient: FEE_TO, referralFeeBps: 5, referralFeeRecipient: REFERRER } as const
const cases = {
  'ETH -> USDC (as native-input)': { chainId: 8453, sellToken: ETH, buyToken: T.USDC, sellAmount: 10n ** 18n, ...withFees },
  'USDC -> ETH (as native-output)': { chainId: 8453, sellToken: T.USDC, buyToken: ETH, sellAmount: 500_000_000n, ...withFees },
  'USDC -> WETH (as usdc-weth-split-with-fees)': { chainId: 8453, sellToken: T.USDC, buyToken: T.WETH, sellAmount: 2_000_000_000n, ...withFees },
  'WETH -> USDC, large (several paths)': { chainId: 8453, sellToken: T.WETH, buyToken: T.USDC, sellAmount: 10n ** 22n },
  'ETH -> DEGEN, exact output (native in, long tail)': { chainId: 8453, sellToken: ETH, buyToken: T.DEGEN, buyAmount: 10n ** 22n, ...withFees },
  'DEGEN -> ETH (long tail, native out)': { chainId: 8453, sellToken: T.DEGEN, buyToken: ETH, sellAmount: 10n ** 23n, ...withFees, slippageBps: 37 },
  'WETH -> DEGEN (major in, long tail out)': { chainId: 8453, sellToken: T.WETH, buyToken: T.DEGEN, sellAmount: 10n ** 17n, ...withFees, slippageBps: 333 },
  'ETH -> WETH (wrap)': { chainId: 8453, sellToken: ETH, buyToken: T.WETH, sellAmount: 10n ** 18n + 7n, slippageBps: 1 },
} as const satisfies Record<string, QuoteIntent>
const quotes = Object.fromEntries(
  await Promise.all(Object.entries(cases).map(async ([name, intent]) => [name, await getQuote(intent, source)] as const)),
) as Record<keyof typeof cases, Quote>
const names = Object.keys(cases) as (keyof typeof cases)[]

describe("weft's quotes obey the rules", () => {
  test('the cases cover one path, several paths, native on either side and a wrap', () => {
    const all = Object.values(quotes)
    expect(all.some((q) => q.route.swaps.length === 1)).toBe(true)
    expect(all.some((q) => q.route.swaps.length > 1)).toBe(true)
  })

  test.each(names)('%s: price is the spot rate, output per input, that priceImpactBps is measured against', (name) => {
    const quote = quotes[name]
    const { sellToken, buyToken } = cases[name]
    const rate = executionRate(quote, sellToken, buyToken)
    expect(quote.price).not.toBeNull()
    // Never the execution rate or its inverse: a client's 1 − rate / price is the quote's impact.
    expect(Math.abs(impactFromPrice(quote.price!, rate) - quote.priceImpactBps)).toBeLessThanOrEqual(0.006)
    expect(quote.price!).toBeGreaterThanOrEqual(rate * (1 - 1e-12))
    expect(quote.priceImpactBps).toBeLessThan(1_000)
  })

  test('price is in the recordings\' units: ETH -> USDC near 2044 USDC per ETH era-adjusted, USDC -> ETH its inverse', () => {
    const ethUsdc = quotes['ETH -> USDC (as native-input)'].price!
    const usdcEth = quotes['USDC -> ETH (as native-output)'].price!
    // The snapshot is from another day than the recordings: same units, not the same number.
    expect(ethUsdc / recordings['native-input']!.price!).toBeGreaterThan(0.3)
    expect(ethUsdc / recordings['native-input']!.price!).toBeLessThan(3)
    expect(ethUsdc * usdcEth).toBeGreaterThan(0.98)
    expect(ethUsdc * usdcEth).toBeLessThan(1.02)
    expect(quotes['ETH -> WETH (wrap)'].price).toBe(1)
  })

  test.each(names)('%s: minimumAmountOut = amountOut − floor(amountOut·slippage/10⁴)', (name) => {
    const quote = quotes[name]
    const slippage = 'slippageBps' in cases[name] ? (cases[name] as { slippageBps: number }).slippageBps : 100
    expect(quote.minimumAmountOut).toBe(minimumOf(BigInt(quote.amountOut), slippage).toString())
  })

  test('the rounding differs from floor(amountOut·(10⁴ − s)/10⁴) where the product is not a multiple of 10⁴', () => {
    const rounded = names.filter((name) => {
      const quote = quotes[name]
      const slippage = 'slippageBps' in cases[name] ? (cases[name] as { slippageBps: number }).slippageBps : 100
      return (BigInt(quote.amountOut) * BigInt(slippage)) % 10_000n !== 0n
    })
    expect(rounded.length).toBeGreaterThan(3)
    for (const name of rounded) {
      const quote = quotes[name]
      const slippage = 'slippageBps' in cases[name] ? (cases[name] as { slippageBps: number }).slippageBps : 100
      expect(BigInt(quote.minimumAmountOut)).toBe((BigInt(quote.amountOut) * BigInt(10_000 - slippage)) / 10_000n + 1n)
    }
  })

  test('fee token (§6): ETH→USDC in USDC, USDC→ETH in USDC, USDC→WETH in WETH, the major side of a long tail', () => {
    const feeTokens = (name: keyof typeof cases) => [...new Set(quotes[name].fees.map((f) => f.token))]
    expect(feeTokens('ETH -> USDC (as native-input)')).toEqual([T.USDC])
    expect(feeTokens('USDC -> ETH (as native-output)')).toEqual([T.USDC])
    expect(feeTokens('USDC -> WETH (as usdc-weth-split-with-fees)')).toEqual([T.WETH])
    expect(feeTokens('ETH -> DEGEN, exact output (native in, long tail)')).toEqual([ETH])
    expect(feeTokens('DEGEN -> ETH (long tail, native out)')).toEqual([ETH])
    expect(feeTokens('WETH -> DEGEN (major in, long tail out)')).toEqual([T.WETH])
  })

  test.each(names)('%s: native at the route ends, and tokens list every address the route names', (name) => {
    const quote = quotes[name]
    const { sellToken, buyToken } = cases[name]
    for (const path of quote.route.swaps) {
      expect(path[0]!.tokenIn).toBe(sellToken)
      expect(path.at(-1)!.tokenOut).toBe(buyToken)
    }
    const listed = quote.tokens.map((t) => t.address)
    expect(new Set(listed).size).toBe(listed.length)
    expect(new Set(listed)).toEqual(new Set([sellToken, buyToken, ...routeAddresses(quote)]))
  })

  test.each(names)('%s: description exactly as recorded (checksummed, [Route n] only for several paths)', (name) => {
    const quote = quotes[name]
    expect(quote.description).toBe(describeSwaps(quote.route.swaps))
    expect(quote.description.startsWith('[Route 1] ')).toBe(quote.route.swaps.length > 1)
  })
})
