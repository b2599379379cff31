import { type Address, type PublicClient, createPublicClient, getAddress, http, isAddress } from 'viem'
import { listChains } from '../chains/listChains.js'
import { resolveChains } from '../chains/registry.js'
import type { ChainConfig } from '../chains/types.js'
import { defaultSnapshot } from '../defaultSnapshot.js'
import { QuoteError, invalidParams, unavailable } from '../errors/QuoteError.js'
import { createRpcSource } from '../liquidity/createRpcSource.js'
import { createSnapshotSource } from '../liquidity/createSnapshotSource.js'
import type { LiquiditySource } from '../liquidity/types.js'
import { getQuote } from '../quote/getQuote.js'
import { simulateQuote } from '../wallet/simulateQuote.js'
import { formatChains } from './formatChains.js'
import { createTokenDescriber } from './formatParts.js'
import { formatQuote } from './formatQuote.js'
import { formatSimulation } from './formatSimulation.js'
import { CliUsageError, parseCliArgs } from './parseCliArgs.js'
import { recordLiquidity, getFeeTiers } from './recordLiquidity.js'
import { quoteOptionSpec, resolveQuoteArgs } from './resolveQuoteArgs.js'
import { formatReplay } from './runReplay.js'
import { runWatch } from './runWatch.js'
import { recordQuote } from '../liquidity/live/replayRecordQuote.js'
import { chainsUsage, mainUsage, quoteUsage, replayUsage } from './usage.js'

/**
 * Where the CLI writes (one call per block of text, without its trailing newline), and what the
 * host lends it: files (`weft replay`, `--record`) and the user's stop (`--watch`). Without them
 * those commands answer a usage error.
 */
export type CliIo = {
  out: (text: string) => void
  err: (text: string) => void
  readFile?: (path: string) => Promise<string>
  writeFile?: (path: string, text: string) => Promise<void>
  /** Subscribes to the user's stop (Ctrl-C, end of input); returns the unsubscribe. */
  onStop?: (listener: () => void) => () => void
}

/** Exit codes: 0 done, 1 the quote (or node) failed with a QuoteError, 2 bad usage. */
export type CliExitCode = 0 | 1 | 2

/**
 * The `weft` command line, without the process: reads `argv` (the words after
 * the program name), writes to `io`, and resolves to the exit code. Never
 * throws. Commands: `quote`, `chains`, `help`; see `weft --help`.
 *
 * @example
 * const code = await runCli(['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC', '--amount', '1.5'],
 *   { out: console.log, err: console.error })
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<CliExitCode> {
  const [command, ...rest] = argv
  let usage = mainUsage
  try {
    if (command === undefined) throw new CliUsageError('missing command')
    if (command === '-h' || command === '--help' || (command === 'help' && rest.length === 0)) {
      io.out(mainUsage)
      return 0
    }
    if (command === 'help') {
      const topics: Record<string, string> = { quote: quoteUsage, chains: chainsUsage, replay: replayUsage }
      const topic = rest[0] !== undefined && Object.hasOwn(topics, rest[0]) ? topics[rest[0]] : undefined
      if (topic === undefined || rest.length > 1) throw new CliUsageError(`no help on ${rest.join(' ')}`)
      io.out(topic)
      return 0
    }
    if (command === 'quote') {
      usage = quoteUsage
      return await runQuote(rest, io)
    }
    if (command === 'replay') {
      usage = replayUsage
      return await runReplay(rest, io)
    }
    if (command === 'chains') {
      usage = chainsUsage
      const { values, positionals } = parseCliArgs(rest, { json: 'boolean', help: 'boolean' })
      if (values.help) {
        io.out(chainsUsage)
        return 0
      }
      if (positionals.length > 0) throw new CliUsageError(`unexpected argument ${positionals[0]}`)
      const chains = listChains()
      io.out(values.json ? JSON.stringify(chains, null, 2) : formatChains(chains))
      return 0
    }
    throw new CliUsageError(command.startsWith('-') ? `unknown option ${command} (give a command first)` : `unknown command ${command}`)
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.err(`error: ${error.message}\n\n${usage}`)
      return 2
    }
    const quoteError =
      error instanceof QuoteError
        ? error
        : new QuoteError({ statusCode: 500, message: error instanceof Error ? error.message : String(error), cause: error })
    io.err(formatError(quoteError))
    return 1
  }
}

/**
 * A QuoteError as the CLI prints it: `error <statusCode> <code>: <message>`, then one indented line per detail.
 *
 * @example
 * formatError(invalidParams([{ param: 'sellToken', message: 'is required' }]))
 * // error 400 invalid_request: Invalid request: sellToken is required
 * //   sellToken: is required
 */
