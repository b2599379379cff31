// The router comparison: weft against a 5%-grid splitter (the SOR's method),
// Sushi's Tines and the best single path, all executed exactly on weft's pools,
// and against the continuous optimum (independent solvers) and, on small pool
// sets, a brute-force subset oracle for output net of gas.
import { performance } from 'node:perf_hooks'
import type { Address } from 'viem'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import { getQuote } from '../../src/quote/getQuote.js'
import type { Pool } from '../../src/protocols/types.js'
import { findRoute } from '../../src/router/findRoute.js'
import { simulatePlan } from '../../src/router/simulatePlan.js'
import type { Path, Plan, RouteParameters } from '../../src/router/types.js'
import { solveNetworkDual, solveParallelBig, solveParallelFloat, type NetworkEdge } from './convex.js'
import { type BigCurve, type FloatCurve, buildBigCurve, buildFloatCurve } from './curves.js'
import { type Allocation, gridSplitExactIn, gridSplitExactOut } from './grid.js'
import { type BenchToken, type Market, gasCostIn } from './market.js'
import { enumeratePaths, quotePathExactIn, quotePathExactOut, splitByFractions } from './paths.js'
import { type PairMarket, createParallelMarket, createUniverse, getDepth } from './scenarios.js'
import { elapsedSeconds, formatBp, formatLatency, formatMs, percentile, printTable } from './stats.js'
import { type TinesGraph, buildTinesGraph, routeWithTines, routeWithTinesExactOut } from './tines.js'

export const COMPETITORS = ['weft', 'grid', 'tines', 'single'] as const
export type Competitor = (typeof COMPETITORS)[number]

/** Gas prices of the scenarios: none, Ethereum (20 gwei, ETH $3000), Base (0.01 gwei). */
export const GAS_LEVELS = [
  { label: 'none', wei: 0n },
  { label: 'eth', wei: 20_000_000_000n },
  { label: 'base', wei: 10_000_000n },
] as const
export type GasLevel = (typeof GAS_LEVELS)[number]

/** One competitor's result on one case. `value`: output (net of gas when priced), or cost for exact-out. */
export type Outcome = { value?: number; failure?: string; samples: number[]; paths?: number }

/** One scenario: every competitor on the same pool states. */
export type RouterCase = {
  group: 'parallel' | 'universe'
  kind: 'exactIn' | 'exactOut'
  market: string
  poolCount: number
  trade: string
  size: string
  gas: GasLevel['label']
  outcomes: Record<Competitor, Outcome>
  /** Continuous optimum: gas-free output (exact-in) or least input (exact-out). */
  optimum?: number
  optimumSource?: 'bisection' | 'dual'
  optimumMs?: number
  /** Dual only: estimated slack of the bound, bps. */
  optimumSlackBps?: number
  /** Universes: the dual bound over the pools among the two ends and the connectors only (weft's candidate tokens). */
  connectorOptimum?: number
  /** Subset oracle's best realised output net of gas. */
  oracle?: number
  /** weft's certificate: claimed gap, and whether its bound stays above the exact optimum (parallel pools). */
  certificate?: { gapBps: number; valid?: boolean }
  /** weft's plan re-simulated from its paths gives the same output. */
  reproduced?: boolean
}

/** Samples per competitor, by market size (slow competitors on big markets get fewer). */
type SampleCounts = Record<Competitor, number>
const PARALLEL_SAMPLES: SampleCounts = { weft: 30, grid: 3, tines: 5, single: 5 }
const UNIVERSE_100_SAMPLES: SampleCounts = { weft: 20, grid: 2, tines: 3, single: 3 }
const UNIVERSE_1000_SAMPLES: SampleCounts = { weft: 8, grid: 2, tines: 2, single: 2 }
const EXACT_OUT_SAMPLES: SampleCounts = { weft: 10, grid: 2, tines: 3, single: 3 }

const PARALLEL_COUNTS = [2, 5, 10, 20]
const PARALLEL_SIZES = [1e-6, 1e-3, 1e-2, 5e-2, 0.1, 0.3]
const UNIVERSE_SIZES = [1e-3, 1e-2, 0.1, 0.3]
const EXACT_OUT_COUNTS = [5, 20]
const EXACT_OUT_SIZES = [1e-3, 1e-2, 0.1]
/** The subset oracle enumerates every subset of at most this many candidate pools. */
const ORACLE_MAX_POOLS = 8

