// A wallet's swap box on weft: pick a chain, two tokens and an amount; the
// quote follows as you type (debounced), computed in this page by getQuote.
// In your app, import from 'weft' and 'weft/default-snapshot' instead of ../../src.
import { type Address, formatUnits, parseUnits } from 'viem'
import { type ChainConfig, type Quote, type QuoteIntent, QuoteError, type TokenInfo, getQuote } from '../../src/index.js'
import { drawRoute, shortAddress } from './routeSvg.js'
import { type PageSource, loadSource } from './source.js'

/** Quiet time after the last keystroke before quoting. */
const DEBOUNCE_MS = 250

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id)
  if (!el) throw new Error(`#${id} is missing from index.html`)
  return el as T
}

const form = byId<HTMLFormElement>('swap')
const chainSelect = byId<HTMLSelectElement>('chain')
const sellSelect = byId<HTMLSelectElement>('sell-token')
const buySelect = byId<HTMLSelectElement>('buy-token')
const amountInput = byId<HTMLInputElement>('amount')
const slippageInput = byId<HTMLInputElement>('slippage')
const result = byId<HTMLElement>('result')
const statusLine = byId<HTMLElement>('status')
const errorLine = byId<HTMLElement>('error')
const numbers = byId<HTMLElement>('numbers')
const amountOut = byId<HTMLOutputElement>('amount-out')
const routeFigure = byId<HTMLElement>('route')

let page: PageSource | undefined
let tokens: TokenInfo[] = []
let timer: ReturnType<typeof setTimeout> | undefined
/** Bumped per quote request; an answer for an older request is dropped. */
let latest = 0

const query = new URLSearchParams(location.search)
void start()

async function start(): Promise<void> {
  try {
    page = await loadSource(query)
  } catch (error) {
    byId('source-label').textContent = 'No liquidity source.'
    showError(error instanceof Error ? error.message : String(error), {})
    for (const el of Array.from(form.elements)) (el as HTMLInputElement).disabled = true
    return
  }
  byId('source-label').textContent = page.label
  for (const chain of page.chains) chainSelect.append(new Option(`${chain.name} (${chain.id})`, String(chain.id)))
  const wanted = query.get('chain')
  const preset = page.chains.find((c) => String(c.id) === wanted || c.name.toLowerCase() === wanted?.toLowerCase())
  chainSelect.value = String((preset ?? page.chains.find((c) => c.id === 8453) ?? page.chains[0]!).id)
  fillTokens(query.get('sell'), query.get('buy'))
  amountInput.value = query.get('amount') ?? ''
  if (query.has('slippageBps')) slippageInput.value = query.get('slippageBps')!

  form.addEventListener('submit', (event) => event.preventDefault())
  chainSelect.addEventListener('change', () => {
    fillTokens(null, null)
    schedule()
  })
  for (const el of [sellSelect, buySelect]) el.addEventListener('change', schedule)
  for (const el of [amountInput, slippageInput]) el.addEventListener('input', schedule)
  byId('flip').addEventListener('click', () => {
    const sell = sellSelect.value
    sellSelect.value = buySelect.value
    buySelect.value = sell
    schedule()
  })
  void runQuote()
}

function currentChain(): ChainConfig {
  return page!.chains.find((c) => String(c.id) === chainSelect.value)!
}

/** Refills both token lists for the selected chain; `sell`/`buy` pick by symbol or address. */
function fillTokens(sell: string | null, buy: string | null): void {
  const chain = currentChain()
  tokens = page!.tokensOf(chain)
  for (const select of [sellSelect, buySelect]) {
    select.replaceChildren(...tokens.map((t) => new Option(t.symbol, t.address)))
  }
  const find = (wanted: string | null) =>
    wanted ? tokens.find((t) => t.symbol.toLowerCase() === wanted.toLowerCase() || t.address === wanted.toLowerCase()) : undefined
  sellSelect.value = (find(sell) ?? find(chain.wrappedNative.address) ?? tokens[0]!).address
  buySelect.value = (find(buy) ?? find(chain.usdStablecoins[0] ?? null) ?? tokens[1]!).address
}

function schedule(): void {
  clearTimeout(timer)
  result.dataset.state = 'typing'
  timer = setTimeout(() => void runQuote(), DEBOUNCE_MS)
}

async function runQuote(): Promise<void> {
  const request = ++latest
  const chain = currentChain()
  const sell = tokenOf(sellSelect.value as Address)
  const buy = tokenOf(buySelect.value as Address)
  const text = amountInput.value.trim()
  if (text === '') {
    setState('idle', {})
    statusLine.textContent = 'Enter an amount.'
    return
  }
  let sellAmount: bigint
  try {
    sellAmount = parseAmount(text, sell.decimals)
  } catch (error) {
    showError((error as Error).message, {})
    return
  }
  const intent: QuoteIntent = { chainId: chain.id, sellToken: sell.address, buyToken: buy.address, sellAmount }
  if (slippageInput.value.trim() !== '') intent.slippageBps = Number(slippageInput.value)

  const tag = { amountIn: sellAmount.toString(), sell: sell.address, buy: buy.address, chain: String(chain.id) }
  setState('loading', tag)
  statusLine.textContent = `Quoting ${text} ${sell.symbol} → ${buy.symbol}…`
  amountOut.classList.add('stale')
  try {
    const quote = await getQuote(intent, page!.source)
    if (request !== latest) return
    showQuote(quote, chain, sell, buy)
    setState('ready', { ...tag, quoteId: quote.id })
  } catch (error) {
    if (request !== latest) return
    // getQuote throws only QuoteError; anything else is a bug worth seeing too.
    if (error instanceof QuoteError) {
      const details = error.details?.map((d) => `${d.param}: ${d.message}`).join('; ')
      showError(`${error.statusCode} ${error.code}: ${error.message}${details ? ` (${details})` : ''}`, tag, error.statusCode)
    } else showError(`Unexpected error: ${String(error)}`, tag)
  }
}

