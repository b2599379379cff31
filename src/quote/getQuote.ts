import { type Address, getAddress, isAddress, zeroAddress } from 'viem'
import { type ChainsOption, findActiveChain, resolveChains } from '../chains/registry.js'
import type { ChainConfig } from '../chains/types.js'
import { QuoteError, hostError, noRoute, toQuoteError, unavailable, unprocessableParams } from '../errors/QuoteError.js'
import { buildFillCalldata } from '../executor/buildFillCalldata.js'
import { buildFillPaths } from '../executor/buildFillPaths.js'
import { DEFAULT_DEADLINE_SECONDS, MAX_DEADLINE_SECONDS, getFillDeadline } from '../executor/fillDeadline.js'
import type { getExecutorAddress } from '../executor/getExecutorAddress.js'
import type { Liquidity, LiquidityReport, LiquiditySource, TokenMetadata } from '../liquidity/types.js'
import { defaultFamilies } from '../protocols/defaultFamilies.js'
import type { PoolFamily } from '../protocols/types.js'
import { findRoute, prepareRoute } from '../router/findRoute.js'
import { getBestSpotRate } from '../router/getBestSpotRate.js'
import { MAX_HOPS, type Plan, type RouteCertificate, type RouteParameters } from '../router/types.js'
import { countWarmSteps, estimateFillGas } from './estimateGas.js'
import { type AppConfig, type FeePlan, afterFees, buildFeePlan, feeAmounts, getFeeSide } from './fees.js'
import { normalizeIntentWith } from './normalizeIntent.js'
import { buildPools } from './buildPools.js'
import { describeTokens } from './describeTokens.js'
import { getNativeRate, parseNativePrice } from './nativePrice.js'
import { type PairIndex, getPriceUsd } from './prices.js'
import { leastWith, solveExactOut } from './solveExactOut.js'
import { afterTransferFee } from '../protocols/transferFee.js'
import type { NormalizedIntent, Quote, QuoteIntent, Swap, Token } from './types.js'
import { type RandomBytes, createUuidV7, isUuid, uuidToBytes16 } from './uuid.js'

/** Options of `getQuote`. Everything is optional; the defaults quote on the built-in chains. */
export type GetQuoteOptions = ChainsOption & {
  /** Pool families to route over (default: `defaultFamilies`, every family weft ships). Pools of other families are skipped. */
  families?: readonly PoolFamily[]
  /** Per-app fee configuration, by app id (`x-app-id`). */
  apps?: Readonly<Record<string, AppConfig>>
  /** Gas price (wei) for gas-aware routing; defaults to the source's, then the chain's. */
  gasPriceWei?: bigint
  /**
   * What one whole native token (1 ETH) is worth in whole buy tokens, as a decimal number or
   * string: `'3012.5'` buying USDC while ETH is at $3,012.50. Gas-aware routing charges each path
   * its gas × the gas price × this price. Given, it replaces the price weft reads from the pools (the
   * mid rate from the wrapped native token to the buy token), and it is the only way to price gas
   * when no pool path links the two: without either, the route is chosen gas-free. `0` routes
   * gas-free. Unused when the buy token is the native token or its wrapped token (worth one).
   * Anything but a finite, non-negative decimal is a 500 naming the option.
   *
   * @example
   * // Selling a token for a long-tail token no pool links to WETH: the host knows ETH is worth 1.2M of it.
   * await getQuote(intent, source, { gasPriceWei: 20_000_000_000n, nativePriceInBuyToken: '1200000' })
   */
  nativePriceInBuyToken?: number | string
  /** Longest path in hops, 1 to 6 (`MAX_HOPS`); default 4, the router's. */
  maxHops?: number
  /** A fixed quote id (UUID), for deterministic output. */
  id?: string
  /** Clock for the UUID v7 timestamp (ms). */
  now?: () => number
  /** Randomness for the UUID v7. */
  randomBytes?: RandomBytes
  /**
   * The address that will send the transaction, when the host knows it. Only
   * the gas estimate uses it (is the output paid into an empty balance?); the
   * transaction itself pays `msg.sender` whoever sends it.
   */
  sender?: Address
  /**
   * How long the transaction stays valid, in seconds after the quote is made (by `now`, else
   * `Date.now()`): the executor refuses the fill once a block's timestamp is past it (`Expired`).
   * Default 1800 (30 minutes); an integer from 1 to one year. A quote can be signed and sent long
   * after it is made; past its deadline it can no longer be executed on stale prices.
   */
  deadlineSeconds?: number
  /**
   * Called with what weft knows about the quote beyond its wire form: the router's optimality
   * certificate, how the executor will run the route, and the liquidity source's report. The
   * Quote itself is unchanged. The certificate is computed only when this is given (it is a solve
   * of its own over the candidates).
   */
  onDetails?: (details: QuoteDetails) => void
}

