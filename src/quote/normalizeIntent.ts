import { type ChainsOption, resolveChains } from '../chains/registry.js'
import { type Address, isAddress } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { invalidParams, type ParamIssue, toQuoteError, unprocessableParams } from '../errors/QuoteError.js'
import { getExecutorAddress } from '../executor/getExecutorAddress.js'
import type { FeeShareIntent, NormalizedIntent, QuoteIntent } from './types.js'

/** Options of {@link normalizeIntent}. */
/**
 * The chain registry: the built-in chains, overridden or extended by the
 * host's `chains` (unknown and `planned` chains are refused).
 */
export type NormalizeIntentOptions = ChainsOption

/** Default `slippageBps` when the intent gives none (quote-api.md: 1%). */
export const DEFAULT_SLIPPAGE_BPS = 100

/** Default `priceImpactLimitBps` when the intent gives none (quote-api.md: 10%). */
export const DEFAULT_PRICE_IMPACT_LIMIT_BPS = 1000

/** Amounts must be strictly below this bound (they travel as uint256). */
export const AMOUNT_LIMIT = 1n << 256n

/** The zero address, which names a chain's native token. */
export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000'

/** The stable `message` of each parameter issue, as `details` and tests show it. */
export const paramMessages = {
  required: 'is required',
  givenOnce: 'must be given once',
  unreadable: 'could not be read',
  notObject: 'must be an object',
  address: 'must be an address (0x followed by 40 hex digits)',
  decString: 'must be a base-10 integer (digits only)',
  bigint: 'must be a bigint',
  integer: 'must be an integer',
  chainIdForm: 'must be a positive integer',
  chainUnknown: 'is not a supported chain',
  chainPlanned: 'is a planned chain, not supported yet',
  amountTooSmall: 'must be greater than 0',
  amountTooLarge: 'must be less than 2^256',
  amountsNeither: 'is required when buyAmount is absent',
  amountsBoth: 'must not be given together with buyAmount',
  range: (max: number) => `must be between 0 and ${max}`,
  recipientRequired: (bpsParam: string) => `is required when ${bpsParam} is set`,
  appId: 'must be 1 to 128 printable ASCII characters',
  zeroAddress: 'must not be the zero address',
  sameToken: 'must differ from sellToken',
  executor: 'must not be the executor contract (what it is paid would be stranded there)',
} as const

/**
 * The intent's fields that are also query parameters of `GET /v1/quote`, in quote-api.md order
 * (the app id apart: a header there, `x-app-id`).
 */
const queryIntentKeys = [
  'chainId',
  'sellToken',
  'buyToken',
  'sellAmount',
  'buyAmount',
  'slippageBps',
  'priceImpactLimitBps',
  'receiver',
  'feeBps',
  'feeRecipient',
  'surplusFeeBps',
  'surplusFeeRecipient',
  'referralFeeBps',
  'referralFeeRecipient',
] as const

/**
 * Parameter names in the order `details` lists them (quote-api.md order, then
 * the app id under both of its names).
 */
export const quoteParamOrder = ['params', 'intent', ...queryIntentKeys, 'x-app-id', 'appId'] as const

/** A fee parameter pair and the maximum of its bps. */
export const feePairs = [
  { key: 'fee', bps: 'feeBps', recipient: 'feeRecipient', max: 1000 },
  { key: 'surplusFee', bps: 'surplusFeeBps', recipient: 'surplusFeeRecipient', max: 10000 },
  { key: 'referralFee', bps: 'referralFeeBps', recipient: 'referralFeeRecipient', max: 1000 },
] as const

const appIdPattern = /^[\x20-\x7e]{1,128}$/

/**
 * Whether `value` is an address string: `0x` and exactly 40 hex digits, any
 * letter case. Mixed case is NOT checked against the EIP-55 checksum.
 *
 * @example
 * isAddressString('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2') // true
 */
export function isAddressString(value: unknown): value is Address {
  // Any letter case, checksum not enforced (the spec's address form: 0x + 40 hex).
  return typeof value === 'string' && isAddress(value, { strict: false })
}

/**
 * Whether `value` is a valid app id: 1 to 128 printable ASCII characters
 * (0x20 to 0x7e).
 *
 * @example
 * isAppId('my-wallet') // true
 */
