import { guarded, toQuoteError } from '../../errors/QuoteError.js'
import { getQuote } from '../../quote/getQuote.js'
import type { Quote } from '../../quote/types.js'
import type { Liquidity, LiquiditySource } from '../types.js'
import type { ParsedReplayBundle } from './replayParseBundle.js'

/** What {@link replayQuote} resolves to: the Quote computed again, and the bundle it came from, read back. */
export type ReplayQuoteReturnType = {
  quote: Quote
  bundle: ParsedReplayBundle
  /**
   * Whether the replayed Quote is byte for byte the recorded one (`JSON.stringify` equal);
   * `undefined` when the bundle holds no recorded Quote.
   */
  matches: boolean | undefined
  /** The first field (a JSON path, e.g. `route.swaps[0][1].amountOut`) where they differ; undefined when they match. */
  firstDifference: string | undefined
}

/**
 * Computes a bundle's quote again from what it recorded (liquidity, intent, chain configuration,
 * options, clock and id): no node, no clock, no randomness, so the Quote is byte for byte the one
 * the bundle was made from on the same weft version. The bundle is untrusted JSON: a malformed one
 * rejects with a 400 QuoteError naming the field; the quote itself fails as getQuote does.
 *
 * @example
 * const { quote, matches } = await replayQuote(JSON.parse(await readFile('bundle.json', 'utf8')))
 * matches // true: same amounts, route and calldata as when the bundle was recorded
 */
export async function replayQuote(bundle: unknown): Promise<ReplayQuoteReturnType> {
  try {
    // Loaded on first use: only hosts that replay bundles pay for reading them (package size).
    const { parseReplayBundle } = await import('./replayParseBundle.js')
    const parsed = guarded(() => parseReplayBundle(bundle))
    const { chain, intent, liquidity, options } = parsed
    // A fresh copy per answer: getQuote appends what it skips to the report.
    const source: LiquiditySource = {
      async getLiquidity(): Promise<Liquidity> {
        return { ...liquidity, tokens: [...liquidity.tokens], pools: [...liquidity.pools], report: { roundTrips: 0, requests: 0, skipped: [] } }
      },
    }
    const quote = await getQuote(intent, source, {
      chains: [chain],
      now: () => options.now,
      id: options.id,
      ...(options.sender !== undefined ? { sender: options.sender } : {}),
      ...(options.gasPriceWei !== undefined ? { gasPriceWei: options.gasPriceWei } : {}),
      ...(options.maxHops !== undefined ? { maxHops: options.maxHops } : {}),
      ...(options.deadlineSeconds !== undefined ? { deadlineSeconds: options.deadlineSeconds } : {}),
      ...(options.families !== undefined ? { families: options.families } : {}),
      ...(options.app !== undefined && typeof intent.appId === 'string' ? { apps: { [intent.appId]: options.app } } : {}),
    })
    const firstDifference = parsed.quote === undefined ? undefined : findDifference(JSON.parse(JSON.stringify(quote)), parsed.quote, '')
    return {
      quote,
      bundle: parsed,
      matches: parsed.quote === undefined ? undefined : JSON.stringify(quote) === JSON.stringify(parsed.quote),
      firstDifference,
    }
  } catch (error) {
    throw toQuoteError(error)
  }
}

/** The path of the first place two JSON values differ (key order included), or undefined. */
function findDifference(replayed: unknown, recorded: unknown, path: string): string | undefined {
  if (typeof replayed !== 'object' || replayed === null || typeof recorded !== 'object' || recorded === null)
    return Object.is(replayed, recorded) ? undefined : path || '(the quote)'
  if (Array.isArray(replayed) !== Array.isArray(recorded)) return path || '(the quote)'
  const replayedKeys = Object.keys(replayed)
  const recordedKeys = Object.keys(recorded)
  const length = Math.max(replayedKeys.length, recordedKeys.length)
  for (let index = 0; index < length; index++) {
    const key = replayedKeys[index] ?? recordedKeys[index]!
    const child = Array.isArray(replayed) ? `${path}[${key}]` : path ? `${path}.${key}` : key
    if (replayedKeys[index] !== recordedKeys[index]) return child
    const difference = findDifference((replayed as Record<string, unknown>)[key], (recorded as Record<string, unknown>)[key], child)
    if (difference !== undefined) return difference
  }
  return undefined
}