/**
 * What `getQuote` reports through `options.onDetails`, never part of the Quote.
 *
 * @example
 * let details: QuoteDetails | undefined
 * const quote = await getQuote(intent, source, { onDetails: (d) => (details = d) })
 * details?.certificate?.gapBps // how far the gas-free output may be from the optimum, in bps
 */
export type QuoteDetails = {
  /**
   * The router's certificate: an upper bound on the gas-free output any split over the candidate
   * paths could give, and the gap to it in bps. Null for a wrap or unwrap, or when no bound was found.
   */
  certificate: RouteCertificate | null
  /** How the executor runs the route: path after path, as a flow (each pool once), or a plain wrap. */
  execution: 'paths' | 'flow' | 'wrap'
  /** The liquidity source's report, plus the pools getQuote itself set aside (with why). */
  liquidity: LiquidityReport
}

/** What `getQuote` resolves to: the Quote of quote-api.md. */
export type GetQuoteReturnType = Quote

/** Everything `getQuote` can throw: only QuoteError. */
export type GetQuoteErrorType = QuoteError

const isNative = (token: Address) => token === zeroAddress

/**
 * Turns a swap intent into an exact, ready-to-sign fill plan: the route
 * (split across paths), fees, `minimumAmountOut`, the exact approval and the
 * executor transaction. Pure apart from the liquidity source's I/O; throws
 * only `QuoteError`. The transaction expires `options.deadlineSeconds` (default
 * 1800, 30 minutes) after the quote's clock, and each of its paths must deliver
 * its quoted output less `slippageBps`, or the executor reverts.
 *
 * @param intent What to trade. `chainId`; `sellToken` and `buyToken` (addresses, the zero address
 *   for the native token); exactly one of `sellAmount` (exact input) or `buyAmount` (exact output),
 *   in raw units; `slippageBps` (0..10000, default 100) sets `minimumAmountOut`;
 *   `priceImpactLimitBps` (0..10000, default 1000) turns a worse quote into a 400; `receiver`
 *   (default: whoever sends the transaction); fees, each a bps with its recipient: `feeBps` +
 *   `feeRecipient` and `referralFeeBps` + `referralFeeRecipient` (at most 1000 bps each),
 *   `surplusFeeBps` + `surplusFeeRecipient` (at most 10000: a share of surplus, and a service fee of
 *   surplusFeeBps / 1000 bps); `appId` picks `options.apps[appId]`. A bad field is a 400 or 422
 *   `QuoteError` naming it, before the liquidity source is asked anything.
 * @param liquiditySource Where pool states come from, read once per quote at one block:
 *   `createRpcSource` (a node), `createSnapshotSource` (a JSON snapshot) or your own `LiquiditySource`.
 * @param options Optional: `chains` (your own `ChainConfig`s, e.g. a devnet), `families`, `apps`,
 *   `gasPriceWei` and `nativePriceInBuyToken` (how gas is weighed), `maxHops`, `sender` (sharpens
 *   the gas estimate), `deadlineSeconds`, `onDetails` (certificate and liquidity report), and
 *   `id` / `now` / `randomBytes` for deterministic output.
 *   See {@link GetQuoteOptions}.
 * @returns The Quote of the wire spec; `JSON.stringify(quote)` is the `GET /v1/quote` body.
 * @throws {@link QuoteError} only: 400/422 for the intent, 404 when no route fills it, 503 when
 *   the liquidity source fails, 500 naming the option for a host's bad option or configuration.
 *
 * @example
 * import { getQuote, createSnapshotSource } from 'weft'
 * import { defaultSnapshot } from 'weft/default-snapshot'
 * const quote = await getQuote(
 *   { chainId: 8453, sellToken: '0x4200000000000000000000000000000000000006',
 *     buyToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', sellAmount: 10n ** 18n },
 *   createSnapshotSource(defaultSnapshot),
 * )
 * console.log(quote.amountOut, quote.transaction.to)
 */
