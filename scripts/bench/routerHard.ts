// The hard-market router section (`npm run bench -- router-hard`): weft's getQuote on
// generated hard markets (hardMarket.ts) of 10 / 100 / 1,000 / 10,000 pools, against
// - the independent optimum (networkOptimum.ts: convex dual over every pool, any hops,
//   and its exact integer plan on the pools' own math), gas-free;
// - the best single path (≤ 4 hops, any intermediate token), a 5%-grid splitter over the
//   best paths found, and Sushi's Tines, each executed exactly, at three gas prices;
// - getQuote's warm latency.
// Prints the worst cases with their seeds; returns summary rows, each MET or MISSED.
// Sizes: BENCH_HARD=quick (a small run), BENCH_HARD_CLASSES=10,100 (which pool counts),
// BENCH_HARD_SEEDS=<pools>:<seed>[,...] (one universe each, to reproduce a worst case),
// BENCH_HARD_LATENCY=<samples> per class (default 500), BENCH_HARD_LATENCY_SECONDS (time box per class).
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { Address } from 'viem'
import { QuoteError } from '../../src/errors/QuoteError.js'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import type { Pool } from '../../src/protocols/types.js'
import { getQuote } from '../../src/quote/getQuote.js'
import type { Hop, Path } from '../../src/router/types.js'
import { gridSplitExactIn } from './grid.js'
import { type HardUniverse, createHardUniverse } from './hardMarket.js'
import { type Market, gasCostIn } from './market.js'
import { buildNetwork, executeDualFlow, solveDual } from './networkOptimum.js'
import { splitByFractions } from './paths.js'
import { formatMs, percentile, printTable } from './stats.js'
import { buildTinesGraph, routeWithTines } from './tines.js'

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
/** weft's hop limit here (getQuote's maxHops; the issue asks for a default of at least 4), and the single-path search's. */
const WEFT_MAX_HOPS = 4
const SINGLE_PATH_HOPS = WEFT_MAX_HOPS
/** Paths kept per token and hop count in the single-path search (distinct last pools). */
const LABELS_PER_TOKEN = 4

/** Largest token count the optimum is solved over every pool for. */
const OPTIMUM_FULL_TOKENS = 800

/** Universes per pool count: full and quick runs. */
const FULL_PLAN: Record<number, number[]> = { 10: [1, 2, 3, 4, 5, 6, 7, 8], 100: [1, 2, 3, 4], 1000: [1, 2], 10000: [1] }
const QUICK_PLAN: Record<number, number[]> = { 10: [1, 2], 100: [1], 1000: [1] }

