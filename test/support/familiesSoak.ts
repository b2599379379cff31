// The families soak: random markets holding every pool family (test/support/familiesMarket.ts),
// random intents quoted through getQuote on a snapshot of each market, and every quote's own
// `transaction` executed on anvil from the same state (a checkpoint restored after each). A quote
// is exact when the fill succeeds, the receiver gets exactly `amountOut` (at least `buyAmount` on
// an exact-out quote), each fee recipient exactly its fee, and the executor keeps nothing.
// `npm run soak:families -- <seeds>` runs it long (scripts/soakFamilies.ts);
// test/familiesSoak.e2e.test.ts runs a few fixed seeds.
import { type Address, numberToHex, zeroAddress } from 'viem'
import { type Pool, type Quote, QuoteError, defaultFamilies, type QuoteDetails, type QuoteIntent, createRpcSource, createSnapshotSource, getQuote } from '../../src/index.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { rpc } from '../devnet/rpc.js'
import { DEVNET_TOKENS, type DevnetSymbol } from '../devnet/universe.js'
import { type FamiliesMarket, deployFamiliesMarket } from './familiesMarket.js'
import { buildPools } from '../../src/quote/buildPools.js'
import { describeTokens } from '../../src/quote/describeTokens.js'
import { FEE_RATE_DENOMINATOR } from '../../src/quote/fees.js'
import { executeQuote } from './fill.js'
import { bestSinglePath, singlePathDelivers } from './randomMarkets.js'
import { createRandom } from './random.js'

const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee09' as Address
const REFERRAL_RECIPIENT = '0x00000000000000000000000000000000000fee0a' as Address
const SURPLUS_RECIPIENT = '0x00000000000000000000000000000000000fee0b' as Address
/** Receives the output when the quote names a receiver other than the sender. */
const OTHER_RECEIVER = '0x000000000000000000000000000000000000beef' as Address
/** Room for a fill of many paths at 6 hops (anvil's default block limit is 30M). */
const BLOCK_GAS_LIMIT = 100_000_000n
const FILL_GAS_LIMIT = 60_000_000n
/** A fill takes well under a second; one without a receipt after this long is the node's (see soakMarket). */
const FILL_TIMEOUT_MS = 30_000
/** Sizes from a hair of a token's depth up to 30% of it. */
const SMALLEST_SHARE = 1e-4
const LARGEST_SHARE = 0.3
const HOP_LIMITS = [4, 5, 6] as const
/**
 * Seconds the clock moves between a quote's block and its fill (one Base block). On a chain a fill
 * always lands in a later second than the block its quote read; anvil mines the market and a quick
 * fill within one second, and a pool last updated in the fill's second skips the accumulator
 * writes (Uniswap V2's and Aerodrome's `_update`) that the estimate charges (decisions.md, "Gas
 * estimate"): estimates up to 1.37x on a frozen clock.
 */
const SECONDS_TO_FILL = 2

/** A quote that did not execute exactly, with what it takes to reproduce it. */
export type FamiliesSoakFinding = {
  seed: number
  index: number
  /** What went wrong: `revert`, `short` / `over` (received against amountOut), `fee`, `leftover` (the executor kept tokens), `belowBuyAmount`, or `error` (getQuote threw something other than a 404/422). */
  kind: 'revert' | 'short' | 'over' | 'fee' | 'leftover' | 'belowBuyAmount' | 'error'
  /** The intent and options, one line. */
  label: string
  detail: string
  execution?: QuoteDetails['execution']
  /** The route, one swap per line: family, pool, tokens and amounts. */
  route?: string[]
}