const sizeLabel = (f: number) => (f < 1e-4 ? `${f.toExponential(0)}` : `${+(f * 100).toPrecision(3)}%`)

/** Runs `fn` `runs` times; the first run's result is the one evaluated. Errors are reported, not thrown. */
function measure<T>(runs: number, fn: () => T): { result?: T; failure?: string; samples: number[] } {
  const samples: number[] = []
  let result: T | undefined
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    try {
      const value = fn()
      if (i === 0) result = value
    } catch (error) {
      return { failure: error instanceof Error ? error.message.slice(0, 80) : String(error), samples }
    }
    samples.push(performance.now() - started)
  }
  return { result, samples }
}

async function measureAsync<T>(runs: number, fn: () => Promise<T>): Promise<{ result?: T; failure?: string; samples: number[] }> {
  const samples: number[] = []
  let result: T | undefined
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    try {
      const value = await fn()
      if (i === 0) result = value
    } catch (error) {
      return { failure: error instanceof Error ? error.message.slice(0, 80) : String(error), samples }
    }
    samples.push(performance.now() - started)
  }
  return { result, samples }
}

/** Output net of gas (gas-free when the cost is 0). */
const netOf = (plan: Plan, gasCost: number) => Number(plan.amountOut) - (gasCost === 0 ? 0 : Number(plan.gas) * gasCost)

const execute = (allocations: readonly Allocation[], gasCost: number) => simulatePlan(allocations, { gasCostInOutput: gasCost })

/** The best single candidate path for the whole amount, net of gas. */
function bestSinglePath(paths: readonly Path[], amountIn: bigint, gasCost: number): Path | undefined {
  let best: Path | undefined
  let bestValue = -Infinity
  for (const path of paths) {
    const quote = quotePathExactIn(path, amountIn)
    if (!quote) continue
    const value = Number(quote.amountOut) - Number(quote.gas) * gasCost
    if (value > bestValue) {
      bestValue = value
      best = path
    }
  }
  return best
}

/** Everything about a market and trade direction the competitors share. */
type TradeContext = {
  market: Market
  tokenIn: BenchToken
  tokenOut: BenchToken
  pools: Pool[]
  paths: Path[]
  tines: TinesGraph
  weth: Address
}

function tradeContext(market: Market, tokenIn: BenchToken, tokenOut: BenchToken, tines: TinesGraph): TradeContext {
  const pools = market.pools.map((p) => p.pool)
  const paths = enumeratePaths(pools, tokenIn.address, tokenOut.address, new Set(market.chain.majorTokens), 3)
  return { market, tokenIn, tokenOut, pools, paths, tines, weth: market.chain.wrappedNative.address }
}

