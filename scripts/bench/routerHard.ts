// The hard-market router section (`npm run bench -- router-hard`): weft's getQuote on
// generated hard markets (hardMarket.ts) of 10 / 100 / 1,000 / 10,000 pools, at two hop limits side
// by side: getQuote's default (4) and its most (MAX_HOPS, 6, Tines' own limit), each against
// - the independent optimum at the same limit (networkOptimum.ts, not importing src/router): the
//   convex dual over every pool and its exact integer plan, unlimited and on the network layered
//   by hop count (layerNetwork), the best exact plan within the limit taken, gas-free;
// - the best single path, a 5%-grid splitter over the best paths found, and Sushi's Tines, each
//   within the limit, executed exactly, at three gas prices;
// - getQuote's warm latency (the default limit is the target; the most is shown).
// Prints the worst cases with their seeds; returns summary rows, each MET or MISSED.
// Sizes: BENCH_HARD=quick (a small run), BENCH_HARD_CLASSES=10,100 (which pool counts),
// BENCH_HARD_SEEDS=<pools>:<seed>[,...] (one universe each, to reproduce a worst case),
// BENCH_HARD_LATENCY=<samples> per class (default 500), BENCH_HARD_LATENCY_SECONDS (time box per class),
// BENCH_HARD_WARMUP=<quotes> and BENCH_HARD_WARMUP_SECONDS before them (default 600 per trade, at least 8,000, or 10 s: warmUp.ts),
// BENCH_HARD_DEBUG=<trade>@<size>[,...] (e.g. H16->H19@0.1%; runs only those cases and prints weft's
// paths at each limit next to the optimum's plans and Tines' paths, to compare what each trades),
// BENCH_HARD_DUMP=<file> (writes every case's net values per limit and gas price as JSON, to compare
// two router versions case by case).
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { Address } from 'viem'
import { QuoteError } from '../../src/errors/QuoteError.js'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import type { Pool } from '../../src/protocols/types.js'
import { getQuote } from '../../src/quote/getQuote.js'
import { DEFAULT_MAX_HOPS, type Hop, MAX_HOPS, type Path } from '../../src/router/types.js'
import { gridSplitExactIn } from './grid.js'
import { type HardUniverse, createHardUniverse } from './hardMarket.js'
import { type BenchToken, type Market, gasCostIn, nativePriceIn } from './market.js'
import { buildNetwork, executeDual, layerNetwork, solveDual } from './networkOptimum.js'
import { splitByFractions } from './paths.js'
import { type GcSummary, formatGc, watchGc } from './gcWatch.js'
import { formatMs, percentile, printTable } from './stats.js'
import { buildTinesGraph, routeWithTines } from './tines.js'
import { type WarmUp, warmUp, warmUpPlan } from './warmUp.js'

/** A summary row: target, what was measured, MET / MISSED / INFO. */
export type SummaryRow = [target: string, measured: string, status: string]

const GAS = [
  { label: 'none', wei: 0n },
  { label: 'eth', wei: 20_000_000_000n },
  { label: 'base', wei: 10_000_000n },
] as const
type GasLabel = (typeof GAS)[number]['label']
const RIVALS = ['single', 'grid', 'tines'] as const
type Rival = (typeof RIVALS)[number]

const SIZES = [1e-4, 1e-3, 1e-2, 0.1, 0.3]
const sizeLabel = (f: number) => `${+(f * 100).toPrecision(2)}%`
/** Latency targets (p99, ms) per pool count. */
const LATENCY_TARGET_MS: Record<number, number> = { 10: 1, 100: 5, 1000: 25, 10000: 250 }
/** The hop limits weft runs at, side by side: getQuote's default and its most. Rivals and the optimum are held to the same. */
const HOP_LIMITS = [DEFAULT_MAX_HOPS, MAX_HOPS] as const
const limitLabel = (hops: number) => `≤${hops}h${hops === DEFAULT_MAX_HOPS ? ' (default)' : hops === MAX_HOPS ? ' (most)' : ''}`
/** The single-path search's reach (its paths are then held to each limit). */
const SINGLE_PATH_HOPS = MAX_HOPS
/** Paths kept per token and hop count in the single-path search (distinct last pools). */
const LABELS_PER_TOKEN = 4

/**
 * An independent plan that leaves more than this share unsold (at the input or on the way: of its
 * output's value, or of the input it took to get there; see PrimalPlan.stranded) is a partial fill,
 * not a reference for a quote that must sell the whole amount (0.1 bp).
 */
const PARTIAL_SHARE = 1e-5

/** Largest token count the optimum is solved over every pool for. */
const OPTIMUM_FULL_TOKENS = 800

/** BENCH_HARD_DEBUG: the cases to run alone and print in full (trade label prefix and size label). */
const DEBUG_CASES = (process.env.BENCH_HARD_DEBUG ?? '')
  .split(',')
  .filter((item) => item.includes('@'))
  .map((item) => ({ trade: item.slice(0, item.lastIndexOf('@')), size: item.slice(item.lastIndexOf('@') + 1) }))
const debugged = (trade: string, size: string) => DEBUG_CASES.some((c) => trade.startsWith(c.trade) && c.size === size)

/** A route as `SYM -pool-> SYM ...` with its input, for the debug print. */
function describePath(market: Market, path: readonly Hop[], amountIn: bigint): string {
  const symbol = (a: Address) => market.tokenByAddress.get(a)?.symbol ?? a.slice(0, 8)
  return `${amountIn}: ${symbol(path[0]!.tokenIn)}${path.map((hop) => ` -${hop.pool.key.slice(-5)}-> ${symbol(hop.tokenOut)}`).join('')}`
}

/** Universes per pool count: full and quick runs. */
const FULL_PLAN: Record<number, number[]> = { 10: [1, 2, 3, 4, 5, 6, 7, 8], 100: [1, 2, 3, 4], 1000: [1, 2], 10000: [1] }
const QUICK_PLAN: Record<number, number[]> = { 10: [1, 2], 100: [1], 1000: [1] }