/** One case: a trade of one size on one universe. */
type HardCase = {
  pools: number
  seed: number
  trade: string
  size: string
  plannedHops: number
  /** The independent optimum: dual bound; the best independent exact plan (the dual's flow, or a rival's when better), whether it fills, its hops. */
  bound: number
  primal: bigint
  /** Whether some independent plan spends the whole input (the trade can be filled). */
  primalFilled: boolean
  /** Whether the dual's flow itself fills. */
  flowFilled: boolean
  /** Which plan gave `primal`: the dual's flow, or the best single path / grid / Tines (gas-free). */
  primalSource: 'flow' | Rival
  /** The best independent exact plan whose routes all have at most WEFT_MAX_HOPS hops (0n: none fills). */
  withinLimit: bigint
  /** Whether an independent plan of at most WEFT_MAX_HOPS hops spends the whole input. */
  withinLimitFills: boolean
  optimumHops: number
  optimumMs: number
  /** The optimum was solved over a sub-market (see OPTIMUM_FULL_TOKENS). */
  subMarket?: boolean
  /** weft (getQuote), gas-free. */
  weftGross?: bigint
  weftFailure?: string
  certificateBound?: bigint
  certificateField?: string
  /** Net value (output − gas × gas price, raw output units) per gas level, for weft and the rivals. */
  net: Record<'weft' | Rival, Partial<Record<GasLabel, number>>>
  /** weft's route re-executed path by path on the pools gives its amountOut (±1e-9). */
  reproduced?: boolean
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

/** getQuote for one trade; the route as paths of this universe's pools, and the certificate. */
async function quoteWeft(context: UniverseContext, tokenIn: Address, tokenOut: Address, amountIn: bigint, gasPriceWei: bigint) {
  const { market } = context.universe
  let certificate: Record<string, unknown> | null | undefined
  try {
    const quote = await getQuote(
      { chainId: market.chain.id, sellToken: tokenIn, buyToken: tokenOut, sellAmount: amountIn, priceImpactLimitBps: 10_000 },
      context.source,
      { chains: [market.chain], gasPriceWei, maxHops: WEFT_MAX_HOPS, id: QUOTE_ID, onDetails: (details) => (certificate = details.certificate as Record<string, unknown> | null) },
    )
    const hop = (s: (typeof quote.route.swaps)[number][number]): RouteHop => ({
      pool: context.poolByKey.get(s.key)!,
      tokenIn: s.tokenIn.toLowerCase() as Address,
      tokenOut: s.tokenOut.toLowerCase() as Address,
      amountIn: BigInt(s.amountIn),
      amountOut: BigInt(s.amountOut),
    })
    const allocations = quote.route.swaps.map((swaps) => ({ path: swaps.map(hop), amountIn: BigInt(swaps[0]!.amountIn) }))
    return { amountOut: BigInt(quote.route.amountOut), allocations, hops: quote.route.swaps.flat().map(hop), certificate }
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
    primalFilled: false,
    flowFilled: false,
    primalSource: 'flow',
    withinLimit: 0n,
    withinLimitFills: false,
    optimumHops: 0,
    optimumMs: 0,
    net: { weft: {}, single: {}, grid: {}, tines: {} },
  }
  /** Tokens of weft's gas-free route (the sub-market optimum includes them). */
  const weftTokens = new Set<Address>()
  // Candidate paths for the grid: the best few single paths (distinct pool sets).
  const gridPaths: Path[] = []
  for (const label of [...singles].sort((a, b) => (b.amount > a.amount ? 1 : -1))) {
    const keys = label.hops.map((h) => h.pool.key).join()
    if (!gridPaths.some((p) => p.map((h) => h.pool.key).join() === keys)) gridPaths.push(label.hops)
    if (gridPaths.length >= 12) break
  }
  /** The rivals' gas-free exact outputs. */
  const gross: Partial<Record<Rival, bigint>> = {}
  let tinesHops = Infinity
  for (const gas of GAS) {
    const gasCost = gasCostIn(trade.tokenOut, gas.wei)
    const value = (result: { amountOut: bigint; gas: bigint } | undefined) => (result ? Number(result.amountOut) - (gasCost === 0 ? 0 : Number(result.gas) * gasCost) : undefined)
    const weft = await quoteWeft(context, trade.tokenIn.address, trade.tokenOut.address, amountIn, gas.wei)
    if ('failure' in weft) {
      if (gas.wei === 0n) entry.weftFailure = weft.failure
    } else {
      // The route re-evaluated on the pools: path after path, or as a flow (each pool once with its total).
      const sequential = executePaths(weft.allocations)
      const flow = checkFlow(weft.hops, trade.tokenIn.address, trade.tokenOut.address, weft.amountOut)
      const exact = sequential !== undefined && sequential.amountOut === weft.amountOut ? sequential : flow
      entry.net.weft[gas.label] = exact ? Number(weft.amountOut) - (gasCost === 0 ? 0 : Number(exact.gas) * gasCost) : undefined
      if (gas.wei === 0n) {
        for (const hop of weft.hops) weftTokens.add(hop.tokenIn).add(hop.tokenOut)
        entry.weftGross = weft.amountOut
        entry.reproduced = exact !== undefined
        const { bound, field } = certificateBound(weft.certificate)
        if (bound !== undefined) entry.certificateBound = bound
        if (field !== undefined) entry.certificateField = field
      }
    }
    let bestSingle: number | undefined
    for (const label of singles) {
      const v = Number(label.amount) - (gasCost === 0 ? 0 : Number(label.gas) * gasCost)
      if (bestSingle === undefined || v > bestSingle) bestSingle = v
    }
    if (bestSingle !== undefined) entry.net.single[gas.label] = bestSingle
    if (gas.wei === 0n && singles.length > 0) gross.single = singles.reduce((a, b) => (b.amount > a ? b.amount : a), 0n)
    const grid = gridPaths.length > 0 ? gridSplitExactIn(gridPaths, amountIn, gasCost) : undefined
    const gridResult = grid ? executePaths(grid) : undefined
    if (gridResult) entry.net.grid[gas.label] = value(gridResult)
    if (gas.wei === 0n && gridResult) gross.grid = gridResult.amountOut
    if (context.tines) {
      try {
        const route = routeWithTines(context.tines, trade.tokenIn.address, trade.tokenOut.address, amountIn, Number(gas.wei), market.chain.wrappedNative.address)
        if (route.paths.length > 0) {
          const shares = splitByFractions(amountIn, route.fractions)
          const tinesResult = executePaths(route.paths.map((path, i) => ({ path, amountIn: shares[i]! })))
          entry.net.tines[gas.label] = value(tinesResult)
          if (gas.wei === 0n && tinesResult) {
            gross.tines = tinesResult.amountOut
            tinesHops = Math.max(...route.paths.map((p) => p.length))
          }
        }
      } catch {
        // Tines found nothing usable: no figure.
      }
    }
  }
  const started = performance.now()
  // Past OPTIMUM_FULL_TOKENS tokens the dual over every pool is too slow for a bench run: the
  // optimum is then solved over the pools among the majors, the two ends' neighbours, the tokens
  // of the best single paths and of weft's route (its plan stays exact; its bound covers only that
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
  const primal = network && dual ? executeDualFlow(market, network, dual.prices, amountIn) : undefined
  entry.optimumMs = performance.now() - started
  if (dual) entry.bound = dual.bound
  if (primal) {
    // The flow's output is realised even when it strands dust (the dust is simply not traded on).
    entry.primal = primal.amountOut
    entry.primalFilled = primal.filled
    entry.flowFilled = primal.filled
    entry.optimumHops = primal.hops
    if (primal.hops <= WEFT_MAX_HOPS) {
      entry.withinLimit = primal.amountOut
      entry.withinLimitFills = primal.filled
    }
  }
  // The optimum's exact plan: the dual's flow, or an independent rival's gas-free plan when better
  // (each fills the whole input by construction).
  for (const rival of RIVALS) {
    const value = gross[rival]
    const hops = rival === 'tines' ? tinesHops : SINGLE_PATH_HOPS
    if (value === undefined || value <= 0n) continue
    // A rival's plan spends the whole input: the trade is fillable.
    entry.primalFilled = true
    if (hops <= WEFT_MAX_HOPS) {
      entry.withinLimitFills = true
      if (value > entry.withinLimit) entry.withinLimit = value
    }
    if (value > entry.primal) {
      entry.primal = value
      entry.primalSource = rival
    }
  }
  return entry
}

/** weft's gas-free gap below the optimum, bp (its exact plan when it fills, else the dual bound); Infinity when weft failed where the plan fills. */
function gapBps(entry: HardCase): number | undefined {
  const optimum = entry.primal > 0n ? Number(entry.primal) : entry.bound
  if (!(optimum > 0)) return undefined
  if (entry.weftGross === undefined) return entry.primalFilled ? Infinity : undefined
  return ((optimum - Number(entry.weftGross)) / optimum) * 1e4
}

/** The same gap against the best independent plan of at most WEFT_MAX_HOPS hops. */
function gapWithinBps(entry: HardCase): number | undefined {
  if (entry.withinLimit <= 0n) return undefined
  if (entry.weftGross === undefined) return Infinity
  return (Number(entry.withinLimit - entry.weftGross) / Number(entry.withinLimit)) * 1e4
}

const fmtGap = (g: number | undefined) => (g === undefined ? '—' : !Number.isFinite(g) ? 'no route' : g.toFixed(Math.abs(g) >= 100 ? 1 : 4))
const status = (met: boolean | undefined) => (met === undefined ? 'NOT MEASURED' : met ? 'MET' : 'MISSED')
const where = (c: HardCase) => `${c.pools} pools seed ${c.seed} ${c.trade} ${c.size}`

/** The latency loop of one class: warm getQuote (gas-aware, chain default gas price) round robin over its cases. */
async function measureLatency(contexts: readonly UniverseContext[], samples: number, seconds: number): Promise<{ samples: number[]; load: string; timeBoxed: boolean }> {
  const trades = contexts.flatMap((context) => context.universe.trades.flatMap((trade) => SIZES.map((f) => ({ context, trade, amountIn: (trade.depthIn * BigInt(Math.round(f * 1e9))) / 10n ** 9n }))))
  const run = ({ context, trade, amountIn }: (typeof trades)[number]) =>
    getQuote(
      { chainId: context.universe.market.chain.id, sellToken: trade.tokenIn.address, buyToken: trade.tokenOut.address, sellAmount: amountIn, priceImpactLimitBps: 10_000 },
      context.source,
      { chains: [context.universe.market.chain], maxHops: WEFT_MAX_HOPS, id: QUOTE_ID },
    ).catch(() => undefined)
  // Warm: one quote per trade (pools built, code compiled).
  for (const t of trades) await run(t)
  const times: number[] = []
  const started = performance.now()
  let timeBoxed = false
  for (let i = 0; i < samples; i++) {
    if (performance.now() - started > seconds * 1000) {
      timeBoxed = true
      break
    }
    const t0 = performance.now()
    await run(trades[i % trades.length]!)
    times.push(performance.now() - t0)
  }
  return { samples: times, load: loadavg().map((x) => x.toFixed(1)).join(' '), timeBoxed }
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
  console.log(`weft = getQuote on a snapshot source of the market (maxHops ${WEFT_MAX_HOPS}, priceImpactLimitBps 10000, otherwise defaults). Optimum = the convex dual over every pool`)
  console.log('(any hops) and its exact integer plan on the pools\' math (networkOptimum.ts, independent of src/router). gap = (optimum plan − weft) / optimum, bp, gas-free.')
  console.log(`Rivals, executed exactly, net of gas at none / 20 gwei / 0.01 gwei: best single path (≤ ${SINGLE_PATH_HOPS} hops, any token), 5%-grid over the best 12 single paths, Tines.`)
  console.log(`Plan: ${Object.entries(plan).map(([pools, seeds]) => `${pools} pools × seeds ${seeds.join(',')}`).join('; ')}; sizes ${SIZES.map(sizeLabel).join(' ')} of the trade's depth.\n`)

  const cases: HardCase[] = []
  const latency: { pools: number; samples: number[]; load: string; timeBoxed: boolean }[] = []
  for (const [poolsText, seeds] of Object.entries(plan)) {
    const pools = Number(poolsText)
    const classStarted = performance.now()
    const contexts: UniverseContext[] = []
    for (const seed of seeds) {
      const universe = createHardUniverse(pools, seed)
      const context = universeContext(universe, pools <= 1000)
      contexts.push(context)
      for (let t = 0; t < universe.trades.length; t++) for (const fraction of SIZES) cases.push(await runCase(context, t, fraction))
      console.log(`  [${universe.label}] shapes ${Object.entries(universe.shapes).filter(([, n]) => n > 0).map(([s, n]) => `${s} ${n}`).join(', ')}; trades ${universe.trades.map((t) => t.label).join(', ')}`)
    }
    const classCases = cases.filter((c) => c.pools === pools)
    const optimumTimes = classCases.map((c) => c.optimumMs)
    console.log(`  ${pools} pools: ${classCases.length} cases in ${((performance.now() - classStarted) / 1000).toFixed(1)} s; optimum solve + exact plan p50 ${formatMs(percentile(optimumTimes, 50))}, max ${formatMs(Math.max(...optimumTimes))}${pools > 1000 ? '; Tines not run at this size (too slow)' : ''}`)
    const measured = await measureLatency(contexts, latencySamples, latencySeconds)
    latency.push({ pools, ...measured })
    console.log(`  ${pools} pools: getQuote warm latency p50 ${formatMs(percentile(measured.samples, 50))}, p99 ${formatMs(percentile(measured.samples, 99))} over ${measured.samples.length} samples${measured.timeBoxed ? ` (time box ${latencySeconds} s reached)` : ''}, load average ${measured.load}\n`)
  }

  // Per class and size: the gas-free gap to the optimum.
  const rows: string[][] = []
  const summary: SummaryRow[] = []
  const worst: HardCase[] = []
  for (const pools of Object.keys(plan).map(Number)) {
    for (const size of SIZES.map(sizeLabel)) {
      const group = cases.filter((c) => c.pools === pools && c.size === size)
      const gaps = group.map((c) => ({ c, gap: gapBps(c) })).filter((g): g is { c: HardCase; gap: number } => g.gap !== undefined)
      if (gaps.length === 0) continue
      const values = gaps.map((g) => g.gap)
      const p50 = percentile(values, 50)
      const p99 = percentile(values, 99)
      const worstCase = gaps.reduce((a, b) => (b.gap > a.gap ? b : a))
      worst.push(worstCase.c)
      const met = p50 <= 0.01 && p99 <= 0.1
      const within = group.map(gapWithinBps).filter((g): g is number => g !== undefined)
      rows.push([`${pools}`, size, `${gaps.length}`, fmtGap(p50), fmtGap(p99), fmtGap(worstCase.gap), `seed ${worstCase.c.seed} ${worstCase.c.trade}`, fmtGap(Math.min(...values)), fmtGap(percentile(within, 50)), fmtGap(percentile(within, 99)), status(met)])
      summary.push([`hard ${pools} pools ${size}: gross ≥ optimum − 0.01 bp p50, − 0.1 bp p99`, `p50 ${fmtGap(p50)}, p99 ${fmtGap(p99)} bp (${gaps.length}); worst ${fmtGap(worstCase.gap)} at seed ${worstCase.c.seed} ${worstCase.c.trade}`, status(met)])
    }
  }
  console.log('Gas-free gap to the independent optimum (bp; below 0: weft beat the optimum\'s exact plan; "no route": weft failed where the plan fills)')
  printTable(['pools', 'size', 'cases', 'gap p50', 'gap p99', 'worst', 'worst case', 'best', `≤${WEFT_MAX_HOPS}h p50`, `≤${WEFT_MAX_HOPS}h p99`, ''], rows, 2)
  console.log(`  ≤${WEFT_MAX_HOPS}h: the gap to the best independent exact plan whose routes have at most ${WEFT_MAX_HOPS} hops (what weft's hop limit allows).`)

  // Certificates, 404s, rivals.
  const certified = cases.filter((c) => c.certificateBound !== undefined)
  const invalid = certified.filter((c) => c.certificateBound! < c.withinLimit || (c.weftGross !== undefined && c.certificateBound! < c.weftGross))
  const fields = [...new Set(certified.map((c) => c.certificateField))].join(', ')
  const wrong404 = cases.filter((c) => c.weftGross === undefined && c.withinLimitFills)
  const longOnly = cases.filter((c) => c.weftGross === undefined && !c.withinLimitFills && c.primalFilled)
  const unfilled = cases.filter((c) => !c.flowFilled)
  const unreproduced = cases.filter((c) => c.reproduced === false)
  const subMarkets = cases.filter((c) => c.subMarket)
  if (subMarkets.length > 0) console.log(`\nOptimum over a sub-market (majors, the ends' neighbours, the tokens of the best single paths) in ${subMarkets.length} cases: ${[...new Set(subMarkets.map((c) => c.pools))].join(', ')} pools.`)
  const selfGaps = cases.filter((c) => c.primal > 0n && c.bound > 0 && c.primalSource === 'flow' && !c.subMarket).map((c) => ((c.bound - Number(c.primal)) / c.bound) * 1e4)
  console.log(`\nIndependent optimum: dual bound − exact plan p50 ${fmtGap(percentile(selfGaps, 50))} bp, p99 ${fmtGap(percentile(selfGaps, 99))} bp, max ${fmtGap(Math.max(...selfGaps))} bp over ${selfGaps.length} cases; the dual's flow does not fill ${unfilled.length} of ${cases.length} (capacity, or dust left on the way); ${cases.filter((c) => !c.primalFilled).length} cases no independent plan fills.`)
  const loosest = cases.filter((c) => c.primal > 0n && c.bound > 0 && c.primalSource === 'flow' && !c.subMarket)
  if (loosest.length > 0) {
    const c = loosest.reduce((a, b) => (b.bound - Number(b.primal)) / b.bound > (a.bound - Number(a.primal)) / a.bound ? b : a)
    console.log(`  loosest: ${where(c)}: bound ${c.bound.toExponential(6)}, plan ${c.primal}${c.flowFilled ? '' : ' (the flow strands part of the input)'}: the dual may stall where a pool's curve is flat (a gap between ranges), so its flow is then a weaker plan.`)
  }
  const sources = (['flow', ...RIVALS] as const).map((s) => `${s} ${cases.filter((c) => c.primalFilled && c.primalSource === s).length}`).join(', ')
  console.log(`The optimum's exact plan came from: ${sources} (the dual's flow, or an independent rival's plan when that was better).`)
  const hopsOf = (list: HardCase[]) => [1, 2, 3, 4, 5, 6].map((h) => `${h}:${list.filter((c) => c.optimumHops === h).length}`).join(' ')
  console.log(`Optimum plans by most hops on a route: ${hopsOf(cases.filter((c) => c.primalFilled))} (hops > 6 not shown)`)
  for (const c of invalid.slice(0, 8))
    console.log(`  invalid certificate: ${where(c)}: ${c.certificateField} ${c.certificateBound} < ${c.certificateBound! < c.withinLimit ? `an independent exact plan of ≤ ${WEFT_MAX_HOPS} hops giving ${c.withinLimit}` : `weft's own output ${c.weftGross}`}`)
  for (const c of wrong404.slice(0, 8)) console.log(`  wrong refusal: ${where(c)}: weft "${c.weftFailure}", an independent exact plan of ≤ ${WEFT_MAX_HOPS} hops fills with ${c.withinLimit} (rivals: ${RIVALS.map((r) => `${r} ${c.net[r].none === undefined ? 'none' : 'fills'}`).join(', ')})`)
  if (longOnly.length > 0) console.log(`  ${longOnly.length} refusals where only the optimum's flow (routes over ${WEFT_MAX_HOPS} hops) fills: ${longOnly.slice(0, 4).map(where).join('; ')}`)
  // Within weft's hop limit: the worst case per class and size, where weft is over 0.1 bp below.
  for (const pools of Object.keys(plan).map(Number))
    for (const size of SIZES.map(sizeLabel)) {
      const group = cases.filter((c) => c.pools === pools && c.size === size && (gapWithinBps(c) ?? 0) > 0.1)
      if (group.length === 0) continue
      const c = group.reduce((a, b) => (gapWithinBps(b)! > gapWithinBps(a)! ? b : a))
      console.log(`  worst ≤${WEFT_MAX_HOPS}h: ${where(c)}: weft ${c.weftGross ?? c.weftFailure}, best independent plan of ≤ ${WEFT_MAX_HOPS} hops ${c.withinLimit}, gap ${fmtGap(gapWithinBps(c))} bp (${group.length} case${group.length > 1 ? 's' : ''} over 0.1 bp)`)
    }
  for (const c of worst.filter((w) => (gapBps(w) ?? 0) > 0.1)) console.log(`  worst: ${where(c)}: weft ${c.weftGross ?? c.weftFailure}, optimum plan ${c.primal} (${c.optimumHops} hops, planned ${c.plannedHops}), gap ${fmtGap(gapBps(c))} bp`)
  summary.push([
    `hard: certificate bound ≥ every independent exact plan of ≤ ${WEFT_MAX_HOPS} hops (and ≥ weft)`,
    `${certified.length - invalid.length}/${certified.length} valid (field ${fields || 'none'}); ${cases.filter((c) => c.weftGross !== undefined && c.certificateBound === undefined).length} routed quotes without a certificate`,
    status(certified.length > 0 ? invalid.length === 0 : undefined),
  ])
  summary.push([`hard: 0 wrong 404s (weft refuses, an exact plan of ≤ ${WEFT_MAX_HOPS} hops fills)`, `${wrong404.length} of ${cases.filter((c) => c.withinLimitFills).length} fillable cases${longOnly.length > 0 ? ` (+${longOnly.length} refusals only longer routes fill)` : ''}`, status(wrong404.length === 0)])
  for (const rival of RIVALS) {
    let compared = 0
    let below = 0
    let worstDeficit = 0
    let worstAt: HardCase | undefined
    let worstGas = ''
    for (const c of cases)
      for (const gas of GAS) {
        const theirs = c.net[rival][gas.label]
        if (theirs === undefined || !(theirs > 0)) continue
        compared++
        const mine = c.net.weft[gas.label]
        const deficit = mine === undefined ? Infinity : ((theirs - mine) / Math.abs(theirs)) * 1e4
        if (deficit > 1e-6) {
          below++
          if (deficit > worstDeficit) {
            worstDeficit = deficit
            worstAt = c
            worstGas = gas.label
          }
        }
      }
    const name = rival === 'single' ? `best single path (≤ ${SINGLE_PATH_HOPS} hops)` : rival === 'grid' ? '5% grid' : 'Tines'
    summary.push([
      `hard: never below the ${name}, any gas price`,
      `below in ${below}/${compared}${worstAt ? `, worst ${Number.isFinite(worstDeficit) ? `${worstDeficit.toFixed(2)} bp` : 'weft found no route'} at ${where(worstAt)} gas ${worstGas}` : ''}`,
      status(compared > 0 ? below === 0 : undefined),
    ])
  }
  for (const { pools, samples, load, timeBoxed } of latency) {
    const target = LATENCY_TARGET_MS[pools]
    const p99 = percentile(samples, 99)
    summary.push([
      `hard: getQuote warm, ${pools.toLocaleString('en-US')} pools, p99 ≤ ${target ?? '?'} ms (≥ 500 samples)`,
      `p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(p99)}, ${samples.length} samples${timeBoxed ? ' (time-boxed)' : ''}, load ${load}`,
      status(target === undefined || samples.length === 0 ? undefined : p99 <= target && samples.length >= 500),
    ])
  }
  summary.push(['hard: weft routes re-executed exactly (path by path, or as a flow) give amountOut', `${cases.filter((c) => c.reproduced).length}/${cases.filter((c) => c.reproduced !== undefined).length}${unreproduced.length > 0 ? `; first mismatch ${where(unreproduced[0]!)}` : ''}`, 'INFO'])
  console.log(`\nRouter-hard section: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return summary
}
