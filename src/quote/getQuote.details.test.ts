// options.onDetails: the router's certificate and the execution mode, outside the wire Quote.
import { type Address, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { defaultSnapshot } from '../defaultSnapshot.js'
import { QuoteError, type QuoteDetails, createSnapshotSource, getQuote } from '../index.js'

const source = createSnapshotSource(defaultSnapshot)
const WETH: Address = '0x4200000000000000000000000000000000000006'
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const id = '01900000-0000-7000-8000-000000000000'
// A fixed clock: two quotes compared byte for byte carry the same deadline (it is seconds after the clock).
const now = () => 0x01900000_0000

const withDetails = async (intent: Parameters<typeof getQuote>[0]) => {
  let details: QuoteDetails | undefined
  const quote = await getQuote(intent, source, { id, now, onDetails: (d) => (details = d) })
  return { quote, details: details! }
}

describe('getQuote onDetails', () => {
  it('reports a certificate whose bound is at least the route output, without changing the Quote', async () => {
    const intent = { chainId: 8453, sellToken: USDC, buyToken: WETH, sellAmount: 500_000n * 10n ** 6n }
    const { quote, details } = await withDetails(intent)
    expect(JSON.stringify(quote)).toBe(JSON.stringify(await getQuote(intent, source, { id, now })))
    const certificate = details.certificate!
    expect(certificate.upperBound).toBeGreaterThanOrEqual(BigInt(quote.route.amountOut))
    expect(certificate.gapBps).toBeGreaterThanOrEqual(0)
    expect(certificate.gapBps).toBeLessThan(1)
    expect(certificate.pathsUsed).toBe(quote.route.swaps.length)
    // The bound covers at least every pool the route trades.
    expect(certificate.candidatePools).toBeGreaterThanOrEqual(new Set(quote.route.swaps.flat().map((swap) => swap.key)).size)
    expect(['paths', 'flow']).toContain(details.execution)
    expect(details.liquidity.roundTrips).toBe(0)
  })

  it('reports a certificate for exact output too', async () => {
    const { quote, details } = await withDetails({ chainId: 8453, sellToken: WETH, buyToken: USDC, buyAmount: 50_000n * 10n ** 6n })
    expect(details.certificate?.upperBound).toBeGreaterThanOrEqual(BigInt(quote.route.amountOut))
  })

  it('a wrap has no route to certify', async () => {
    const { details } = await withDetails({ chainId: 8453, sellToken: zeroAddress, buyToken: WETH, sellAmount: 10n ** 18n })
    expect(details).toMatchObject({ certificate: null, execution: 'wrap' })
  })

  it('a throwing or malformed callback is the host’s error: 500 naming the option', async () => {
    const intent = { chainId: 8453, sellToken: WETH, buyToken: USDC, sellAmount: 10n ** 18n }
    for (const onDetails of [() => { throw new Error('boom') }, 42 as never]) {
      const error = await getQuote(intent, source, { onDetails }).catch((e) => e)
      expect(error).toBeInstanceOf(QuoteError)
      expect(error.statusCode).toBe(500)
      expect(error.message).toMatch(/onDetails/)
    }
  })
})