/** One case at one hop limit: weft at that limit, and the best independent exact plans within it. */
type LimitCase = {
  hops: number
  /** The best independent exact plan of at most `hops` hops (the layered dual's flow, the unlimited flow when short enough, or a rival's): 0n when none. */
  reference: bigint
  referenceSource: 'layered' | 'flow' | Rival | 'none'
  /** Whether some independent plan within the limit spends the whole input. */
  referenceFills: boolean
  /** An upper bound on any plan within the limit: the lower of the unlimited and the layered duals. */
  bound: number
  /** The best independent plan that sells only part of the input (past PARTIAL_SHARE): not a reference, shown apart. */
  partial: bigint
  /** The layered dual's own exact plan and bound (its self-gap shows how tight the layered optimum is). */
  layeredPlan: bigint
  layeredBound: number
  weftGross?: bigint
  weftFailure?: string
  weftHops?: number
  certificateBound?: bigint
  certificateField?: string
  /** weft's route re-executed path by path on the pools (or as a flow) gives its amountOut. */
  reproduced?: boolean
  /** Net value (output − gas × gas price, raw output units) per gas level, for weft and the rivals within the limit. */
  net: Record<'weft' | Rival, Partial<Record<GasLabel, number>>>
}

/** One case: a trade of one size on one universe. */
type HardCase = {
  pools: number
  seed: number
  trade: string
  size: string
  plannedHops: number
  /** The unlimited optimum: dual bound, its flow's exact plan, whether it fills, its most hops on a route. */
  bound: number
  primal: bigint
  flowFilled: boolean
  optimumHops: number
  /** Solve time of every dual and plan of the case. */
  optimumMs: number
  /** The optimum was solved over a sub-market (see OPTIMUM_FULL_TOKENS). */
  subMarket?: boolean
  /**
   * Some pools link the wrapped native token to the output: the market itself prices gas in the
   * output. Without such a way no router can from the pools alone, so the bench supplies its own
   * price as a host would: weft gets `nativePriceInBuyToken`, Tines its gas price in the output
   * token, each at the valuation the rivals' net figures use (`gasCostIn`).
   */
  gasPriced: boolean
  limits: LimitCase[]
}

/** Executes allocations path after path, each on the states the previous left. */
function executePaths(allocations: readonly { path: Path; amountIn: bigint }[]): { amountOut: bigint; gas: bigint } | undefined {
  const current = new Map<string, Pool>()
  let amountOut = 0n
  let gas = 0n
  for (const { path, amountIn } of allocations) {
    if (amountIn === 0n) continue
    let amount = amountIn
    for (const hop of path) {
      const pool = current.get(hop.pool.key) ?? hop.pool
      const result = pool.quoteExactIn(hop.tokenIn, hop.tokenOut, amount)
      if (!result) return undefined
      current.set(hop.pool.key, result.next)
      amount = result.amountOut
      gas += result.gas
    }
    amountOut += amount
  }
  return { amountOut, gas }
}

/** A route's swap as weft reports it, on this universe's pools. */
type RouteHop = Hop & { amountIn: bigint; amountOut: bigint }

/**
 * Checks a route as a flow (each pool direction traded once with its total, as the executor runs a
 * flow): every pool's claimed total output is its exact output for its total input, no token sends
 * on more than it received, and the outputs sum to `amountOut`. Returns the gas of those trades,
 * or undefined when a check fails.
 */
function checkFlow(hops: readonly RouteHop[], tokenIn: Address, tokenOut: Address, amountOut: bigint): { gas: bigint } | undefined {
  const groups = new Map<string, { hop: Hop; amountIn: bigint; amountOut: bigint }>()
  for (const hop of hops) {
    const key = `${hop.pool.key}:${hop.tokenIn}:${hop.tokenOut}`
    const group = groups.get(key) ?? { hop, amountIn: 0n, amountOut: 0n }
    group.amountIn += hop.amountIn
    group.amountOut += hop.amountOut
    groups.set(key, group)
  }
  const received = new Map<Address, bigint>()
  const sent = new Map<Address, bigint>()
  let gas = 0n
  let delivered = 0n
  for (const { hop, amountIn, amountOut: claimed } of groups.values()) {
    const result = hop.pool.quoteExactIn(hop.tokenIn, hop.tokenOut, amountIn)
    if (!result || result.amountOut !== claimed) return undefined
    gas += result.gas
    sent.set(hop.tokenIn, (sent.get(hop.tokenIn) ?? 0n) + amountIn)
    received.set(hop.tokenOut, (received.get(hop.tokenOut) ?? 0n) + claimed)
    if (hop.tokenOut === tokenOut) delivered += claimed
  }
  for (const [token, amount] of sent) if (token !== tokenIn && amount > (received.get(token) ?? 0n)) return undefined
  return delivered === amountOut ? { gas } : undefined
}

/** A partial path of the single-path search. */
type Label = { amount: bigint; gas: bigint; hops: Hop[]; tokens: Set<Address> }

/**
 * The best single paths for `amountIn`: a search by hop count keeping, per token, the
 * `LABELS_PER_TOKEN` largest amounts (distinct last pools). Exact for the largest gross output
 * (outputs grow with inputs); returns every path that reached the output.
 */
function searchSinglePaths(market: Market, poolsByToken: Map<Address, Pool[]>, tokenIn: Address, tokenOut: Address, amountIn: bigint): Label[] {
  let frontier = new Map<Address, Label[]>([[tokenIn, [{ amount: amountIn, gas: 0n, hops: [], tokens: new Set([tokenIn]) }]]])
  const arrived: Label[] = []
  for (let hop = 1; hop <= SINGLE_PATH_HOPS; hop++) {
    const next = new Map<Address, Label[]>()
    const last = hop === SINGLE_PATH_HOPS
    for (const [token, labels] of frontier) {
      for (const label of labels)
        for (const pool of poolsByToken.get(token) ?? []) {
          const other = pool.tokens[0] === token ? pool.tokens[1]! : pool.tokens[0]!
          if (label.tokens.has(other) || (last && other !== tokenOut)) continue
          const result = pool.quoteExactIn(token, other, label.amount)
          if (!result || result.amountOut <= 0n) continue
          const extended: Label = { amount: result.amountOut, gas: label.gas + result.gas, hops: [...label.hops, { pool, tokenIn: token, tokenOut: other }], tokens: new Set([...label.tokens, other]) }
          if (other === tokenOut) {
            arrived.push(extended)
            continue
          }
          const list = next.get(other) ?? []
          const same = list.findIndex((l) => l.hops[l.hops.length - 1]!.pool === pool)
          if (same >= 0) {
            if (list[same]!.amount < extended.amount) list[same] = extended
          } else list.push(extended)
          list.sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0))
          if (list.length > LABELS_PER_TOKEN) list.pop()
          next.set(other, list)
        }
    }
    frontier = next
  }
  void market
  return arrived
}

