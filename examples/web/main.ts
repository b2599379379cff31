// A wallet's swap box on weft: pick a chain, two tokens and an amount; the
// quote follows as you type (debounced), computed in this page by getQuote.
// With an injected wallet connected, each quote is simulated for its account
// and "Approve and swap" fills it.
// In your app, import from 'weft' and 'weft/default-snapshot' instead of ../../src.
import { type Address, parseUnits } from 'viem'
import { type ChainConfig, type Quote, type QuoteIntent, QuoteError, type SimulateQuoteReturnType, SimulationRevertedError, type TokenInfo, getQuote } from '../../src/index.js'
import { formatAmount } from './formatAmount.js'
import { getPoolFees } from './poolFees.js'
import { drawRoute, shortAddress } from './routeSvg.js'
import { type PageSource, loadSource } from './source.js'
import { type Wallet, connectWallet, getInjectedProvider, sendFill, simulateForWallet } from './wallet.js'

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
const connectButton = byId<HTMLButtonElement>('connect')
const accountLabel = byId<HTMLElement>('account')
const walletPanel = byId<HTMLElement>('wallet')
const simulation = byId<HTMLElement>('simulation')
const simStatus = byId<HTMLElement>('sim-status')
const fillButton = byId<HTMLButtonElement>('fill')
const fillStatus = byId<HTMLElement>('fill-status')

let page: PageSource | undefined
let tokens: TokenInfo[] = []
let timer: ReturnType<typeof setTimeout> | undefined
/** Bumped per quote request; an answer for an older request is dropped. */
let latest = 0
let wallet: Wallet | null = null
/** The quote on screen and its simulation for the connected account, once it has one. */
let shown: { quote: Quote; chain: ChainConfig; sell: TokenInfo; buy: TokenInfo; simulated: SimulateQuoteReturnType | null } | null = null

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
  setUpWallet()
  void runQuote()
}

