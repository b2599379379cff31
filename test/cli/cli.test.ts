// `weft` as a user runs it: a child process (src/cli/main.ts bundled as dist/cli.js is; the README
// invocation through tsx, as `npm run quote` does), its stdout, stderr and exit code. The JSON it
// prints is compared with getQuote's own result for the same intent.
import { type Address, formatUnits, zeroAddress } from 'viem'
import { describe, test } from 'vitest'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { type Quote, type QuoteIntent, createSnapshotSource, getQuote, listChains } from '../../src/index.js'
import { parseRouteTree } from './routeTree.js'
import { runWeft } from './runWeft.js'

const WETH: Address = '0x4200000000000000000000000000000000000006'
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const FEE_TO: Address = '0x000000000000000000000000000000000000fee1'
const source = createSnapshotSource(defaultSnapshot)

/** getQuote for the intent, with the CLI quote's id (the only field that differs between two runs; the calldata carries it). */
/**
 * getQuote in this process with the CLI's quote id and clock: the fill's deadline sits in the
 * calldata, counted from the CLI's clock, whose milliseconds open its UUID v7 id (48 bits).
 */
const libraryQuote = (intent: QuoteIntent, cli: Quote) => {
  const cliClock = parseInt(cli.id.replace(/-/g, '').slice(0, 12), 16)
  return getQuote(intent, source, { id: cli.id, now: () => cliClock })
}