/** Whether some pools link `from` to `to` (a breadth-first search over the pools by token). */
function connected(poolsByToken: Map<Address, Pool[]>, from: Address, to: Address): boolean {
  const seen = new Set<Address>([from])
  const queue: Address[] = [from]
  for (let token = queue.shift(); token !== undefined; token = queue.shift()) {
    if (token === to) return true
    for (const pool of poolsByToken.get(token) ?? [])
      for (const other of pool.tokens)
        if (!seen.has(other)) {
          seen.add(other)
          queue.push(other)
        }
  }
  return false
}

/**
 * Tines' gas price and the token it is counted in: wei of the wrapped native token, whose value
 * Tines reads from the pools; or, where no pool links that token to the output (`outputPriced`),
 * raw output units per gas at the bench's own price, the valuation every rival's net figure uses.
 */
function tinesGas(market: Market, tokenOut: BenchToken, gasPriceWei: bigint, outputPriced: boolean): [gasPrice: number, gasToken: Address] {
  return outputPriced ? [gasCostIn(tokenOut, gasPriceWei), tokenOut.address] : [Number(gasPriceWei), market.chain.wrappedNative.address]
}

/** Everything one universe's cases share. */
type UniverseContext = { universe: HardUniverse; source: ReturnType<typeof createSnapshotSource>; poolsByToken: Map<Address, Pool[]>; tines?: ReturnType<typeof buildTinesGraph>; poolByKey: Map<string, Pool> }

function universeContext(universe: HardUniverse, withTines: boolean): UniverseContext {
  const poolsByToken = new Map<Address, Pool[]>()
  for (const { pool } of universe.market.pools)
    for (const token of pool.tokens) {
      const list = poolsByToken.get(token)
      if (list) list.push(pool)
      else poolsByToken.set(token, [pool])
    }
  return {
    universe,
    source: createSnapshotSource(universe.market.snapshot),
    poolsByToken,
    ...(withTines ? { tines: buildTinesGraph(universe.market, universe.market.pools) } : {}),
    poolByKey: new Map(universe.market.pools.map((p) => [p.pool.key, p.pool])),
  }
}

const QUOTE_ID = '01930000-0000-7000-8000-0000000000aa'

/**
 * getQuote for one trade at one hop limit; the route as paths of this universe's pools, and the
 * certificate. `nativePrice` (whole output tokens per native token) is passed when the pools cannot
 * price gas in the output.
 */
async function quoteWeft(context: UniverseContext, tokenIn: Address, tokenOut: Address, amountIn: bigint, gasPriceWei: bigint, maxHops: number, nativePrice?: number) {
  const { market } = context.universe
  let certificate: Record<string, unknown> | null | undefined
  let execution: string | undefined
  try {
    const quote = await getQuote(
      { chainId: market.chain.id, sellToken: tokenIn, buyToken: tokenOut, sellAmount: amountIn, priceImpactLimitBps: 10_000 },
      context.source,
      {
        chains: [market.chain],
        gasPriceWei,
        ...(nativePrice !== undefined ? { nativePriceInBuyToken: nativePrice } : {}),
        maxHops,
        id: QUOTE_ID,
        onDetails: (details) => {
          certificate = details.certificate as Record<string, unknown> | null
          execution = details.execution
        },
      },
    )
    const hop = (s: (typeof quote.route.swaps)[number][number]): RouteHop => ({
      pool: context.poolByKey.get(s.key)!,
      tokenIn: s.tokenIn.toLowerCase() as Address,
      tokenOut: s.tokenOut.toLowerCase() as Address,
      amountIn: BigInt(s.amountIn),
      amountOut: BigInt(s.amountOut),
    })
    const allocations = quote.route.swaps.map((swaps) => ({ path: swaps.map(hop), amountIn: BigInt(swaps[0]!.amountIn) }))
    return { amountOut: BigInt(quote.route.amountOut), allocations, hops: quote.route.swaps.flat().map(hop), longest: Math.max(...quote.route.swaps.map((swaps) => swaps.length)), certificate, execution }
  } catch (error) {
    return { failure: error instanceof QuoteError ? `${error.statusCode} ${error.message.slice(0, 60)}` : String(error).slice(0, 80) }
  }
}

/** weft's certificate bound to check: its figure over all pools when it carries one, else its bound. */
function certificateBound(certificate: Record<string, unknown> | null | undefined): { bound?: bigint; field?: string } {
  if (!certificate) return {}
  const allPools = Object.entries(certificate).find(([key, value]) => typeof value === 'bigint' && key !== 'upperBound' && /all|global|whole|source/i.test(key))
  if (allPools) return { bound: allPools[1] as bigint, field: allPools[0] }
  return typeof certificate.upperBound === 'bigint' ? { bound: certificate.upperBound, field: 'upperBound' } : {}
}

