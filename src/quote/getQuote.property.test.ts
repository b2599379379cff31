// getQuote under thousands of random and hostile intents, on the embedded
// snapshot: every outcome is a Quote that passes the structural validator below
// (decisions.md §4–§6 arithmetic included) or a thrown QuoteError, never any
// other error, never an unhandled rejection. The intent-form rules themselves
// are covered by parseQuoteParams.property.test.ts; here the interest is what comes out
// of getQuote once an intent is (or is not) accepted.
import fc from 'fast-check'
import { type Address, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { defaultSnapshot } from '../defaultSnapshot.js'
import {
  type AppConfig,
  type ChainConfig,
  type GetQuoteOptions,
  type NormalizedIntent,
  type PoolFamily,
  type Quote,
  type QuoteIntent,
  QuoteError,
  base,
  createSnapshotSource,
  defaultFamilies,
  ethereum,
  getExecutorAddress,
  getQuote,
  normalizeIntent,
  parseQuoteParams,
  uniswapV2Family,
  uniswapV3Family,
} from '../index.js'

const source = createSnapshotSource(defaultSnapshot)
const chains: Record<number, ChainConfig> = { 1: ethereum, 8453: base }
const snapshots = Object.fromEntries(defaultSnapshot.map((s) => [s.chainId, s]))
const LIMIT = 1n << 256n
const NATIVE = zeroAddress

// ---------- the structural validator ----------

const decString = /^(0|[1-9][0-9]*)$/
const lowerAddress = /^0x[0-9a-f]{40}$/
const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const anyUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A failed check, with what was checked. Thrown (not `expect`ed) so that a fast-check counterexample reports it. */
class Violation extends Error {}
function check(condition: boolean, what: string, value?: unknown): asserts condition {
  if (!condition) throw new Violation(`${what}${value === undefined ? '' : `: ${stringify(value)}`}`)
}
const stringify = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))

const amountOf = (value: unknown, what: string): bigint => {
  check(typeof value === 'string' && decString.test(value), `${what} is a base-10 dec_string`, value)
  const amount = BigInt(value)
  check(amount < LIMIT, `${what} fits in uint256`, value)
  return amount
}
const addressOf = (value: unknown, what: string): Address => {
  check(typeof value === 'string' && lowerAddress.test(value), `${what} is a lowercase address`, value)
  return value as Address
}
const keysOf = (value: unknown, keys: string[], what: string) => {
  check(typeof value === 'object' && value !== null && !Array.isArray(value), `${what} is an object`, value)
  check(stringify(Object.keys(value).sort()) === stringify([...keys].sort()), `${what} has exactly ${keys.join(', ')}`, Object.keys(value))
}

/** What decisions.md §6 says the fees of a quote are: side, token, and each share's bps and recipient, in order. */
function expectedFees(n: NormalizedIntent, chain: ChainConfig, apps: GetQuoteOptions['apps']) {
  const wrapped = (t: Address) => (t === NATIVE ? chain.wrappedNative.address : t)
  const majorIn = chain.majorTokens.includes(wrapped(n.sellToken))
  const majorOut = chain.majorTokens.includes(wrapped(n.buyToken))
  // Exactly one side major: that side; neither: the buy side; both: the buy side unless it is native.
  const side: 'input' | 'output' = majorIn && majorOut ? (n.buyToken === NATIVE ? 'input' : 'output') : majorIn ? 'input' : 'output'
  const app: AppConfig | undefined = n.appId !== null ? apps?.[n.appId] : undefined
  const integrator = n.fee ?? (app?.feeBps && app.feeRecipient ? { bps: app.feeBps, recipient: app.feeRecipient } : null)
  const shares = [integrator, n.referralFee].filter((s): s is { bps: number; recipient: Address } => s !== null && s.bps > 0)
  // The default chains have no treasury, so there is never a service fee here.
  expect(chain.treasury).toBeUndefined()
  return { side, token: side === 'input' ? n.sellToken : n.buyToken, shares }
}

type Context = { n: NormalizedIntent; options: GetQuoteOptions }

