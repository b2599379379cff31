// The wallet page of examples/web in a real headless Chromium: built with
// Vite, served by `vite preview`, driven by playwright-core. Every number the
// page shows is checked against getQuote run here in Node on the same
// liquidity and intent; on a devnet the page fills through a minimal injected
// EIP-1193 wallet and the balances are checked on chain afterwards.
// Chromium is required (`npm test` installs it): no skip.
//
// Screenshots: .tmp/wallet-page*.png on every run; with WEFT_DOCS_SCREENSHOT=1
// also docs/images/ (the committed copies): wallet-page.png (a split quote),
// wallet-page-390.png and wallet-page-1280.png (after a fill, at each width).
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, type Page, chromium } from 'playwright-core'
import { type Address, erc20Abi, parseUnits, zeroAddress } from 'viem'
import { type PreviewServer, build, preview } from 'vite'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SIGNIFICANT_DIGITS, formatAmount } from '../../examples/web/formatAmount.js'
import { getPathShare, getStrokeWidth } from '../../examples/web/routeSvg.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import {
  type ChainConfig,
  type LiquiditySource,
  type Quote,
  type QuoteIntent,
  QuoteError,
  base,
  createRpcSource,
  createSnapshotSource,
  deployExecutor,
  getQuote,
} from '../../src/index.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const repo = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))
const configFile = repo('examples/web/vite.config.ts')

const WETH = base.wrappedNative.address
const USDC = base.tokens.find((t) => t.symbol === 'USDC')!.address

let outDir: string
let server: PreviewServer
let baseUrl: string
let browser: Browser
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`)
  outDir = await mkdtemp(join(tmpdir(), 'weft-web-'))
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  server = await preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false } })
  const url = server.resolvedUrls?.local[0]
  if (!url) throw new Error('vite preview reported no URL')
  baseUrl = url
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

async function openPage(query = '', width = 860): Promise<Page> {
  page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 })
  pageErrors = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text())
  })
  await page.goto(`${baseUrl}${query}`)
  return page
}

afterEach(async () => {
  await page?.close()
  expect(pageErrors).toEqual([])
})

/** Waits until the page shows the outcome (quote or error) of quoting exactly this sell amount. */
async function waitForOutcome(state: 'ready' | 'error', sellAmount: bigint): Promise<void> {
  await page.waitForSelector(`#result[data-state="${state}"][data-amount-in="${sellAmount}"]`)
}

const text = async (selector: string) => (await page.locator(selector).textContent())?.trim()
const data = (selector: string, name: string) => page.locator(selector).getAttribute(`data-${name}`)

/**
 * getQuote in Node for the intent, with the quote id the page drew (the id is
 * random and sits in the calldata, so it moves the gas estimate by a few gas) and its clock.
 */
async function getPageQuote(intent: QuoteIntent, source: LiquiditySource): Promise<Quote> {
  const id = await data('#result', 'quote-id')
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  // The fill's deadline sits in the calldata too, counted from the page's clock: a UUID v7 starts
  // with that clock's milliseconds (its first 48 bits), so Node quotes at the page's moment.
  const pageClock = parseInt(id!.replace(/-/g, '').slice(0, 12), 16)
  return getQuote(intent, source, { id: id!, now: () => pageClock })
}

/** What the page shows must be what getQuote gives in Node: amounts, impact, fees, calldata, and one SVG path per route path. */
async function expectPageShows(quote: Quote): Promise<void> {
  expect(await data('#amount-out', 'value')).toBe(quote.amountOut)
  expect(await text('#amount-out')).toBe(`${formatAmount(BigInt(quote.amountOut), 6)} USDC`)
  expect(await data('#minimum-out', 'value')).toBe(quote.minimumAmountOut)
  expect(await text('#minimum-out')).toBe(`${formatAmount(BigInt(quote.minimumAmountOut), 6)} USDC`)
  expect(Number(await data('#price-impact', 'value'))).toBe(quote.priceImpactBps)
  expect(await text('#price-impact')).toContain(`${quote.priceImpactBps} bps`)
  expect(Number(await data('#fees', 'value'))).toBe(quote.fees.length)
  expect(Number(await data('#gas-estimate', 'value'))).toBe(quote.gasEstimate)
  expect(Number(await data('#block-number', 'value'))).toBe(quote.blockNumber)
  expect(await data('#transaction', 'value')).toBe(quote.transaction.data)

  const lanes = page.locator('#route svg [data-path-index]')
  expect(await lanes.count()).toBe(quote.route.swaps.length)
  for (const [i, path] of quote.route.swaps.entries()) {
    const lane = page.locator(`#route svg [data-path-index="${i}"]`)
    expect(await lane.evaluate((el) => el.tagName)).toBe('path')
    expect(Number(await lane.getAttribute('stroke-width'))).toBe(getStrokeWidth(getPathShare(quote, i)))
    const pools = await page.locator(`#route svg [data-path="${i}"] [data-pool]`).evaluateAll((els) =>
      els.map((el) => ({ address: el.getAttribute('data-pool'), protocol: el.getAttribute('data-protocol'), fork: el.getAttribute('data-fork') })),
    )
    expect(pools).toEqual(path.map((swap) => ({ address: swap.address, protocol: swap.protocol, fork: swap.fork })))
    // Every pool shows its fee tier (a percentage), in data-fee and in its box.
    const fees = await page.locator(`#route svg [data-path="${i}"] [data-pool]`).evaluateAll((els) => els.map((el) => [el.getAttribute('data-fee'), el.textContent]))
    for (const [fee, boxText] of fees) {
      expect(fee).toMatch(/^\d+(\.\d+)?%$/)
      expect(boxText).toContain(fee)
    }
  }
}