async function runCase(context: UniverseContext, tradeIndex: number, fraction: number): Promise<HardCase> {
  const { universe } = context
  const { market } = universe
  const trade = universe.trades[tradeIndex]!
  const amountIn = (trade.depthIn * BigInt(Math.round(fraction * 1e9))) / 10n ** 9n
  const singles = searchSinglePaths(market, context.poolsByToken, trade.tokenIn.address, trade.tokenOut.address, amountIn)
  const entry: HardCase = {
    pools: universe.poolCount,
    seed: universe.seed,
    trade: trade.label,
    size: sizeLabel(fraction),
    plannedHops: trade.hops,
    bound: 0,
    primal: 0n,
    flowFilled: false,
    optimumHops: 0,
    optimumMs: 0,
    gasPriced: connected(context.poolsByToken, market.chain.wrappedNative.address, trade.tokenOut.address),
    limits: [],
  }
  /** Tokens of weft's gas-free routes (the sub-market optimum includes them). */
  const weftTokens = new Set<Address>()
  // Where no pool links the wrapped native token to the output, the bench's price of it (a host's).
  const hostPrice = entry.gasPriced ? undefined : nativePriceIn(trade.tokenOut)
  // Tines once per gas price (its own limit is 6 hops): its exact result and its longest path.
  const tines: Partial<Record<GasLabel, { result: { amountOut: bigint; gas: bigint } | undefined; hops: number }>> = {}
  if (context.tines)
    for (const gas of GAS) {
      try {
        const route = routeWithTines(context.tines, trade.tokenIn.address, trade.tokenOut.address, amountIn, ...tinesGas(market, trade.tokenOut, gas.wei, hostPrice !== undefined))
        if (route.paths.length > 0) {
          const shares = splitByFractions(amountIn, route.fractions)
          tines[gas.label] = { result: executePaths(route.paths.map((path, i) => ({ path, amountIn: shares[i]! }))), hops: Math.max(...route.paths.map((p) => p.length)) }
          if (debugged(trade.label, entry.size)) {
            if (gas.wei === 0n) console.log(`  ${universe.label} ${trade.label} ${entry.size}: amountIn ${amountIn}`)
            console.log(`    tines${gas.wei === 0n ? '' : ` at gas ${gas.label}`}: ${tines[gas.label]!.result?.amountOut} (gas ${tines[gas.label]!.result?.gas}) in ${route.paths.length} paths`)
            route.paths.forEach((path, i) => console.log(`      ${describePath(market, path, shares[i]!)}`))
          }
        }
      } catch {
        // Tines found nothing usable: no figure.
      }
    }
  /** Per limit: the rivals' gas-free exact outputs. */
  const grossByLimit = new Map<number, Partial<Record<Rival, bigint>>>()
  for (const hops of HOP_LIMITS) {
    const limit: LimitCase = { hops, reference: 0n, referenceSource: 'none', referenceFills: false, partial: 0n, bound: Infinity, layeredPlan: 0n, layeredBound: Infinity, net: { weft: {}, single: {}, grid: {}, tines: {} } }
    entry.limits.push(limit)
    const within = singles.filter((label) => label.hops.length <= hops)
    // Candidate paths for the grid: the best few single paths within the limit (distinct pool sets).
    const gridPaths: Path[] = []
    for (const label of [...within].sort((a, b) => (b.amount > a.amount ? 1 : -1))) {
      const keys = label.hops.map((h) => h.pool.key).join()
      if (!gridPaths.some((p) => p.map((h) => h.pool.key).join() === keys)) gridPaths.push(label.hops)
      if (gridPaths.length >= 12) break
    }
    const gross: Partial<Record<Rival, bigint>> = {}
    grossByLimit.set(hops, gross)
    for (const gas of GAS) {
      const gasCost = gasCostIn(trade.tokenOut, gas.wei)
      const value = (result: { amountOut: bigint; gas: bigint } | undefined) => (result ? Number(result.amountOut) - (gasCost === 0 ? 0 : Number(result.gas) * gasCost) : undefined)
      const weft = await quoteWeft(context, trade.tokenIn.address, trade.tokenOut.address, amountIn, gas.wei, hops, hostPrice)
      if ('failure' in weft) {
        if (gas.wei === 0n) limit.weftFailure = weft.failure
      } else {
        // The route re-evaluated on the pools: path after path, or as a flow (each pool once with its total).
        // Its gas is that of the way weft executes it: a flow trades each shared pool once, so path-by-path
        // gas (each shared pool counted per path) would overcharge a flow whose paths happen to replay exactly.
        const sequential = executePaths(weft.allocations)
        const flow = checkFlow(weft.hops, trade.tokenIn.address, trade.tokenOut.address, weft.amountOut)
        const replays = sequential !== undefined && sequential.amountOut === weft.amountOut ? sequential : undefined
        const exact = weft.execution === 'flow' ? (flow ?? replays) : (replays ?? flow)
        limit.net.weft[gas.label] = exact ? Number(weft.amountOut) - (gasCost === 0 ? 0 : Number(exact.gas) * gasCost) : undefined
        if (debugged(trade.label, entry.size)) {
          console.log(`    weft ≤${hops}h${gas.wei === 0n ? '' : ` at gas ${gas.label}`}: ${weft.amountOut} (gas ${exact?.gas}, net ${limit.net.weft[gas.label]}) in ${weft.allocations.length} paths`)
          for (const { path, amountIn: share } of weft.allocations) console.log(`      ${describePath(market, path, share)}`)
        }
        if (gas.wei === 0n) {
          for (const hop of weft.hops) weftTokens.add(hop.tokenIn).add(hop.tokenOut)
          limit.weftGross = weft.amountOut
          limit.weftHops = weft.longest
          limit.reproduced = exact !== undefined && weft.longest <= hops
          const { bound, field } = certificateBound(weft.certificate)
          if (bound !== undefined) limit.certificateBound = bound
          if (field !== undefined) limit.certificateField = field
        }
      }
      let bestSingle: number | undefined
      for (const label of within) {
        const v = Number(label.amount) - (gasCost === 0 ? 0 : Number(label.gas) * gasCost)
        if (bestSingle === undefined || v > bestSingle) bestSingle = v
      }
      if (bestSingle !== undefined) limit.net.single[gas.label] = bestSingle
      if (gas.wei === 0n && within.length > 0) gross.single = within.reduce((a, b) => (b.amount > a ? b.amount : a), 0n)
      if (gas.wei === 0n && within.length > 0 && debugged(trade.label, entry.size)) {
        const best = within.reduce((a, b) => (b.amount > a.amount ? b : a))
        console.log(`    best single ≤${hops}h: ${best.amount}: ${describePath(market, best.hops, amountIn)}`)
      }
      const grid = gridPaths.length > 0 ? gridSplitExactIn(gridPaths, amountIn, gasCost) : undefined
      const gridResult = grid ? executePaths(grid) : undefined
      if (gridResult) limit.net.grid[gas.label] = value(gridResult)
      if (grid && gridResult && debugged(trade.label, entry.size)) {
        console.log(`    grid ≤${hops}h${gas.wei === 0n ? '' : ` at gas ${gas.label}`}: ${gridResult.amountOut} (gas ${gridResult.gas}) in ${grid.filter((g) => g.amountIn > 0n).length} paths`)
        for (const { path, amountIn: share } of grid) if (share > 0n) console.log(`      ${describePath(market, path, share)}`)
      }
      if (gas.wei === 0n && gridResult) gross.grid = gridResult.amountOut
      const theirs = tines[gas.label]
      if (theirs && theirs.hops <= hops) {
        limit.net.tines[gas.label] = value(theirs.result)
        if (gas.wei === 0n && theirs.result) gross.tines = theirs.result.amountOut
      }
    }
  }
  const started = performance.now()
  // Past OPTIMUM_FULL_TOKENS tokens the dual over every pool is too slow for a bench run: the
  // optimum is then solved over the pools among the majors, the two ends' neighbours, the tokens
  // of the best single paths and of weft's routes (its plan stays exact; its bound covers only that
  // sub-market).
  let network = buildNetwork(market, trade.tokenIn, trade.tokenOut)
  if (network && network.tokens.length > OPTIMUM_FULL_TOKENS) {
    const keep = new Set<Address>([...market.chain.majorTokens, trade.tokenIn.address, trade.tokenOut.address, ...weftTokens])
    for (const end of [trade.tokenIn.address, trade.tokenOut.address]) for (const pool of context.poolsByToken.get(end) ?? []) for (const t of pool.tokens) keep.add(t)
    for (const label of singles) for (const t of label.tokens) keep.add(t)
    network = buildNetwork(market, trade.tokenIn, trade.tokenOut, keep)
    entry.subMarket = true
  }
  const dual = network ? solveDual(network, Number(amountIn)) : undefined
  const primal = network && dual ? executeDual(market, network, dual, amountIn) : undefined
  if (dual) entry.bound = dual.bound
  if (primal) {
    // The flow's output is realised even when it strands dust (the dust is simply not traded on).
    entry.primal = primal.amountOut
    entry.flowFilled = primal.filled
    entry.optimumHops = primal.hops
  }
  for (const limit of entry.limits) {
    // The optimum within the limit: the layered network's dual (bound) and its flow (plan).
    const layered = network ? layerNetwork(network, limit.hops) : undefined
    const layeredDual = layered ? solveDual(layered, Number(amountIn)) : undefined
    const layeredPrimal = layered && layeredDual ? executeDual(market, layered, layeredDual, amountIn) : undefined
    if (layeredDual) limit.layeredBound = layeredDual.bound
    limit.bound = Math.min(entry.subMarket ? Infinity : entry.bound || Infinity, entry.subMarket ? Infinity : limit.layeredBound)
    const offer = (amount: bigint, fills: boolean, source: LimitCase['referenceSource'], stranded = 0) => {
      if (stranded > PARTIAL_SHARE) {
        if (amount > limit.partial) limit.partial = amount
        return
      }
      if (fills) limit.referenceFills = true
      if (amount > limit.reference) {
        limit.reference = amount
        limit.referenceSource = source
      }
    }
    if (debugged(trade.label, entry.size))
      for (const [name, plan] of [['layered', layeredPrimal], ['flow', primal]] as const) {
        if (!plan || (name === 'flow' && limit.hops !== HOP_LIMITS[0])) continue
        console.log(`    ${name}${name === 'layered' ? ` ≤${limit.hops}h` : ` (${plan.hops} hops)`}: ${plan.amountOut}, ${plan.steps.length} trades`)
        const symbol = (a: Address) => market.tokenByAddress.get(a)?.symbol ?? a.slice(0, 8)
        for (const step of plan.steps) console.log(`      ${symbol(step.from)} -${market.pools[step.pool]!.pool.key.slice(-5)}-> ${symbol(step.to)}: ${step.amountIn} -> ${step.amountOut}`)
      }
    if (layeredPrimal) {
      limit.layeredPlan = layeredPrimal.amountOut
      offer(layeredPrimal.amountOut, layeredPrimal.filled, 'layered', layeredPrimal.stranded)
    }
    if (primal && primal.hops <= limit.hops) offer(primal.amountOut, primal.filled, 'flow', primal.stranded)
    // A rival's plan spends the whole input by construction: the trade is fillable within the limit.
    for (const rival of RIVALS) {
      const value = grossByLimit.get(limit.hops)![rival]
      if (value !== undefined && value > 0n) offer(value, true, rival)
    }
  }
  entry.optimumMs = performance.now() - started
  return entry
}

