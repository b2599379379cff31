// The CLI's pure parts on real quotes of the embedded snapshot: the route tree
// (one branch per path, shares adding up to 100.00%, one line per swap with its
// pool, fee tier and amounts), the summary, amount conversion, token and chain
// names, the argument parser and the argument-to-intent mapping.
import fc from 'fast-check'
import { type Address, formatUnits, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { findChain, getChainSlug } from '../../src/cli/chainNames.js'
import { formatAmount, toRawAmount } from '../../src/cli/amounts.js'
import { formatChains } from '../../src/cli/formatChains.js'
import { formatShare, getShares } from '../../src/cli/formatParts.js'
import { formatQuote } from '../../src/cli/formatQuote.js'
import { formatRouteTree } from '../../src/cli/formatRouteTree.js'
import { CliUsageError, parseCliArgs } from '../../src/cli/parseCliArgs.js'
import { getFeeTiers, recordLiquidity } from '../../src/cli/recordLiquidity.js'
import { quoteOptionSpec, resolveQuoteArgs } from '../../src/cli/resolveQuoteArgs.js'
import { getTokenBook, resolveToken } from '../../src/cli/tokenBook.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import {
  type ChainConfig,
  type Quote,
  type QuoteIntent,
  type TokenInfo,
  QuoteError,
  base,
  createSnapshotSource,
  defaultChains,
  ethereum,
  getQuote,
  listChains,
  parseQuoteParams,
} from '../../src/index.js'
import { parseRouteTree } from './routeTree.js'

const QUOTE_ID = '01a2159a-0000-7000-8000-000000000000'
const INTEGRATOR: Address = '0x1111111111111111111111111111111111111111'
const REFERRER: Address = '0x2222222222222222222222222222222222222222'
const SURPLUS: Address = '0x3333333333333333333333333333333333333333'
const TREASURY: Address = '0x4444444444444444444444444444444444444444'

const chainById = new Map(defaultChains.map((c) => [c.id, c]))
const bookOf = (chain: ChainConfig) => getTokenBook(chain, defaultSnapshot)

/** The address of a symbol on a chain, looked up in the chain config and snapshot directly (not through the CLI). */
function addressOf(chain: ChainConfig, symbol: string): Address {
  if (symbol === chain.nativeSymbol) return zeroAddress
  const snapshot = defaultSnapshot.find((s) => s.chainId === chain.id)!
  const token = [...chain.tokens, ...snapshot.tokens].find((t) => t.symbol === symbol)
  if (!token) throw new Error(`no ${symbol} on ${chain.name}`)
  return token.address
}

type Case = { name: string; chain: ChainConfig; sell: string; buy: string; sellAmount?: bigint; buyAmount?: bigint; extra?: Partial<QuoteIntent> }

const cases: Case[] = [
  { name: '1.5 WETH -> USDC on Base', chain: base, sell: 'WETH', buy: 'USDC', sellAmount: 15n * 10n ** 17n },
  {
    name: '250,000 USDC -> ETH on Base, with fees',
    chain: base,
    sell: 'USDC',
    buy: 'ETH',
    sellAmount: 250_000n * 10n ** 6n,
    extra: { feeBps: 20, feeRecipient: INTEGRATOR, referralFeeBps: 5, referralFeeRecipient: REFERRER, surplusFeeBps: 5000, surplusFeeRecipient: SURPLUS },
  },
  { name: '100,000 AERO -> DEGEN on Base', chain: base, sell: 'AERO', buy: 'DEGEN', sellAmount: 100_000n * 10n ** 18n },
  { name: '40 ETH -> cbBTC on Base', chain: base, sell: 'ETH', buy: 'cbBTC', sellAmount: 40n * 10n ** 18n },
  { name: '1 ETH -> WETH on Base (wrap)', chain: base, sell: 'ETH', buy: 'WETH', sellAmount: 10n ** 18n },
  { name: 'PEPE -> 1,000 LINK on Ethereum (exact output)', chain: ethereum, sell: 'PEPE', buy: 'LINK', buyAmount: 1000n * 10n ** 18n },
  { name: '2,000 WETH -> USDC on Ethereum', chain: ethereum, sell: 'WETH', buy: 'USDC', sellAmount: 2000n * 10n ** 18n },
  { name: '50,000 UNI -> WBTC on Ethereum', chain: ethereum, sell: 'UNI', buy: 'WBTC', sellAmount: 50_000n * 10n ** 18n },
]