// Each test waits on child processes only: they run side by side.
describe.concurrent('weft quote', () => {
  test('the README invocation prints the summary and the route tree', async ({ expect }) => {
    const run = await runWeft(['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC', '--amount', '1.5'], { via: 'tsx' })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const quote = await getQuote({ chainId: 8453, sellToken: WETH, buyToken: USDC, sellAmount: 15n * 10n ** 17n }, source)
    expect(run.stdout).toMatch(/^sell +1\.5 WETH {2}\(0x4200…0006\)$/m)
    expect(run.stdout).toMatch(new RegExp(`^buy +${formatUnits(BigInt(quote.amountOut), 6).replace('.', '\\.')} USDC `, 'm'))
    expect(run.stdout).toMatch(new RegExp(`^minimum +${formatUnits(BigInt(quote.minimumAmountOut), 6).replace('.', '\\.')} USDC `, 'm'))
    expect(run.stdout).toMatch(/^approval +approve 1\.5 WETH to 0x[0-9a-f]{40}$/m)
    const tree = parseRouteTree(run.stdout)
    expect(tree.branches).toHaveLength(quote.route.swaps.length)
    expect(tree.branches.reduce((sum, b) => sum + b.shareUnits, 0)).toBe(10_000)
  })

  test('a split route: one branch per path, shares adding up to 100%, one line per swap', async ({ expect }) => {
    const args = ['quote', '--chain', 'base', '--sell', 'AERO', '--buy', 'DEGEN', '--amount', '100000']
    const [summary, json] = await Promise.all([runWeft(args), runWeft([...args, '--json'])])
    expect([summary.code, json.code]).toEqual([0, 0])
    const quote = JSON.parse(json.stdout) as Quote
    const tree = parseRouteTree(summary.stdout)
    expect(tree.branches).toHaveLength(quote.route.swaps.length)
    expect(tree.branches.map((b) => b.swaps.length)).toEqual(quote.route.swaps.map((p) => p.length))
    expect(tree.branches.reduce((sum, b) => sum + b.shareUnits, 0)).toBe(10_000)
  })

  test('--json is the Quote getQuote returns for the same intent', async ({ expect }) => {
    const run = await runWeft(['quote', '--chain', 'base', '--sell', 'USDC', '--buy', 'ETH', '--amount', '250000', '--json',
      '--slippageBps', '30', '--feeBps', '20', '--feeRecipient', FEE_TO])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const cli = JSON.parse(run.stdout) as Quote
    const expected = await libraryQuote(
      { chainId: 8453, sellToken: USDC, buyToken: zeroAddress, sellAmount: 250_000n * 10n ** 6n, slippageBps: 30, feeBps: 20, feeRecipient: FEE_TO, appId: null },
      cli,
    )
    expect(cli).toStrictEqual(JSON.parse(JSON.stringify(expected)))
    expect(run.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`)
  })

  test('symbols in any case, addresses in any case and raw spec amounts give the same quote', async ({ expect }) => {
    const runs = await Promise.all([
      runWeft(['quote', '--chain', 'base', '--sell', 'weth', '--buy', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '--amount', '2', '--json']),
      runWeft(['quote', '--chainId', '8453', '--sellToken', WETH, '--buyToken', USDC, '--sellAmount', '2000000000000000000', '--json']),
    ])
    expect(runs.map((r) => r.code)).toEqual([0, 0])
    const intent: QuoteIntent = { chainId: 8453, sellToken: WETH, buyToken: USDC, sellAmount: 2n * 10n ** 18n }
    for (const run of runs) {
      const cli = JSON.parse(run.stdout) as Quote
      expect(cli).toStrictEqual(JSON.parse(JSON.stringify(await libraryQuote(intent, cli))))
    }
  })

  test('ETH is the native token; --buy-amount is an exact output in the buy token decimals', async ({ expect }) => {
    const run = await runWeft(['quote', '--chain', 'base', '--sell', 'ETH', '--buy', 'USDC', '--buy-amount', '1000', '--json'])
    expect(run.code).toBe(0)
    const cli = JSON.parse(run.stdout) as Quote
    const expected = await libraryQuote({ chainId: 8453, sellToken: zeroAddress, buyToken: USDC, buyAmount: 1000n * 10n ** 6n }, cli)
    expect(cli).toStrictEqual(JSON.parse(JSON.stringify(expected)))
    expect(cli.approval).toBeNull()
    expect(cli.transaction.value).toBe(cli.amountIn)
    expect(BigInt(cli.amountOut)).toBeGreaterThanOrEqual(1000n * 10n ** 6n)
  })

  test('an unknown token: the error line, its details, exit code 1', async ({ expect }) => {
    const run = await runWeft(['quote', '--chain', 'base', '--sell', 'NOPE', '--buy', 'USDC', '--amount', '1'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    const lines = run.stderr.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^error 400 invalid_request: Invalid request: sellToken "NOPE" is not a token symbol of Base/)
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^ {2}sellToken: "NOPE" is not a token symbol of Base/)])
  })

  test('a quote error from getQuote: the spec message, exit code 1', async ({ expect }) => {
    const run = await runWeft(['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC', '--amount', '1', '--priceImpactLimitBps', '0'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^error 400 invalid_request: Price impact of [\d.]+ bps too high \(limit = 0 bps\)\n$/)
  })

  test.for<[string[], string]>([
    [['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC'], 'missing the amount'],
    [['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC', '--amount', '1', '--bogus', '2'], 'unknown option --bogus'],
    [['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC', '--amount'], 'option --amount needs a value'],
    [['frobnicate'], 'unknown command frobnicate'],
    [[], 'missing command'],
  ])('bad usage %j: exit code 2 and the usage', async ([args, message], { expect }) => {
    const run = await runWeft(args)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(new RegExp(`^error: ${message}[^\n]*\n\nusage: weft `))
  })
})

describe.concurrent('weft chains and help', () => {
  test('weft chains is the table of listChains()', async ({ expect }) => {
    const run = await runWeft(['chains'])
    expect(run.code).toBe(0)
    const rows = run.stdout.trimEnd().split('\n').slice(1).map((line) => line.split(/\s+/).slice(0, 2))
    expect(rows).toEqual(listChains().chains.map((c) => [String(c.id), c.name]))
  })

  test.for<[string[], RegExp]>([
    [['--help'], /^usage: weft <command>/],
    [['-h'], /^usage: weft <command>/],
    [['quote', '--help'], /^usage: weft quote --chain/],
    [['help', 'quote'], /^usage: weft quote --chain/],
    [['replay', '--help'], /^usage: weft replay <bundle\.json>/],
    [['help', 'replay'], /^usage: weft replay <bundle\.json>/],
  ])('%j prints the usage, exit code 0', async ([args, usage], { expect }) => {
    const run = await runWeft(args)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(usage)
    expect(run.stderr).toBe('')
  })

  test('the quote usage names every spec parameter', async ({ expect }) => {
    const { stdout } = await runWeft(['quote', '--help'])
    for (const name of ['chainId', 'sellToken', 'buyToken', 'sellAmount', 'buyAmount', 'slippageBps', 'priceImpactLimitBps', 'receiver',
      'feeBps', 'feeRecipient', 'surplusFeeBps', 'surplusFeeRecipient', 'referralFeeBps', 'referralFeeRecipient', 'x-app-id'])
      expect(stdout).toContain(`--${name}`)
  })
})
