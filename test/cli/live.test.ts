// Replay bundles and `weft quote --watch` on a node: a devnet that looks like Base
// (baseDevnet.ts, the real Uniswap V2 bytecode). Quotes recorded from the RPC source (through the
// CLI's --record) and from a live source following the devnet replay byte for byte through
// `weft replay`; a corrupted bundle is a 400 naming what is wrong; --watch prints one quote per
// new block, each exactly what the pair gives at that block, and stops cleanly.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Quote, base, createLiveSource, recordQuote, replayQuote } from '../../src/index.js'
import { type Anvil, uniswapV2PairAbi } from '../devnet/index.js'
import { type BaseDevnet, PAIR, USDC, WETH, startBaseDevnet } from './baseDevnet.js'
import { runWeft, weftNodeArgs } from './runWeft.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'weft-replay-'))
let devnet: BaseDevnet
let anvil: Anvil

beforeAll(async () => {
  devnet = await startBaseDevnet()
  anvil = devnet.anvil
})

afterAll(async () => {
  await anvil?.stop()
})

/** What the pair pays for `amountIn` WETH at `blockNumber` (UniswapV2Library.getAmountOut). */
async function pairOutput(amountIn: bigint, blockNumber: number): Promise<bigint> {
  const [reserve0, reserve1] = await anvil.publicClient.readContract({ address: PAIR, abi: uniswapV2PairAbi, functionName: 'getReserves', blockNumber: BigInt(blockNumber) })
  const [reserveIn, reserveOut] = WETH < USDC ? [reserve0, reserve1] : [reserve1, reserve0]
  return (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
}

describe('replay bundles from a node', () => {
  test('weft quote --rpc --record, then weft replay: the same Quote JSON, byte for byte', async () => {
    const file = join(dir, 'rpc.json')
    const quoted = await runWeft(['quote', '--chain', 'base', '--rpc', anvil.rpcUrl, '--sell', 'WETH', '--buy', 'USDC', '--amount', '1.5', '--json', '--record', file])
    expect(quoted.stderr).toBe('')
    expect(quoted.code).toBe(0)
    const replayed = await runWeft(['replay', file, '--json'])
    expect(replayed.stderr).toBe('')
    expect(replayed.code).toBe(0)
    expect(replayed.stdout).toBe(quoted.stdout)
    const quote = JSON.parse(quoted.stdout) as Quote
    expect(BigInt(quote.amountOut)).toBe(await pairOutput(15n * 10n ** 17n, quote.blockNumber))
    const summary = await runWeft(['replay', file])
    expect(summary.code).toBe(0)
    expect(summary.stdout.split('\n')[0]).toBe(`replay of a quote on Base at block ${quote.blockNumber} (1 pool), recorded with weft 0.1.0`)
    expect(summary.stdout.trimEnd().split('\n').at(-1)).toBe('identical to the recorded quote, byte for byte')
  })

  test('a live source following the devnet: bundles at two blocks replay byte for byte (in process and through weft replay)', async () => {
    const live = createLiveSource({ client: anvil.publicClient, chain: base, fromBlock: 0n })
    await live.sync()
    const intent = { chainId: base.id, sellToken: WETH, buyToken: USDC, sellAmount: 2n * 10n ** 18n }
    const first = await recordQuote(intent, live)
    await devnet.swapWethForUsdc(10n ** 18n)
    await live.sync()
    const second = await recordQuote(intent, live, { sender: devnet.from, deadlineSeconds: 120 })
    expect(second.quote.blockNumber).toBeGreaterThan(first.quote.blockNumber)
    // The pair of a token that is neither traded nor major is left out of the bundles.
    expect([first.pools, second.pools]).toEqual([{ answered: 2, kept: 1 }, { answered: 2, kept: 1 }])
    for (const { quote, bundle } of [first, second]) {
      expect(BigInt(quote.amountOut)).toBe(await pairOutput(intent.sellAmount, quote.blockNumber))
      const file = join(dir, `live-${quote.blockNumber}.json`)
      writeFileSync(file, JSON.stringify(bundle))
      const inProcess = await replayQuote(JSON.parse(readFileSync(file, 'utf8')))
      expect(JSON.stringify(inProcess.quote)).toBe(JSON.stringify(quote))
      const cli = await runWeft(['replay', file, '--json'])
      expect(cli.code).toBe(0)
      expect(cli.stdout.trimEnd()).toBe(JSON.stringify(quote, null, 2))
    }
    // Different blocks, different quotes: the bundles do not just echo a cached answer.
    expect(second.quote.amountOut).not.toBe(first.quote.amountOut)
  })

  test('a corrupted bundle: a clear 400 (exit 1), never a crash', async () => {
    const file = join(dir, 'rpc.json')
    const text = readFileSync(file, 'utf8')
    const truncated = join(dir, 'truncated.json')
    writeFileSync(truncated, text.slice(0, text.length / 2))
    const cut = await runWeft(['replay', truncated])
    expect(cut.code).toBe(1)
    expect(cut.stderr).toMatch(/^error 400 invalid_request: Invalid request: bundle is not JSON \(/)

    const edited = JSON.parse(text) as { liquidity: { pools: unknown[]; blockNumber: unknown }; options: { id: unknown } }
    edited.liquidity.pools[0] = 'a pool'
    edited.liquidity.blockNumber = -1
    edited.options.id = 42
    const bad = join(dir, 'edited.json')
    writeFileSync(bad, JSON.stringify(edited))
    const run = await runWeft(['replay', bad])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n').slice(1, 4)).toEqual([
      '  bundle.liquidity.blockNumber: must be a non-negative integer',
      '  bundle.liquidity.pools[0]: must be a pool state (an object with family, dex and address)',
      '  bundle.options.id: must be the quote id (a UUID)',
    ])

    const usage = await runWeft(['replay'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/^error: missing the bundle file/)
  })
})

/** `weft quote --watch` as a child process whose output lines arrive as they are printed. */
async function startWatch(args: readonly string[]) {
  const child: ChildProcess = spawn(process.execPath, [...(await weftNodeArgs()), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  const lines: string[] = []
  let stderr = ''
  let waiting: { count: number; resolve: () => void } | undefined
  let buffered = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString()
    const parts = buffered.split('\n')
    buffered = parts.pop()!
    lines.push(...parts)
    if (waiting && lines.length >= waiting.count) waiting.resolve()
  })
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    /** Resolves once a `--json` line quotes block `blockNumber`. */
    waitForBlock: (blockNumber: number) =>
      new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          const last = lines.at(-1)
          if (last && (JSON.parse(last) as Quote).blockNumber === blockNumber) {
            clearInterval(check)
            clearTimeout(timer)
            resolve()
          }
        }, 25)
        const timer = setTimeout(() => {
          clearInterval(check)
          reject(new Error(`never reached block ${blockNumber}: ${lines.length} lines; stderr: ${stderr}`))
        }, 30_000)
      }),
    /** Resolves once `count` lines were printed. */
    waitForLines: (count: number) =>
      new Promise<void>((resolve, reject) => {
        if (lines.length >= count) return resolve()
        const timer = setTimeout(() => reject(new Error(`only ${lines.length} lines after 30 s; stderr: ${stderr}`)), 30_000)
        waiting = { count, resolve: () => (clearTimeout(timer), resolve()) }
      }),
  }
}