/** Every structural rule a Quote obeys (quote-api.md fields, decisions.md §4–§8). Throws a Violation on the first broken one. */
function validateQuote(quote: Quote, { n, options }: Context) {
  const chain = chains[n.chainId]
  check(chain !== undefined, 'the quote is for an active chain', n.chainId)
  const weth = chain.wrappedNative.address
  const wrapped = (t: Address) => (t === NATIVE ? weth : t)

  keysOf(
    quote,
    ['blockNumber', 'amountIn', 'amountOut', 'minimumAmountOut', 'price', 'priceImpactBps', 'description', 'tokens', 'route', 'approval', 'transaction', 'gasEstimate', 'fees', 'id', 'appId'],
    'quote',
  )
  let json: string | undefined
  try {
    json = JSON.stringify(quote)
  } catch {
    json = undefined // a bigint somewhere
  }
  check(json !== undefined && JSON.stringify(JSON.parse(json)) === json, 'the quote survives a JSON round trip')
  check(quote.blockNumber === snapshots[n.chainId]!.blockNumber, 'blockNumber is the snapshot block', quote.blockNumber)

  // Amounts, slippage (§4).
  const amountIn = amountOf(quote.amountIn, 'amountIn')
  const amountOut = amountOf(quote.amountOut, 'amountOut')
  const minimumAmountOut = amountOf(quote.minimumAmountOut, 'minimumAmountOut')
  check(amountIn > 0n && amountOut > 0n, 'amounts are positive', [quote.amountIn, quote.amountOut])
  check(amountOut >= minimumAmountOut, 'amountOut >= minimumAmountOut', [quote.amountOut, quote.minimumAmountOut])
  check(minimumAmountOut === amountOut - (amountOut * BigInt(n.slippageBps)) / 10000n, 'minimumAmountOut = amountOut - floor(amountOut x slippageBps / 10000)', [quote.minimumAmountOut, n.slippageBps])
  if (n.kind === 'exactIn') check(amountIn === n.amount, 'exact in: amountIn is the sellAmount', [quote.amountIn, n.amount])
  else check(amountOut >= n.amount, 'exact out: amountOut is at least the buyAmount', [quote.amountOut, n.amount])

  // Route: paths chain hop to hop; the totals are the sums of the ends.
  const { route } = quote
  keysOf(route, ['swaps', 'amountIn', 'amountOut'], 'route')
  const routeIn = amountOf(route.amountIn, 'route.amountIn')
  const routeOut = amountOf(route.amountOut, 'route.amountOut')
  check(Array.isArray(route.swaps) && route.swaps.length > 0, 'route has at least one path', route.swaps)
  const isWrap = wrapped(n.sellToken) === wrapped(n.buyToken)
  const maxHops = options.maxHops
  const hopBound = typeof maxHops === 'number' && Number.isFinite(maxHops) ? Math.max(1, Math.ceil(maxHops)) : maxHops === undefined ? 4 : Infinity
  let firstSum = 0n
  let lastSum = 0n
  route.swaps.forEach((path, p) => {
    check(Array.isArray(path) && path.length > 0, `path ${p} is a non-empty array`, path)
    check(isWrap || path.length <= hopBound, `path ${p} has at most maxHops (${hopBound}) swaps`, path.length)
    const visited = new Set<string>()
    path.forEach((swap, h) => {
      const at = `route.swaps[${p}][${h}]`
      keysOf(swap, ['key', 'address', 'protocol', 'fork', 'tokenIn', 'tokenOut', 'amountIn', 'amountOut'], at)
      check(typeof swap.key === 'string' && swap.key.length > 0, `${at}.key is a string`, swap.key)
      check(typeof swap.protocol === 'string' && typeof swap.fork === 'string', `${at} names protocol and fork`, swap)
      addressOf(swap.address, `${at}.address`)
      addressOf(swap.tokenIn, `${at}.tokenIn`)
      addressOf(swap.tokenOut, `${at}.tokenOut`)
      check(swap.tokenIn !== swap.tokenOut, `${at} trades two different tokens`, swap)
      const inAmount = amountOf(swap.amountIn, `${at}.amountIn`)
      const outAmount = amountOf(swap.amountOut, `${at}.amountOut`)
      check(inAmount > 0n && outAmount > 0n, `${at} moves a positive amount each way`, swap)
      if (h > 0) {
        const previous = path[h - 1]!
        check(previous.tokenOut === swap.tokenIn, `${at}.tokenIn is the previous swap's tokenOut`, [previous.tokenOut, swap.tokenIn])
        check(previous.amountOut === swap.amountIn, `${at}.amountIn is the previous swap's amountOut`, [previous.amountOut, swap.amountIn])
      }
      check(!visited.has(swap.tokenIn), `path ${p} visits ${swap.tokenIn} once`, path)
      visited.add(swap.tokenIn)
    })
    const first = path[0]!
    const last = path[path.length - 1]!
    if (isWrap) {
      check(route.swaps.length === 1 && path.length === 1, 'a wrap is one swap', route.swaps)
      check(first.tokenIn === n.sellToken && first.tokenOut === n.buyToken, 'a wrap swaps sellToken for buyToken', first)
      check(first.amountIn === first.amountOut, 'a wrap is 1:1', first)
    } else {
      // §5: the route's ends name the native token as the zero address.
      check(first.tokenIn === n.sellToken, `path ${p} starts at the sellToken`, first.tokenIn)
      check(last.tokenOut === n.buyToken, `path ${p} ends at the buyToken`, last.tokenOut)
    }
    firstSum += BigInt(first.amountIn)
    lastSum += BigInt(last.amountOut)
  })
  check(routeIn === firstSum, 'route.amountIn is the sum of the first swaps', [route.amountIn, firstSum])
  check(routeOut === lastSum, 'route.amountOut is the sum of the last swaps', [route.amountOut, lastSum])

  // Fees (§6).
  const plan = expectedFees(n, chain, options.apps)
  const feeBase = plan.side === 'input' ? amountIn : routeOut
  const feeAmounts = plan.shares.map((s) => (feeBase * BigInt(s.bps)) / 10000n)
  const totalFees = feeAmounts.reduce((a, b) => a + b, 0n)
  const listed = plan.shares
    .map((s, i) => ({ token: plan.token, amount: feeAmounts[i]!.toString(), recipient: s.recipient }))
    .filter((f) => f.amount !== '0')
  check(Array.isArray(quote.fees), 'fees is an array', quote.fees)
  quote.fees.forEach((fee, i) => {
    keysOf(fee, ['token', 'amount', 'recipient'], `fees[${i}]`)
    addressOf(fee.token, `fees[${i}].token`)
    addressOf(fee.recipient, `fees[${i}].recipient`)
    check(amountOf(fee.amount, `fees[${i}].amount`) > 0n, `fees[${i}] is non-zero`, fee)
  })
  check(stringify(quote.fees) === stringify(listed), `fees are the non-zero ${plan.side}-side shares`, { fees: quote.fees, expected: listed })
  if (plan.side === 'input') {
    check(routeIn === amountIn - totalFees, 'input-side fees: route.amountIn = amountIn - fees', [route.amountIn, quote.amountIn, totalFees])
    check(routeOut === amountOut, 'input-side fees: route.amountOut = amountOut', [route.amountOut, quote.amountOut])
  } else {
    check(routeIn === amountIn, 'output-side fees: route.amountIn = amountIn', [route.amountIn, quote.amountIn])
    check(amountOut === routeOut - totalFees, 'output-side fees: amountOut = route.amountOut - fees', [quote.amountOut, route.amountOut, totalFees])
  }

  // Price impact (§4) and price.
  const impact = quote.priceImpactBps
  check(typeof impact === 'number' && Number.isFinite(impact) && impact >= 0 && impact <= 10000, 'priceImpactBps is a number in 0..10000', impact)
  check(Math.round(impact * 100) / 100 === impact, 'priceImpactBps has at most 2 decimals', impact)
  check(impact <= n.priceImpactLimitBps, 'priceImpactBps is within priceImpactLimitBps', [impact, n.priceImpactLimitBps])
  if (isWrap) check(impact === 0, 'a wrap has no price impact', impact)

  // Tokens: sell and buy described, each once; every token the route passes through too.
  check(Array.isArray(quote.tokens), 'tokens is an array', quote.tokens)
  const described = new Map<string, Quote['tokens'][number]>()
  quote.tokens.forEach((token, i) => {
    keysOf(token, ['address', 'symbol', 'decimals', 'transferFeeBps', 'priceUsd'], `tokens[${i}]`)
    addressOf(token.address, `tokens[${i}].address`)
    check(!described.has(token.address), `tokens[${i}] is listed once`, token.address)
    described.set(token.address, token)
    check(typeof token.symbol === 'string', `tokens[${i}].symbol is a string`, token.symbol)
    check(Number.isInteger(token.decimals) && token.decimals >= 0 && token.decimals <= 255, `tokens[${i}].decimals is an integer`, token.decimals)
    check(Number.isInteger(token.transferFeeBps) && token.transferFeeBps >= 0, `tokens[${i}].transferFeeBps is a non-negative integer`, token.transferFeeBps)
    check(token.priceUsd === null || (Number.isFinite(token.priceUsd) && token.priceUsd >= 0), `tokens[${i}].priceUsd is null or a finite number`, token.priceUsd)
  })
  const sellMeta = described.get(n.sellToken)
  const buyMeta = described.get(n.buyToken)
  check(sellMeta !== undefined && buyMeta !== undefined, 'tokens describe sellToken and buyToken', quote.tokens.map((t) => t.address))
  for (const path of route.swaps)
    for (const swap of path)
      for (const t of [swap.tokenIn, swap.tokenOut])
        check(described.has(t), `tokens describe ${t}, which the route names`, quote.tokens.map((x) => x.address))
  if (quote.price !== null) {
    // §4: price is the spot rate (output per input, whole tokens) the impact is measured against,
    // so the impact follows from it and the gross route amounts.
    check(Number.isFinite(quote.price) && quote.price > 0, 'price is null or a positive number', quote.price)
    const spotRaw = quote.price * 10 ** (buyMeta.decimals - sellMeta.decimals)
    const implied = Math.max(0, 10000 * (1 - Number(routeOut) / (Number(routeIn) * spotRaw)))
    check(Math.abs(implied - impact) <= 0.006, 'priceImpactBps = 10000 x (1 - route.amountOut / (route.amountIn x price))', [impact, implied, quote.price])
  }

  // Approval and transaction (quote-api.md rules 3 and 4; §5).
  const executor = chain.executor ?? getExecutorAddress(chain)
  keysOf(quote.transaction, ['to', 'data', 'value'], 'transaction')
  check(quote.transaction.to === executor, 'transaction.to is the chain executor', quote.transaction.to)
  check(/^0x([0-9a-f]{2})+$/.test(quote.transaction.data) && quote.transaction.data.length > 10, 'transaction.data is lowercase calldata', quote.transaction.data.slice(0, 20))
  const value = amountOf(quote.transaction.value, 'transaction.value')
  if (n.sellToken === NATIVE) {
    check(quote.approval === null, 'native input: approval is null', quote.approval)
    check(value === amountIn, 'native input: transaction.value is amountIn', [quote.transaction.value, quote.amountIn])
  } else {
    check(quote.approval !== null, 'ERC-20 input: approval is present')
    keysOf(quote.approval, ['token', 'amount', 'spender'], 'approval')
    check(quote.approval.token === n.sellToken, 'approval.token is sellToken', quote.approval.token)
    check(quote.approval.amount === quote.amountIn, 'approval.amount is amountIn', [quote.approval.amount, quote.amountIn])
    check(quote.approval.spender === executor, 'approval.spender is the executor', quote.approval.spender)
    check(value === 0n, 'ERC-20 input: transaction.value is "0"', quote.transaction.value)
  }

  // Identity (§8).
  check(Number.isSafeInteger(quote.gasEstimate) && quote.gasEstimate > 0, 'gasEstimate is a positive integer', quote.gasEstimate)
  if (typeof options.id === 'string' && anyUuid.test(options.id)) check(quote.id === options.id.toLowerCase(), 'an injected id is used', [quote.id, options.id])
  else check(uuidV7.test(quote.id), 'id is a UUID v7', quote.id)
  check(quote.id === quote.id.toLowerCase(), 'id is lowercase', quote.id)
  check(quote.transaction.data.includes(quote.id.replace(/-/g, '')), 'the id travels in the calldata', quote.id)
  check(quote.appId === n.appId, 'appId is the intent app id or null', [quote.appId, n.appId])
  check(typeof quote.description === 'string' && quote.description.length > 0, 'description is a non-empty string', quote.description)
}