export function isAppId(value: unknown): value is string {
  return typeof value === 'string' && appIdPattern.test(value)
}

/**
 * Collects at most one issue per parameter (the first one found wins), split
 * into 400 (`invalid`) and 422 (`unprocessable`) problems. Shared by
 * {@link normalizeIntent} and `parseQuoteParams` so both report alike.
 *
 * @example
 * const issues = new ParamIssues()
 * issues.invalid('chainId', paramMessages.required)
 * issues.throwIfAny() // throws a 400 QuoteError
 * @internal
 */
export class ParamIssues {
  private readonly bad = new Map<string, string>()
  private readonly untradable = new Map<string, string>()

  /** Whether `param` already has an issue. */
  has(param: string): boolean {
    return this.bad.has(param) || this.untradable.has(param)
  }

  /** Records a 400 problem for `param` unless it already has one. */
  invalid(param: string, message: string): void {
    if (!this.has(param)) this.bad.set(param, message)
  }

  /** Records a 422 problem for `param` unless it already has one. */
  unprocessable(param: string, message: string): void {
    if (!this.has(param)) this.untradable.set(param, message)
  }

  /** Throws a 400 with every 400 problem if there is any, else a 422 with every 422 problem, else returns. */
  throwIfAny(): void {
    if (this.bad.size > 0) throw invalidParams(sortIssues(this.bad))
    if (this.untradable.size > 0) throw unprocessableParams(sortIssues(this.untradable))
  }
}

function sortIssues(issues: Map<string, string>): ParamIssue[] {
  const rank = (param: string) => {
    const index = (quoteParamOrder as readonly string[]).indexOf(param)
    return index === -1 ? quoteParamOrder.length : index
  }
  return [...issues]
    .map(([param, message]) => ({ param, message }))
    .sort((a, b) => rank(a.param) - rank(b.param))
}

/**
 * Reads an own property without trusting the object: inherited values
 * (prototype pollution) count as absent, and a throwing getter or proxy trap is
 * reported as `unreadable` instead of escaping.
 *
 * @example
 * readOwn({ a: 1 }, 'a') // { ok: true, value: 1 }
 * @internal
 */
export function readOwn(record: object, key: string): { ok: true; value: unknown } | { ok: false } {
  try {
    if (!Object.prototype.hasOwnProperty.call(record, key)) return { ok: true, value: undefined }
    return { ok: true, value: (record as Record<string, unknown>)[key] }
  } catch {
    return { ok: false }
  }
}

/** Where {@link checkIntent} reads the app id and under which name it reports it. */
export type CheckIntentOptions = {
  chains: readonly ChainConfig[]
  /** `appId` for a typed intent, `x-app-id` for query parameters. */
  appIdParam: string
  /** Issues found before (form errors of query strings); their parameters count as present. */
  issues?: ParamIssues
  /** The executor a chain's quotes go to (`getExecutorAddress`): no payee may be it. */
  executorOf: (chain: ChainConfig) => Address
}

/**
 * The one place for the intent rules of decisions.md §3. Checks a typed
 * intent (values of any runtime type), adding to `issues` the first problem of
 * each parameter. A parameter that already has an issue counts as given and
 * its own checks are skipped. Throws the collected QuoteError (400 before 422)
 * or returns the normalized intent.
 *
 * Present means "not `undefined`"; only the app id also accepts `null` for
 * "absent". A recipient without its bps is checked for form, then ignored.
 *
 * @example
 * checkIntent(intent, { chains, appIdParam: 'appId', executorOf: getExecutorAddress }).kind // 'exactIn'
 * @internal
 */