/** What runFamiliesSoak measured. */
export type FamiliesSoakReport = {
  seeds: number[]
  quotes: number
  /** getQuote answered 404 or 422 (no route, or one too costly): counted, not findings. */
  unrouted: number
  /** The 404 and 422 answers by status and message (amounts masked), to tell a thin market from a router that gave up. */
  unroutedReasons: Record<string, number>
  /** The first 50 of them: seed, index and intent. */
  unroutedCases: string[]
  /**
   * Wrong 404s (exhaustive search on the snapshot's pools): exact-in ones where one simple path of at
   * most maxHops fills the whole sell amount, exact-out ones where one delivers the buy amount grossed
   * up by every fee the case draws and the buy token's transfer fee, plus a margin (grossOutput).
   */
  wrong404s: string[]
  executed: number
  exact: number
  findings: FamiliesSoakFinding[]
  /** Executed quotes the router ran as a flow, and those among them trading one multi-token pool from one input into two outputs. */
  flows: number
  multiOutputFlows: number
  /** Swaps executed, by `protocol/fork`. */
  swapsByFamily: Record<string, number>
  /** Longest path executed, in hops. */
  longestPath: number
  /**
   * The quote's gasEstimate against the fill's gasUsed: how many were below it (the estimate too
   * low), the extreme ratios gasEstimate / gasUsed, and every fill's ratio (for its distribution).
   */
  gas: { underestimated: number; lowestRatio: number; highestRatio: number; ratios: number[] }
  /** Fills run a second time because the node never mined the first (not findings; see soakMarket). */
  retried: number
  /** The slowest snapshot quotes (getQuote wall time, slowest first, at most SLOWEST_KEPT): refusals included, RPC-source quotes left out (their time is the node's). */
  slowest: { ms: number; label: string }[]
  seconds: number
}

/** How many of the slowest quotes the report keeps. */
const SLOWEST_KEPT = 5

/** decisions.md: gasEstimate is at most this many times the gas a fill uses. */
const MAX_GAS_RATIO = 1.3

/** What runFamiliesSoak takes. */
export type RunFamiliesSoakParameters = {
  seeds: readonly number[]
  /** Quotes per market (default 24). */
  quotesPerSeed?: number
  /** Progress and findings, a line at a time (default: none). */
  log?: (line: string) => void
}

type Side = DevnetSymbol | 'ETH'
const SIDES: readonly Side[] = [...DEVNET_TOKENS.map((t) => t.symbol), 'ETH']

/** One random intent and its getQuote options. */
type SoakCase = {
  sell: Side
  buy: Side
  kind: 'exactIn' | 'exactOut'
  share: number
  /** One quote in twenty is dust instead: 1 to 10^6 raw units, where a flow's shares at an intermediate token can round to nothing. */
  dustUnits?: bigint
  maxHops: number
  /** `gasPriceWei` for getQuote: 0 (gas-free), a random price up to 300 gwei, or absent (the snapshot's). */
  gasPriceWei?: bigint
  feeBps?: number
  referralFeeBps?: number
  /** The service fee is surplusFeeBps / 1000 bps, paid to the chain's treasury. */
  surplusFeeBps?: number
  /** The output goes to another account than the sender's. */
  otherReceiver: boolean
  /** 0 half the time: then every path's (or flow segment's) minimum is its exact quoted output, so a wei short anywhere reverts. */
  slippageBps: number
  /** Quoted through createRpcSource on the node rather than the market's snapshot. */
  rpc: boolean
}

function drawCase(random: () => number, market: FamiliesMarket): SoakCase {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const asToken = (side: Side): DevnetSymbol => (side === 'ETH' ? 'WETH' : side)
  let sell = pick(SIDES)
  let buy = pick(SIDES)
  // Two different tokens that both have pools (ETH and WETH are one token to the pools: a wrap, not a route).
  while (asToken(sell) === asToken(buy) || market.depthUsd[asToken(sell)] === 0 || market.depthUsd[asToken(buy)] === 0) {
    sell = pick(SIDES)
    buy = pick(SIDES)
  }
  return {
    sell,
    buy,
    kind: random() < 0.5 ? 'exactIn' : 'exactOut',
    share: SMALLEST_SHARE * (LARGEST_SHARE / SMALLEST_SHARE) ** random(),
    ...(random() < 0.05 ? { dustUnits: BigInt(Math.ceil(10 ** (6 * random()))) } : {}),
    maxHops: pick(HOP_LIMITS),
    ...pickGasPrice(random()),
    ...(random() < 0.4 ? { feeBps: 1 + Math.floor(random() * 100) } : {}),
    ...(random() < 0.25 ? { referralFeeBps: 1 + Math.floor(random() * 50) } : {}),
    ...(random() < 0.25 ? { surplusFeeBps: 1 + Math.floor(random() * 10_000) } : {}),
    otherReceiver: random() < 0.3,
    rpc: random() < 0.25,
    slippageBps: random() < 0.5 ? 0 : 50,
  }
}

/** Room above the grossed-up buy amount, in bps: only rounding separates the two (the single-path check is exact). */
const EXACT_OUT_MARGIN_BPS = 10n

