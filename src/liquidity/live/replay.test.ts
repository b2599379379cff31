// Replay bundles on the embedded snapshot (no node): a recorded quote replays byte for byte, and a
// bundle edited by anyone only ever fails with a QuoteError (400 naming the field for a malformed one).
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { defaultSnapshot } from '../../defaultSnapshot.js'
import { QuoteError } from '../../errors/QuoteError.js'
import { base } from '../../chains/base.js'
import type { QuoteIntent } from '../../quote/types.js'
import { createSnapshotSource } from '../createSnapshotSource.js'
import { WEFT_VERSION } from './replayBundle.js'
import { replayQuote } from './replayQuote.js'
import { recordQuote } from './replayRecordQuote.js'
import { trimReplayBundle } from './replayTrimBundle.js'

const WETH = base.wrappedNative.address
const USDC = base.tokens.find((t) => t.symbol === 'USDC')!.address
const AERO = base.tokens.find((t) => t.symbol === 'AERO')!.address
const source = createSnapshotSource(defaultSnapshot)
const sellWeth: QuoteIntent = { chainId: base.id, sellToken: WETH, buyToken: USDC, sellAmount: 15n * 10n ** 17n }

/** A bundle as it travels: through a file. */
const throughFile = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

async function expectQuoteError(bundle: unknown, statusCode: number, param?: RegExp) {
  const error = await replayQuote(bundle).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(QuoteError)
  expect((error as QuoteError).statusCode).toBe(statusCode)
  if (param) expect((error as QuoteError).details?.map((d) => d.param).join(' ')).toMatch(param)
}