/** The four competitors on one exact-in case. */
function runExactIn(context: TradeContext, amountIn: bigint, gas: GasLevel, counts: SampleCounts): Pick<RouterCase, 'outcomes' | 'certificate' | 'reproduced'> & { weftPlan?: Plan } {
  const { tokenIn, tokenOut, pools, paths, market } = context
  const gasCost = gasCostIn(tokenOut, gas.wei)
  const outcomes = {} as Record<Competitor, Outcome>
  const parameters: RouteParameters = {
    pools,
    tokenIn: tokenIn.address,
    tokenOut: tokenOut.address,
    connectors: market.chain.majorTokens,
    maxHops: 3,
    gasCostInOutput: gasCost,
  }
  const weft = measure(counts.weft, () => findRoute(parameters, amountIn))
  const weftPlan = weft.result
  outcomes.weft = { samples: weft.samples, ...(weftPlan ? { value: netOf(weftPlan, gasCost), paths: weftPlan.paths.length } : { failure: weft.failure ?? 'no route' }) }
  let certificate: RouterCase['certificate']
  let reproduced: boolean | undefined
  if (weftPlan) {
    const claimed = (weftPlan as { certificate?: { gapBps?: number } }).certificate
    if (claimed && typeof claimed.gapBps === 'number') certificate = { gapBps: claimed.gapBps }
    const again = execute(weftPlan.paths.map((p) => ({ path: p.path, amountIn: p.amountIn })), gasCost)
    reproduced = again !== undefined && again.amountOut === weftPlan.amountOut
  }

  const grid = measure(counts.grid, () => gridSplitExactIn(paths, amountIn, gasCost))
  const gridPlan = grid.result ? execute(grid.result, gasCost) : undefined
  outcomes.grid = { samples: grid.samples, ...(gridPlan ? { value: netOf(gridPlan, gasCost), paths: gridPlan.paths.length } : { failure: grid.failure ?? 'no route' }) }

  const tines = measure(counts.tines, () => routeWithTines(context.tines, tokenIn.address, tokenOut.address, amountIn, Number(gas.wei), context.weth))
  const route = tines.result
  const tinesPlan =
    route && route.paths.length > 0
      ? execute(
          route.paths.map((path, i) => ({ path, amountIn: splitByFractions(amountIn, route.fractions)[i]! })),
          gasCost,
        )
      : undefined
  outcomes.tines = {
    samples: tines.samples,
    ...(tinesPlan
      ? { value: netOf(tinesPlan, gasCost), paths: tinesPlan.paths.length }
      : { failure: tines.failure ?? (route && route.paths.length > 0 ? `its route (${route.status}) does not execute on weft's pools` : 'no route') }),
  }

  const single = measure(counts.single, () => bestSinglePath(paths, amountIn, gasCost))
  const singlePlan = single.result ? execute([{ path: single.result, amountIn }], gasCost) : undefined
  outcomes.single = { samples: single.samples, ...(singlePlan ? { value: netOf(singlePlan, gasCost), paths: 1 } : { failure: single.failure ?? 'no route' }) }
  return { outcomes, certificate, reproduced, ...(weftPlan ? { weftPlan } : {}) }
}

/** The best realised output net of gas over every subset of the (parallel, single-pool) paths. */
function subsetOracle(paths: readonly Path[], curves: readonly FloatCurve[], amountIn: bigint, gasCost: number): number | undefined {
  let best: number | undefined
  for (let mask = 1; mask < 1 << paths.length; mask++) {
    const chosen = paths.map((_, i) => i).filter((i) => mask & (1 << i))
    const split = solveParallelFloat(
      chosen.map((i) => curves[i]!),
      Number(amountIn),
      'exactIn',
    )
    if (!split) continue
    const shares = splitByFractions(amountIn, split.inputs)
    const plan = execute(
      chosen.map((i, k) => ({ path: paths[i]!, amountIn: shares[k]! })),
      gasCost,
    )
    if (!plan) continue
    const value = netOf(plan, gasCost)
    if (best === undefined || value > best) best = value
  }
  return best
}

/**
 * The dual's network for a trade, both directions of every pool: `all`, every pool of the market
 * (any route, any number of hops); `connectors`, the pools among the two ends and the majors only
 * (the tokens the 3-hop candidate paths pass through).
 */
function networkOf(market: Market, tokenIn: BenchToken, tokenOut: BenchToken, scope: 'all' | 'connectors') {
  const allowed = new Set<Address>([tokenIn.address, tokenOut.address, ...market.chain.majorTokens])
  const pools = scope === 'all' ? market.pools : market.pools.filter((p) => allowed.has(p.state.token0) && allowed.has(p.state.token1))
  const tokens = [...new Set([tokenIn.address, tokenOut.address, ...pools.flatMap((p) => [p.state.token0, p.state.token1])])]
  const index = new Map(tokens.map((t, i) => [t, i]))
  const edges: NetworkEdge[] = pools.map((p) => ({
    a: index.get(p.state.token0)!,
    b: index.get(p.state.token1)!,
    sellA: buildFloatCurve(p.state, p.state.token0, p.v2FeeBps),
    sellB: buildFloatCurve(p.state, p.state.token1, p.v2FeeBps),
  }))
  // Starting prices: raw output units per raw unit, from the tokens' USD prices.
  const prices = tokens.map((t) => {
    const token = market.tokenByAddress.get(t)!
    return token.priceUsd / 10 ** token.decimals
  })
  return { tokens, edges, prices, pools: pools.length }
}

