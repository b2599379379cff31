import type { ChainConfig } from '../../chains/types.js'
import { hostError, toQuoteError } from '../../errors/QuoteError.js'
import { type GetQuoteOptions, getQuote } from '../../quote/getQuote.js'
import type { Quote, QuoteIntent } from '../../quote/types.js'
import type { Liquidity, LiquiditySource } from '../types.js'
import { type ReplayBundle, createReplayBundle } from './replayBundle.js'

/** What {@link recordQuote} resolves to: the Quote, and the bundle that reproduces it. */
export type RecordQuoteReturnType = { quote: Quote; bundle: ReplayBundle }

/**
 * getQuote, recording what the quote is computed on: the source's answer is kept and the clock
 * read once (the fill's deadline counts from it), so the returned {@link ReplayBundle} replays to
 * the same Quote byte for byte (`replayQuote`, `weft replay`). Works on any LiquiditySource (a
 * live source, an RPC source, a snapshot). Throws what getQuote throws (QuoteError only).
 *
 * @example
 * const { quote, bundle } = await recordQuote(intent, live, { sender })
 * // attach JSON.stringify(bundle) to a bug report; `weft replay bundle.json` prints the same quote
 */
export async function recordQuote(intent: QuoteIntent, source: LiquiditySource, options: GetQuoteOptions = {}): Promise<RecordQuoteReturnType> {
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
    return { quote, bundle }
  } catch (error) {
    throw toQuoteError(error)
  }
}