export function formatError(error: QuoteError): string {
  const details = (error.details ?? []).map((d) => `  ${d.param}: ${d.message}`)
  return [`error ${error.statusCode} ${error.code}: ${error.message}`, ...details].join('\n')
}

async function runQuote(argv: readonly string[], io: CliIo): Promise<CliExitCode> {
  const { values, positionals } = parseCliArgs(argv, quoteOptionSpec)
  if (values.help) {
    io.out(quoteUsage)
    return 0
  }
  if (positionals.length > 0) throw new CliUsageError(`unexpected argument ${positionals[0]}`)
  const rpcUrl = typeof values.rpc === 'string' ? values.rpc : undefined
  const simulate = values.simulate === true
  if (simulate && rpcUrl === undefined) throw new CliUsageError('--simulate needs --rpc <url>: a node to simulate on')
  if (simulate && values.from === undefined) throw new CliUsageError('--simulate needs --from <address>: the account that sends the fill')
  let sender: Address | undefined
  if (typeof values.from === 'string') {
    if (!isAddress(values.from, { strict: false })) throw invalidParams([{ param: 'from', message: 'must be an address' }])
    sender = getAddress(values.from)
  }
  const watch = values.watch === true
  if (watch && rpcUrl === undefined) throw new CliUsageError('--watch needs --rpc <url>: a node to follow')
  if (watch && (simulate || values.record !== undefined)) throw new CliUsageError('--watch quotes every block: it takes neither --simulate nor --record')
  if (!watch && ['from-block', 'interval', 'blocks'].some((name) => values[name] !== undefined))
    throw new CliUsageError('--from-block, --interval and --blocks go with --watch')
  const recordTo = typeof values.record === 'string' ? values.record : undefined
  if (recordTo !== undefined && !io.writeFile) throw new CliUsageError('--record needs a host that can write files')
  const node = rpcUrl === undefined ? undefined : connectNode(rpcUrl)

  const chains = resolveChains()
  const { chain, intent, tokens } = await resolveQuoteArgs(values, {
    chains,
    tokenLists: defaultSnapshot,
    ...(node ? { getDecimals: node.getDecimals } : {}),
  })
  const inner: LiquiditySource = node
    ? createRpcSource({ client: await node.connect(chain), chain })
    : createSnapshotSource(defaultSnapshot)
  if (watch && node) {
    if (!io.onStop) throw new CliUsageError('--watch needs a host that can tell it to stop')
    return await runWatch({
      client: await node.connect(chain),
      chain,
      intent,
      tokens,
      fromBlock: BigInt(readCount(values['from-block'], 'from-block', 0)),
      intervalMs: readCount(values.interval, 'interval', 1_000),
      maxBlocks: values.blocks === undefined ? undefined : readCount(values.blocks, 'blocks', 0),
      json: values.json === true,
      sender,
      out: io.out,
      err: io.err,
      onStop: io.onStop,
    })
  }
  const source = recordLiquidity(inner)
  const options = sender ? { sender } : {}
  const { quote, bundle } = recordTo !== undefined ? await recordQuote(intent, source, options) : { quote: await getQuote(intent, source, options), bundle: undefined }
  if (bundle !== undefined) await io.writeFile!(recordTo!, `${JSON.stringify(bundle)}\n`)
  // Simulated before anything is printed: a revert is printed after the quote, decoded.
  const simulation =
    simulate && node && sender
      ? await simulateQuote({ client: await node.connect(chain), quote, sender }).then(
          (simulated) => ({ simulated, error: null }),
          (error: unknown) => ({ simulated: null, error: error instanceof QuoteError ? error : toCliError(error) }),
        )
      : null
  if (values.json) {
    const body = simulation ? { quote, simulation: simulation.simulated ?? { error: simulation.error!.toJSON() } } : quote
    io.out(JSON.stringify(body, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2))
    if (simulation?.error) io.err(formatError(simulation.error))
    return simulation?.error ? 1 : 0
  }
  const liquidity = source.last
  const from = node ? `node ${rpcUrl}` : 'the embedded default snapshot (synthetic liquidity, not market data)'
  const summary = formatQuote(quote, [...tokens, ...(liquidity?.tokens ?? [])], {
    intent,
    chain,
    ...(liquidity ? { feeTiers: getFeeTiers(liquidity, chain) } : {}),
    ...(liquidity?.gasPriceWei !== undefined ? { gasPriceWei: liquidity.gasPriceWei } : {}),
  })
  io.out(`quote on ${chain.name} from ${from}\n\n${summary}`)
  if (recordTo !== undefined) io.out(`\nreplay bundle written to ${recordTo} (weft replay ${recordTo})`)
  if (simulation?.simulated) {
    const describe = createTokenDescriber(quote.tokens, [...tokens, ...(liquidity?.tokens ?? [])])
    io.out(`\n${formatSimulation(simulation.simulated, quote, { describe, sender: sender!, buyToken: intent.buyToken })}`)
  }
  if (simulation?.error) {
    io.err(formatError(simulation.error))
    return 1
  }
  return 0
}