/** weft's gas-free gap below the best independent exact plan within the limit, bp; Infinity when weft failed where that plan fills. */
function gapBps(limit: LimitCase): number | undefined {
  if (limit.reference <= 0n) return undefined
  if (limit.weftGross === undefined) return limit.referenceFills ? Infinity : undefined
  return (Number(limit.reference - limit.weftGross) / Number(limit.reference)) * 1e4
}

/** The same against the unlimited optimum's plan (any hops): what the limit itself costs. */
function gapUnlimitedBps(entry: HardCase, limit: LimitCase): number | undefined {
  const optimum = entry.primal > limit.reference ? entry.primal : limit.reference
  if (optimum <= 0n || limit.weftGross === undefined) return undefined
  return (Number(optimum - limit.weftGross) / Number(optimum)) * 1e4
}

const fmtGap = (g: number | undefined) => (g === undefined ? '—' : !Number.isFinite(g) ? 'no route' : g.toFixed(Math.abs(g) >= 100 ? 1 : 4))
const status = (met: boolean | undefined) => (met === undefined ? 'NOT MEASURED' : met ? 'MET' : 'MISSED')
const where = (c: HardCase) => `${c.pools} pools seed ${c.seed} ${c.trade} ${c.size}`
const limitOf = (c: HardCase, hops: number) => c.limits.find((l) => l.hops === hops)!

/** The latency loop of one class at one hop limit: warm getQuote (gas-aware, chain default gas price) round robin over its cases. */
async function measureLatency(contexts: readonly UniverseContext[], samples: number, seconds: number, maxHops: number): Promise<{ samples: number[]; load: string; timeBoxed: boolean; warm: WarmUp; gc: GcSummary }> {
  const trades = contexts.flatMap((context) => context.universe.trades.flatMap((trade) => SIZES.map((f) => ({ context, trade, amountIn: (trade.depthIn * BigInt(Math.round(f * 1e9))) / 10n ** 9n }))))
  const run = ({ context, trade, amountIn }: (typeof trades)[number]) =>
    getQuote(
      { chainId: context.universe.market.chain.id, sellToken: trade.tokenIn.address, buyToken: trade.tokenOut.address, sellAmount: amountIn, priceImpactLimitBps: 10_000 },
      context.source,
      { chains: [context.universe.market.chain], maxHops, id: QUOTE_ID },
    ).catch(() => undefined)
  // Warm: every trade once (pools built), then on until the JIT settles (warmUp.ts).
  const plan = warmUpPlan('BENCH_HARD', trades.length)
  const warm = await warmUp(trades, run, samples > 0 ? plan.quotes : 0, samples > 0 ? plan.seconds : 0)
  const times: number[] = []
  const spans: { start: number; end: number }[] = []
  const gc = watchGc()
  const started = performance.now()
  let timeBoxed = false
  for (let i = 0; i < samples; i++) {
    if (performance.now() - started > seconds * 1000) {
      timeBoxed = true
      break
    }
    const t0 = performance.now()
    await run(trades[i % trades.length]!)
    const t1 = performance.now()
    times.push(t1 - t0)
    spans.push({ start: t0, end: t1 })
  }
  return { samples: times, load: loadavg().map((x) => x.toFixed(1)).join(' '), timeBoxed, warm, gc: await gc.stop(spans) }
}