export async function getQuote(
  intent: QuoteIntent,
  liquiditySource: LiquiditySource,
  options: GetQuoteOptions = {},
): Promise<GetQuoteReturnType> {
  try {
    const chains = resolveChains(options)
    const { getExecutorAddress } = await loadExecutorAddress()
    const request = normalizeIntentWith(intent, { chains }, getExecutorAddress)
    checkOptions(options)
    const chain = findActiveChain(chains, request.chainId)
    if (!chain) throw new QuoteError({ statusCode: 500, message: 'Internal error' }) // normalizeIntent rejects these
    return await quoteOn(chain, request, liquiditySource, options, getExecutorAddress)
  } catch (error) {
    throw toQuoteError(error)
  }
}

// The executor's init code (about 7 kB gzipped) is needed only to hash its CREATE2 address, so it
// loads with the first quote rather than with the page. The promise is kept: an import() per quote
// goes through the module loader (and its hooks) each time, 0.2 ms of a 10-pool quote under tsx. A
// failed load (a page's chunk request cut off) is not kept: the next quote tries again.
let executorModule: Promise<typeof import('../executor/getExecutorAddress.js')> | undefined
const loadExecutorAddress = () =>
  (executorModule ??= import('../executor/getExecutorAddress.js').catch((error: unknown) => {
    executorModule = undefined
    throw error
  }))

/** A host's options are its own data: a wrong one is a 500 naming it (decisions.md §3), never a crash. */
function checkOptions(options: GetQuoteOptions): void {
  const fail = (option: string, why: string): never => {
    throw hostError(`Invalid getQuote option ${option}: ${why}`)
  }
  if (options === null || typeof options !== 'object') fail('options', 'must be an object')
  const { gasPriceWei, nativePriceInBuyToken, maxHops, families, apps, id, now, randomBytes, sender } = options
  if (gasPriceWei !== undefined && (typeof gasPriceWei !== 'bigint' || gasPriceWei < 0n)) fail('gasPriceWei', 'must be a non-negative bigint')
  if (nativePriceInBuyToken !== undefined && parseNativePrice(nativePriceInBuyToken) === undefined)
    fail('nativePriceInBuyToken', 'must be a finite, non-negative decimal number or string')
  if (maxHops !== undefined && (!Number.isInteger(maxHops) || maxHops < 1 || maxHops > MAX_HOPS)) fail('maxHops', `must be an integer from 1 to ${MAX_HOPS}`)
  if (families !== undefined && !Array.isArray(families)) fail('families', 'must be an array of pool families')
  if (apps !== undefined && (apps === null || typeof apps !== 'object')) fail('apps', 'must be an object')
  if (id !== undefined && (typeof id !== 'string' || !isUuid(id))) fail('id', 'must be a UUID string')
  if (now !== undefined && typeof now !== 'function') fail('now', 'must be a function')
  if (randomBytes !== undefined && typeof randomBytes !== 'function') fail('randomBytes', 'must be a function')
  if (options.onDetails !== undefined && typeof options.onDetails !== 'function') fail('onDetails', 'must be a function')
  if (sender !== undefined && (typeof sender !== 'string' || !isAddress(sender, { strict: false }))) fail('sender', 'must be an address')
  const { deadlineSeconds } = options
  if (deadlineSeconds !== undefined && (!Number.isInteger(deadlineSeconds) || deadlineSeconds < 1 || deadlineSeconds > MAX_DEADLINE_SECONDS))
    fail('deadlineSeconds', `must be an integer from 1 to ${MAX_DEADLINE_SECONDS}`)
}