/**
 * The gross output a route must deliver for the receiver to get `buyAmount`: grossed up by the
 * integrator, referral and service fees (as if all were taken on the output, the larger case) and by
 * the buy token's fee on transfer, plus EXACT_OUT_MARGIN_BPS. Input-side fees only change the input,
 * which an exact-output quote may raise at will.
 */
function grossOutput(buyAmount: bigint, soakCase: SoakCase, transferFeeBps: number): bigint {
  // The least gross whose share after `rate` / `denominator` is taken is at least `amount` (rounded up).
  const grossUp = (amount: bigint, rate: bigint, denominator: bigint) => (amount * denominator + denominator - rate - 1n) / (denominator - rate)
  const beforeTransfer = grossUp(buyAmount, BigInt(transferFeeBps), 10_000n)
  // Fee rates over FEE_RATE_DENOMINATOR (1e7): a bps is 1,000; the service fee is surplusFeeBps / 1000 bps.
  const feeRate = BigInt((soakCase.feeBps ?? 0) + (soakCase.referralFeeBps ?? 0)) * 1000n + BigInt(soakCase.surplusFeeBps ?? 0)
  const beforeFees = grossUp(beforeTransfer, feeRate, FEE_RATE_DENOMINATOR)
  return beforeFees + (beforeFees * EXACT_OUT_MARGIN_BPS) / 10_000n + 1n
}

/** A third gas-free, a third at the snapshot's price (about 1 gwei), a third at up to 300 gwei, where extra hops and splits cost. */
function pickGasPrice(draw: number): { gasPriceWei?: bigint } {
  if (draw < 1 / 3) return { gasPriceWei: 0n }
  if (draw < 2 / 3) return {}
  return { gasPriceWei: BigInt(Math.round(1e9 * 300 ** (3 * draw - 2))) }
}

const describeCase = (c: SoakCase) =>
  `${c.kind} ${c.sell}->${c.buy} ${c.dustUnits !== undefined ? `${c.dustUnits} raw units` : `${(c.share * 100).toPrecision(2)}% of depth`}, maxHops ${c.maxHops}, ` +
  `${c.gasPriceWei === undefined ? 'snapshot gas price' : `gas ${c.gasPriceWei} wei`}${c.feeBps ? `, fee ${c.feeBps} bps` : ''}${c.referralFeeBps ? `, referral ${c.referralFeeBps} bps` : ''}${c.surplusFeeBps ? `, surplus fee ${c.surplusFeeBps}` : ''}${c.otherReceiver ? ', another receiver' : ''}${c.rpc ? ', RPC source' : ''}, slippage ${c.slippageBps} bps`

/**
 * Runs the soak over `seeds` (one fresh anvil and market per seed) and resolves to its figures.
 * Never throws on an inexact quote: the caller asserts `findings` is empty.
 *
 * @example
 * const report = await runFamiliesSoak({ seeds: [1, 2, 3], log: console.log })
 * if (report.findings.length > 0) process.exitCode = 1
 */
export async function runFamiliesSoak({ seeds, quotesPerSeed = 24, log = () => undefined }: RunFamiliesSoakParameters): Promise<FamiliesSoakReport> {
  const started = Date.now()
  const report: FamiliesSoakReport = {
    seeds: [...seeds],
    quotes: 0,
    unrouted: 0,
    unroutedReasons: {},
    unroutedCases: [],
    wrong404s: [],
    executed: 0,
    exact: 0,
    findings: [],
    flows: 0,
    multiOutputFlows: 0,
    swapsByFamily: {},
    longestPath: 0,
    retried: 0,
    slowest: [],
    gas: { underestimated: 0, lowestRatio: Infinity, highestRatio: 0, ratios: [] },
    seconds: 0,
  }
  for (const seed of seeds) {
    let anvil: Anvil | undefined
    try {
      anvil = await startAnvil({ args: ['--gas-limit', String(BLOCK_GAS_LIMIT)] })
      const market = await deployFamiliesMarket(anvil, seed)
      const findingsBefore = report.findings.length
      const executedBefore = report.executed
      await soakMarket(anvil, market, quotesPerSeed, report, log)
      log(
        `seed ${seed}: ${market.snapshot.pools.length} pools (majors ${market.majors.join(', ')}; unlisted ${Object.keys(market.depthUsd).filter((symbol) => !market.listed.includes(symbol as DevnetSymbol)).join(', ') || 'none'}), ` +
          `${report.executed - executedBefore} executed, ${report.findings.length - findingsBefore} inexact`,
      )
    } finally {
      await anvil?.stop()
    }
  }
  report.seconds = (Date.now() - started) / 1000
  return report
}