describe('weft quote --watch', () => {
  const watchArgs = () => ['quote', '--chain', 'base', '--rpc', anvil.rpcUrl, '--sell', 'WETH', '--buy', 'USDC', '--amount', '1', '--watch', '--interval', '50']

  test('one quote per new block, each exactly what the pair gives at it; the end of the input stops it (exit 0)', async () => {
    const watch = await startWatch([...watchArgs(), '--json'])
    await watch.waitForLines(1)
    // Third parties trade (each swap is three blocks: deposit, transfer, swap); the watch quotes
    // the head it finds at each poll, so blocks mined between two polls print once.
    for (const amount of [3n, 5n]) {
      await devnet.swapWethForUsdc(amount * 10n ** 18n)
      await watch.waitForBlock(Number(await anvil.publicClient.getBlockNumber()))
    }
    watch.child.stdin!.end()
    expect(await watch.exited).toBe(0)
    expect(watch.stderr()).toBe('')
    const quotes = watch.lines.map((line) => JSON.parse(line) as Quote)
    expect(quotes.length).toBeGreaterThanOrEqual(3)
    const blocks = quotes.map((q) => q.blockNumber)
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b))
    expect(new Set(blocks).size).toBe(blocks.length)
    for (const quote of quotes) expect(BigInt(quote.amountOut)).toBe(await pairOutput(10n ** 18n, quote.blockNumber))
    expect(new Set(quotes.map((q) => q.amountOut)).size).toBeGreaterThanOrEqual(2)
  })

  test('compact lines; Ctrl-C stops it (exit 0); --blocks stops by itself', async () => {
    const watch = await startWatch(watchArgs())
    await watch.waitForLines(1)
    await devnet.swapWethForUsdc(10n ** 17n)
    await watch.waitForLines(2)
    watch.child.kill('SIGINT')
    expect(await watch.exited).toBe(0)
    for (const line of watch.lines)
      expect(line).toMatch(/^block \d+ {2}1 WETH -> [\d.]+ USDC {2}min [\d.]+ {2}impact [\d.]+ bps {2}gas [\d,]+ {2}via 0x[0-9a-f]{4}…[0-9a-f]{4} {2}[\d.]+ ms$/)

    const bounded = await runWeft([...watchArgs(), '--blocks', '1'])
    expect(bounded.code).toBe(0)
    expect(bounded.stdout.trimEnd().split('\n')).toHaveLength(1)
    const noNode = await runWeft(['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC', '--amount', '1', '--watch'])
    expect(noNode.code).toBe(2)
    expect(noNode.stderr).toMatch(/^error: --watch needs --rpc <url>/)
  })
})