const statusCodes: Record<number, string> = { 400: 'invalid_request', 404: 'not_found', 422: 'unprocessable', 500: 'internal_error', 503: 'unavailable' }

/** The body of any QuoteError is well-formed; returns the error for further checks. */
function validateError(error: unknown): QuoteError {
  if (!(error instanceof QuoteError)) {
    throw new Violation(`getQuote threw a non-QuoteError: ${error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : stringify(error)}`)
  }
  const body = error.toJSON()
  keysOf(body, ['statusCode', 'code', 'message', 'details'], 'error body')
  check(statusCodes[body.statusCode] === body.code, 'status and code agree', body)
  check(typeof body.message === 'string' && body.message.length > 0, 'message is a non-empty string', body)
  check(!/\n\s+at /.test(body.message), 'message carries no stack', body.message)
  if (body.statusCode === 400 || body.statusCode === 422) {
    if (body.details !== null) {
      check(Array.isArray(body.details) && body.details.length > 0, 'details list the parameters', body)
      for (const d of body.details) keysOf(d, ['param', 'message'], 'details entry')
    } else {
      check(/^Price impact of \d+(\.\d{1,2})? bps too high \(limit = \d+ bps\)$/.test(body.message), 'a 400 without details is the price-impact error', body)
    }
  } else check(body.details === null, 'details is null outside 400/422', body)
  if (body.statusCode === 404) check(body.message === 'No route found', '404 says No route found', body)
  // A 500 is 'Internal error', or names the host's own bad data (an option, a chain config, a pool state).
  if (body.statusCode === 500)
    check(body.message === 'Internal error' || /^Invalid (getQuote option|chain configuration|snapshot|Uniswap V3 pool state)|^uniswapV2 /.test(body.message), '500 says Internal error or names the host data', body)
  return error
}