/** What the router section hands to the summary. */
export type RouterReport = { cases: RouterCase[]; selfCheckBps?: number; selfCheckCases: number }

/**
 * Runs every router scenario and prints the tables.
 *
 * @example
 * const report = await runRouterBench()
 */
export async function runRouterBench(): Promise<RouterReport> {
  const started = performance.now()
  const cases: RouterCase[] = []
  let selfCheck = 0
  let selfCheckCases = 0
  console.log('Router: weft vs a 5%-grid splitter (SOR method), Tines, the best single path, the continuous optimum and a subset oracle.')
  console.log('Every competitor\'s split is executed exactly on weft\'s pools (simulatePlan); Δ = (value / best realised − 1) in bp.')
  console.log('Values: output for gas "none"; output − gas × gas price (raw output units) for "eth" (20 gwei, ETH $3000) and "base" (0.01 gwei).')
  console.log(
    `Latency samples per case — parallel: ${fmtCounts(PARALLEL_SAMPLES)}; 100 pools: ${fmtCounts(UNIVERSE_100_SAMPLES)}; 1,000 pools: ${fmtCounts(UNIVERSE_1000_SAMPLES)}; exact out: ${fmtCounts(EXACT_OUT_SAMPLES)}; each optimum: 1 solve.\n`,
  )

  // 1. One pair over parallel pools.
  const parallelRows: string[][] = []
  for (const count of PARALLEL_COUNTS) {
    const pair = createParallelMarket(count)
    const context = tradeContext(pair.market, pair.tokenIn, pair.tokenOut, buildTinesGraph(pair.market, pair.market.pools))
    const bigCurves: BigCurve[] = pair.market.pools.map((p) => buildBigCurve(p.state, pair.tokenIn.address, p.v2FeeBps))
    // Curves in path order (parallel: one pool per path).
    const pathCurves = context.paths.map((path) => {
      const entry = pair.market.poolByKey.get(path[0]!.pool.key)!
      return buildFloatCurve(entry.state, pair.tokenIn.address, entry.v2FeeBps)
    })
    const depth = getDepth(pair.market, pair.tokenIn)
    for (const fraction of PARALLEL_SIZES) {
      const amountIn = (depth * BigInt(Math.round(fraction * 1e9))) / 10n ** 9n
      const t = performance.now()
      const optimum = solveParallelBig(bigCurves, amountIn, 'exactIn')
      const optimumMs = performance.now() - t
      const optimumValue = optimum?.value.toNumber()
      if (fraction >= 1e-3 && optimumValue !== undefined) {
        // Self-check of the float dual used on the universes: one direction per pool, against the 80-digit bisection.
        const empty: FloatCurve = { gamma: 1, u: [1, 1], L: [0], netIn: [0, 0], out: [0, 0] }
        const dual = solveNetworkDual(2, 0, 1, Number(amountIn), pathCurves.map((c) => ({ a: 0, b: 1, sellA: c, sellB: empty })), [
          pair.tokenIn.priceUsd / 10 ** pair.tokenIn.decimals,
          pair.tokenOut.priceUsd / 10 ** pair.tokenOut.decimals,
        ])
        selfCheck = Math.max(selfCheck, Math.abs(dual.bound - optimumValue) / optimumValue * 1e4)
        selfCheckCases++
      }
      for (const gas of GAS_LEVELS) {
        const run = runExactIn(context, amountIn, gas, PARALLEL_SAMPLES)
        const entry: RouterCase = {
          group: 'parallel',
          kind: 'exactIn',
          market: pair.label,
          poolCount: count,
          trade: `${pair.tokenIn.symbol}->${pair.tokenOut.symbol}`,
          size: sizeLabel(fraction),
          gas: gas.label,
          outcomes: run.outcomes,
          ...(run.reproduced !== undefined ? { reproduced: run.reproduced } : {}),
        }
        if (gas.wei === 0n && optimumValue !== undefined) {
          entry.optimum = optimumValue
          entry.optimumSource = 'bisection'
          entry.optimumMs = optimumMs
        }
        if (run.certificate) {
          const bound = (run.weftPlan as { certificate?: { upperBound?: bigint } } | undefined)?.certificate?.upperBound
          entry.certificate = {
            gapBps: run.certificate.gapBps,
            ...(gas.wei === 0n && optimumValue !== undefined && typeof bound === 'bigint' ? { valid: Number(bound) >= optimumValue * (1 - 1e-11) } : {}),
          }
        }
        if (context.paths.length <= ORACLE_MAX_POOLS) {
          const oracle = subsetOracle(context.paths, pathCurves, amountIn, gasCostIn(pair.tokenOut, gas.wei))
          if (oracle !== undefined) entry.oracle = oracle
        }
        cases.push(entry)
        parallelRows.push(caseRow(entry, `${count}`))
      }
    }
  }
  console.log('Exact in: USDC -> WETH over parallel WETH/USDC pools (V2 fees 20-30 bp, V3 tiers 1-100 bp, $0.3M-$40M each); size = share of the USDC side of all pools')
  printTable(caseHeader('pools'), parallelRows, 3)
  printFailures(cases.filter((c) => c.group === 'parallel'), (c) => `${c.poolCount} pools`)
  console.log('  opt−weft: the continuous optimum (80-digit bisection on the common marginal rate) minus weft, bp of the optimum (gas "none");')
  console.log('  opt−best: the optimum minus the best realised output (integer rounding and execution: what no exact plan can recover).')
  console.log('  oracle−weft: best over every subset of pools, each optimally split and executed exactly, minus gas; minus weft (net), bp.')
  console.log('  cert: weft\'s own certificate gap (bp); "!" marks a bound below the true optimum.')
  console.log(`  ${solveTimes(cases.filter((c) => c.group === 'parallel'))}\n`)

  // 2. Multi-hop universes.
  for (const [poolCount, seed, counts] of [
    [100, 11, UNIVERSE_100_SAMPLES],
    [1000, 12, UNIVERSE_1000_SAMPLES],
  ] as const) {
    const universe = createUniverse(poolCount, seed)
    const tines = buildTinesGraph(universe.market, universe.market.pools)
    const rows: string[][] = []
    for (const trade of universe.trades) {
      const context = tradeContext(universe.market, trade.tokenIn, trade.tokenOut, tines)
      const network = networkOf(universe.market, trade.tokenIn, trade.tokenOut, 'all')
      const connectorNetwork = networkOf(universe.market, trade.tokenIn, trade.tokenOut, 'connectors')
      const depth = getDepth(universe.market, trade.tokenIn)
      for (const fraction of UNIVERSE_SIZES) {
        const amountIn = (depth * BigInt(Math.round(fraction * 1e9))) / 10n ** 9n
        const t = performance.now()
        const dual = solveNetworkDual(network.tokens.length, 0, 1, Number(amountIn), network.edges, network.prices)
        const optimumMs = performance.now() - t
        const connectorDual = solveNetworkDual(connectorNetwork.tokens.length, 0, 1, Number(amountIn), connectorNetwork.edges, connectorNetwork.prices)
        for (const gas of GAS_LEVELS.slice(0, 2)) {
          const run = runExactIn(context, amountIn, gas, counts)
          const entry: RouterCase = {
            group: 'universe',
            kind: 'exactIn',
            market: universe.label,
            poolCount,
            trade: `${trade.label} (${context.paths.length} paths)`,
            size: sizeLabel(fraction),
            gas: gas.label,
            outcomes: run.outcomes,
            ...(run.reproduced !== undefined ? { reproduced: run.reproduced } : {}),
            ...(run.certificate ? { certificate: run.certificate } : {}),
          }
          if (gas.wei === 0n) {
            entry.optimum = dual.bound
            entry.optimumSource = 'dual'
            entry.optimumMs = optimumMs
            entry.optimumSlackBps = dual.slack * 1e4
            entry.connectorOptimum = connectorDual.bound
          }
          cases.push(entry)
          rows.push(caseRow(entry, trade.label, true))
        }
      }
      console.log(
        `  [${universe.label}] ${trade.label}: ${context.paths.length} candidate paths (≤3 hops via majors); duals over all ${network.pools} pools / ${network.tokens.length} tokens and over the ${connectorNetwork.pools} pools among the ends and majors`,
      )
    }
    console.log(`Exact in, 3-hop universe of ${universe.label} (majors USDC USDT DAI WETH WBTC as connectors; seed ${seed})`)
    printTable(caseHeader('trade', true), rows, 3)
    printFailures(cases.filter((c) => c.group === 'universe' && c.poolCount === poolCount), (c) => c.trade)
    console.log('  opt−weft here: the dual bound over every pool of the universe (any route, any hops, both directions) minus weft: an upper bound on weft\'s gap')
    console.log('  (Tines routes up to 6 hops, so only this bound covers it); optC−weft: the same bound over the pools among the two ends and the majors only.')
    const universeCases = cases.filter((c) => c.group === 'universe' && c.poolCount === poolCount && c.optimumSlackBps !== undefined)
    const slack = Math.max(...universeCases.map((c) => c.optimumSlackBps!))
    console.log(`  ${solveTimes(universeCases)} (all pools); largest estimated slack of that bound ${slack.toExponential(1)} bp\n`)
  }

  // 3. Exact out through getQuote (snapshot source) on parallel pools.
  const outRows: string[][] = []
  for (const count of EXACT_OUT_COUNTS) {
    const pair = createParallelMarket(count)
    const context = tradeContext(pair.market, pair.tokenIn, pair.tokenOut, buildTinesGraph(pair.market, pair.market.pools))
    const bigCurves = pair.market.pools.map((p) => buildBigCurve(p.state, pair.tokenIn.address, p.v2FeeBps))
    const source = createSnapshotSource(pair.market.snapshot)
    const depth = getDepth(pair.market, pair.tokenOut)
    for (const fraction of EXACT_OUT_SIZES) {
      const amountOut = (depth * BigInt(Math.round(fraction * 1e9))) / 10n ** 9n
      const t = performance.now()
      const optimum = solveParallelBig(bigCurves, amountOut, 'exactOut')
      const optimumMs = performance.now() - t
      for (const gas of GAS_LEVELS.slice(0, 2)) {
        const entry = await runExactOut(context, pair, source, amountOut, gas)
        entry.size = sizeLabel(fraction)
        if (gas.wei === 0n && optimum) {
          entry.optimum = optimum.value.toNumber()
          entry.optimumSource = 'bisection'
          entry.optimumMs = optimumMs
        }
        cases.push(entry)
        outRows.push(caseRow(entry, `${count}`))
      }
    }
  }
  console.log('Exact out: buy WETH with USDC over parallel pools (weft through getQuote on a snapshot source); size = share of the WETH side')
  console.log('Values: input needed (+ gas × price in USDC for "eth"); Δ = −(cost / least cost − 1) in bp, so below 0 is worse; opt−weft: weft\'s input minus the least continuous input, bp.')
  console.log('weft latency here is getQuote end to end (pools built from the snapshot states, exact-out search, calldata).')
  printTable(caseHeader('pools'), outRows, 3)
  printFailures(cases.filter((c) => c.kind === 'exactOut'), (c) => `${c.poolCount} pools`)
  console.log(`  ${solveTimes(cases.filter((c) => c.kind === 'exactOut'))}`)
  console.log(`Router section: ${elapsedSeconds(started)}\n`)
  return { cases, selfCheckBps: selfCheckCases > 0 ? selfCheck : undefined, selfCheckCases }
}