function tokenOf(address: Address): TokenInfo {
  return tokens.find((t) => t.address === address)!
}

/** Human units to base units; rejects what is not a plain decimal number. */
function parseAmount(text: string, decimals: number): bigint {
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) throw new Error(`"${text}" is not an amount: use digits and one decimal point`)
  const fraction = text.split('.')[1] ?? ''
  if (fraction.length > decimals) throw new Error(`This token has ${decimals} decimals; "${text}" has ${fraction.length}`)
  return parseUnits(text, decimals)
}

function setState(state: 'idle' | 'loading' | 'ready' | 'error', request: Record<string, string>): void {
  result.dataset.state = state
  for (const key of ['amountIn', 'sell', 'buy', 'chain', 'quoteId']) delete result.dataset[key]
  Object.assign(result.dataset, request)
  if (state !== 'ready') {
    numbers.hidden = true
    routeFigure.hidden = true
  }
  if (state !== 'error') errorLine.hidden = true
  if (state === 'idle' || state === 'error') {
    amountOut.textContent = '—'
    delete amountOut.dataset.value
    amountOut.classList.remove('stale')
  }
}

function showError(message: string, request: Record<string, string>, statusCode?: number): void {
  setState('error', request)
  statusLine.textContent = 'No quote.'
  errorLine.textContent = message
  if (statusCode === undefined) delete errorLine.dataset.statusCode
  else errorLine.dataset.statusCode = String(statusCode)
  errorLine.hidden = false
}

function showQuote(quote: Quote, chain: ChainConfig, sell: TokenInfo, buy: TokenInfo): void {
  const known = new Map<string, { symbol: string; decimals: number }>()
  for (const t of [...tokens, ...quote.tokens]) known.set(t.address.toLowerCase(), t)
  const amount = (value: string, token: Address) => {
    const t = known.get(token.toLowerCase())
    return t ? `${formatUnits(BigInt(value), t.decimals)} ${t.symbol}` : `${value} (base units of ${shortAddress(token)})`
  }
  const field = (id: string, text: string, value?: string | number) => {
    const el = byId(id)
    el.textContent = text
    if (value === undefined) delete el.dataset.value
    else el.dataset.value = String(value)
  }

  amountOut.textContent = amount(quote.amountOut, buy.address)
  amountOut.dataset.value = quote.amountOut
  amountOut.classList.remove('stale')
  statusLine.textContent = `${sell.symbol} → ${buy.symbol} over ${quote.route.swaps.length} path(s), block ${quote.blockNumber}.`
  field('minimum-out', amount(quote.minimumAmountOut, buy.address), quote.minimumAmountOut)
  field('price-impact', `${quote.priceImpactBps} bps (${(quote.priceImpactBps / 100).toFixed(2)} %)`, quote.priceImpactBps)
  const rate = Number(formatUnits(BigInt(quote.amountOut), buy.decimals)) / Number(formatUnits(BigInt(quote.amountIn), sell.decimals))
  field('rate', `1 ${sell.symbol} = ${rate.toPrecision(6)} ${buy.symbol}`)
  field(
    'fees',
    quote.fees.length === 0 ? 'none' : quote.fees.map((f) => `${amount(f.amount, f.token)} → ${shortAddress(f.recipient)}`).join(', '),
    quote.fees.length,
  )
  field('gas-estimate', quote.gasEstimate.toLocaleString('en-US'), quote.gasEstimate)
  field(
    'approval',
    quote.approval ? `approve exactly ${amount(quote.approval.amount, quote.approval.token)} to ${shortAddress(quote.approval.spender)}` : `none (${chain.nativeSymbol} in)`,
  )
  const value = BigInt(quote.transaction.value)
  field(
    'transaction',
    `to ${shortAddress(quote.transaction.to)}, ${(quote.transaction.data.length - 2) / 2} bytes of calldata` +
      (value > 0n ? `, value ${formatUnits(value, 18)} ${chain.nativeSymbol}` : ''),
    quote.transaction.data,
  )
  field('block-number', String(quote.blockNumber), quote.blockNumber)
  numbers.hidden = false

  const caption = document.createElement('figcaption')
  caption.textContent = `Route: ${quote.route.swaps.length} path(s); stroke width ∝ share of the input`
  routeFigure.replaceChildren(caption, drawRoute(quote, (address) => known.get(address.toLowerCase())?.symbol))
  routeFigure.hidden = false
}