type Outcome = { quote: Quote; error?: undefined } | { quote?: undefined; error: QuoteError }

/** Runs getQuote and checks whichever way it ends. */
async function quoteOutcome(intent: unknown, options: GetQuoteOptions = {}): Promise<Outcome> {
  const pending = getQuote(intent as QuoteIntent, source, options)
  check(pending instanceof Promise, 'getQuote returns a promise (it never throws synchronously)')
  try {
    return { quote: await pending }
  } catch (error) {
    return { error: validateError(error) }
  }
}

/** The normalized intent, or the QuoteError normalizeIntent throws for it. */
function normalized(intent: unknown): { n: NormalizedIntent } | { error: QuoteError } {
  try {
    return { n: normalizeIntent(intent) }
  } catch (error) {
    return { error: validateError(error) }
  }
}

/**
 * The whole contract of one call: an intent normalizeIntent refuses is refused
 * by getQuote with the same body; an accepted one yields a valid Quote or a
 * 400 (price impact) / 404 (no route) — on the embedded snapshot nothing else,
 * unless the host's options are junk, which may also be a 500.
 */
async function checkCall(intent: unknown, options: GetQuoteOptions = {}, { junkOptions = false } = {}) {
  const expected = normalized(intent)
  const outcome = await quoteOutcome(intent, options)
  if ('error' in expected) {
    check(outcome.error !== undefined, 'an intent normalizeIntent refuses is refused', outcome.quote?.id)
    check(stringify(outcome.error.toJSON()) === stringify(expected.error.toJSON()), 'getQuote refuses it with the same body', [outcome.error.toJSON(), expected.error.toJSON()])
    return outcome
  }
  if (outcome.error) {
    const allowed = junkOptions ? [400, 404, 422, 500] : [400, 404, 422]
    check(allowed.includes(outcome.error.statusCode), `a valid intent fails only with ${allowed.join('/')}`, outcome.error.toJSON())
    if (outcome.error.statusCode === 400) check(outcome.error.details === null, 'a valid intent gets only the price-impact 400', outcome.error.toJSON())
    if (outcome.error.statusCode === 422) {
      // The only 422 left after normalizeIntent: a token the source cannot describe.
      for (const d of outcome.error.details ?? []) check(['sellToken', 'buyToken'].includes(d.param), 'a late 422 names sellToken/buyToken', d)
    }
    return outcome
  }
  validateQuote(outcome.quote, { n: expected.n, options })
  return outcome
}