describe('examples/web wallet page on the embedded snapshot', () => {
  const source = createSnapshotSource(defaultSnapshot)
  const intentFor = (amount: string): QuoteIntent => ({ chainId: 8453, sellToken: WETH, buyToken: USDC, sellAmount: parseUnits(amount, 18), slippageBps: 100 })

  it('quotes as the amount is typed and shows what getQuote gives in Node, route drawn path by path', async () => {
    await openPage()
    await page.waitForSelector('#result[data-state="idle"]')
    await page.selectOption('#chain', '8453')
    await page.selectOption('#sell-token', WETH)
    await page.selectOption('#buy-token', USDC)

    // "50" first, then a "0" more: the page must follow the edit to 500 WETH.
    await page.locator('#amount').pressSequentially('50', { delay: 40 })
    await waitForOutcome('ready', parseUnits('50', 18))
    await expectPageShows(await getPageQuote(intentFor('50'), source))

    await page.locator('#amount').pressSequentially('0', { delay: 40 })
    await waitForOutcome('ready', parseUnits('500', 18))
    const fiveHundred = await getPageQuote(intentFor('500'), source)
    // A split: the picture must draw several paths, not just one.
    expect(fiveHundred.route.swaps.length).toBeGreaterThan(1)
    await expectPageShows(fiveHundred)
    expect(await page.locator('#error').isHidden()).toBe(true)

    await mkdir(repo('.tmp'), { recursive: true })
    await page.screenshot({ path: repo('.tmp/wallet-page.png'), fullPage: true })
    if (process.env.WEFT_DOCS_SCREENSHOT === '1') {
      await mkdir(repo('docs/images'), { recursive: true })
      await copyFile(repo('.tmp/wallet-page.png'), repo('docs/images/wallet-page.png'))
    }
  })

  it('shows the QuoteError of an amount the pools cannot take, and no route', async () => {
    await openPage('?chain=8453&sell=WETH&buy=USDC')
    await page.waitForSelector('#result[data-state="idle"]')
    const intent = intentFor('1000000000')
    const error = await getQuote(intent, source).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(QuoteError)
    const { statusCode, code, message } = error as QuoteError
    // 400 (price impact over the limit) or 404 (no route takes it), as the router decides.
    expect([400, 404]).toContain(statusCode)

    await page.locator('#amount').fill('1000000000')
    await waitForOutcome('error', intent.sellAmount!)
    expect(await text('#error')).toBe(`${statusCode} ${code}: ${message}`)
    expect(await data('#error', 'status-code')).toBe(String(statusCode))
    expect(await page.locator('#numbers').isHidden()).toBe(true)
    expect(await page.locator('#route').isHidden()).toBe(true)
    expect(await data('#amount-out', 'value')).toBeNull()
  })

  it('keeps the QuoteError shape for a bad parameter (slippage) and a local message for a non-number', async () => {
    await openPage('?chain=base&sell=WETH&buy=USDC&amount=1')
    await waitForOutcome('ready', 10n ** 18n)

    await page.locator('#slippage').fill('20000')
    const error = await getQuote({ ...intentFor('1'), slippageBps: 20000 }, source).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(QuoteError)
    await waitForOutcome('error', 10n ** 18n)
    expect(await text('#error')).toContain(`${(error as QuoteError).statusCode} ${(error as QuoteError).code}: ${(error as QuoteError).message}`)

    await page.locator('#amount').fill('1.2.3')
    await page.waitForSelector('#result[data-state="error"]:not([data-amount-in])')
    expect(await text('#error')).toContain('is not an amount')
  })
})