async function quoteOn(
  chain: ChainConfig,
  intent: NormalizedIntent,
  source: LiquiditySource,
  options: GetQuoteOptions,
  executorOf: typeof getExecutorAddress,
): Promise<Quote> {
  const weth = chain.wrappedNative.address
  const wrapped = (token: Address) => (isNative(token) ? weth : token)
  const tokenIn = wrapped(intent.sellToken)
  const tokenOut = wrapped(intent.buyToken)

  const side = getFeeSide(chain, tokenIn, tokenOut, isNative(intent.buyToken))
  const app = intent.appId ? options.apps?.[intent.appId] : undefined
  const feePlan = buildFeePlan(intent, chain, side, app)
  const feeToken = side === 'input' ? intent.sellToken : intent.buyToken
  const payee = intent.receiver ?? (options.sender ? (options.sender.toLowerCase() as Address) : null)
  const accounts = [
    ...(payee ? [{ token: intent.buyToken, account: payee }] : []),
    ...feePlan.shares.map((s) => ({ token: feeToken, account: s.recipient })),
  ]

  let liquidity: Liquidity
  try {
    liquidity = await source.getLiquidity({ chain, tokenIn, tokenOut, accounts })
  } catch (error) {
    if (error instanceof QuoteError) throw error
    throw unavailable('Liquidity source unavailable', error)
  }
  if (liquidity.chainId !== chain.id) throw unavailable(`Liquidity source has no state for chain ${chain.id}`)

  // The same token list (and, below, pool list) as the last quote reuses its description and pools.
  const metadata = describeTokens(chain, liquidity.tokens)
  const describe = (token: Address): TokenMetadata | undefined =>
    isNative(token) ? { address: zeroAddress, symbol: chain.nativeSymbol, decimals: 18, transferFeeBps: 0 } : metadata.get(token)
  const missing = (['sellToken', 'buyToken'] as const).filter((param) => !describe(intent[param]))
  if (missing.length > 0)
    throw unprocessableParams(missing.map((param) => ({ param, message: 'is a token the liquidity source cannot describe (no decimals)' })))
  // Fees on transfer by (wrapped) token; unknown ones never get here for the traded tokens, and
  // pools that would pass through one are dropped in buildPools.
  const transferFee = (token: Address): number => describe(token)?.transferFeeBps ?? 0
  const [feeIn, feeOut] = [transferFee(tokenIn), transferFee(tokenOut)]

  const { pools, unmeasured, pairs } = buildPools(chain, liquidity, options.families ?? defaultFamilies, metadata, describe)
  // A traded token with pools whose fee on transfer could not be measured is refused (fail
  // closed); one with no pools at all is simply not routable (404 below).
  const refused = (['sellToken', 'buyToken'] as const).filter((param) => unmeasured.has(wrapped(intent[param])))
  if (refused.length > 0)
    throw unprocessableParams(refused.map((param) => ({ param, message: 'is a token whose fee on transfer could not be determined' })))
  const connectors = chain.majorTokens
  // From the amount the user sends to what the paths route (the pull keeps the token's transfer
  // fee, input-side fees are taken on what arrived), and from what the paths produce to what the
  // receiver gets (output-side fees, then the token's transfer fee on the way out).
  const fees = {
    routedOf: (amountIn: bigint) => {
      const arrived = afterTransferFee(amountIn, feeIn)
      return side === 'input' ? afterFees(feePlan.shares, arrived) : arrived
    },
    netOf: (gross: bigint) => afterTransferFee(side === 'output' ? afterFees(feePlan.shares, gross) : gross, feeOut),
  }

  // Gas-aware routing values gas in raw output units: gas price x the native token's rate in tokenOut
  // (the host's price when given, else the pools' mid rate).
  const gasPrice = options.gasPriceWei ?? liquidity.gasPriceWei ?? chain.defaultGasPriceWei
  const tokenOutDecimals = describe(intent.buyToken)!.decimals
  const nativeRate = getNativeRate({ pairs, weth, tokenOut, tokenOutDecimals, connectors, hostPrice: options.nativePriceInBuyToken })
  const parameters: RouteParameters = {
    pools,
    tokenIn,
    tokenOut,
    connectors,
    maxHops: options.maxHops,
    gasCostInOutput: Number(gasPrice) * nativeRate,
  }

  let amountIn: bigint
  let plan: Plan | undefined
  if (tokenIn === tokenOut) {
    // Native <-> wrapped native: a 1:1 wrap or unwrap, no pool.
    amountIn = intent.kind === 'exactIn' ? intent.amount : leastWith((a) => fees.netOf(fees.routedOf(a)), intent.amount)
    const routed = fees.routedOf(amountIn)
    plan = { paths: [], segments: [], mode: 'paths', amountIn: routed, amountOut: routed, gas: 0n }
  } else if (intent.kind === 'exactIn') {
    amountIn = intent.amount
    const routed = fees.routedOf(amountIn)
    // The certificate is read through onDetails only: without it, the same plan uncertified (the
    // certificate is a solve of its own over the candidates, a fifth of a 10-pool quote's garbage).
    plan = routed <= 0n ? undefined : options.onDetails ? findRoute(parameters, routed) : prepareRoute(parameters, Number(routed)).search(routed)
  } else {
    const solved = solveExactOut(parameters, intent.amount, fees)
    amountIn = solved?.amountIn ?? 0n
    plan = solved?.plan
  }
  // Nothing a transaction can carry: an input of 2^256 or more (a huge exact output plus fees).
  if (!plan || plan.amountOut <= 0n || amountIn >= 1n << 256n) throw noRoute()

  const quote = assembleQuote({ chain, intent, liquidity, plan, amountIn, feePlan, describe, pairs, payee, options, feeIn, feeOut, executorOf })
  if (options.onDetails) {
    const details: QuoteDetails = {
      certificate: plan.paths.length === 0 ? null : (plan.certificate ?? certify(parameters, plan)),
      execution: plan.paths.length === 0 ? 'wrap' : plan.mode,
      liquidity: liquidity.report,
    }
    try {
      options.onDetails(details)
    } catch (error) {
      throw hostError('getQuote option onDetails threw', error)
    }
  }
  return quote
}