// ---------- arbitraries ----------

const chainTokens = (chainId: number): Address[] => snapshots[chainId]!.tokens.map((t) => t.address.toLowerCase() as Address)
const decimalsOf = (chainId: number, token: Address): number =>
  token === NATIVE ? 18 : (snapshots[chainId]!.tokens.find((t) => t.address.toLowerCase() === token)?.decimals ?? 18)

/** USD price of each snapshot token (and native), as the snapshot itself prices them: amounts are sized in dollars. */
const usdPrices = new Map<string, number>()
for (const chain of [ethereum, base]) {
  const stable = chain.usdStablecoins[0]!
  for (const token of chainTokens(chain.id)) {
    if (token === stable) continue
    const quote = await getQuote({ chainId: chain.id, sellToken: stable, buyToken: token, sellAmount: 10n ** 6n, priceImpactLimitBps: 10000 }, source)
    for (const t of quote.tokens) if (t.priceUsd !== null) usdPrices.set(`${chain.id}:${t.address}`, t.priceUsd)
  }
  usdPrices.set(`${chain.id}:${NATIVE}`, usdPrices.get(`${chain.id}:${chain.wrappedNative.address}`)!)
}

/** The same address in a random letter case (not EIP-55: any mix is accepted). */
const anyCase = (address: Address) =>
  fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }).map((upper) => `0x${[...address.slice(2)].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}` as Address)