function intentOf(c: Case): QuoteIntent {
  return {
    chainId: c.chain.id,
    sellToken: addressOf(c.chain, c.sell),
    buyToken: addressOf(c.chain, c.buy),
    ...(c.sellAmount !== undefined ? { sellAmount: c.sellAmount } : {}),
    ...(c.buyAmount !== undefined ? { buyAmount: c.buyAmount } : {}),
    ...c.extra,
  }
}

async function quoteOf(c: Case, chains?: ChainConfig[]) {
  const source = recordLiquidity(createSnapshotSource(defaultSnapshot))
  const intent = intentOf(c)
  const quote = await getQuote(intent, source, { id: QUOTE_ID, ...(chains ? { chains } : {}) })
  const liquidity = source.last!
  return { intent, quote, liquidity, feeTiers: getFeeTiers(liquidity, c.chain) }
}

/** Symbol and decimals by address, straight from the quote and the chain's lists. */
function metaOf(chain: ChainConfig, quote: Quote, address: string): TokenInfo {
  const snapshot = defaultSnapshot.find((s) => s.chainId === chain.id)!
  const all = [...quote.tokens, chain.wrappedNative, ...chain.tokens, ...snapshot.tokens]
  const token = all.find((t) => t.address === address.toLowerCase())
  if (!token) throw new Error(`unknown token ${address}`)
  return token
}
const human = (chain: ChainConfig, quote: Quote, raw: string, token: string) => {
  const meta = metaOf(chain, quote, token)
  return `${formatUnits(BigInt(raw), meta.decimals)} ${meta.symbol}`
}

/**
 * The fee of the snapshot pool a swap used, in percent, read from its state
 * (`fee` in hundredths of a bip, Balancer's 18-decimal `swapFeePercentage`)
 * or its dex (`feeBps`); undefined when none applies.
 */
function expectedFeePercent(chain: ChainConfig, key: string): number | undefined {
  const states = defaultSnapshot.find((s) => s.chainId === chain.id)!.pools as unknown as {
    address: string
    dex: string
    poolId?: string
    id?: string
    fee?: number
    swapFeePercentage?: string
  }[]
  const state = states.find((p) => (p.poolId ?? p.id ?? p.address).toLowerCase() === key.toLowerCase())
  if (!state) return undefined
  if (state.fee !== undefined) return state.fee / 10_000
  if (state.swapFeePercentage !== undefined) return Number(state.swapFeePercentage) / 1e16
  const bps = chain.dexes.find((d) => d.id === state.dex)?.feeBps
  return bps === undefined ? undefined : bps / 100
}