describe('examples/web wallet page against a node (?rpc=)', () => {
  let anvil: Anvil
  beforeAll(async () => {
    // A bare anvil claiming Base's chain id: the page must pick the registry's Base and
    // read pools through createRpcSource — there are none, so both sides must say so alike.
    anvil = await startAnvil({ chainId: 8453 })
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  it('quotes through createRpcSource with the registry chain of the node and shows its QuoteError', async () => {
    await openPage(`?rpc=${encodeURIComponent(anvil.rpcUrl)}`)
    await page.waitForSelector('#result[data-state="idle"]')
    expect(await text('#source-label')).toContain(anvil.rpcUrl)
    expect(await page.locator('#chain option').allTextContents()).toEqual(['Base (8453)'])

    const intent: QuoteIntent = { chainId: 8453, sellToken: WETH, buyToken: USDC, sellAmount: parseUnits('1.5', 18) }
    const error = await getQuote(intent, createRpcSource({ client: anvil.publicClient, chain: base })).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(QuoteError)
    await page.selectOption('#sell-token', WETH)
    await page.selectOption('#buy-token', USDC)
    await page.locator('#amount').fill('1.5')
    await waitForOutcome('error', intent.sellAmount!)
    const { statusCode, code, message } = error as QuoteError
    expect(await text('#error')).toBe(`${statusCode} ${code}: ${message}`)
  })
})

/** Significant digits of a shown amount (`2,040.68` has 6; the integer part counts whole). */
const significantDigits = (shown: string) => {
  const digits = shown.replace(/[^\d.]/g, '')
  const [whole = '', fraction = ''] = digits.split('.')
  return whole.replace(/^0+/, '').length + (whole.replace(/^0+/, '') === '' ? fraction.replace(/^0+/, '').length : fraction.length)
}

/** The page is no wider than its viewport: nothing scrolls sideways. */
async function expectNoHorizontalOverflow(): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

describe('examples/web wallet page: layout and amounts (issue 11)', () => {
  it('fits 390 px and 1280 px, shows amounts to 6 significant digits and native sells as ETH', async () => {
    for (const width of [390, 1280]) {
      // ETH (native) for USDC: the route's sell end and the approval line must say ETH, never WETH.
      await openPage('?chain=base&sell=ETH&buy=USDC&amount=123.456789', width)
      await waitForOutcome('ready', parseUnits('123.456789', 18))
      await expectNoHorizontalOverflow()
      expect(await page.locator('#route svg [data-token="sell"]').textContent()).toBe('ETH')
      expect(await text('#approval')).toBe('none (ETH in)')
      for (const id of ['#amount-out', '#minimum-out']) {
        const shown = (await text(id))!
        expect(shown).toMatch(/ USDC$/)
        expect(significantDigits(shown.replace(/ USDC$/, ''))).toBeLessThanOrEqual(Math.max(SIGNIFICANT_DIGITS, shown.split('.')[0]!.replace(/\D/g, '').length))
      }
      await page.close()
    }
  })

  it('formats amounts exactly, truncated, without floats', () => {
    expect(formatAmount(2040683110n, 6)).toBe('2,040.68')
    expect(formatAmount(488_123_456_789_012n, 18)).toBe('0.000488123')
    expect(formatAmount(1_234_567_891_234n, 6)).toBe('1,234,567')
    expect(formatAmount(10n ** 18n, 18)).toBe('1')
    expect(formatAmount(1n, 18)).toBe('0.000000000000000001')
    expect(formatAmount(0n, 6)).toBe('0')
  })
})

describe('examples/web wallet page fills on a devnet through an injected wallet', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
    chain = { ...devnet.chain, executor }
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  /**
   * Opens the page on the devnet (its ChainConfig served as JSON) with a minimal injected EIP-1193
   * wallet for `account`: it shares that account, has no EIP-5792 batching, and forwards every
   * other request to anvil, which signs for its unlocked accounts. Every method it saw is logged.
   */
  async function openDevnetPage(account: Address, query: string, width = 860): Promise<void> {
    page = await browser.newPage({ viewport: { width, height: 1000 }, deviceScaleFactor: 1 })
    pageErrors = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text())
    })
    const config = JSON.stringify(chain, (_, value) => (typeof value === 'bigint' ? value.toString() : value))
    await page.route('**/devnet-chain.json', (route) => route.fulfill({ contentType: 'application/json', body: config }))
    await page.addInitScript(
      ({ rpcUrl, account }) => {
        const seen: { method: string; params: unknown }[] = []
        ;(window as unknown as { walletLog: typeof seen }).walletLog = seen
        ;(window as unknown as { ethereum: unknown }).ethereum = {
          async request({ method, params }: { method: string; params?: unknown }) {
            seen.push({ method, params })
            if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account]
            if (method.startsWith('wallet_')) throw Object.assign(new Error(`${method} is not supported`), { code: 4200 })
            const response = await fetch(rpcUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ jsonrpc: '2.0', id: seen.length, method, params: params ?? [] }),
            })
            const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
            if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
            return body.result
          },
          on() {},
          removeListener() {},
        }
      },
      { rpcUrl: anvil.rpcUrl, account },
    )
    await page.goto(`${baseUrl}?rpc=${encodeURIComponent(anvil.rpcUrl)}&config=${encodeURIComponent(`${baseUrl}devnet-chain.json`)}&${query}`)
  }

  const balanceOf = (token: Address, account: Address) =>
    token === zeroAddress
      ? anvil.publicClient.getBalance({ address: account })
      : anvil.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })

  /** Connects, waits for the simulation, fills, and checks the receiver's balance on chain. */
  async function fillThroughPage(account: Address, sell: Address, buy: Address, amount: bigint) {
    await page.waitForSelector('#result[data-state="idle"], #result[data-state="ready"], #result[data-state="error"]')
    expect(await page.locator('#error').isHidden(), (await text('#error')) ?? '').toBe(true)
    await page.click('#connect')
    await page.waitForSelector('#account[data-address]')
    expect((await data('#account', 'address'))!.toLowerCase()).toBe(account.toLowerCase())
    await page.waitForSelector('#wallet[data-state="simulated"]')
    await waitForOutcome('ready', amount)
    const quotedOut = BigInt((await data('#amount-out', 'value'))!)
    const simulatedOut = BigInt((await data('#sim-amount-out', 'value'))!)
    expect(simulatedOut).toBe(quotedOut)
    const gasLimit = BigInt((await data('#sim-gas', 'limit'))!)
    const sellBefore = await balanceOf(sell, account)
    const buyBefore = await balanceOf(buy, account)

    await page.click('#fill')
    await page.waitForSelector('#fill-status[data-state="filled"], #fill-status[data-state="error"]')
    const status = (await text('#fill-status'))!
    expect(status).toMatch(/^Filled/)
    const received = BigInt((await data('#fill-status', 'received'))!)
    const hashes = (await data('#fill-status', 'transactions'))!.split(' ') as `0x${string}`[]
    const receipts = await Promise.all(hashes.map((hash) => anvil.publicClient.getTransactionReceipt({ hash })))
    const gasPaid = receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n)

    // On chain: the receiver got exactly what the page quoted and simulated; the sell side paid amountIn.
    expect(received).toBe(quotedOut)
    expect((await balanceOf(buy, account)) - buyBefore).toBe(quotedOut)
    expect(sellBefore - (await balanceOf(sell, account))).toBe(amount + (sell === zeroAddress ? gasPaid : 0n))
    // The wallet was sent the exact approval (ERC-20 in) and the fill with the simulated gas limit.
    const sent = (await page.evaluate(() => (window as unknown as { walletLog: { method: string; params: unknown }[] }).walletLog)).filter((c) => c.method === 'eth_sendTransaction')
    expect(sent).toHaveLength(sell === zeroAddress ? 1 : 2)
    const fillRequest = (sent.at(-1)!.params as { gas?: string }[])[0]!
    expect(BigInt(fillRequest.gas!)).toBe(gasLimit)
    if (sell !== zeroAddress) {
      const allowance = await anvil.publicClient.readContract({ address: sell, abi: erc20Abi, functionName: 'allowance', args: [account, chain.executor!] })
      expect(allowance).toBe(0n)
    }
    return receipts
  }

  it('quote → simulate → approve and swap (WETH → USDC), balances checked on chain', async () => {
    const account = devnet.accounts.traders[0]!
    await openDevnetPage(account, 'sell=WETH&buy=USDC&amount=2.5')
    expect(await text('#fill')).toBe('Approve and swap')
    const receipts = await fillThroughPage(account, devnet.contracts.weth, devnet.tokens.USDC.address, parseUnits('2.5', 18))
    expect(receipts).toHaveLength(2)
  })

  it('quote → simulate → swap with native ETH in, shown as ETH, at 390 px and 1280 px', async () => {
    const account = devnet.accounts.traders[1]!
    await openDevnetPage(account, 'sell=ETH&buy=USDC&amount=1.25', 390)
    await waitForOutcome('ready', parseUnits('1.25', 18))
    expect(await page.locator('#route svg [data-token="sell"]').textContent()).toBe('ETH')
    await fillThroughPage(account, zeroAddress, devnet.tokens.USDC.address, parseUnits('1.25', 18))
    expect(await text('#fill')).toBe('Swap')
    await mkdir(repo('.tmp'), { recursive: true })
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 })
      await expectNoHorizontalOverflow()
      await page.screenshot({ path: repo(`.tmp/wallet-page-${width}.png`), fullPage: true })
      if (process.env.WEFT_DOCS_SCREENSHOT === '1') await copyFile(repo(`.tmp/wallet-page-${width}.png`), repo(`docs/images/wallet-page-${width}.png`))
    }
  })
})
