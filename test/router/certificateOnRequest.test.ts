// getQuote certifies a route only when the caller asks for details (options.onDetails): the
// certificate is read nowhere else, and it is a solve of its own over the candidates (about a
// twentieth of a 10-pool quote's garbage and a tenth of its CPU), which every quote paid and threw
// away. Without details the router returns the same plan uncertified, so the Quote, calldata
// included, must not change with or without the callback.
import { describe, expect, it } from 'vitest'
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import { type QuoteDetails, getQuote } from '../../src/quote/getQuote.js'

const SIZES = [1e-4, 1e-2, 0.3]
const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))

describe('the certificate on request', () => {
  it('leaves every exact-input Quote of the hard 10-pool markets unchanged, and is given when asked for', async () => {
    let compared = 0
    for (const seed of [1, 2, 3]) {
      const universe = createHardUniverse(10, seed)
      const source = createSnapshotSource(universe.market.snapshot)
      for (const trade of universe.trades)
        for (const share of SIZES)
          for (const gasPriceWei of [0n, 20_000_000_000n]) {
            const intent = { chainId: universe.market.chain.id, sellToken: trade.tokenIn.address, buyToken: trade.tokenOut.address, sellAmount: (trade.depthIn * BigInt(Math.round(share * 1e9))) / 10n ** 9n, priceImpactLimitBps: 10_000 }
            const options = { chains: [universe.market.chain], maxHops: 4, gasPriceWei, id: '00000000-0000-7000-8000-000000000000', now: () => 1_800_000_000_000 }
            let details: QuoteDetails | undefined
            const plain = await getQuote(intent, source, options).then(json, (error: Error) => `refused: ${error.message}`)
            const detailed = await getQuote(intent, source, { ...options, onDetails: (d) => (details = d) }).then(json, (error: Error) => `refused: ${error.message}`)
            expect(detailed).toBe(plain)
            if (plain.startsWith('refused')) continue
            compared++
            expect(details?.certificate?.upperBound).toBeGreaterThanOrEqual(BigInt(JSON.parse(plain).route.amountOut))
          }
    }
    expect(compared).toBeGreaterThan(20)
  }, 60_000)
})