function parsePlan(): Record<number, number[]> {
  const seeds = process.env.BENCH_HARD_SEEDS
  if (seeds) {
    const plan: Record<number, number[]> = {}
    for (const item of seeds.split(',')) {
      const [pools, seed] = item.split(':').map(Number)
      if (!pools || seed === undefined || !Number.isInteger(seed)) throw new Error(`BENCH_HARD_SEEDS: expected <pools>:<seed>, got ${item}`)
      ;(plan[pools] ??= []).push(seed)
    }
    return plan
  }
  const base = process.env.BENCH_HARD === 'quick' ? QUICK_PLAN : FULL_PLAN
  const classes = process.env.BENCH_HARD_CLASSES?.split(',').map(Number)
  if (!classes) return base
  return Object.fromEntries(classes.map((c) => [c, base[c] ?? FULL_PLAN[c] ?? [1]]))
}

/** A target measured at each hop limit: its label, and per limit what was measured and its status. */
type SideBySide = { target: string; byLimit: Map<number, { measured: string; status: string }> }

/**
 * Runs the hard-market router section and prints its tables; returns the summary rows.
 *
 * @example
 * const rows = await runRouterHardBench()
 */
export async function runRouterHardBench(): Promise<SummaryRow[]> {
  const started = performance.now()
  const plan = parsePlan()
  const latencySamples = Number(process.env.BENCH_HARD_LATENCY ?? 500)
  const latencySeconds = Number(process.env.BENCH_HARD_LATENCY_SECONDS ?? 150)
  console.log('Router on hard markets: concentrated V3 ranges with gaps, pools at empty ticks, pools drained to their last tick, thin V2 pairs,')
  console.log('states known over the full range or a window; planned trades with deep routes of 1-5 hops through ordinary tokens.')
  console.log(`weft = getQuote on a snapshot source of the market (priceImpactLimitBps 10000, otherwise defaults) at maxHops ${HOP_LIMITS.join(' and ')}, side by side.`)
  console.log('Optimum within a limit = the best independent exact plan of at most that many hops: the convex dual over every pool on the network layered by hop')
  console.log("count, its exact integer plan, the unlimited dual's plan when short enough, or a rival's (networkOptimum.ts, independent of src/router). gap = (optimum plan − weft) / optimum, bp, gas-free.")
  console.log(`Rivals, executed exactly, net of gas at none / 20 gwei / 0.01 gwei, held to the same limit: best single path (any token), 5%-grid over the best 12 single paths, Tines (its routes reach 6 hops).`)
  console.log(`Plan: ${Object.entries(plan).map(([pools, seeds]) => `${pools} pools × seeds ${seeds.join(',')}`).join('; ')}; sizes ${SIZES.map(sizeLabel).join(' ')} of the trade's depth.\n`)

  const cases: HardCase[] = []
  const latency: { pools: number; hops: number; samples: number[]; load: string; timeBoxed: boolean; warm: WarmUp; gc: GcSummary }[] = []
  for (const [poolsText, seeds] of Object.entries(plan)) {
    const pools = Number(poolsText)
    const classStarted = performance.now()
    const contexts: UniverseContext[] = []
    for (const seed of seeds) {
      const universe = createHardUniverse(pools, seed)
      const context = universeContext(universe, pools <= 1000)
      contexts.push(context)
      for (let t = 0; t < universe.trades.length; t++)
        for (const fraction of SIZES) if (DEBUG_CASES.length === 0 || debugged(universe.trades[t]!.label, sizeLabel(fraction))) cases.push(await runCase(context, t, fraction))
      console.log(`  [${universe.label}] shapes ${Object.entries(universe.shapes).filter(([, n]) => n > 0).map(([s, n]) => `${s} ${n}`).join(', ')}; trades ${universe.trades.map((t) => t.label).join(', ')}`)
    }
    const classCases = cases.filter((c) => c.pools === pools)
    const optimumTimes = classCases.map((c) => c.optimumMs)
    console.log(`  ${pools} pools: ${classCases.length} cases in ${((performance.now() - classStarted) / 1000).toFixed(1)} s; optimum solves (any hops and layered per limit) + exact plans p50 ${formatMs(percentile(optimumTimes, 50))}, max ${formatMs(Math.max(...optimumTimes))}${pools > 1000 ? '; Tines not run at this size (too slow)' : ''}`)
    for (const hops of HOP_LIMITS) {
      const measured = await measureLatency(contexts, latencySamples, latencySeconds, hops)
      latency.push({ pools, hops, ...measured })
      console.log(`  ${pools} pools, maxHops ${hops}: getQuote warm latency p50 ${formatMs(percentile(measured.samples, 50))}, p99 ${formatMs(percentile(measured.samples, 99))} over ${measured.samples.length} samples${measured.timeBoxed ? ` (time box ${latencySeconds} s reached)` : ''} after ${measured.warm.quotes} warm-up quotes${measured.warm.timeBoxed ? ' (warm-up time box reached)' : ''}, load average ${measured.load}; ${formatGc(measured.gc)}`)
    }
    console.log('')
  }
  if (process.env.BENCH_HARD_DUMP) {
    const dump = cases.map((c) => ({ case: `${c.pools}:${c.seed} ${c.trade} ${c.size}`, limits: c.limits.map((l) => ({ hops: l.hops, gross: l.weftGross?.toString(), net: l.net })) }))
    writeFileSync(process.env.BENCH_HARD_DUMP, JSON.stringify(dump, null, 1))
  }

  const targets: SideBySide[] = []
  const record = (target: string, hops: number, measured: string, met: boolean | undefined | 'info') => {
    let row = targets.find((t) => t.target === target)
    if (!row) targets.push((row = { target, byLimit: new Map() }))
    row.byLimit.set(hops, { measured, status: met === 'info' ? 'INFO' : status(met) })
  }

  // Per class and size: the gas-free gap to the optimum within each limit, side by side.
  const rows: string[][] = []
  const worst: { c: HardCase; hops: number }[] = []
  for (const pools of Object.keys(plan).map(Number)) {
    for (const size of SIZES.map(sizeLabel)) {
      const group = cases.filter((c) => c.pools === pools && c.size === size)
      if (group.length === 0) continue
      const row = [`${pools}`, size, `${group.length}`]
      for (const hops of HOP_LIMITS) {
        const gaps = group.map((c) => ({ c, gap: gapBps(limitOf(c, hops)) })).filter((g): g is { c: HardCase; gap: number } => g.gap !== undefined)
        if (gaps.length === 0) {
          row.push('—', '—', '—', '', '')
          continue
        }
        const values = gaps.map((g) => g.gap)
        const p50 = percentile(values, 50)
        const p99 = percentile(values, 99)
        const worstCase = gaps.reduce((a, b) => (b.gap > a.gap ? b : a))
        if (worstCase.gap > 0.1) worst.push({ c: worstCase.c, hops })
        if (process.env.BENCH_HARD_LIST) for (const g of gaps) if (g.gap > 0.1) console.log(`  gap: ${limitLabel(hops)} ${where(g.c)}: ${fmtGap(g.gap)} bp`)
        const met = p50 <= 0.01 && p99 <= 0.1
        const bounds = group.map((c) => limitOf(c, hops)).filter((l) => l.weftGross !== undefined && Number.isFinite(l.bound) && l.bound > 0).map((l) => ((l.bound - Number(l.weftGross)) / l.bound) * 1e4)
        row.push(fmtGap(p50), fmtGap(p99), `${fmtGap(worstCase.gap)} s${worstCase.c.seed} ${worstCase.c.trade.split(' ')[0]}`, fmtGap(bounds.length > 0 ? percentile(bounds, 99) : undefined), status(met))
        record(`hard ${pools} pools ${size}: gross ≥ optimum − 0.01 bp p50, − 0.1 bp p99`, hops, `p50 ${fmtGap(p50)}, p99 ${fmtGap(p99)} bp (${gaps.length}); worst ${fmtGap(worstCase.gap)} at seed ${worstCase.c.seed} ${worstCase.c.trade}`, met)
      }
      const unlimited = group.map((c) => gapUnlimitedBps(c, limitOf(c, MAX_HOPS))).filter((g): g is number => g !== undefined)
      row.push(fmtGap(unlimited.length > 0 ? percentile(unlimited, 99) : undefined))
      rows.push(row)
    }
  }
  console.log("Gas-free gap to the optimum within each hop limit (bp; below 0: weft beat the optimum's exact plan; \"no route\": weft failed where a plan fills)")
  const limitHeader = (hops: number) => [`≤${hops}h p50`, `≤${hops}h p99`, `≤${hops}h worst`, `bound p99`, '']
  printTable(['pools', 'size', 'cases', ...HOP_LIMITS.flatMap(limitHeader), 'any hops p99'], rows, 2)
  console.log('  bound p99: the gap to the upper bound within the limit (the lower of the unlimited and layered duals; ≥ the true loss). any hops p99: weft at')
  console.log(`  ${MAX_HOPS} hops against the unlimited optimum's plan (routes of 7-10 hops included): what no limit the router takes can reach.`)

  // The optimum's own tightness, and where the plans within each limit came from.
  const full = cases.filter((c) => !c.subMarket)
  const selfGaps = full.filter((c) => c.primal > 0n && c.bound > 0).map((c) => ((c.bound - Number(c.primal)) / c.bound) * 1e4)
  console.log(`\nIndependent optimum, any hops: dual bound − its exact plan p50 ${fmtGap(percentile(selfGaps, 50))} bp, p99 ${fmtGap(percentile(selfGaps, 99))} bp, max ${fmtGap(Math.max(...selfGaps))} bp over ${selfGaps.length} cases (the dual: Newton, then exact coordinate line searches; its plan from the better of two price sets).`)
  const loosest = full.filter((c) => c.primal > 0n && c.bound > 0)
  if (loosest.length > 0) {
    const c = loosest.reduce((a, b) => ((b.bound - Number(b.primal)) / b.bound > (a.bound - Number(a.primal)) / a.bound ? b : a))
    console.log(`  loosest: ${where(c)}: bound ${c.bound.toExponential(6)}, plan ${c.primal}${c.flowFilled ? '' : ' (the flow strands part of the input)'}`)
  }
  for (const hops of HOP_LIMITS) {
    const limits = full.map((c) => limitOf(c, hops))
    const room = limits.filter((l) => l.reference > 0n && Number.isFinite(l.bound)).map((l) => ((l.bound - Number(l.reference)) / l.bound) * 1e4)
    const layeredSelf = limits.filter((l) => l.layeredPlan > 0n && Number.isFinite(l.layeredBound)).map((l) => ((l.layeredBound - Number(l.layeredPlan)) / l.layeredBound) * 1e4)
    const sources = (['layered', 'flow', ...RIVALS] as const).map((source) => `${source} ${limits.filter((l) => l.referenceSource === source).length}`).join(', ')
    const partials = full.filter((c) => limitOf(c, hops).partial > limitOf(c, hops).reference)
    if (partials.length > 0) {
      const c = partials.reduce((a, b) => (Number(limitOf(b, hops).partial) / Number(limitOf(b, hops).reference || 1n) > Number(limitOf(a, hops).partial) / Number(limitOf(a, hops).reference || 1n) ? b : a))
      console.log(`  ${partials.length} cases within ${hops} hops where a plan selling only part of the input (over ${PARTIAL_SHARE * 1e4} bp of its output's value or of its input left on the way) gives more than any full plan; not counted. Most: ${where(c)}: ${limitOf(c, hops).partial} against ${limitOf(c, hops).reference} (weft ${limitOf(c, hops).weftGross ?? 'no route'}).`)
    }
    console.log(
      `Within ${hops} hops: bound − best plan p50 ${fmtGap(percentile(room, 50))}, p99 ${fmtGap(percentile(room, 99))} bp (a loss of weft's below it can go unseen); layered dual − its own plan p50 ${fmtGap(percentile(layeredSelf, 50))}, p99 ${fmtGap(percentile(layeredSelf, 99))} bp; best plan from: ${sources}.`,
    )
  }
  const hopsOf = (list: HardCase[]) => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((h) => `${h}:${list.filter((c) => c.optimumHops === h).length}`).join(' ')
  console.log(`Unlimited optimum plans by most hops on a route: ${hopsOf(cases.filter((c) => c.primal > 0n))}`)

  for (const hops of HOP_LIMITS) {
    const limits = cases.map((c) => ({ c, l: limitOf(c, hops) }))
    const certified = limits.filter(({ l }) => l.certificateBound !== undefined)
    const invalid = certified.filter(({ l }) => l.certificateBound! < l.reference || (l.weftGross !== undefined && l.certificateBound! < l.weftGross))
    const fields = [...new Set(certified.map(({ l }) => l.certificateField))].join(', ')
    const wrong404 = limits.filter(({ l }) => l.weftGross === undefined && l.referenceFills)
    const tooLong = limits.filter(({ l }) => l.weftHops !== undefined && l.weftHops > hops)
    const unreproduced = limits.filter(({ l }) => l.reproduced === false)
    for (const { c, l } of invalid.slice(0, 8))
      console.log(`  ${limitLabel(hops)} invalid certificate: ${where(c)}: ${l.certificateField} ${l.certificateBound} < ${l.certificateBound! < l.reference ? `an independent exact plan of ≤ ${hops} hops giving ${l.reference} (${l.referenceSource})` : `weft's own output ${l.weftGross}`}`)
    for (const { c, l } of wrong404.slice(0, 8)) console.log(`  ${limitLabel(hops)} wrong refusal: ${where(c)}: weft "${l.weftFailure}", an independent exact plan of ≤ ${hops} hops fills with ${l.reference} (${l.referenceSource})`)
    for (const { c, hops: h } of worst.filter((w) => w.hops === hops)) {
      const l = limitOf(c, h)
      console.log(`  ${limitLabel(h)} worst: ${where(c)}: weft ${l.weftGross ?? l.weftFailure} (${l.weftHops ?? '—'} hops), best plan within the limit ${l.reference} (${l.referenceSource}), gap ${fmtGap(gapBps(l))} bp; unlimited optimum's plan ${c.primal} (${c.optimumHops} hops)`)
    }
    record(`hard: certificate bound ≥ every independent exact plan within the limit (and ≥ weft)`, hops, `${certified.length - invalid.length}/${certified.length} valid (field ${fields || 'none'}); ${limits.filter(({ l }) => l.weftGross !== undefined && l.certificateBound === undefined).length} routed quotes without a certificate`, certified.length > 0 ? invalid.length === 0 : undefined)
    record(`hard: 0 wrong 404s (weft refuses, an exact plan within the limit fills)`, hops, `${wrong404.length} of ${limits.filter(({ l }) => l.referenceFills).length} fillable cases`, wrong404.length === 0)
    record(`hard: every route within maxHops, re-executed exactly (path by path, or as a flow)`, hops, `${limits.filter(({ l }) => l.reproduced).length}/${limits.filter(({ l }) => l.reproduced !== undefined).length}${tooLong.length > 0 ? `; ${tooLong.length} longer than the limit` : ''}${unreproduced.length > 0 ? `; first mismatch ${where(unreproduced[0]!.c)}` : ''}`, unreproduced.length === 0 && tooLong.length === 0)
    const unpriced = limits.filter(({ c }) => !c.gasPriced).length
    /** Per rival, among the cases the pools cannot price gas in: comparisons at gas > 0, and how many weft lost. */
    const hostPriced: string[] = []
    for (const rival of RIVALS) {
      let compared = 0
      let below = 0
      let hostCompared = 0
      let hostBelow = 0
      let worstDeficit = 0
      let worstAt: HardCase | undefined
      let worstGas = ''
      for (const { c, l } of limits)
        for (const gas of GAS) {
          const theirs = l.net[rival][gas.label]
          if (theirs === undefined || !(theirs > 0)) continue
          compared++
          const byHost = gas.wei > 0n && !c.gasPriced
          if (byHost) hostCompared++
          const mine = l.net.weft[gas.label]
          const deficit = mine === undefined ? Infinity : ((theirs - mine) / Math.abs(theirs)) * 1e4
          if (deficit > 1e-6) {
            below++
            if (process.env.BENCH_HARD_LIST) console.log(`  below ${rival}: ${limitLabel(hops)} ${where(c)} gas ${gas.label}: ${Number.isFinite(deficit) ? deficit.toFixed(4) : 'no route'} bp (weft ${mine}, ${rival} ${theirs})`)
            if (byHost) hostBelow++
            if (deficit > worstDeficit) {
              worstDeficit = deficit
              worstAt = c
              worstGas = gas.label
            }
          }
        }
      const name = rival === 'single' ? 'best single path' : rival === 'grid' ? '5% grid' : 'Tines'
      hostPriced.push(`${name} ${hostBelow}/${hostCompared}`)
      record(`hard: never below the ${name} within the limit, any gas price`, hops, `below in ${below}/${compared}${worstAt ? `, worst ${Number.isFinite(worstDeficit) ? `${worstDeficit.toFixed(2)} bp` : 'weft found no route'} at ${where(worstAt)} gas ${worstGas}` : ''}`, compared > 0 ? below === 0 : undefined)
    }
    if (unpriced > 0)
      console.log(
        `  ${limitLabel(hops)}: ${unpriced} cases whose output no pool path links to the wrapped native token: gas priced at the bench's native price (getQuote's nativePriceInBuyToken; Tines' gas price in the output), as every rival's; weft below at gas > 0: ${hostPriced.join(', ')}.`,
      )
  }
  for (const { pools, hops, samples, load, timeBoxed, warm } of latency) {
    const target = LATENCY_TARGET_MS[pools]
    const p99 = percentile(samples, 99)
    const met = target === undefined || samples.length === 0 ? undefined : p99 <= target && samples.length >= 500
    record(`hard: getQuote warm, ${pools.toLocaleString('en-US')} pools, p99 ≤ ${target ?? '?'} ms (≥ 500 samples; the target holds at the default limit)`, hops, `p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(p99)}, ${samples.length} samples${timeBoxed ? ' (time-boxed)' : ''} after ${warm.quotes} warm${warm.timeBoxed ? ' (warm-up time box)' : ''}, load ${load}`, hops === DEFAULT_MAX_HOPS ? met : 'info')
  }

  console.log('\nTargets side by side, weft and every comparison held to the same hop limit:')
  printTable(
    ['target', ...HOP_LIMITS.flatMap((hops) => [limitLabel(hops), ''])],
    targets.map((t) => [t.target, ...HOP_LIMITS.flatMap((hops) => [t.byLimit.get(hops)?.measured ?? '—', t.byLimit.get(hops)?.status ?? ''])]),
    1,
  )
  console.log(`\nRouter-hard section: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return targets.flatMap((t) => HOP_LIMITS.filter((hops) => t.byLimit.has(hops)).map((hops): SummaryRow => [`${t.target} [${limitLabel(hops)}]`, t.byLimit.get(hops)!.measured, t.byLimit.get(hops)!.status]))
}