export function checkIntent(intent: Record<string, unknown>, options: CheckIntentOptions): NormalizedIntent {
  const issues = options.issues ?? new ParamIssues()
  const read = (param: string): unknown =>
    Object.prototype.hasOwnProperty.call(intent, param) ? intent[param] : undefined
  const given = (param: string) => read(param) !== undefined || issues.has(param)
  // A value is checked only when it is given and no earlier problem was recorded for it.
  const fresh = (param: string) => read(param) !== undefined && !issues.has(param)

  // chainId
  let chain: ChainConfig | undefined
  if (!given('chainId')) issues.invalid('chainId', paramMessages.required)
  else if (fresh('chainId')) {
    const id = read('chainId')
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) {
      issues.invalid('chainId', paramMessages.chainIdForm)
    } else {
      chain = options.chains.find((c) => c.id === id)
      if (chain === undefined) issues.invalid('chainId', paramMessages.chainUnknown)
      else if (chain.status !== 'active') {
        issues.invalid('chainId', paramMessages.chainPlanned)
        chain = undefined
      }
    }
  }

  const address = (param: string, required: boolean): Address | undefined => {
    if (!given(param)) {
      if (required) issues.invalid(param, paramMessages.required)
      return undefined
    }
    if (!fresh(param)) return undefined
    const value = read(param)
    if (!isAddressString(value)) {
      issues.invalid(param, paramMessages.address)
      return undefined
    }
    return value.toLowerCase() as Address
  }

  const bps = (param: string, max: number): number | undefined => {
    if (!fresh(param)) return undefined
    const value = read(param)
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      issues.invalid(param, paramMessages.integer)
      return undefined
    }
    if (value < 0 || value > max) {
      issues.invalid(param, paramMessages.range(max))
      return undefined
    }
    return value + 0 // -0 → 0
  }

  const amount = (param: string): bigint | undefined => {
    if (!fresh(param)) return undefined
    const value = read(param)
    if (typeof value !== 'bigint') {
      issues.invalid(param, paramMessages.bigint)
      return undefined
    }
    if (value <= 0n) {
      issues.invalid(param, paramMessages.amountTooSmall)
      return undefined
    }
    if (value >= AMOUNT_LIMIT) {
      issues.invalid(param, paramMessages.amountTooLarge)
      return undefined
    }
    return value
  }

  // Tokens
  const sellToken = address('sellToken', true)
  const buyToken = address('buyToken', true)

  // Amounts: the form of each given one first, then exactly-one-of.
  const sellAmount = amount('sellAmount')
  const buyAmount = amount('buyAmount')
  const sellGiven = given('sellAmount')
  const buyGiven = given('buyAmount')
  if (sellGiven && buyGiven) issues.invalid('sellAmount', paramMessages.amountsBoth)
  else if (!sellGiven && !buyGiven) issues.invalid('sellAmount', paramMessages.amountsNeither)

  const slippageBps = bps('slippageBps', 10000)
  const priceImpactLimitBps = bps('priceImpactLimitBps', 10000)
  const receiver = address('receiver', false)

  // Fee pairs: bps form and range, recipient form, recipient required with its bps.
  const fees: Record<string, FeeShareIntent | null> = {}
  for (const pair of feePairs) {
    const pairBps = bps(pair.bps, pair.max)
    const recipient = address(pair.recipient, false)
    fees[pair.key] = null
    if (!given(pair.bps)) continue
    if (!given(pair.recipient)) {
      issues.invalid(pair.recipient, paramMessages.recipientRequired(pair.bps))
      continue
    }
    if (pairBps !== undefined && recipient !== undefined) fees[pair.key] = { bps: pairBps, recipient }
  }

  // App id: null or undefined is "none".
  let appId: string | null = null
  const rawAppId = read(options.appIdParam)
  if (!issues.has(options.appIdParam) && rawAppId !== undefined && rawAppId !== null) {
    if (isAppId(rawAppId)) appId = rawAppId
    else issues.invalid(options.appIdParam, paramMessages.appId)
  }

  // 422: well-formed but cannot be traded.
  if (sellToken !== undefined && buyToken !== undefined && sellToken === buyToken) {
    issues.unprocessable('buyToken', paramMessages.sameToken)
  }
  if (receiver === ZERO_ADDRESS) issues.unprocessable('receiver', paramMessages.zeroAddress)
  for (const pair of feePairs) {
    if (fees[pair.key]?.recipient === ZERO_ADDRESS) issues.unprocessable(pair.recipient, paramMessages.zeroAddress)
  }
  // No payee may be the executor (issue 10): the executor refuses such a fill on-chain too.
  const executor = chain === undefined ? undefined : payeeGuard(options.executorOf, chain)
  if (executor !== undefined) {
    if (receiver === executor) issues.unprocessable('receiver', paramMessages.executor)
    for (const pair of feePairs) {
      if (fees[pair.key]?.recipient === executor) issues.unprocessable(pair.recipient, paramMessages.executor)
    }
  }

  issues.throwIfAny()

  // No issue was recorded, so every required value is set.
  return {
    chainId: chain!.id,
    sellToken: sellToken!,
    buyToken: buyToken!,
    kind: sellAmount !== undefined ? 'exactIn' : 'exactOut',
    amount: sellAmount ?? buyAmount!,
    slippageBps: slippageBps ?? DEFAULT_SLIPPAGE_BPS,
    priceImpactLimitBps: priceImpactLimitBps ?? DEFAULT_PRICE_IMPACT_LIMIT_BPS,
    receiver: receiver ?? null,
    fee: fees.fee ?? null,
    referralFee: fees.referralFee ?? null,
    surplusFee: fees.surplusFee ?? null,
    appId,
  }
}

