import { type ChainsOption, resolveChains } from '../chains/registry.js'
import type { Address } from 'viem'
import { invalidParams, toQuoteError } from '../errors/QuoteError.js'
import { getExecutorAddress } from '../executor/getExecutorAddress.js'
import { AMOUNT_LIMIT, checkIntent, ParamIssues, paramMessages, readOwn } from './normalizeIntent.js'
import type { QuoteIntent } from './types.js'

/** Options of {@link parseQuoteParams}. */
/**
 * The chain registry: the built-in chains, overridden or extended by the
 * host's `chains` (unknown and `planned` chains are refused).
 */
export type ParseQuoteParamsOptions = ChainsOption

/** How each query parameter is read from its string. */
type ParamForm = 'chainId' | 'address' | 'amount' | 'bps' | 'appId'

/** The query parameters of `GET /v1/quote` (quote-api.md) and the `x-app-id` header, with their forms. */
export const quoteParamForms = {
  chainId: 'chainId',
  sellToken: 'address',
  buyToken: 'address',
  sellAmount: 'amount',
  buyAmount: 'amount',
  slippageBps: 'bps',
  priceImpactLimitBps: 'bps',
  receiver: 'address',
  feeBps: 'bps',
  feeRecipient: 'address',
  surplusFeeBps: 'bps',
  surplusFeeRecipient: 'address',
  referralFeeBps: 'bps',
  referralFeeRecipient: 'address',
  'x-app-id': 'appId',
} as const satisfies Record<string, ParamForm>

/**
 * The key under which {@link parseQuoteParams} reads the `x-app-id` header value.
 *
 * @example
 * const intent = parseQuoteParams({ ...query, [APP_ID_HEADER]: request.headers[APP_ID_HEADER] })
 */
export const APP_ID_HEADER = 'x-app-id'

const digits = /^[0-9]+$/
const signedDigits = /^-?[0-9]+$/
/** 2^256 has 78 decimal digits: a longer digit string is out of range without parsing it. */
const maxAmountDigits = 78

/** Converted value of one parameter, or the form message when it cannot be converted. */
type Converted = { value: unknown } | { message: string }

function convert(form: ParamForm, raw: unknown): Converted {
  // Addresses are checked (and lowercased) by the shared rules, which accept only strings.
  if (form === 'address') return { value: raw }
  if (form === 'appId') return typeof raw === 'string' ? { value: raw } : { message: paramMessages.appId }
  if (form === 'chainId') {
    if (typeof raw !== 'string' || !digits.test(raw)) return { message: paramMessages.chainIdForm }
    const id = Number(raw)
    // Too big for a number: no chain has that id, so keep it an integer the registry won't match.
    return { value: Number.isFinite(id) ? id : Number.MAX_VALUE }
  }
  if (form === 'bps') {
    if (typeof raw !== 'string' || !signedDigits.test(raw)) return { message: paramMessages.integer }
    const bps = Number(raw)
    // Out of range whatever its exact value; the shared range check says so.
    if (!Number.isFinite(bps)) return { value: bps < 0 ? -Number.MAX_VALUE : Number.MAX_VALUE }
    return { value: bps + 0 }
  }
  if (typeof raw !== 'string' || !digits.test(raw)) return { message: paramMessages.decString }
  const significant = raw.replace(/^0+/, '')
  // Beyond 78 digits the value is at least 2^256; skip parsing a huge string.
  return { value: significant.length > maxAmountDigits ? AMOUNT_LIMIT : BigInt(`0${significant}`) }
}