/**
 * A certificate for a plan the router did not certify itself (an exact-output search's final
 * split): the bound depends only on the pools and the routed input, so the router's bound for that
 * input holds, and the gap is measured against this plan's output.
 */
function certify(parameters: RouteParameters, plan: Plan): RouteCertificate | null {
  const bound = findRoute(parameters, plan.amountIn)?.certificate
  if (!bound || bound.upperBound <= 0n) return null
  const gapBps = (Number(bound.upperBound - plan.amountOut) / Number(bound.upperBound)) * 10_000
  return { ...bound, gapBps, pathsUsed: plan.paths.length }
}

type AssembleParameters = {
  chain: ChainConfig
  intent: NormalizedIntent
  liquidity: Liquidity
  plan: Plan
  amountIn: bigint
  feePlan: FeePlan
  describe: (token: Address) => TokenMetadata | undefined
  pairs: PairIndex
  /** Who receives the output, when known (the receiver, or the host-given sender). */
  payee: Address | null
  options: GetQuoteOptions
  /** Fees on transfer (bps) of the sell and buy tokens. */
  feeIn: number
  feeOut: number
  /** `getExecutorAddress`, loaded by getQuote on demand. */
  executorOf: typeof getExecutorAddress
}

function assembleQuote(parameters: AssembleParameters): Quote {
  const { chain, intent, liquidity, plan, amountIn, feePlan, describe, pairs, payee, options, feeIn, feeOut, executorOf } = parameters
  const { sellToken, buyToken } = intent
  const weth = chain.wrappedNative.address
  // Input-side fees are taken on what arrived of the input (all of it, unless the token keeps a
  // fee on transfer).
  const feeBase = feePlan.side === 'input' ? afterTransferFee(amountIn, feeIn) : plan.amountOut
  const feeTokenAddress = feePlan.side === 'input' ? sellToken : buyToken
  const shareAmounts = feeAmounts(feePlan.shares, feeBase)
  // What the executor sends the receiver, and what arrives (less a fee-on-transfer token's fee).
  const sendOut = feePlan.side === 'output' ? afterFees(feePlan.shares, plan.amountOut) : plan.amountOut
  const amountOut = afterTransferFee(sendOut, feeOut)
  // decisions.md §4: the hosted service's rounding (the slippage allowance rounds down, so the minimum rounds up).
  const minimumAmountOut = amountOut - (amountOut * BigInt(intent.slippageBps)) / 10_000n

  // One spot rate for both: price impact is measured against it, and `price` is it in human units.
  const spot = plan.paths.length === 0 ? 1 : getBestSpotRate(plan.paths.map((p) => p.path))
  const impact = priceImpact(plan, spot)
  const impactBps = Math.round(impact * 100) / 100
  if (impact > intent.priceImpactLimitBps)
    throw new QuoteError({
      statusCode: 400,
      message: `Price impact of ${impactBps} bps too high (limit = ${intent.priceImpactLimitBps} bps)`,
      details: null,
    })

  const sellMeta = describe(sellToken)!
  const buyMeta = describe(buyToken)!
  // One reading of the clock per quote: the id's timestamp and the deadline name the same moment.
  let clock: number
  try {
    clock = options.now?.() ?? Date.now()
  } catch (error) {
    throw hostError('getQuote option now threw', error)
  }
  if (!Number.isFinite(clock)) throw hostError('Invalid getQuote option now: must return a finite number of milliseconds')
  let id: string
  try {
    id = options.id !== undefined ? options.id.toLowerCase() : createUuidV7(clock, options.randomBytes)
  } catch (error) {
    throw error instanceof QuoteError ? error : hostError('getQuote option randomBytes threw', error)
  }
  const executor = chain.executor ?? executorOf(chain)
  // The caller's payees were refused by normalizeIntent (422); these come from the host's config.
  // The executor refuses them too (InvalidPayee): the payment would be stranded in it.
  if ([...feePlan.shares.map((s) => s.recipient), feePlan.surplusRecipient, feePlan.treasury].some((payee) => payee?.toLowerCase() === executor.toLowerCase()))
    throw hostError('Invalid host configuration: a fee recipient, surplus recipient or treasury is the executor')

  // On the wire the native token is the zero address at the route's ends (decisions.md §5), even
  // where the pool holds the wrapped token: the first swap's input of a native sale, the last
  // swap's output of a native purchase.
  const swaps: Swap[][] =
    plan.paths.length === 0
      ? [[wrapSwap(chain, sellToken, buyToken, plan.amountIn)]]
      : plan.paths.map((p) =>
          p.hops.map((h, index) => ({
            key: h.pool.key,
            address: h.pool.address,
            protocol: h.pool.protocol,
            fork: h.pool.fork,
            tokenIn: index === 0 ? sellToken : h.tokenIn,
            tokenOut: index === p.hops.length - 1 ? buyToken : h.tokenOut,
            amountIn: h.amountIn.toString(),
            amountOut: h.amountOut.toString(),
          })),
        )

  const data = buildFillCalldata({
    id: uuidToBytes16(id),
    tokenIn: sellToken,
    tokenOut: buyToken,
    amountIn,
    // The executor compares what it holds for the receiver with this, before the transfer.
    amountOut: sendOut,
    minAmountOut: minimumAmountOut,
    receiver: intent.receiver,
    deadline: getFillDeadline(clock, options.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
    feeOnOutput: feePlan.side === 'output',
    fees: feePlan.shares,
    surplusRecipient: feePlan.surplusRecipient,
    surplusBps: feePlan.surplusBps,
    treasury: feePlan.treasury,
    // Per-path minimums from the quote and the slippage; paths through unlisted tokens last.
    paths: buildFillPaths(plan, { chain, slippageBps: intent.slippageBps, sellToken, buyToken }),
  })
  // Payments the fill makes, each into an empty or a funded balance (unknown counts as empty).
  // Native sent to the transaction's sender (unnamed, or named by options.sender) never creates
  // an account: the sender's account exists, its nonce raised before the call runs, whatever the
  // liquidity source knows of its balance.
  const sender = options.sender?.toLowerCase()
  const funded = (token: Address, account: Address | null) =>
    (isNative(token) && (account === null || account.toLowerCase() === sender)) ||
    (liquidity.balances ?? []).some((b) => b.token === token && b.account === account && b.balance > 0n)
  const payments = [
    { native: isNative(buyToken), funded: funded(buyToken, payee) },
    ...feePlan.shares
      .filter((_, i) => shareAmounts[i]! > 0n)
      .map((s) => ({ native: isNative(feeTokenAddress), funded: funded(feeTokenAddress, s.recipient) })),
  ]
  const gasEstimate = estimateFillGas({
    data,
    stepGas: plan.gas,
    ...countWarmSteps(plan.segments.flatMap((segment) => segment.hops)),
    nativeOut: isNative(buyToken),
    payments,
  })

  // Tokens: the sell and buy tokens, then every address the route names (decisions.md §5), so a
  // client's route graph has a node for each; the wrapped native token only where a swap names it.
  const tokenAddresses: Address[] = [sellToken, buyToken]
  for (const path of swaps) for (const swap of path) tokenAddresses.push(swap.tokenIn, swap.tokenOut)
  const stables = chain.usdStablecoins.map((a) => describe(a)).filter((t): t is TokenMetadata => t !== undefined)
  const seen = new Set<Address>()
  const tokens: Token[] = []
  for (const address of tokenAddresses) {
    if (seen.has(address)) continue
    seen.add(address)
    const meta = describe(address)
    if (!meta) continue
    const priced = isNative(address) ? weth : address
    tokens.push({
      address,
      symbol: meta.symbol,
      decimals: meta.decimals,
      transferFeeBps: meta.transferFeeBps ?? 0,
      priceUsd: getPriceUsd(pairs, priced, meta.decimals, stables, chain.majorTokens),
    })
  }

  const fees = feePlan.shares
    .map((share, i) => ({ token: feeTokenAddress, amount: shareAmounts[i]!, recipient: share.recipient }))
    .filter((f) => f.amount > 0n)
    .map((f) => ({ ...f, amount: f.amount.toString() }))

  return {
    blockNumber: liquidity.blockNumber,
    amountIn: amountIn.toString(),
    amountOut: amountOut.toString(),
    minimumAmountOut: minimumAmountOut.toString(),
    price: displayPrice(spot, sellMeta.decimals, buyMeta.decimals),
    priceImpactBps: impactBps,
    description: describeRoute(sellToken, buyToken, swaps),
    tokens,
    route: { swaps, amountIn: plan.amountIn.toString(), amountOut: plan.amountOut.toString() },
    approval: isNative(sellToken) ? null : { token: sellToken, amount: amountIn.toString(), spender: executor },
    transaction: { to: executor, data, value: isNative(sellToken) ? amountIn.toString() : '0' },
    gasEstimate: Number(gasEstimate),
    fees,
    id,
    appId: intent.appId,
  }
}

/**
 * Price impact in bps (decisions.md §4): 1 - gross output / (routed input x
 * the best zero-size, fee-free rate among the paths used), floored at 0.
 */
function priceImpact(plan: Plan, spot: number): number {
  if (plan.paths.length === 0 || plan.amountIn === 0n) return 0
  if (!(spot > 0)) return 0
  const impact = 10_000 * (1 - Number(plan.amountOut) / (Number(plan.amountIn) * spot))
  return impact > 0 ? impact : 0
}

/**
 * `price` (decisions.md §4): the spot rate price impact is measured against, in whole tokens of
 * output per whole token of input, so that a client's `1 - execution rate / price` is the price
 * impact. Null when no path has a finite positive spot rate.
 */
function displayPrice(spot: number, decimalsIn: number, decimalsOut: number): number | null {
  const price = spot * 10 ** (decimalsIn - decimalsOut)
  return Number.isFinite(price) && price > 0 ? price : null
}

function wrapSwap(chain: ChainConfig, sellToken: Address, buyToken: Address, amount: bigint): Swap {
  const weth = chain.wrappedNative.address
  return {
    key: weth,
    address: weth,
    protocol: 'Wrapped Native',
    fork: chain.wrappedNative.symbol,
    tokenIn: sellToken,
    tokenOut: buyToken,
    amountIn: amount.toString(),
    amountOut: amount.toString(),
  }
}

/**
 * The route in words, as the hosted service writes it (decisions.md §8): one path is
 * `Swap <amountIn> x <tokenIn> -> <tokenOut> via <key>`; several are `[Route 1] Swap …; [Route 2]
 * with …`. A path of several hops names the tokens between and every pool's key. Token addresses
 * are EIP-55 checksummed; keys stay as the route writes them.
 */
function describeRoute(sellToken: Address, buyToken: Address, swaps: Swap[][]): string {
  const several = swaps.length > 1
  return swaps
    .map((path, index) => {
      const tokens = [sellToken, ...path.slice(0, -1).map((swap) => swap.tokenOut), buyToken].map((token) => getAddress(token))
      const via = path.map((swap) => swap.key).join(', ')
      const text = `${index === 0 ? 'Swap' : 'with'} ${path[0]!.amountIn} x ${tokens.join(' -> ')} via ${via}`
      return several ? `[Route ${index + 1}] ${text}` : text
    })
    .join('; ')
}