/**
 * The executor quotes on this chain go to (lowercase), or undefined when the config cannot name one
 * (a family the executor cannot swap on): getQuote reports that config error itself.
 */
function payeeGuard(executorOf: (chain: ChainConfig) => Address, chain: ChainConfig): Address | undefined {
  try {
    return executorOf(chain).toLowerCase() as Address
  } catch {
    return undefined
  }
}

/** The fields of a typed intent that {@link normalizeIntent} reads. */
const intentKeys = [...queryIntentKeys, 'appId'] as const satisfies readonly (keyof QuoteIntent)[]

/**
 * Validates a typed swap intent (what a host hands `getQuote`) by the rules of
 * decisions.md §3 and normalizes it: lowercase addresses (mixed case is NOT
 * checksum-verified), `slippageBps` 100 and `priceImpactLimitBps` 1000 by
 * default, each fee bps joined with its recipient (a recipient without its bps
 * is ignored), `kind` from the amount given.
 *
 * Hosts can pass anything at runtime: a non-object, `NaN`, a float, a negative
 * bigint, a string amount. Every such problem is a 400 QuoteError whose
 * `details` lists one `{ param, message }` per bad field; an intent that is
 * well-formed but cannot be traded (same token twice, a zero-address receiver
 * or fee recipient) is a 422. Only own properties are read. It throws nothing
 * but QuoteError.
 *
 * @example
 * const intent = normalizeIntent(
 *   { chainId: 1, sellToken: '0x0000000000000000000000000000000000000000',
 *     buyToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', sellAmount: 10n ** 18n },
 *   { chains },
 * )
 * intent.kind // 'exactIn'
 * intent.slippageBps // 100
 */
export function normalizeIntent(intent: unknown, options: NormalizeIntentOptions = {}): NormalizedIntent {
  return normalizeIntentWith(intent, options, getExecutorAddress)
}

/**
 * {@link normalizeIntent} with the executor's address found by `executorOf`. getQuote passes the
 * `getExecutorAddress` it loads on demand, so a bundle that only quotes does not carry the
 * executor's init code until the first quote.
 *
 * @example
 * const { getExecutorAddress } = await import('../executor/getExecutorAddress.js')
 * normalizeIntentWith(intent, { chains }, getExecutorAddress).kind // 'exactIn'
 * @internal
 */
export function normalizeIntentWith(
  intent: unknown,
  options: NormalizeIntentOptions,
  executorOf: (chain: ChainConfig) => Address,
): NormalizedIntent {
  try {
    if (typeof intent !== 'object' || intent === null || Array.isArray(intent)) {
      throw invalidParams([{ param: 'intent', message: paramMessages.notObject }])
    }
    const issues = new ParamIssues()
    const values: Record<string, unknown> = Object.create(null)
    for (const key of intentKeys) {
      const read = readOwn(intent, key)
      if (read.ok) values[key] = read.value
      else issues.invalid(key, paramMessages.unreadable)
    }
    return checkIntent(values, { chains: resolveChains(options), appIdParam: 'appId', issues, executorOf })
  } catch (error) {
    throw toQuoteError(error)
  }
}