async function runReplay(argv: readonly string[], io: CliIo): Promise<CliExitCode> {
  const { values, positionals } = parseCliArgs(argv, { json: 'boolean', help: 'boolean' })
  if (values.help) {
    io.out(replayUsage)
    return 0
  }
  if (positionals.length !== 1) throw new CliUsageError(positionals.length === 0 ? 'missing the bundle file' : `unexpected argument ${positionals[1]}`)
  if (!io.readFile) throw new CliUsageError('weft replay needs a host that can read files')
  const path = positionals[0]!
  let text: string
  try {
    text = await io.readFile(path)
  } catch (error) {
    throw invalidParams([{ param: 'bundle', message: `could not be read from ${path} (${error instanceof Error ? error.message : String(error)})` }])
  }
  const { stdout, stderr, code } = await formatReplay(text, { json: values.json === true })
  io.out(stdout)
  if (stderr !== undefined) io.err(stderr)
  return code
}

/** A whole number option (`--interval 500`), or its default when absent; anything else is a 400 naming it. */
function readCount(value: string | true | undefined, param: string, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value)) throw invalidParams([{ param, message: 'must be a whole number' }])
  return Number(value)
}

const toCliError = (error: unknown) => new QuoteError({ statusCode: 500, message: error instanceof Error ? error.message : String(error), cause: error })

const decimalsAbi = [{ type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] }] as const

/**
 * A JSON-RPC node for `--rpc`, checked once to serve the quoted chain: a node
 * of another chain is a 400 on `rpc`, an unreachable one a 503.
 */
function connectNode(url: string) {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {
    parsed = undefined
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw invalidParams([{ param: 'rpc', message: 'must be an http(s) URL' }])
  const client = createPublicClient({ transport: http(url, { retryCount: 1, timeout: 20_000 }) }) as PublicClient
  let checked: Promise<PublicClient> | undefined

  const connect = (chain: ChainConfig): Promise<PublicClient> => {
    checked ??= client.getChainId().then(
      (id) => {
        if (id !== chain.id) throw invalidParams([{ param: 'rpc', message: `serves chain ${id}, not ${chain.name} (${chain.id})` }])
        return client
      },
      (error: unknown) => {
        throw unavailable(`The RPC node at ${url} did not answer eth_chainId`, error)
      },
    )
    return checked
  }
  const getDecimals = async (chain: ChainConfig, address: string): Promise<number | undefined> => {
    await connect(chain)
    try {
      return await client.readContract({ address: address as `0x${string}`, abi: decimalsAbi, functionName: 'decimals' })
    } catch {
      return undefined
    }
  }
  return { connect, getDecimals }
}
