// The wallet page of examples/web in a real headless Chromium: built with
// Vite, served by `vite preview`, driven by playwright-core. Every number the
// page shows is checked against getQuote run here in Node on the same
// liquidity and intent. Chromium is required (CI installs it): no skip.
//
// Screenshot: .tmp/wallet-page.png on every run; with WEFT_DOCS_SCREENSHOT=1
// also docs/images/wallet-page.png (the committed copy).
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, type Page, chromium } from 'playwright-core'
import { formatUnits, parseUnits } from 'viem'
import { type PreviewServer, build, preview } from 'vite'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { getPathShare, getStrokeWidth } from '../../examples/web/routeSvg.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { type LiquiditySource, type Quote, type QuoteIntent, QuoteError, base, createRpcSource, createSnapshotSource, getQuote } from '../../src/index.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'

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

async function openPage(query = ''): Promise<Page> {
  page = await browser.newPage({ viewport: { width: 860, height: 900 }, deviceScaleFactor: 1 })
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
 * random and sits in the calldata, so it moves the gas estimate by a few gas).
 */
async function getPageQuote(intent: QuoteIntent, source: LiquiditySource): Promise<Quote> {
  const id = await data('#result', 'quote-id')
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  return getQuote(intent, source, { id: id! })
}

/** What the page shows must be what getQuote gives in Node: amounts, impact, fees, calldata, and one SVG path per route path. */
async function expectPageShows(quote: Quote): Promise<void> {
  expect(await data('#amount-out', 'value')).toBe(quote.amountOut)
  expect(await text('#amount-out')).toBe(`${formatUnits(BigInt(quote.amountOut), 6)} USDC`)
  expect(await data('#minimum-out', 'value')).toBe(quote.minimumAmountOut)
  expect(await text('#minimum-out')).toBe(`${formatUnits(BigInt(quote.minimumAmountOut), 6)} USDC`)
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