describe('formatRouteTree on snapshot quotes', () => {
  let multiPath = 0
  let multiHop = 0
  test.each(cases)('$name', async (c) => {
    const { quote, feeTiers } = await quoteOf(c)
    const paths = quote.route.swaps
    if (paths.length > 1) multiPath++
    if (paths.some((p) => p.length > 1)) multiHop++
    const tree = parseRouteTree(formatRouteTree(quote, bookOf(c.chain), { feeTiers }))

    const first = paths[0]![0]!
    const last = paths[0]!.at(-1)!
    expect(tree.header).toBe(
      `route: ${paths.length} path${paths.length === 1 ? '' : 's'}, ${human(c.chain, quote, quote.route.amountIn, first.tokenIn)} -> ${human(c.chain, quote, quote.route.amountOut, last.tokenOut)}`,
    )
    expect(tree.branches).toHaveLength(paths.length)
    expect(tree.branches.reduce((sum, b) => sum + b.shareUnits, 0)).toBe(10_000)
    const total = paths.reduce((sum, p) => sum + BigInt(p[0]!.amountIn), 0n)
    expect(total).toBe(BigInt(quote.route.amountIn))

    paths.forEach((path, p) => {
      const branch = tree.branches[p]!
      const exact = Number((BigInt(path[0]!.amountIn) * 10n ** 12n) / total) / 1e8
      expect(Math.abs(branch.shareUnits - exact)).toBeLessThan(1)
      expect(branch.hops).toEqual([path[0]!.tokenIn, ...path.map((s) => s.tokenOut)].map((t) => metaOf(c.chain, quote, t).symbol))
      expect(branch.amountIn).toBe(human(c.chain, quote, path[0]!.amountIn, path[0]!.tokenIn))
      expect(branch.amountOut).toBe(human(c.chain, quote, path.at(-1)!.amountOut, path.at(-1)!.tokenOut))
      expect(branch.swaps).toHaveLength(path.length)
      path.forEach((swap, s) => {
        const line = branch.swaps[s]!
        expect(line).toContain(` ${swap.protocol}/${swap.fork} `)
        expect(line).toContain(`${swap.key.slice(0, 6)}…${swap.key.slice(-4)}`)
        expect(line.endsWith(`${human(c.chain, quote, swap.amountIn, swap.tokenIn)} -> ${human(c.chain, quote, swap.amountOut, swap.tokenOut)}`)).toBe(true)
        const fee = expectedFeePercent(c.chain, swap.key)
        const shown = / (\d+\.\d{2,})% /.exec(line)
        if (fee === undefined) expect(shown).toBeNull()
        else expect(Number(shown?.[1])).toBeCloseTo(fee, 6)
      })
    })
  })

  test('the cases cover split routes and multi-hop paths', () => {
    // Guards the table above: a router change that makes every case single-path or single-hop must be noticed.
    expect(multiPath).toBeGreaterThan(0)
    expect(multiHop).toBeGreaterThan(0)
  })

  test('without fee tiers or token metadata the tree still has every path and swap', async () => {
    const { quote } = await quoteOf(cases[2]!)
    const tree = parseRouteTree(formatRouteTree(quote))
    expect(tree.branches.map((b) => b.swaps.length)).toEqual(quote.route.swaps.map((p) => p.length))
    expect(tree.branches.reduce((sum, b) => sum + b.shareUnits, 0)).toBe(10_000)
  })
})

describe('getShares', () => {
  test('adds up to exactly 100.00% and each share is within 0.01% of the exact one', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 1n << 200n }), { minLength: 1, maxLength: 12 }), (amounts) => {
        const shares = getShares(amounts)
        const total = amounts.reduce((a, b) => a + b, 0n)
        if (total === 0n) return expect(shares.every((s) => s === 0)).toBe(true)
        expect(shares.reduce((a, b) => a + b, 0)).toBe(10_000)
        amounts.forEach((amount, i) => {
          // |share - exact| < 1 unit, in integers: |share * total - amount * 10000| < total.
          const error = BigInt(shares[i]!) * total - amount * 10_000n
          expect(error < total && -error < total).toBe(true)
        })
      }),
    )
  })

  test('three equal parts', () => {
    expect(getShares([1n, 1n, 1n]).map(formatShare)).toEqual(['33.34%', '33.33%', '33.33%'])
  })
})

function summaryRows(text: string): Map<string, string[]> {
  const rows = new Map<string, string[]>()
  let label = ''
  for (const line of text.split('\n')) {
    if (line === '') break
    const match = /^(\S+)?\s+(.*)$/.exec(line)!
    if (match[1]) label = match[1]
    rows.set(label, [...(rows.get(label) ?? []), match[2]!])
  }
  return rows
}