const fmtCounts = (c: SampleCounts) => COMPETITORS.map((k) => `${k} ${c[k]}`).join(', ')

/** One line on how long the optimum solves took. */
function solveTimes(entries: readonly RouterCase[]): string {
  const times = entries.map((c) => c.optimumMs).filter((t): t is number => t !== undefined)
  if (times.length === 0) return 'optimum: not solved'
  return `optimum solve time: p50 ${formatMs(percentile(times, 50))}, max ${formatMs(Math.max(...times))} over ${times.length} solves`
}

/** The four competitors on one exact-out case; values are costs (input + gas in input units), lower is better. */
async function runExactOut(context: TradeContext, pair: PairMarket, source: ReturnType<typeof createSnapshotSource>, amountOut: bigint, gas: GasLevel): Promise<RouterCase> {
  const { tokenIn, tokenOut, paths, market } = context
  const costPerGas = gasCostIn(tokenIn, gas.wei)
  const counts = EXACT_OUT_SAMPLES
  const outcomes = {} as Record<Competitor, Outcome>
  const costOf = (plan: Plan | undefined, amountIn: bigint): number | undefined =>
    plan && plan.amountOut >= amountOut ? Number(amountIn) + (costPerGas === 0 ? 0 : Number(plan.gas) * costPerGas) : undefined

  const weft = await measureAsync(counts.weft, () =>
    getQuote(
      { chainId: market.chain.id, sellToken: tokenIn.address, buyToken: tokenOut.address, buyAmount: amountOut, priceImpactLimitBps: 10_000 },
      source,
      { chains: [market.chain], gasPriceWei: gas.wei, id: '01930000-0000-7000-8000-000000000000' },
    ),
  )
  if (weft.result) {
    const quote = weft.result
    const allocations = quote.route.swaps.map((swaps) => ({
      path: swaps.map((s) => ({ pool: market.poolByKey.get(s.key)!.pool, tokenIn: s.tokenIn, tokenOut: s.tokenOut })),
      amountIn: BigInt(swaps[0]!.amountIn),
    }))
    const cost = costOf(execute(allocations, 0), BigInt(quote.amountIn))
    outcomes.weft = { samples: weft.samples, ...(cost !== undefined ? { value: cost, paths: allocations.length } : { failure: 'short' }) }
  } else outcomes.weft = { samples: weft.samples, failure: weft.failure ?? 'no route' }

  const grid = measure(counts.grid, () => gridSplitExactOut(paths, amountOut, costPerGas))
  if (grid.result) {
    const amountIn = grid.result.reduce((a, b) => a + b.amountIn, 0n)
    const cost = costOf(execute(grid.result, 0), amountIn)
    outcomes.grid = { samples: grid.samples, ...(cost !== undefined ? { value: cost, paths: grid.result.length } : { failure: 'short' }) }
  } else outcomes.grid = { samples: grid.samples, failure: grid.failure ?? 'no route' }

  const tines = measure(counts.tines, () => routeWithTinesExactOut(context.tines, tokenIn.address, tokenOut.address, amountOut, Number(gas.wei), context.weth))
  const route = tines.result
  if (route && route.paths.length > 0) {
    // Tines' split shape, scaled to the least input that delivers the amount on exact execution.
    const planAt = (amountIn: bigint) => execute(route.paths.map((path, i) => ({ path, amountIn: splitByFractions(amountIn, route.fractions)[i]! })), 0)
    let hi = 1n
    while (hi < 1n << 200n && !((planAt(hi)?.amountOut ?? 0n) >= amountOut)) hi *= 2n
    let lo = hi / 2n
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n
      if ((planAt(mid)?.amountOut ?? 0n) >= amountOut) hi = mid
      else lo = mid
    }
    const cost = costOf(planAt(hi), hi)
    outcomes.tines = { samples: tines.samples, ...(cost !== undefined ? { value: cost, paths: route.paths.length } : { failure: 'short' }) }
  } else outcomes.tines = { samples: tines.samples, failure: tines.failure ?? 'no route' }

  const single = measure(counts.single, () => {
    let best: { path: Path; amountIn: bigint; cost: number } | undefined
    for (const path of paths) {
      const quote = quotePathExactOut(path, amountOut)
      if (!quote) continue
      const cost = Number(quote.amountIn) + Number(quote.gas) * costPerGas
      if (!best || cost < best.cost) best = { path, amountIn: quote.amountIn, cost }
    }
    return best
  })
  if (single.result) {
    const cost = costOf(execute([{ path: single.result.path, amountIn: single.result.amountIn }], 0), single.result.amountIn)
    outcomes.single = { samples: single.samples, ...(cost !== undefined ? { value: cost, paths: 1 } : { failure: 'short' }) }
  } else outcomes.single = { samples: single.samples, failure: single.failure ?? 'no route' }

  return {
    group: 'parallel',
    kind: 'exactOut',
    market: pair.label,
    poolCount: market.pools.length,
    trade: `${tokenIn.symbol}->${tokenOut.symbol}`,
    size: '',
    gas: gas.label,
    outcomes,
  }
}

