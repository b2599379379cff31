import type { ChainConfig } from '../../chains/types.js'
import { hostError, toQuoteError } from '../../errors/QuoteError.js'
import { type GetQuoteOptions, getQuote } from '../../quote/getQuote.js'
import type { Quote, QuoteIntent } from '../../quote/types.js'
import type { Liquidity, LiquiditySource } from '../types.js'
import { type ReplayBundle, createReplayBundle } from './replayBundle.js'
import { replayQuote } from './replayQuote.js'
import { trimReplayBundle } from './replayTrimBundle.js'

/** What {@link recordQuote} resolves to: the Quote, and the bundle that reproduces it. */
export type RecordQuoteReturnType = {
  quote: Quote
  bundle: ReplayBundle
  /** Pools the source answered with, and those the bundle keeps (fewer when trimming kept the Quote the same). */
  pools: { answered: number; kept: number }
}

/** Options of {@link recordQuote}: getQuote's, and whether to trim the bundle. */
export type RecordQuoteOptions = GetQuoteOptions & {
  /**
   * Keep only the pools of the sell, buy, major and stable tokens (`trimReplayBundle`) when the
   * trimmed bundle replays to the same Quote byte for byte (checked here: one more quote on the
   * trimmed pools). Default true; false keeps every pool the source answered with.
   */
  trim?: boolean
}

/**
 * getQuote, recording what the quote is computed on: the source's answer is kept and the clock
 * read once (the fill's deadline counts from it), so the returned {@link ReplayBundle} replays to
 * the same Quote byte for byte (`replayQuote`, `weft replay`). Works on any LiquiditySource (a
 * live source, an RPC source, a snapshot). By default the bundle keeps only the pools of the sell,
 * buy, major and stable tokens, when that replays to the same Quote (`trim`). Throws what getQuote
 * throws (QuoteError only).
 *
 * @example
 * const { quote, bundle } = await recordQuote(intent, live, { sender })
 * // attach JSON.stringify(bundle) to a bug report; `weft replay bundle.json` prints the same quote
 */
export async function recordQuote(intent: QuoteIntent, source: LiquiditySource, recordOptions: RecordQuoteOptions = {}): Promise<RecordQuoteReturnType> {
  const { trim = true, ...options } = recordOptions
  let liquidity: Liquidity | undefined
  let chain: ChainConfig | undefined
  const recorder: LiquiditySource = {
    async getLiquidity(request) {
      chain = request.chain
      liquidity = await source.getLiquidity(request)
      return liquidity
    },
  }
  try {
    const clock = options.now ? options.now() : Date.now()
    const quote = await getQuote(intent, recorder, { ...options, now: () => clock })
    // getQuote asks the source with the chain configuration it resolved (a wrap asks too).
    if (!liquidity || !chain) throw hostError('recordQuote: the quote did not read its liquidity source')
    const bundle = createReplayBundle({
      intent,
      chain,
      liquidity,
      options: {
        now: clock,
        id: quote.id,
        ...(options.sender !== undefined ? { sender: options.sender } : {}),
        ...(options.gasPriceWei !== undefined ? { gasPriceWei: options.gasPriceWei } : {}),
        ...(options.maxHops !== undefined ? { maxHops: options.maxHops } : {}),
        ...(options.deadlineSeconds !== undefined ? { deadlineSeconds: options.deadlineSeconds } : {}),
        ...(options.families !== undefined ? { families: options.families } : {}),
        ...(options.apps !== undefined ? { apps: options.apps } : {}),
      },
      quote,
    })
    const answered = bundle.liquidity.pools.length
    if (trim) {
      const trimmed = trimReplayBundle(bundle)
      if (trimmed.liquidity.pools.length < answered && (await replayQuote(trimmed).catch(() => undefined))?.matches === true)
        return { quote, bundle: trimmed, pools: { answered, kept: trimmed.liquidity.pools.length } }
    }
    return { quote, bundle, pools: { answered, kept: answered } }
  } catch (error) {
    throw toQuoteError(error)
  }
}