/**
 * Parses the query parameters of `GET /v1/quote` (and the `x-app-id` header
 * value under the key `'x-app-id'`) into a typed {@link QuoteIntent}, applying
 * the rules of decisions.md §3 (shared with `normalizeIntent`).
 *
 * Each value may be a string, an array of strings (a repeated query parameter:
 * one element is taken as the value, none as absent, two or more are a 400
 * "must be given once"), `undefined` (absent), or anything else (a 400 form
 * error). Unknown keys and inherited properties are ignored.
 *
 * Forms: an address is `0x` and exactly 40 hex digits in any letter case;
 * mixed case is NOT checksum-verified, and the result is lowercased. An amount
 * is base-10 digits only (leading zeros allowed), above 0 and below 2^256. A
 * bps value is a base-10 integer with an optional leading `-` (which then
 * fails the range). `chainId` is a positive base-10 integer. An empty string is
 * a given value of the wrong form, not an absent one.
 *
 * Problems are collected, at most one per parameter (its first: form, then the
 * cross-parameter rules). Any 400 problem throws a 400 QuoteError listing only
 * the 400 problems; otherwise 422 problems (same token twice, a zero-address
 * receiver or fee recipient) throw a 422. "Both or neither of sellAmount and
 * buyAmount" is reported on `sellAmount`. It throws nothing but QuoteError.
 *
 * The returned intent holds the given values only (no defaults), with
 * lowercase addresses and `appId` null when the header is absent.
 *
 * @example
 * const intent = parseQuoteParams(
 *   Object.fromEntries(new URL(request.url).searchParams),
 *   { chains },
 * )
 * intent.sellAmount // 1000000000000000000n
 */
export function parseQuoteParams(params: Record<string, unknown>, options: ParseQuoteParamsOptions = {}): QuoteIntent {
  try {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw invalidParams([{ param: 'params', message: paramMessages.notObject }])
    }
    const issues = new ParamIssues()
    const values: Record<string, unknown> = Object.create(null)
    for (const [param, form] of Object.entries(quoteParamForms)) {
      const read = readOwn(params, param)
      if (!read.ok) {
        issues.invalid(param, paramMessages.unreadable)
        continue
      }
      try {
        let raw = read.value
        if (Array.isArray(raw)) {
          if (raw.length > 1) {
            issues.invalid(param, paramMessages.givenOnce)
            continue
          }
          raw = raw[0]
        }
        if (raw === undefined) continue
        const converted = convert(form, raw)
        if ('message' in converted) issues.invalid(param, converted.message)
        else values[param] = converted.value
      } catch {
        // A hostile array (a proxy whose traps throw) cannot be read.
        issues.invalid(param, paramMessages.unreadable)
      }
    }

    const normalized = checkIntent(values, { chains: resolveChains(options), appIdParam: APP_ID_HEADER, issues, executorOf: getExecutorAddress })

    const intent: QuoteIntent = {
      chainId: normalized.chainId,
      sellToken: normalized.sellToken,
      buyToken: normalized.buyToken,
    }
    if (normalized.kind === 'exactIn') intent.sellAmount = normalized.amount
    else intent.buyAmount = normalized.amount
    const number = (param: string) => values[param] as number | undefined
    const address = (param: string) => (values[param] as string | undefined)?.toLowerCase() as Address | undefined
    if (values.slippageBps !== undefined) intent.slippageBps = normalized.slippageBps
    if (values.priceImpactLimitBps !== undefined) intent.priceImpactLimitBps = normalized.priceImpactLimitBps
    if (normalized.receiver !== null) intent.receiver = normalized.receiver
    if (values.feeBps !== undefined) intent.feeBps = number('feeBps')
    if (values.feeRecipient !== undefined) intent.feeRecipient = address('feeRecipient')
    if (values.surplusFeeBps !== undefined) intent.surplusFeeBps = number('surplusFeeBps')
    if (values.surplusFeeRecipient !== undefined) intent.surplusFeeRecipient = address('surplusFeeRecipient')
    if (values.referralFeeBps !== undefined) intent.referralFeeBps = number('referralFeeBps')
    if (values.referralFeeRecipient !== undefined) intent.referralFeeRecipient = address('referralFeeRecipient')
    intent.appId = normalized.appId
    return intent
  } catch (error) {
    throw toQuoteError(error)
  }
}
