import type { Address } from 'viem'
import type { ChainConfig } from '../../chains/types.js'
import { hostError } from '../../errors/QuoteError.js'
import type { AppConfig } from '../../quote/fees.js'
import type { Quote, QuoteIntent } from '../../quote/types.js'
import type { PoolStateBase } from '../../protocols/types.js'
import type { Liquidity, TokenMetadata } from '../types.js'

/**
 * weft's version, written into every bundle so a support engineer knows which release made a
 * quote (a test keeps it equal to package.json's). A bundle made by another version still replays.
 *
 * @example
 * if (bundle.weftVersion !== WEFT_VERSION) console.warn(`recorded with weft ${bundle.weftVersion}`)
 */
export const WEFT_VERSION = '0.1.0'

/**
 * The bundle format written by {@link createReplayBundle}; `replayQuote` refuses any other.
 *
 * @example
 * if (bundle.version !== REPLAY_BUNDLE_VERSION) throw new Error('a bundle of another format')
 */
export const REPLAY_BUNDLE_VERSION = 1

/**
 * A JSON value with every bigint written as a base-10 string (how a bundle holds the chain config and the intent).
 *
 * @example
 * const intent: Jsonified<QuoteIntent> = bundle.intent
 */
export type Jsonified<T> = T extends bigint ? string : T extends readonly (infer Item)[] ? Jsonified<Item>[] : T extends object ? { [K in keyof T]: Jsonified<T[K]> } : T

/**
 * Everything one quote was computed on, as plain JSON: `replayQuote(bundle)` (or
 * `weft replay bundle.json`) computes the same Quote again, byte for byte, with no node.
 * Integers that may exceed 2^53 are base-10 strings.
 *
 * @example
 * const { quote, bundle } = await recordQuote(intent, live)
 * await writeFile('bundle.json', JSON.stringify(bundle))
 */
export type ReplayBundle = {
  format: 'weft-replay'
  version: typeof REPLAY_BUNDLE_VERSION
  /** The weft release that made the quote. */
  weftVersion: string
  /** The whole chain configuration the quote used (built-in or the host's): later releases may change the built-in one. */
  chain: Jsonified<ChainConfig>
  /** The intent as passed to getQuote, amounts as strings. */
  intent: Jsonified<QuoteIntent>
  /** The getQuote options that shape the Quote; `now` (ms) and `id` pin its clock (the fill's deadline) and its id. */
  options: {
    now: number
    id: string
    sender?: Address
    gasPriceWei?: string
    maxHops?: number
    deadlineSeconds?: number
    /** Ids of the pool families routed over, when the host restricted them (replay takes weft's own families of those ids). */
    families?: string[]
    /** The fee settings of the intent's app (`options.apps[intent.appId]`), when it had any. */
    app?: AppConfig
  }
  /** The liquidity source's answer, exactly as getQuote saw it (its report aside). */
  liquidity: {
    chainId: number
    blockNumber: number
    tokens: TokenMetadata[]
    pools: PoolStateBase[]
    gasPriceWei?: string
    balances?: { token: Address; account: Address; balance: string }[]
  }
  /** The Quote as it was made, when known: a replay is compared with it. */
  quote?: Quote
}

/** What {@link createReplayBundle} takes: a quote's inputs, with its clock and id pinned. */
export type CreateReplayBundleParameters = {
  intent: QuoteIntent
  /** The chain the quote was made on (the config getQuote resolved for `intent.chainId`). */
  chain: ChainConfig
  /** The source's answer getQuote used (see `recordQuote`, or wrap your source and keep its last answer). */
  liquidity: Liquidity
  /** The options getQuote ran with. `now` must be the clock's value the quote used and `id` its id (both pinned by `recordQuote`). */
  options: {
    now: number
    id: string
    sender?: Address
    gasPriceWei?: bigint
    maxHops?: number
    deadlineSeconds?: number
    families?: readonly { id: string }[]
    apps?: Readonly<Record<string, AppConfig>>
  }
  quote?: Quote
}

/**
 * Writes a quote's inputs as a {@link ReplayBundle}: the liquidity answer (pools, tokens, block,
 * gas price, balances), the intent, the chain configuration, the options that shape the Quote,
 * and weft's version. Throws a 500 QuoteError when an input cannot be written as JSON (a host's
 * custom family, a clock that is not a number).
 *
 * @example
 * const recorder = { last: undefined as Liquidity | undefined, async getLiquidity(request) { return (this.last = await live.getLiquidity(request)) } }
 * const now = Date.now()
 * const quote = await getQuote(intent, recorder, { now: () => now })
 * const bundle = createReplayBundle({ intent, chain: base, liquidity: recorder.last!, options: { now, id: quote.id }, quote })
 */
export function createReplayBundle({ intent, chain, liquidity, options, quote }: CreateReplayBundleParameters): ReplayBundle {
  const { now, id, sender, gasPriceWei, maxHops, deadlineSeconds, families, apps } = options
  if (!Number.isFinite(now)) throw hostError('createReplayBundle: options.now must be the quote clock in milliseconds')
  if (typeof id !== 'string') throw hostError('createReplayBundle: options.id must be the quote id')
  const app = typeof intent.appId === 'string' ? apps?.[intent.appId] : undefined
  const bundle: ReplayBundle = {
    format: 'weft-replay',
    version: REPLAY_BUNDLE_VERSION,
    weftVersion: WEFT_VERSION,
    chain: toJson(chain),
    intent: toJson(intent),
    options: {
      now,
      id,
      ...(sender !== undefined ? { sender } : {}),
      ...(gasPriceWei !== undefined ? { gasPriceWei: gasPriceWei.toString() } : {}),
      ...(maxHops !== undefined ? { maxHops } : {}),
      ...(deadlineSeconds !== undefined ? { deadlineSeconds } : {}),
      ...(families !== undefined ? { families: families.map((family) => family.id) } : {}),
      ...(app !== undefined ? { app: toJson(app) } : {}),
    },
    liquidity: toJson({
      chainId: liquidity.chainId,
      blockNumber: liquidity.blockNumber,
      tokens: liquidity.tokens,
      pools: liquidity.pools,
      ...(liquidity.gasPriceWei !== undefined ? { gasPriceWei: liquidity.gasPriceWei } : {}),
      ...(liquidity.balances !== undefined ? { balances: liquidity.balances } : {}),
    }),
    ...(quote !== undefined ? { quote: toJson(quote) } : {}),
  }
  return bundle
}

/**
 * A deep copy as JSON reads it back (bigints as base-10 strings): the bundle holds exactly what a
 * replay from its file will see, not live objects a source may still share.
 */
function toJson<T>(value: T): Jsonified<T> {
  try {
    return JSON.parse(JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))) as Jsonified<T>
  } catch (error) {
    throw hostError('createReplayBundle: an input cannot be written as JSON', error)
  }
}