function setUpWallet(): void {
  const provider = getInjectedProvider()
  if (!provider) {
    connectButton.disabled = true
    accountLabel.textContent = 'No injected wallet (window.ethereum): quotes only.'
    return
  }
  connectButton.addEventListener('click', async () => {
    try {
      wallet = await connectWallet(provider)
      accountLabel.textContent = `${shortAddress(wallet.account)} on chain ${wallet.chainId}`
      accountLabel.dataset.address = wallet.account
      connectButton.hidden = true
      walletPanel.dataset.state = 'connected'
      // The quote takes the account as its sender from now on.
      void runQuote()
    } catch (error) {
      accountLabel.textContent = `Could not connect: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
    }
  })
  fillButton.addEventListener('click', () => void fill())
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
    const quote = await getQuote(intent, page!.source, { chains: page!.chains, ...(wallet ? { sender: wallet.account } : {}) })
    if (request !== latest) return
    showQuote(quote, chain, sell, buy)
    setState('ready', { ...tag, quoteId: quote.id })
    void simulateShown(request)
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
    walletPanel.hidden = true
    shown = null
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
  for (const t of [...quote.tokens, ...tokens]) known.set(t.address.toLowerCase(), t)
  const field = (id: string, text: string, value?: string | number) => {
    const el = byId(id)
    el.textContent = text
    if (value === undefined) delete el.dataset.value
    else el.dataset.value = String(value)
  }

  amountOut.textContent = showAmount(BigInt(quote.amountOut), buy.address, known)
  amountOut.dataset.value = quote.amountOut
  amountOut.classList.remove('stale')
  statusLine.textContent = `${sell.symbol} → ${buy.symbol} over ${quote.route.swaps.length} path(s), block ${quote.blockNumber}.`
  field('minimum-out', showAmount(BigInt(quote.minimumAmountOut), buy.address, known), quote.minimumAmountOut)
  field('price-impact', `${quote.priceImpactBps} bps (${(quote.priceImpactBps / 100).toFixed(2)} %)`, quote.priceImpactBps)
  // Display only: a float of two exact decimals, to 6 significant digits.
  const rate = Number(formatAmount(BigInt(quote.amountOut), buy.decimals, 18).replace(/,/g, '')) / Number(formatAmount(BigInt(quote.amountIn), sell.decimals, 18).replace(/,/g, ''))
  field('rate', `1 ${sell.symbol} = ${rate.toPrecision(6)} ${buy.symbol}`)
  field(
    'fees',
    quote.fees.length === 0 ? 'none' : quote.fees.map((f) => `${showAmount(BigInt(f.amount), f.token, known)} → ${shortAddress(f.recipient)}`).join(', '),
    quote.fees.length,
  )
  field('gas-estimate', quote.gasEstimate.toLocaleString('en-US'), quote.gasEstimate)
  field(
    'approval',
    quote.approval ? `approve exactly ${showAmount(BigInt(quote.approval.amount), quote.approval.token, known)} to ${shortAddress(quote.approval.spender)}` : `none (${chain.nativeSymbol} in)`,
  )
  const value = BigInt(quote.transaction.value)
  field(
    'transaction',
    `to ${shortAddress(quote.transaction.to)}, ${(quote.transaction.data.length - 2) / 2} bytes of calldata` +
      (value > 0n ? `, value ${formatAmount(value, 18)} ${chain.nativeSymbol}` : ''),
    quote.transaction.data,
  )
  field('block-number', String(quote.blockNumber), quote.blockNumber)
  numbers.hidden = false

  const caption = document.createElement('figcaption')
  caption.textContent = `Route: ${quote.route.swaps.length} path(s); stroke width ∝ share of the input`
  const fees = getPoolFees(page!.lastPools(), chain)
  routeFigure.replaceChildren(caption, drawRoute(quote, (address) => known.get(address.toLowerCase())?.symbol, (key) => fees.get(key)))
  routeFigure.hidden = false

  shown = { quote, chain, sell, buy, simulated: null }
  fillButton.textContent = quote.approval ? 'Approve and swap' : 'Swap'
  fillButton.disabled = true
  simulation.hidden = true
  simStatus.textContent = ''
  walletPanel.hidden = wallet === null
}

/** `2,040.68 USDC`: the token's symbol (the native token's is the chain's, ETH), 6 significant digits. */
function showAmount(raw: bigint, token: Address, known: Map<string, { symbol: string; decimals: number }>): string {
  const t = known.get(token.toLowerCase())
  return t ? `${formatAmount(raw, t.decimals)} ${t.symbol}` : `${raw} (base units of ${shortAddress(token)})`
}

/** Simulates the quote on screen for the connected account; enables the fill when it would succeed. */
async function simulateShown(request: number): Promise<void> {
  if (!wallet || !shown) return
  const { quote, buy } = shown
  walletPanel.dataset.state = 'simulating'
  simStatus.textContent = 'Simulating the approval and the fill…'
  try {
    const simulated = await simulateForWallet(wallet, quote, page!.readClient)
    if (request !== latest || shown?.quote !== quote) return
    shown.simulated = simulated
    const known = new Map([[buy.address.toLowerCase(), buy]])
    const amount = byId('sim-amount-out')
    amount.textContent = `${showAmount(simulated.amountOut, buy.address, known)}${simulated.matchesQuote ? ' (as quoted)' : ''}`
    amount.dataset.value = String(simulated.amountOut)
    const gas = byId('sim-gas')
    gas.textContent = `${simulated.gasUsed.toLocaleString('en-US')} (limit ${simulated.gasLimit.toLocaleString('en-US')})`
    gas.dataset.value = String(simulated.gasUsed)
    gas.dataset.limit = String(simulated.gasLimit)
    simulation.hidden = false
    simStatus.textContent = `Simulated through ${simulated.method} for ${shortAddress(wallet.account)}.`
    const sameChain = wallet.chainId === shown.chain.id
    fillButton.disabled = !sameChain
    if (!sameChain) simStatus.textContent += ` The wallet is on chain ${wallet.chainId}, the quote on ${shown.chain.id}.`
    walletPanel.dataset.state = 'simulated'
  } catch (error) {
    if (request !== latest) return
    walletPanel.dataset.state = 'simulation-error'
    simStatus.textContent =
      error instanceof SimulationRevertedError
        ? `The ${error.call} would revert: ${error.revert.errorName ?? 'unknown error'} (${error.statusCode})`
        : error instanceof QuoteError
          ? `${error.statusCode} ${error.code}: ${error.message}`
          : `Unexpected error: ${String(error)}`
  }
}

/** Approve and swap: sends the calls from the wallet and reports what arrived. */
async function fill(): Promise<void> {
  if (!wallet || !shown?.simulated) return
  const { quote, buy, simulated } = shown
  fillButton.disabled = true
  fillStatus.dataset.state = 'sending'
  fillStatus.textContent = quote.approval ? 'Approve and swap: confirm in your wallet…' : 'Swap: confirm in your wallet…'
  try {
    const result = await sendFill(wallet, quote, simulated, page!.readClient)
    fillStatus.dataset.state = 'filled'
    fillStatus.dataset.received = String(result.received)
    fillStatus.dataset.transactions = result.transactionHashes.join(' ')
    const known = new Map([[buy.address.toLowerCase(), buy]])
    fillStatus.textContent = `Filled (${result.how === 'batch' ? 'one batch' : `${result.transactionHashes.length} transaction(s)`}): received ${showAmount(result.received, buy.address, known)}.`
  } catch (error) {
    fillStatus.dataset.state = 'error'
    fillStatus.textContent = `Not filled: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
    fillButton.disabled = false
  }
}