/** Best realised value of a case: highest output (exact-in) or lowest cost (exact-out). */
export function bestRealised(entry: RouterCase): number | undefined {
  const values = COMPETITORS.map((c) => entry.outcomes[c].value).filter((v): v is number => v !== undefined)
  if (entry.oracle !== undefined) values.push(entry.oracle)
  if (values.length === 0) return undefined
  return entry.kind === 'exactIn' ? Math.max(...values) : Math.min(...values)
}

/** A competitor's distance to the best realised value, in bp (0 for the best, negative when worse). */
export function deltaBps(entry: RouterCase, value: number | undefined): number | undefined {
  const best = bestRealised(entry)
  if (value === undefined || best === undefined) return undefined
  return entry.kind === 'exactIn' ? ((value - best) / Math.abs(best)) * 1e4 : ((best - value) / Math.abs(best)) * 1e4
}

/** weft's distance below the continuous optimum, bp (positive: below it). */
export function optimumGapBps(entry: RouterCase): number | undefined {
  const weft = entry.outcomes.weft.value
  if (entry.optimum === undefined || weft === undefined) return undefined
  return entry.kind === 'exactIn' ? ((entry.optimum - weft) / entry.optimum) * 1e4 : ((weft - entry.optimum) / entry.optimum) * 1e4
}