describe('formatQuote', () => {
  test('1.5 WETH -> USDC: amounts, price, minimum, impact, gas, approval, transaction, then the tree', async () => {
    const c = cases[0]!
    const { intent, quote, liquidity, feeTiers } = await quoteOf(c)
    const book = bookOf(base)
    const text = formatQuote(quote, book, { intent, chain: base, feeTiers, gasPriceWei: liquidity.gasPriceWei! })
    const rows = summaryRows(text)
    expect(rows.get('sell')).toEqual(['1.5 WETH  (0x4200…0006)'])
    expect(rows.get('buy')).toEqual([`${formatUnits(BigInt(quote.amountOut), 6)} USDC  (0x8335…2913)`])
    expect(rows.get('minimum')).toEqual([`${formatUnits(BigInt(quote.minimumAmountOut), 6)} USDC  (slippage 1%)`])
    expect(rows.get('impact')![0]).toMatch(new RegExp(`^${quote.priceImpactBps} bps `))
    expect(rows.get('fees')).toEqual(['none'])
    const gasPrice = BigInt(defaultSnapshot.find((s) => s.chainId === 8453)!.gasPriceWei!)
    expect(rows.get('gas')).toEqual([
      `${quote.gasEstimate} (estimate)  ≈ ${formatUnits(BigInt(quote.gasEstimate) * gasPrice, 18)} ETH at ${formatUnits(gasPrice, 9)} gwei`,
    ])
    expect(rows.get('approval')).toEqual([`approve 1.5 WETH to ${quote.approval!.spender}`])
    expect(rows.get('transaction')).toEqual([`to ${quote.transaction.to}, value 0 ETH, ${(quote.transaction.data.length - 2) / 2} bytes of calldata`])
    expect(rows.get('id')).toEqual([QUOTE_ID])
    // price both ways, from the quote's price (the spot rate, output per input)
    const [perSell, perBuy] = rows.get('price')![0]!.split('  ·  ')
    expect(perBuy).toMatch(/^1 USDC = 0\.000333\d* WETH  \(spot\)$/)
    expect(Number(perSell!.match(/^1 WETH = ([\d.]+) USDC$/)![1])).toBeCloseTo(quote.price!, 1)
    expect(text.endsWith(`\n\n${formatRouteTree(quote, book, { feeTiers })}`)).toBe(true)
  })

  test('fees are named after the intent share they pay; the surplus share is shown', async () => {
    const { intent, quote } = await quoteOf(cases[1]!)
    expect(quote.fees).toHaveLength(2)
    const rows = summaryRows(formatQuote(quote, bookOf(base), { intent, chain: base }))
    const byRecipient = new Map(quote.fees.map((f) => [f.recipient, `${formatUnits(BigInt(f.amount), 6)} USDC`]))
    expect(rows.get('fees')).toEqual([
      `integrator ${byRecipient.get(INTEGRATOR)} (0.2%) to ${INTEGRATOR}`,
      `referral   ${byRecipient.get(REFERRER)} (0.05%) to ${REFERRER}`,
      `surplus    50% of any surplus to ${SURPLUS}, taken at fill time`,
    ])
    // native output: the buy side is the chain's native symbol, the hops trade the wrapped token
    expect(rows.get('buy')![0]).toBe(`${formatUnits(BigInt(quote.amountOut), 18)} ETH  (0x0000…0000)`)
  })

  test('a chain with a treasury: the service fee is named', async () => {
    const withTreasury = { ...base, treasury: TREASURY }
    const c: Case = { ...cases[0]!, chain: withTreasury, extra: { surplusFeeBps: 2000, surplusFeeRecipient: SURPLUS } }
    const { intent, quote } = await quoteOf(c, [withTreasury])
    expect(quote.fees.map((f) => f.recipient)).toEqual([TREASURY])
    const rows = summaryRows(formatQuote(quote, bookOf(withTreasury), { intent, chain: withTreasury }))
    const fee = quote.fees[0]!
    expect(rows.get('fees')![0]).toBe(`service    ${human(withTreasury, quote, fee.amount, fee.token)} to ${TREASURY}`)
  })

  test('native input: no approval, the value carries the amount', async () => {
    const { intent, quote } = await quoteOf(cases[3]!)
    const rows = summaryRows(formatQuote(quote, bookOf(base), { intent, chain: base }))
    expect(rows.get('approval')).toEqual(['none (native ETH input, sent as the transaction value)'])
    expect(rows.get('transaction')![0]).toContain(`value 40 ETH,`)
  })

  test('exact output is marked', async () => {
    const { intent, quote } = await quoteOf(cases[5]!)
    const rows = summaryRows(formatQuote(quote, bookOf(ethereum), { intent, chain: ethereum }))
    expect(rows.get('buy')![0]).toMatch(/ LINK  \(0x5149…86ca\)  exact output$/)
    expect(BigInt(quote.amountOut)).toBeGreaterThanOrEqual(1000n * 10n ** 18n)
  })
})

