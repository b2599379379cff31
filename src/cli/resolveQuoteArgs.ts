import type { ChainConfig, TokenInfo } from '../chains/types.js'
import { type ParamIssue, QuoteError, invalidParams } from '../errors/QuoteError.js'
import { paramMessages } from '../quote/normalizeIntent.js'
import { parseQuoteParams, quoteParamForms } from '../quote/parseQuoteParams.js'
import type { QuoteIntent } from '../quote/types.js'
import { toRawAmount } from './amounts.js'
import { findChain } from './chainNames.js'
import { CliUsageError, type CliOptionSpec } from './parseCliArgs.js'
import { type ChainTokenList, type ResolvedToken, getTokenBook, resolveToken } from './tokenBook.js'

/** The spec's query parameters (and `x-app-id`), each also a `weft quote` option under its own name. */
const specParams = Object.keys(quoteParamForms) as (keyof typeof quoteParamForms)[]

/** The options of `weft quote`. */
export const quoteOptionSpec: CliOptionSpec = {
  chain: 'string',
  sell: 'string',
  buy: 'string',
  amount: 'string',
  'buy-amount': 'string',
  'app-id': 'string',
  rpc: 'string',
  simulate: 'boolean',
  from: 'string',
  json: 'boolean',
  help: 'boolean',
  watch: 'boolean',
  'from-block': 'string',
  interval: 'string',
  blocks: 'string',
  record: 'string',
  ...Object.fromEntries(specParams.map((p) => [p, 'string' as const])),
}

/** CLI-friendly options and the spec parameter each stands for; giving both is a usage error. */
const aliases = [
  ['chain', 'chainId'],
  ['sell', 'sellToken'],
  ['buy', 'buyToken'],
  ['amount', 'sellAmount'],
  ['buy-amount', 'buyAmount'],
  ['app-id', 'x-app-id'],
] as const

/** The amount options; exactly one must be given. */
const amountOptions = ['amount', 'sellAmount', 'buy-amount', 'buyAmount'] as const

export type ResolveQuoteArgsOptions = {
  /** The chain registry (`resolveChains()`). */
  chains: readonly ChainConfig[]
  /** Token metadata known without a node (the embedded snapshot's), for symbols and decimals. */
  tokenLists?: readonly ChainTokenList[]
  /**
   * Decimals of a token the book does not list, when the CLI can read them
   * (with `--rpc`); `undefined` when unknown. Only called for a human amount.
   */
  getDecimals?: (chain: ChainConfig, address: string) => Promise<number | undefined>
}

/** A `weft quote` command line as a quote request. */
export type QuoteArgs = {
  /** The chain the request names (in the registry; `parseQuoteParams` refuses a planned one). */
  chain: ChainConfig
  /** The request as query parameters under the spec's names (what `GET /v1/quote` would receive). */
  params: Record<string, string>
  /** The validated intent: `parseQuoteParams(params)`. */
  intent: QuoteIntent
  /** Tokens known on the chain (for symbols in the summary); empty without a chain. */
  tokens: TokenInfo[]
}

/**
 * Maps the option values of `weft quote` to a quote intent: `--chain` to
 * `chainId`, `--sell`/`--buy` symbols to addresses, `--amount`/`--buy-amount`
 * from human units with the token's decimals, every spec-named option passed
 * on as given, then `parseQuoteParams` applies the quote rules.
 *
 * A missing chain, token or amount, or an option given under both of its
 * names, is a {@link CliUsageError}; wrong values are `QuoteError`s (400/422).
 *
 * @example
 * const { intent } = await resolveQuoteArgs(
 *   { chain: 'base', sell: 'WETH', buy: 'USDC', amount: '1.5' },
 *   { chains: defaultChains, tokenLists: defaultSnapshot },
 * )
 * intent.sellAmount // 1500000000000000000n
 */
export async function resolveQuoteArgs(values: Readonly<Record<string, string | true>>, options: ResolveQuoteArgsOptions): Promise<QuoteArgs> {
  const text = (name: string): string | undefined => {
    const value = values[name]
    return typeof value === 'string' ? value : undefined
  }
  for (const [cli, spec] of aliases)
    if (text(cli) !== undefined && text(spec) !== undefined) throw new CliUsageError(`give --${cli} or --${spec}, not both`)
  if (text('chain') === undefined && text('chainId') === undefined) throw new CliUsageError('missing --chain')
  if (text('sell') === undefined && text('sellToken') === undefined) throw new CliUsageError('missing --sell (the token to sell)')
  if (text('buy') === undefined && text('buyToken') === undefined) throw new CliUsageError('missing --buy (the token to buy)')
  const amounts = amountOptions.filter((name) => text(name) !== undefined)
  if (amounts.length !== 1)
    throw new CliUsageError(
      amounts.length === 0
        ? 'missing the amount: --amount (to sell) or --buy-amount (to buy)'
        : `give one amount, not ${amounts.map((a) => `--${a}`).join(' and ')}`,
    )

  const params: Record<string, string> = {}
  for (const name of specParams) {
    const value = text(name)
    if (value !== undefined) params[name] = value
  }
  const appId = text('app-id')
  if (appId !== undefined) params['x-app-id'] = appId

  // --chain takes names and ids; --chainId only ids, as the API does.
  const chainText = text('chain')
  const chain =
    chainText !== undefined
      ? findChain(options.chains, chainText)
      : options.chains.find((c) => String(c.id) === params.chainId?.replace(/^0+(?=.)/, ''))
  if (chain === undefined) {
    const known = /^[0-9]+$/.test(params.chainId ?? '')
    throw invalidParams([{ param: 'chainId', message: known ? paramMessages.chainUnknown : paramMessages.chainIdForm }])
  }
  params.chainId = String(chain.id)

  const tokens = getTokenBook(chain, options.tokenLists)
  // Each bad value is reported, not only the first: the same shape as parseQuoteParams' details.
  const issues: ParamIssue[] = []
  const attempt = async <T>(step: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await step()
    } catch (error) {
      if (!(error instanceof QuoteError) || error.details === null) throw error
      issues.push(...error.details)
      return undefined
    }
  }
  const sell = await attempt(() => resolveToken(tokens, (text('sell') ?? text('sellToken'))!, 'sellToken', chain.name))
  const buy = await attempt(() => resolveToken(tokens, (text('buy') ?? text('buyToken'))!, 'buyToken', chain.name))
  const human = async (param: 'amount' | 'buy-amount', token: ResolvedToken): Promise<string> => {
    const decimals = token.decimals ?? (await options.getDecimals?.(chain, token.address))
    if (decimals === undefined)
      throw invalidParams([
        {
          param,
          message: `needs the decimals of ${token.address}, which are not known on ${chain.name}; give the raw amount (--${param === 'amount' ? 'sellAmount' : 'buyAmount'}) or --rpc`,
        },
      ])
    return toRawAmount(text(param)!, decimals, param, token.symbol)
  }
  const sellAmount = sell && text('amount') !== undefined ? await attempt(() => human('amount', sell)) : undefined
  const buyAmount = buy && text('buy-amount') !== undefined ? await attempt(() => human('buy-amount', buy)) : undefined
  if (issues.length > 0) throw invalidParams(issues)
  params.sellToken = sell!.address
  params.buyToken = buy!.address
  if (sellAmount !== undefined) params.sellAmount = sellAmount
  if (buyAmount !== undefined) params.buyAmount = buyAmount

  return { chain, params, intent: parseQuoteParams(params, { chains: options.chains }), tokens }
}