async function soakMarket(anvil: Anvil, market: FamiliesMarket, quotes: number, report: FamiliesSoakReport, log: (line: string) => void): Promise<void> {
  const { devnet, chain } = market
  const snapshotSource = createSnapshotSource(market.snapshot)
  // The snapshot's pools as getQuote builds them, for the exhaustive single-path check of a 404.
  let built: readonly Pool[] | undefined
  const snapshotPools = () => {
    const { chainId, blockNumber, tokens, pools } = market.snapshot
    const liquidity = { chainId, blockNumber, tokens, pools, report: { roundTrips: 0, requests: 0, skipped: [] } }
    const metadata = describeTokens(chain, market.snapshot.tokens)
    built ??= buildPools(chain, liquidity, defaultFamilies, metadata, (token) => metadata.get(token)).pools
    return built
  }
  // A quarter of the quotes read the chain itself (every token a connector, so every pool is a candidate), at the checkpoint's state.
  const rpcSource = createRpcSource({ client: anvil.publicClient, chain, connectors: Object.values(devnet.tokens).map((t) => t.address) })
  const trader = devnet.accounts.traders[0]!
  // Native sells of up to 30% of the WETH depth: give the trader ETH to spare.
  await rpc(anvil.rpcUrl, 'anvil_setBalance', [trader, numberToHex(10n ** 30n)])
  // Intents draw from their own sequence, so a market's quotes are the same whatever the market draws.
  const random = createRandom(market.seed ^ 0x0f4a_11e5)
  const addressOf = (side: Side): Address => (side === 'ETH' ? zeroAddress : devnet.tokens[side].address)
  const symbolOf = new Map<string, string>([[zeroAddress, 'ETH'], ...Object.values(devnet.tokens).map((t) => [t.address, t.symbol] as [string, string])])

  for (let index = 0; index < quotes; index++) {
    const soakCase = drawCase(random, market)
    const label = describeCase(soakCase)
    const sized = devnet.tokens[soakCase.kind === 'exactIn' ? (soakCase.sell === 'ETH' ? 'WETH' : soakCase.sell) : soakCase.buy === 'ETH' ? 'WETH' : soakCase.buy]
    const depth = market.depthUsd[sized.symbol]
    const whole = (soakCase.share * depth) / sized.priceUsd
    const amount = soakCase.dustUnits ?? (BigInt(Math.max(1, Math.round(whole * 1e6))) * 10n ** BigInt(sized.decimals)) / 1_000_000n
    const intent: QuoteIntent = {
      chainId: chain.id,
      sellToken: addressOf(soakCase.sell),
      buyToken: addressOf(soakCase.buy),
      ...(soakCase.kind === 'exactIn' ? { sellAmount: amount } : { buyAmount: amount }),
      slippageBps: soakCase.slippageBps,
      priceImpactLimitBps: 10_000,
      ...(soakCase.feeBps ? { feeBps: soakCase.feeBps, feeRecipient: FEE_RECIPIENT } : {}),
      ...(soakCase.referralFeeBps ? { referralFeeBps: soakCase.referralFeeBps, referralFeeRecipient: REFERRAL_RECIPIENT } : {}),
      ...(soakCase.surplusFeeBps ? { surplusFeeBps: soakCase.surplusFeeBps, surplusFeeRecipient: SURPLUS_RECIPIENT } : {}),
      ...(soakCase.otherReceiver ? { receiver: OTHER_RECEIVER } : {}),
    }
    report.quotes++
    const finding = (kind: FamiliesSoakFinding['kind'], detail: string, quote?: Quote, details?: QuoteDetails) => {
      const found: FamiliesSoakFinding = {
        seed: market.seed,
        index,
        kind,
        label,
        detail,
        ...(details ? { execution: details.execution } : {}),
        ...(quote ? { route: describeRoute(quote, symbolOf) } : {}),
      }
      report.findings.push(found)
      log(`INEXACT seed ${market.seed} #${index} ${label}: ${kind}: ${detail}${details ? ` (${details.execution})` : ''}`)
      for (const line of found.route ?? []) log(`    ${line}`)
    }

    let quote: Quote
    let details: QuoteDetails | undefined
    const quoteStarted = performance.now()
    const timeQuote = (outcome: string) => {
      if (soakCase.rpc) return
      report.slowest.push({ ms: performance.now() - quoteStarted, label: `seed ${market.seed} #${index} ${label}: ${outcome}` })
      report.slowest.sort((a, b) => b.ms - a.ms)
      report.slowest.length = Math.min(report.slowest.length, SLOWEST_KEPT)
    }
    try {
      quote = await getQuote(intent, soakCase.rpc ? rpcSource : snapshotSource, {
        chains: [chain],
        sender: trader,
        maxHops: soakCase.maxHops,
        ...(soakCase.gasPriceWei !== undefined ? { gasPriceWei: soakCase.gasPriceWei } : {}),
        onDetails: (d) => (details = d),
      })
      timeQuote('quoted')
    } catch (error) {
      timeQuote(error instanceof QuoteError ? `${error.statusCode}` : 'threw')
      if (error instanceof QuoteError && (error.statusCode === 404 || error.statusCode === 422)) {
        report.unrouted++
        const reason = `${error.statusCode} ${error.message.replace(/\d+/g, 'N')}`
        report.unroutedReasons[reason] = (report.unroutedReasons[reason] ?? 0) + 1
        if (report.unroutedCases.length < 50) report.unroutedCases.push(`seed ${market.seed} #${index} ${label}: ${reason}`)
        if (error.statusCode === 404 && intent.sellAmount !== undefined && !soakCase.rpc) {
          const wrapped = (token: Address) => (token === zeroAddress ? devnet.tokens.WETH.address : token)
          const single = bestSinglePath(snapshotPools(), wrapped(intent.sellToken), wrapped(intent.buyToken), intent.sellAmount, soakCase.maxHops)
          if (single) {
            report.wrong404s.push(`seed ${market.seed} #${index} ${label}: a ${single.hops}-hop path gives ${single.amountOut}`)
            log(`WRONG 404 ${report.wrong404s.at(-1)}`)
          }
        }
        if (error.statusCode === 404 && intent.buyAmount !== undefined && !soakCase.rpc) {
          const wrapped = (token: Address) => (token === zeroAddress ? devnet.tokens.WETH.address : token)
          const gross = grossOutput(intent.buyAmount, soakCase, describeTokens(chain, market.snapshot.tokens).get(wrapped(intent.buyToken))?.transferFeeBps ?? 0)
          if (singlePathDelivers(snapshotPools(), wrapped(intent.sellToken), wrapped(intent.buyToken), gross, soakCase.maxHops)) {
            report.wrong404s.push(`seed ${market.seed} #${index} ${label}: a path of at most ${soakCase.maxHops} hops delivers ${gross} (${intent.buyAmount} before fees and margin)`)
            log(`WRONG 404 ${report.wrong404s.at(-1)}`)
          }
        }
        continue
      }
      finding('error', error instanceof Error ? error.message : String(error))
      continue
    }

    const checkpoint = await anvil.checkpoint()
    const fill = async () => {
      await rpc(anvil.rpcUrl, 'evm_increaseTime', [SECONDS_TO_FILL])
      return withTimeout(executeQuote(devnet, quote, intent.buyToken, trader, intent.receiver ?? trader, FILL_GAS_LIMIT), FILL_TIMEOUT_MS)
    }
    try {
      let outcome
      try {
        outcome = await fill()
      } catch (error) {
        // A fill anvil never mines (its pool can keep a transaction across a revert under load:
        // see Anvil.checkpoint) is the node's, not the quote's: run it once more from the same
        // state. A fill that fails again is a finding.
        log(`retrying seed ${market.seed} #${index} from the checkpoint: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}; ${await describeNode(anvil, trader)}`)
        report.retried++
        await checkpoint.restore()
        outcome = await fill()
      }
      report.executed++
      if (outcome.receipt.status === 'success') {
        const ratio = quote.gasEstimate / Number(outcome.receipt.gasUsed)
        if (ratio < 1) {
          report.gas.underestimated++
          log(`gas: seed ${market.seed} #${index} ${label}: gasEstimate ${quote.gasEstimate} < gasUsed ${outcome.receipt.gasUsed} (${details?.execution ?? '?'}, ${quote.route.swaps.length} paths)`)
        } else if (ratio > MAX_GAS_RATIO) {
          // decisions.md's other bound: at most 1.3x. Named, not counted as a finding.
          const forks = [...new Set(quote.route.swaps.flat().map((swap) => swap.fork))].join(' ')
          log(`gas: seed ${market.seed} #${index} ${label}: gasEstimate ${quote.gasEstimate} is ${ratio.toFixed(3)} x gasUsed ${outcome.receipt.gasUsed} (${quote.route.swaps.length} paths; ${forks})`)
        }
        report.gas.ratios.push(ratio)
        report.gas.lowestRatio = Math.min(report.gas.lowestRatio, ratio)
        report.gas.highestRatio = Math.max(report.gas.highestRatio, ratio)
      }
      const amountOut = BigInt(quote.amountOut)
      const paths = quote.route.swaps
      for (const path of paths) {
        report.longestPath = Math.max(report.longestPath, path.length)
        for (const swap of path) report.swapsByFamily[`${swap.protocol}/${swap.fork}`] = (report.swapsByFamily[`${swap.protocol}/${swap.fork}`] ?? 0) + 1
      }
      if (details?.execution === 'flow') {
        report.flows++
        if (tradesOnePoolIntoTwoOutputs(quote)) report.multiOutputFlows++
      }
      const leftovers = Object.entries(outcome.executorLeft).filter(([, left]) => left !== 0n)
      if (outcome.receipt.status !== 'success') finding('revert', `the fill reverted (gas used ${outcome.receipt.gasUsed})`, quote, details)
      else if (outcome.received !== amountOut) finding(outcome.received < amountOut ? 'short' : 'over', `received ${outcome.received}, amountOut ${amountOut} (${outcome.received - amountOut})`, quote, details)
      else if (!outcome.feesReceived.every((fee, k) => fee === BigInt(quote.fees[k]!.amount)))
        finding('fee', `fees received ${outcome.feesReceived.join(', ')}, quoted ${quote.fees.map((f) => f.amount).join(', ')}`, quote, details)
      else if (leftovers.length > 0) finding('leftover', `the executor kept ${leftovers.map(([token, left]) => `${left} ${symbolOf.get(token) ?? token}`).join(', ')}`, quote, details)
      else if (intent.buyAmount !== undefined && amountOut < intent.buyAmount) finding('belowBuyAmount', `amountOut ${amountOut} < buyAmount ${intent.buyAmount}`, quote, details)
      else report.exact++
    } catch (error) {
      finding('revert', error instanceof Error ? error.message.split('\n')[0]! : String(error), quote, details)
    } finally {
      await checkpoint.restore()
    }
  }
}