describe('replay bundles', () => {
  test('WEFT_VERSION is the package version', () => {
    expect(WEFT_VERSION).toBe(JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version)
  })

  test('exact input, exact output (split), fees with an app, a sender, native in: byte for byte', async () => {
    const cases: [QuoteIntent, Parameters<typeof recordQuote>[2]][] = [
      [sellWeth, {}],
      [{ chainId: base.id, sellToken: AERO, buyToken: USDC, buyAmount: 20_000n * 10n ** 6n, slippageBps: 30 }, { maxHops: 3, deadlineSeconds: 600 }],
      [
        { ...sellWeth, sellToken: '0x0000000000000000000000000000000000000000', appId: 'wallet', surplusFeeBps: 5000, surplusFeeRecipient: '0x00000000000000000000000000000000000000aa' },
        { apps: { wallet: { feeBps: 20, feeRecipient: '0x00000000000000000000000000000000000000bb' } }, sender: '0x00000000000000000000000000000000000000cc', gasPriceWei: 7n },
      ],
    ]
    for (const [intent, options] of cases) {
      const { quote, bundle } = await recordQuote(intent, source, options)
      const replayed = await replayQuote(throughFile(bundle))
      expect(replayed.matches).toBe(true)
      expect(replayed.firstDifference).toBeUndefined()
      expect(JSON.stringify(replayed.quote)).toBe(JSON.stringify(quote))
      expect(bundle.weftVersion).toBe(WEFT_VERSION)
    }
  })

  test('trimmed to the pools of the sell, buy, major and stable tokens, and only when the quote stays the same', async () => {
    const trimmed = await recordQuote(sellWeth, source)
    expect(trimmed.pools.answered).toBe(48)
    expect(trimmed.pools.kept).toBeLessThan(trimmed.pools.answered)
    expect(trimmed.bundle.liquidity.pools).toHaveLength(trimmed.pools.kept)
    expect((await replayQuote(throughFile(trimmed.bundle))).matches).toBe(true)
    const whole = await recordQuote(sellWeth, source, { trim: false })
    expect(whole.bundle.liquidity.pools).toHaveLength(48)
    expect(trimReplayBundle(whole.bundle).liquidity.pools).toHaveLength(trimmed.pools.kept)
  })

  test('a bundle whose pools were edited replays to another quote, and says where it differs', async () => {
    const { bundle } = await recordQuote(sellWeth, source)
    const edited = throughFile(bundle)
    const { quote } = await replayQuote(edited)
    const used = quote.route.swaps[0]![0]!.address
    // Drop the first pool the route used: the replay routes around it.
    edited.liquidity.pools = edited.liquidity.pools.filter((pool) => pool.address !== used)
    const replayed = await replayQuote(edited)
    expect(replayed.matches).toBe(false)
    expect(replayed.firstDifference).toMatch(/^(amountOut|description|route|price)/)
  })

  test('corrupted bundles: a 400 naming the field, never another error', async () => {
    const { bundle } = await recordQuote(sellWeth, source)
    const good = throughFile(bundle) as unknown as Record<string, any>
    await expectQuoteError(null, 400, /^bundle$/)
    await expectQuoteError('{"format"', 400, /^bundle$/)
    await expectQuoteError({ ...good, format: 'other' }, 400, /bundle\.format/)
    await expectQuoteError({ ...good, version: 2 }, 400, /bundle\.version/)
    await expectQuoteError({ ...good, liquidity: { ...good.liquidity, pools: 'x' } }, 400, /bundle\.liquidity\.pools/)
    await expectQuoteError({ ...good, liquidity: { ...good.liquidity, pools: [null, 3] } }, 400, /bundle\.liquidity\.pools\[0\]/)
    await expectQuoteError({ ...good, liquidity: { ...good.liquidity, tokens: [{ address: 'nope' }] } }, 400, /bundle\.liquidity\.tokens\[0\]/)
    await expectQuoteError({ ...good, liquidity: { ...good.liquidity, gasPriceWei: '-1' } }, 400, /bundle\.liquidity\.gasPriceWei/)
    await expectQuoteError({ ...good, liquidity: { ...good.liquidity, chainId: 1 } }, 400, /bundle\.liquidity\.chainId/)
    await expectQuoteError({ ...good, chain: { ...good.chain, defaultGasPriceWei: 5 } }, 400, /bundle\.chain\.defaultGasPriceWei/)
    await expectQuoteError({ ...good, chain: { ...good.chain, wrappedNative: 7 } }, 400, /bundle\.chain/)
    await expectQuoteError({ ...good, chain: { ...good.chain, dexes: [{ ...good.chain.dexes[1], feeTiers: 'x' }] } }, 400, /bundle\.chain\.dexes\[0\]\.feeTiers/)
    await expectQuoteError({ ...good, intent: { ...good.intent, sellAmount: 1.5 } }, 400, /bundle\.intent\.sellAmount/)
    await expectQuoteError({ ...good, options: { ...good.options, id: 'x' } }, 400, /bundle\.options\.id/)
    await expectQuoteError({ ...good, options: { ...good.options, families: ['nope'] } }, 400, /bundle\.options\.families/)
    // The intent itself is checked as getQuote checks any request.
    await expectQuoteError({ ...good, intent: { ...good.intent, sellToken: 'WETH' } }, 400, /sellToken/)
  })

  test('malformed pool states never escape as anything but a QuoteError', async () => {
    const { bundle } = await recordQuote(sellWeth, source)
    const junk = [{}, [], 'x', -1, null, { a: 1 }, '99999999999999999999999999999999999999999999999999999999999999999999999999999999']
    for (let round = 0; round < 20; round++) {
      const edited = throughFile(bundle) as unknown as { liquidity: { pools: Record<string, unknown>[] } }
      for (const [index, pool] of edited.liquidity.pools.entries()) {
        for (const key of Object.keys(pool)) if ((index * 7 + key.length + round) % 5 === 0) pool[key] = junk[(index + round) % junk.length]
      }
      const outcome = await replayQuote(edited).then(
        () => 'quote',
        (error: unknown) => error,
      )
      if (outcome !== 'quote') expect(outcome).toBeInstanceOf(QuoteError)
    }
  })
})