/** weft's distance below the subset oracle (net of gas), bp. */
export function oracleGapBps(entry: RouterCase): number | undefined {
  const weft = entry.outcomes.weft.value
  if (entry.oracle === undefined || weft === undefined) return undefined
  return ((entry.oracle - weft) / Math.abs(entry.oracle)) * 1e4
}

function caseHeader(first: string, connectorBound = false): string[] {
  return [
    first, 'size', 'gas', 'weft Δ', 'grid Δ', 'tines Δ', 'single Δ', 'opt−weft', ...(connectorBound ? ['optC−weft'] : []), 'opt−best', 'oracle−weft', 'cert',
    'weft p50/p99', 'grid p50/p99', 'tines p50/p99', 'single p50/p99',
  ]
}

/** weft's distance below the connector-network bound (universes), bp. */
export function connectorGapBps(entry: RouterCase): number | undefined {
  const weft = entry.outcomes.weft.value
  if (entry.connectorOptimum === undefined || weft === undefined) return undefined
  return ((entry.connectorOptimum - weft) / entry.connectorOptimum) * 1e4
}

/** How far the best realised value is from the continuous optimum, bp (how loose the bound is at least). */
function optimumToBestBps(entry: RouterCase): number | undefined {
  const best = bestRealised(entry)
  if (entry.optimum === undefined || best === undefined) return undefined
  return entry.kind === 'exactIn' ? ((entry.optimum - best) / entry.optimum) * 1e4 : ((best - entry.optimum) / entry.optimum) * 1e4
}