/** What the node holds when a fill gets no receipt: the sender's nonces, the base fee and the transaction pool. */
async function describeNode(anvil: Anvil, sender: Address): Promise<string> {
  try {
    const [latest, pending, block, pool] = await Promise.all([
      rpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [sender, 'latest']),
      rpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [sender, 'pending']),
      rpc<{ number: string; baseFeePerGas: string }>(anvil.rpcUrl, 'eth_getBlockByNumber', ['latest', false]),
      rpc<unknown>(anvil.rpcUrl, 'txpool_inspect', []),
    ])
    return `sender nonce ${Number(latest)} (pending ${Number(pending)}), block ${Number(block.number)} base fee ${BigInt(block.baseFeePerGas)}, pool ${JSON.stringify(pool)}`
  } catch (error) {
    return `node not described: ${error instanceof Error ? error.message : String(error)}`
  }
}

/**
 * `promise`, or a rejection after `ms` (the promise's own later rejection is then ignored): a fill
 * the node never mines would otherwise hold the run for viem's 180 s receipt timeout.
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => undefined)
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no receipt within ${ms / 1000} s`)), ms)
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}

/** Whether one pool of three or more tokens is traded from one input into two different outputs. */
function tradesOnePoolIntoTwoOutputs(quote: Quote): boolean {
  const outputs = new Map<string, Set<string>>()
  for (const path of quote.route.swaps)
    for (const swap of path) {
      const key = `${swap.key}:${swap.tokenIn}`
      outputs.set(key, (outputs.get(key) ?? new Set()).add(swap.tokenOut))
    }
  return [...outputs.values()].some((set) => set.size > 1)
}

function describeRoute(quote: Quote, symbolOf: ReadonlyMap<string, string>): string[] {
  const name = (token: string) => symbolOf.get(token) ?? token
  return quote.route.swaps.flatMap((path, p) =>
    path.map((swap, h) => `path ${p} hop ${h}: ${swap.protocol}/${swap.fork} ${swap.key.slice(0, 12)} ${swap.amountIn} ${name(swap.tokenIn)} -> ${swap.amountOut} ${name(swap.tokenOut)}`),
  )
}