const randomAddress = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${[...b].map((x) => x.toString(16).padStart(2, '0')).join('')}` as Address)

/** A token for a chain: mostly its snapshot's tokens and native, sometimes the other chain's or a stranger; any letter case. */
const tokenFor = (chainId: number) =>
  fc
    .oneof(
      { weight: 24, arbitrary: fc.constantFrom(...chainTokens(chainId), NATIVE) },
      { weight: 1, arbitrary: fc.constantFrom(...chainTokens(chainId === 1 ? 8453 : 1)) },
      { weight: 1, arbitrary: randomAddress },
    )
    .chain((t) => fc.oneof({ weight: 3, arbitrary: fc.constant(t) }, { weight: 1, arbitrary: anyCase(t) }))

/**
 * A valid amount of `token`: dust (1 to 1000 base units), a dollar size
 * (log-uniform from $0.0001 to $1M), or anything from 10^40 to 2^256 - 1 (more
 * than any pool holds). Not in between: sizes of tens of millions of dollars
 * and more cost seconds to a minute each on this snapshot (the failing latency
 * tests in getQuote.errors.test.ts), which would turn this property into a
 * benchmark.
 */
const amountOf$ = (chainId: number, token: Address) => {
  const decimals = decimalsOf(chainId, token)
  const price = usdPrices.get(`${chainId}:${token}`) ?? 1
  const sized = fc.double({ min: -4, max: 6, noNaN: true }).map((log) => {
    const units = Math.floor((10 ** log / price) * 10 ** decimals)
    return units >= 1 ? BigInt(units) : 1n
  })
  return fc.oneof(
    { weight: 12, arbitrary: sized },
    { weight: 2, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
    { weight: 1, arbitrary: fc.oneof(fc.bigInt({ min: 10n ** 40n, max: LIMIT - 1n }), fc.constant(LIMIT - 1n)) },
  )
}

const JUNK_NUMBERS = [Number.NaN, Infinity, -Infinity, -0, 0.5, 1.5, -1, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE] as const
/** Values of the wrong type or range for any field. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...JUNK_NUMBERS, null, true, '', ' ', '1', '1e18', '0x10', '８４５３', 'Ξ', '\u0000', '__proto__', [], {}, Symbol('s'), () => 1n),
  fc.bigInt({ min: -(LIMIT * 4n), max: LIMIT * 4n }),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.anything({ maxDepth: 1 }),
)

const feeRecipient = randomAddress
const intentFields = [
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
  'appId',
] as const

/** A well-formed intent for an active chain (tokens may still be equal, foreign or unknown to the snapshot). */
const wellFormedIntent = fc.constantFrom(1, 8453).chain((chainId) =>
  fc
    .record({
      tokens: fc.oneof(
        { weight: 7, arbitrary: fc.tuple(tokenFor(chainId), tokenFor(chainId)) },
        // Wrap and unwrap (native <-> wrapped native): the one route with no pool.
        { weight: 1, arbitrary: fc.constantFrom<[Address, Address]>([NATIVE, chains[chainId]!.wrappedNative.address], [chains[chainId]!.wrappedNative.address, NATIVE]) },
      ),
      kind: fc.constantFrom<'exactIn' | 'exactOut'>('exactIn', 'exactOut'),
      slippageBps: fc.option(fc.oneof(fc.integer({ min: 0, max: 10000 }), fc.constantFrom(0, 1, 50, 100, 9999, 10000)), { nil: undefined }),
      priceImpactLimitBps: fc.option(fc.oneof(fc.integer({ min: 0, max: 10000 }), fc.constantFrom(0, 10, 100, 1000, 10000)), { nil: undefined }),
      receiver: fc.option(randomAddress, { nil: undefined }),
      fee: fc.option(fc.tuple(fc.integer({ min: 0, max: 1000 }), feeRecipient), { nil: undefined }),
      referral: fc.option(fc.tuple(fc.integer({ min: 0, max: 1000 }), feeRecipient), { nil: undefined }),
      surplus: fc.option(fc.tuple(fc.integer({ min: 0, max: 10000 }), feeRecipient), { nil: undefined }),
      appId: fc.option(fc.oneof(fc.constantFrom('wallet', 'bot'), fc.stringMatching(/^[\x20-\x7e]{1,16}$/)), { nil: undefined }),
    })
    .chain((r) => {
      const [sellToken, buyToken] = r.tokens
      const amountToken = (r.kind === 'exactIn' ? sellToken : buyToken).toLowerCase() as Address
      return amountOf$(chainId, amountToken).map((amount) => {
        const intent: Record<string, unknown> = { chainId, sellToken, buyToken }
        intent[r.kind === 'exactIn' ? 'sellAmount' : 'buyAmount'] = amount
        if (r.slippageBps !== undefined) intent.slippageBps = r.slippageBps
        if (r.priceImpactLimitBps !== undefined) intent.priceImpactLimitBps = r.priceImpactLimitBps
        if (r.receiver !== undefined) intent.receiver = r.receiver
        if (r.fee) [intent.feeBps, intent.feeRecipient] = r.fee
        if (r.referral) [intent.referralFeeBps, intent.referralFeeRecipient] = r.referral
        if (r.surplus) [intent.surplusFeeBps, intent.surplusFeeRecipient] = r.surplus
        if (r.appId !== undefined) intent.appId = r.appId
        return intent
      })
    }),
)

/** One hostile change to an intent: a junk value, a field dropped, or a value just past a rule. */
const mutation: fc.Arbitrary<(intent: Record<string, unknown>) => void> = fc.oneof(
  fc.tuple(fc.constantFrom(...intentFields), junk).map(([field, value]) => (i: Record<string, unknown>) => {
    i[field] = value
  }),
  fc.constantFrom(...intentFields).map((field) => (i: Record<string, unknown>) => {
    delete i[field]
  }),
  fc.constantFrom<(i: Record<string, unknown>) => void>(
    (i) => (i.chainId = 42161),
    (i) => (i.chainId = 10),
    (i) => (i.chainId = '8453'),
    (i) => (i.chainId = 8453n),
    (i) => (i.receiver = NATIVE),
    (i) => (i.buyToken = i.sellToken),
    (i) => (i.sellAmount = i.buyAmount ?? 1n),
    (i) => (i.buyAmount = 0n),
    (i) => (i.sellAmount = -1n),
    (i) => (i.sellAmount = LIMIT),
    (i) => (i.sellAmount = 1e18),
    (i) => (i.sellAmount = '1000000'),
    (i) => (i.feeBps = 1001),
    (i) => (i.feeBps = 10),
    (i) => (i.surplusFeeBps = 10001),
    (i) => (i.referralFeeRecipient = NATIVE),
    (i) => (i.feeRecipient = '0xabc'),
    (i) => (i.slippageBps = 10001),
    (i) => (i.priceImpactLimitBps = -1),
    (i) => (i.slippageBps = Number.NaN),
    (i) => (i.appId = ''),
    (i) => (i.appId = 'é'),
  ),
)

/** A typed intent as a host builds it: well-formed three times in four, otherwise with one to three hostile changes. */
const typedIntent = fc
  .tuple(wellFormedIntent, fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) }))
  .map(([intent, changes]) => {
    const copy = { ...intent }
    for (const change of changes) change(copy)
    return copy
  })

// Host options: sane ones, and junk ones for a separate property.
const FIXED_NOW = Date.UTC(2026, 0, 1)
const saneOptions: fc.Arbitrary<GetQuoteOptions> = fc.record(
  {
    maxHops: fc.constantFrom(1, 2, 3, 4),
    gasPriceWei: fc.constantFrom(0n, 1n, 10n ** 9n, 300n * 10n ** 9n),
    nativePriceInBuyToken: fc.constantFrom<number | string>(0, '0.0003', 3000, '3012.5', '1e9'),
    families: fc.constantFrom<readonly PoolFamily[]>(defaultFamilies, [uniswapV2Family] as PoolFamily[], [uniswapV3Family] as PoolFamily[]),
    id: fc.constantFrom('0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b', '0190A5B2-7C3D-7E4F-8A1B-2C3D4E5F6A7B', '9b2e4c1a-0d3f-4a5b-9c8d-7e6f5a4b3c2d'),
    now: fc.constant(() => FIXED_NOW),
    sender: randomAddress,
    apps: fc.constant<Record<string, AppConfig>>({
      wallet: { feeBps: 25, feeRecipient: '0x00000000000000000000000000000000000a0001' },
      bot: { serviceFeeBps: 2.5 },
    }),
  },
  { requiredKeys: [] },
)
/** Options a host should not pass, short of ones that only make the search slow (see the report in the errors test). */
const junkOptions = fc.record(
  {
    maxHops: fc.constantFrom<unknown>(0, -1, Number.NaN, 1.5, '2', null),
    // Not negative: a negative gas price makes gas a bonus, and the router then
    // (as told) adds paths that carry 1 wei for 0 out. Not a crash, not a quote to check.
    gasPriceWei: fc.constantFrom<unknown>(10n ** 30n, 0, '1', null),
    nativePriceInBuyToken: fc.constantFrom<unknown>(-1, '-1', Number.NaN, Number.POSITIVE_INFINITY, '1e400', 'abc', '', 1n, null, {}),
    families: fc.constantFrom<unknown>([], [uniswapV2Family, uniswapV2Family], undefined),
    id: fc.constantFrom<unknown>('', 'not-a-uuid', 42, null),
    now: fc.constantFrom<unknown>(() => -1, () => 2 ** 60, () => Number.NaN, undefined),
    sender: fc.constantFrom<unknown>(NATIVE, 'nope', undefined),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<GetQuoteOptions>

/** A query-string record (what a server hands parseQuoteParams): well-formed strings, sometimes one hostile value. */
const queryRecord = fc
  .tuple(
    wellFormedIntent,
    fc.nat({ max: 2 }),
    fc.option(
      fc.tuple(
        fc.constantFrom(...intentFields.filter((f) => f !== 'appId'), 'x-app-id', '__proto__', 'constructor'),
        fc.oneof(
          fc.constantFrom<unknown>('', ' 1', '1 ', '+1', '-0', '-1', '1.0', '1e3', '0x1f', '٣', 'NaN', '10001', '0', ['1', '2'], [], null, 7, `0x${'0'.repeat(40)}`),
          fc.string({ unit: 'grapheme', maxLength: 8 }),
        ),
      ),
      { nil: undefined, freq: 4 },
    ),
  )
  .map(([intent, zeros, hostile]) => {
    const record: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(intent)) {
      const name = key === 'appId' ? 'x-app-id' : key
      record[name] = typeof value === 'bigint' ? `${'0'.repeat(zeros)}${value}` : String(value)
    }
    if (hostile) Object.defineProperty(record, hostile[0], { value: hostile[1], enumerable: true, configurable: true, writable: true })
    return record
  })

// ---------- properties ----------

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
const stats = { quotes: 0, errors: new Map<number, number>() }
const tally = (outcome: Outcome) => {
  if (outcome.quote) stats.quotes++
  else stats.errors.set(outcome.error.statusCode, (stats.errors.get(outcome.error.statusCode) ?? 0) + 1)
}

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled)
})
afterAll(async () => {
  // Give any stray rejection a turn of the event loop to surface.
  await new Promise((resolve) => setTimeout(resolve, 10))
  process.off('unhandledRejection', onUnhandled)
  expect(unhandled).toEqual([])
  console.log(`getQuote properties: ${stats.quotes} quotes, errors by status ${stringify(Object.fromEntries(stats.errors))}`)
})

describe('the validator', () => {
  test('accepts real quotes and rejects each kind of tampering', async () => {
    const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
    const intent: QuoteIntent = {
      chainId: 8453,
      sellToken: USDC,
      buyToken: NATIVE,
      sellAmount: 3_000_000_000_000n,
      feeBps: 30,
      feeRecipient: '0x000000000000000000000000000000000000fee1',
      referralFeeBps: 7,
      referralFeeRecipient: '0x000000000000000000000000000000000000fee2',
    }
    const context: Context = { n: normalizeIntent(intent), options: {} }
    const quote = await getQuote(intent, source)
    expect(quote.fees).toHaveLength(2)
    expect(quote.route.swaps.length).toBeGreaterThan(1)
    expect(quote.route.swaps.some((path) => path.length > 1)).toBe(true)
    validateQuote(quote, context)

    const bump = (s: string, by = 1n) => (BigInt(s) + by).toString()
    const tamperings: Record<string, (q: Quote) => void> = {
      'amountOut below minimum': (q) => (q.amountOut = bump(q.minimumAmountOut, -1n)),
      'minimumAmountOut off by one': (q) => (q.minimumAmountOut = bump(q.minimumAmountOut)),
      'a dec_string with a sign': (q) => (q.transaction.value = '+0'),
      'a hop that does not chain': (q) => {
        const path = q.route.swaps.find((p) => p.length > 1)!
        path[1]!.amountIn = bump(path[1]!.amountIn)
      },
      'a path through a token twice': (q) => q.route.swaps[0]!.push({ ...q.route.swaps[0]![0]!, tokenIn: q.route.swaps[0]![0]!.tokenOut, amountIn: q.route.swaps[0]![0]!.amountOut }),
      'route.amountIn not the sum of first hops': (q) => (q.route.amountIn = bump(q.route.amountIn)),
      'route.amountOut not the sum of last hops': (q) => (q.route.swaps[1]![q.route.swaps[1]!.length - 1]!.amountOut = bump(q.route.swaps[1]![q.route.swaps[1]!.length - 1]!.amountOut)),
      'a fee off by one': (q) => (q.fees[0]!.amount = bump(q.fees[0]!.amount)),
      'fees in the wrong order': (q) => q.fees.reverse(),
      'a zero fee listed': (q) => q.fees.push({ ...q.fees[0]!, amount: '0' }),
      'approval missing for ERC-20 input': (q) => (q.approval = null),
      'approval for a different amount': (q) => (q.approval!.amount = bump(q.approval!.amount)),
      'value sent with ERC-20 input': (q) => (q.transaction.value = '1'),
      'an uppercase address': (q) => (q.tokens[0]!.address = q.tokens[0]!.address.toUpperCase().replace('0X', '0x') as Address),
      'a UUID v4 id': (q) => (q.id = '9b2e4c1a-0d3f-4a5b-9c8d-7e6f5a4b3c2d'),
      'impact with 3 decimals': (q) => (q.priceImpactBps = 1.234),
      'an extra field': (q) => Object.assign(q, { extra: 1 }),
      'a bigint left in': (q) => Object.assign(q, { gasEstimate: 1n }),
      'a wrong price': (q) => (q.price = (q.price ?? 1) * 1.001),
    }
    for (const [name, tamper] of Object.entries(tamperings)) {
      const copy = structuredClone(quote)
      tamper(copy)
      expect(() => validateQuote(copy, context), name).toThrow(Violation)
    }
  })
})

describe('getQuote on random and hostile typed intents', () => {
  test('a valid Quote or a QuoteError consistent with normalizeIntent, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(typedIntent, async (intent) => {
        tally(await checkCall(intent))
      }),
      { numRuns: 2000 },
    )
  })

  test('the same, with random host options', async () => {
    await fc.assert(
      fc.asyncProperty(typedIntent, saneOptions, async (intent, options) => {
        tally(await checkCall(intent, options))
      }),
      { numRuns: 1000 },
    )
  })

  test('junk host options never escape as a non-QuoteError', async () => {
    await fc.assert(
      fc.asyncProperty(typedIntent, junkOptions, async (intent, options) => {
        tally(await checkCall(intent, options, { junkOptions: true }))
      }),
      { numRuns: 500 },
    )
  })

  test('anything at all as the intent is a 400/422', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything({ withBigInt: true, withNullPrototype: true, withObjectString: true }), async (intent) => {
        const outcome = await quoteOutcome(intent)
        check(outcome.error !== undefined && [400, 422].includes(outcome.error.statusCode), 'random data is refused as a bad request', outcome.quote?.id)
      }),
      { numRuns: 2000 },
    )
  })

  test('deterministic: the same intent, snapshot and injected clock and randomness give the same quote', async () => {
    await fc.assert(
      fc.asyncProperty(typedIntent, async (intent) => {
        const options: GetQuoteOptions = { now: () => FIXED_NOW, randomBytes: (length) => new Uint8Array(length).fill(7) }
        const a = await quoteOutcome(intent, options)
        const b = await quoteOutcome(intent, options)
        check(stringify(a.quote ?? a.error?.toJSON()) === stringify(b.quote ?? b.error?.toJSON()), 'both calls agree', [a.quote?.id, b.quote?.id])
      }),
      { numRuns: 200 },
    )
  })
})

describe('parseQuoteParams then getQuote on hostile query records', () => {
  test('a valid Quote or a QuoteError; the query\'s amount and app id reach the quote', async () => {
    const id = '0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b'
    await fc.assert(
      fc.asyncProperty(queryRecord, async (record) => {
        let intent: QuoteIntent
        try {
          intent = parseQuoteParams(record)
        } catch (error) {
          const e = validateError(error)
          check(e.statusCode === 400 || e.statusCode === 422, 'parseQuoteParams refuses with 400/422', e.toJSON())
          return
        }
        const outcome = await checkCall(intent, { id })
        tally(outcome)
        if (!outcome.quote) return
        const amountKey = 'sellAmount' in intent ? 'sellAmount' : 'buyAmount'
        const asked = BigInt(record[amountKey] as string)
        if (amountKey === 'sellAmount') check(outcome.quote.amountIn === asked.toString(), 'sellAmount is the quote amountIn', [record.sellAmount, outcome.quote.amountIn])
        else check(BigInt(outcome.quote.amountOut) >= asked, 'buyAmount is reached', [record.buyAmount, outcome.quote.amountOut])
        const header = record['x-app-id']
        check(outcome.quote.appId === (typeof header === 'string' ? header : null), 'x-app-id is the quote appId', outcome.quote.appId)
      }),
      { numRuns: 1500 },
    )
  })
})