/** One line per competitor failure in these cases (a crash or an unusable route, not "no route"). */
function printFailures(entries: readonly RouterCase[], first: (entry: RouterCase) => string): void {
  for (const entry of entries)
    for (const c of COMPETITORS) {
      const failure = entry.outcomes[c].failure
      if (failure && failure !== 'no route') console.log(`  fail: ${c} on ${first(entry)} ${entry.size} gas ${entry.gas}: ${failure}`)
    }
}

function caseRow(entry: RouterCase, first: string, connectorBound = false): string[] {
  const cell = (c: Competitor) => {
    const outcome = entry.outcomes[c]
    if (outcome.value === undefined) return outcome.failure === 'no route' ? 'none' : 'fail'
    return formatBp(deltaBps(entry, outcome.value))
  }
  const cert = entry.certificate ? `${formatBp(entry.certificate.gapBps)}${entry.certificate.valid === false ? '!' : ''}` : '—'
  return [
    first,
    entry.size,
    entry.gas,
    ...COMPETITORS.map(cell),
    formatBp(optimumGapBps(entry)),
    ...(connectorBound ? [formatBp(connectorGapBps(entry))] : []),
    formatBp(optimumToBestBps(entry)),
    formatBp(oracleGapBps(entry)),
    cert,
    ...COMPETITORS.map((c) => formatLatency(entry.outcomes[c].samples)),
  ]
}