describe('amounts', () => {
  test.each([
    ['1.5', 18, '1500000000000000000'],
    ['1.5', 6, '1500000'],
    ['.5', 6, '500000'],
    ['2.', 6, '2000000'],
    ['0.000001', 6, '1'],
    ['007', 0, '7'],
    ['0', 6, '0'],
  ])('%s with %i decimals is %s', (text, decimals, raw) => {
    expect(toRawAmount(text, decimals, 'amount')).toBe(raw)
    expect(formatAmount(raw, decimals)).toBe(String(Number(text)))
  })

  test.each(['1.0000001', '-1', '1e3', '', ' 1', '1,5', '0x10', '1.2.3', '.'])('%j is refused with a 400 on the option', (text) => {
    let error: unknown
    try {
      toRawAmount(text, 6, 'amount', 'USDC')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).statusCode).toBe(400)
    expect((error as QuoteError).details?.map((d) => d.param)).toEqual(['amount'])
  })
})

describe('token and chain names', () => {
  const book = bookOf(base)
  test('symbols in any case, the native symbol, addresses', () => {
    expect(resolveToken(book, 'weth', 'sellToken', 'Base')).toEqual({ address: base.wrappedNative.address, symbol: 'WETH', decimals: 18 })
    expect(resolveToken(book, 'ETH', 'sellToken', 'Base')).toEqual({ address: zeroAddress, symbol: 'ETH', decimals: 18 })
    expect(resolveToken(book, 'cbbtc', 'sellToken', 'Base').decimals).toBe(8)
    const mixed = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
    expect(resolveToken(book, mixed, 'buyToken', 'Base')).toEqual({ address: mixed, symbol: 'USDC', decimals: 6 })
    const unknown = '0x000000000000000000000000000000000000dead'
    expect(resolveToken(book, unknown, 'buyToken', 'Base')).toEqual({ address: unknown })
  })

  test('every snapshot token of a chain is in its book', () => {
    for (const snapshot of defaultSnapshot)
      for (const token of snapshot.tokens)
        expect(bookOf(chainById.get(snapshot.chainId)!).find((t) => t.address === token.address)?.symbol).toBe(token.symbol)
  })

  test.each([
    ['NOPE', /is not a token symbol of Base/],
    ['0x1234', /must be an address/],
  ])('%s is a 400 on the parameter', (text, message) => {
    const error = (() => {
      try {
        resolveToken(book, text, 'sellToken', 'Base')
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).details).toEqual([{ param: 'sellToken', message: expect.stringMatching(message) }])
  })

  test('chains by slug, name, id and unique first word', () => {
    expect(findChain(defaultChains, 'base').id).toBe(8453)
    expect(findChain(defaultChains, 'Ethereum').id).toBe(1)
    expect(findChain(defaultChains, '8453').id).toBe(8453)
    expect(findChain(defaultChains, 'arbitrum').id).toBe(42161)
    expect(findChain(defaultChains, 'Arbitrum One').id).toBe(42161)
    expect(() => findChain(defaultChains, 'solana')).toThrow(QuoteError)
    expect(getChainSlug({ name: 'Arbitrum One' })).toBe('arbitrum-one')
  })

  test('the chains table lists listChains()', () => {
    const lines = formatChains(listChains()).split('\n')
    expect(lines[0]).toMatch(/^id\s+name\s+--chain$/)
    expect(lines.slice(1).map((l) => l.split(/\s+/))).toEqual(listChains().chains.map((c) => [String(c.id), c.name, getChainSlug(c)]))
  })
})

describe('parseCliArgs', () => {
  const spec = { chain: 'string', json: 'boolean', help: 'boolean', slippageBps: 'string' } as const
  test('forms', () => {
    expect(parseCliArgs(['quote', '--chain', 'base', '--json', '--slippageBps=50', '-h'], spec)).toEqual({
      values: { chain: 'base', json: true, slippageBps: '50', help: true },
      positionals: ['quote'],
    })
    // a negative number is a value (for the range check), not an option
    expect(parseCliArgs(['--slippageBps', '-5'], spec).values.slippageBps).toBe('-5')
    expect(parseCliArgs(['--', '--json'], spec).positionals).toEqual(['--json'])
  })
  test.each([
    [['--bogus'], /unknown option --bogus/],
    [['-x'], /unknown option -x/],
    [['--chain'], /needs a value/],
    [['--chain', '--json'], /needs a value/],
    [['--chain', 'a', '--chain', 'b'], /given twice/],
    [['--json=yes'], /takes no value/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCliArgs(argv, spec)).toThrow(CliUsageError)
    expect(() => parseCliArgs(argv, spec)).toThrow(message)
  })
})

describe('resolveQuoteArgs', () => {
  const options = { chains: defaultChains, tokenLists: defaultSnapshot }
  test('symbols and human amounts map to the intent parseQuoteParams gives for the raw request', async () => {
    const { intent, params } = await resolveQuoteArgs(
      { chain: 'base', sell: 'WETH', buy: 'usdc', amount: '1.5', slippageBps: '50', feeBps: '10', feeRecipient: INTEGRATOR, 'app-id': 'cli' },
      options,
    )
    const raw = {
      chainId: '8453',
      sellToken: base.wrappedNative.address,
      buyToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      sellAmount: '1500000000000000000',
      slippageBps: '50',
      feeBps: '10',
      feeRecipient: INTEGRATOR,
      'x-app-id': 'cli',
    }
    expect(params).toEqual(raw)
    expect(intent).toEqual(parseQuoteParams(raw))
  })

  test('--buy-amount uses the buy token decimals', async () => {
    const { intent } = await resolveQuoteArgs({ chain: 'ethereum', sell: 'WETH', buy: 'WBTC', 'buy-amount': '0.5' }, options)
    expect(intent.buyAmount).toBe(50_000_000n)
    expect(intent.sellAmount).toBeUndefined()
  })

  test('a token the book lacks takes its decimals from getDecimals', async () => {
    const token = '0x000000000000000000000000000000000000dead'
    const { intent } = await resolveQuoteArgs(
      { chain: 'base', sell: token, buy: 'USDC', amount: '2.5' },
      { ...options, getDecimals: async (_chain, address) => (address === token ? 9 : undefined) },
    )
    expect(intent.sellAmount).toBe(2_500_000_000n)
  })

  test.each([
    [{ sell: 'WETH', buy: 'USDC', amount: '1' }, /missing --chain/],
    [{ chain: 'base', buy: 'USDC', amount: '1' }, /missing --sell/],
    [{ chain: 'base', sell: 'WETH', amount: '1' }, /missing --buy/],
    [{ chain: 'base', sell: 'WETH', buy: 'USDC' }, /missing the amount/],
    [{ chain: 'base', sell: 'WETH', buy: 'USDC', amount: '1', 'buy-amount': '1' }, /give one amount/],
    [{ chain: 'base', chainId: '8453', sell: 'WETH', buy: 'USDC', amount: '1' }, /--chain or --chainId/],
  ])('%j is a usage error', async (values, message) => {
    await expect(resolveQuoteArgs(values, options)).rejects.toThrow(CliUsageError)
    await expect(resolveQuoteArgs(values, options)).rejects.toThrow(message)
  })

  test('every bad value is reported at once, as a 400', async () => {
    const error = await resolveQuoteArgs({ chain: 'base', sell: 'NOPE', buy: 'USDC', 'buy-amount': '1.0000001' }, options).catch((e) => e)
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).details?.map((d) => d.param)).toEqual(['sellToken', 'buy-amount'])
  })

  test('every spec parameter is an option', () => {
    for (const name of ['chainId', 'sellToken', 'buyToken', 'sellAmount', 'buyAmount', 'slippageBps', 'priceImpactLimitBps', 'receiver',
      'feeBps', 'feeRecipient', 'surplusFeeBps', 'surplusFeeRecipient', 'referralFeeBps', 'referralFeeRecipient', 'x-app-id'])
      expect(quoteOptionSpec[name]).toBe('string')
  })
})
