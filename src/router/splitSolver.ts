import type { RatePoint } from './curves.js'
import { createScratchArrays } from './scratchArrays.js'
import { type Edge, type RouteGraph, SINK, SOURCE } from './types.js'

/**
 * The optimal flow of the convex relaxation over a route graph's edges, found
 * through its dual (Angeris et al., "Optimal Routing for Constant Function
 * Market Makers", 2022): token prices ν (ν[0] = 1 for the output token) such
 * that every edge trades up to where its marginal rate equals the price ratio
 * ν[from]/ν[to], and every token's inflow matches its outflow.
 */
export type FlowSolution = {
  /** Token prices in raw output units per raw unit. */
  prices: Float64Array
  /** Per edge: input and output at the prices (0 for inactive edges). */
  inputs: Float64Array
  outputs: Float64Array
  /** Dual value at the prices: an upper bound on the output over the active edges. */
  dual: number
  iterations: number
}

/**
 * Relative residual (value of the largest flow imbalance over the trade's value) at which the
 * solve stops: the flow it leaves loses at most about this share of the output (≪ 0.01 bp).
 */
const TOLERANCE = 1e-11
const MAX_ITERATIONS = 80
/** A residual below this share is close to the optimum: what is left is float noise or a last step (0.001 bp). */
const NEAR_OPTIMUM = 1e-7
/**
 * The largest Newton step (in log-price: a relative price move) that still changes anything: about
 * 45 units in the last place of a price; a shorter one is below the float resolution of the flow.
 */
const STEP_RESOLUTION = 1e-14

/** The solver's scratch arrays by use (see `scratch`). */
const FloatSlot = { Gradient: 0, Hessian: 1, SpareGradient: 2, SpareHessian: 3, NewtonGradient: 4, NewtonHessian: 5, Trial: 6, Work: 7, Step: 8, Rate0: 9, RunMax: 10, Balance: 11 } as const
const IntSlot = { Columns: 0, From: 1, To: 2, Marked: 3, EdgeIndex: 4, RunStart: 5, Position: 6 } as const
/**
 * Working arrays every solve borrows instead of allocating (a quote solves a dozen times or more;
 * a solve never runs inside another and keeps none of them): up to 8,192 elements each, a Hessian
 * of 90 tokens; larger solves allocate their own. Each is written before it is read.
 */
const scratch = createScratchArrays({ slots: 12, maxLength: 8192 })

type Evaluation = { dual: number; gradient: Float64Array; hessian: Float64Array }

/**
 * Solves the gas-free split of `amountIn` over the active edges: a
 * safeguarded 1-D root-find of the input token's price when the graph has no
 * intermediate token, else damped Newton on the dual in log-prices (started
 * from `start` or the zero-size prices, the input price root-found first; at
 * most `maxIterations` steps, the root-find's not counted at the default cap).
 * A full solve whose prices collapsed (a token sending visibly more than it
 * receives) is made again with the gradient's own curvature, the lower dual
 * kept. Deterministic.
 *
 * @example
 * const flow = solveFlow(graph, graph.edges.map(() => true), 1e18)
 */
export function solveFlow(graph: RouteGraph, active: readonly boolean[], amountIn: number, start?: Float64Array, maxIterations = MAX_ITERATIONS): FlowSolution {
  const n = graph.tokens.length
  const prices = new Float64Array(n)
  if (start) prices.set(start)
  else initialPrices(graph, active, prices)
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  const rootIterations = solveInputPrice(graph, active, amountIn, prices, point)
  if (n <= 2) return flowAt(graph, active, amountIn, prices, point, rootIterations)
  const solve = activeEdges(graph, active, amountIn, point)
  const flow = flowAt(graph, active, amountIn, prices, point, newtonSteps(solve, prices, rootIterations, maxIterations, false))
  // Prices collapsed: a token sends visibly more than it receives (at zero-size values), priced far
  // below its worth. Newton in log-prices slid the tokens upstream of an exit at its capacity down
  // together, where the dual, linear in their prices, falls toward a floor above its minimum and
  // its log-price gradient vanishes with the prices: the flow decomposes into next to nothing and
  // the bound is loose (hard bench 100:116 H0->H2 10% at 4 hops: H31 and USDT priced at 1e-8 and
  // 2e4 raw H2 against 4e2 and 2e14 at spot, the route through them lost, 96 bp; 100:95 H0->H1 30%
  // at 6 hops: 26 bp on the bound). Solved again from the same start (the root-find is
  // deterministic: the same input price) with the gradient's own curvature, which slows that
  // slide; the lower dual is kept (any prices bound the output). Full solves only: a capped trial,
  // ranking or sharing solve keeps the figures its caller was tuned on.
  if (maxIterations !== MAX_ITERATIONS || !sendsUnbought(graph, flow, amountIn)) return flow
  const from = new Float64Array(n)
  if (start) from.set(start)
  else initialPrices(graph, active, from)
  solveInputPrice(graph, active, amountIn, from, point)
  const again = flowAt(graph, active, amountIn, from, point, newtonSteps(solve, from, rootIterations, maxIterations, true))
  const iterations = flow.iterations + again.iterations
  return again.dual < flow.dual ? { ...again, iterations } : { ...flow, iterations }
}

/**
 * Damped Newton on the dual in log-prices from `prices` (updated in place), the input price's
 * root-find having taken `iterations` (see solveFlow for the cap); with `gradientCurvature`, the
 * positive part of the gradient's own curvature joins the Hessian's diagonal. Returns the
 * iterations, the root-find's included.
 */
function newtonSteps(solve: ActiveEdges, prices: Float64Array, iterations: number, maxIterations: number, gradientCurvature: boolean): number {
  const { tokens: n, amountIn } = solve
  // The Newton variables: every token's price but the sink's (fixed at 1, index SINK = 0, so
  // token j is variable j − 1).
  const free = n - 1
  let current = evaluateDual(solve, prices, makeEvaluation(n, FloatSlot.Gradient, FloatSlot.Hessian))
  let spare = makeEvaluation(n, FloatSlot.SpareGradient, FloatSlot.SpareHessian)
  const g = scratch.float(FloatSlot.NewtonGradient, free)
  const h = scratch.float(FloatSlot.NewtonHessian, free * free)
  const trial = scratch.float(FloatSlot.Trial, n)
  const work = scratch.float(FloatSlot.Work, free * (free + 1))
  const step = scratch.float(FloatSlot.Step, free)
  const columns = scratch.int(IntSlot.Columns, free + 1)
  // The line search starts from four times the last step taken (at most a full step).
  let lastAlpha = 1
  // The default cap counts Newton steps alone, apart from the input price's root-find above (up
  // to about fifty evaluations, each over the input token's edges only: far cheaper than a step),
  // which used to leave Newton too few steps and a token holding its inflow. A smaller cap given
  // by the caller (a trial or ranking solve) bounds the whole solve, as it always has: those
  // callers tuned their figures to it.
  const last = maxIterations === MAX_ITERATIONS ? iterations + maxIterations : maxIterations
  for (; iterations < last; iterations++) {
    const scale = prices[SOURCE]! * amountIn
    // Newton in log-prices: scaled gradient ĝ_j = ν_j·G_j, scaled Hessian ν_j·H_jk·ν_k.
    let residual = 0
    let positive = true
    for (let j = 1; j < n; j++) {
      g[j - 1] = prices[j]! * current.gradient[j]!
      residual = Math.max(residual, Math.abs(g[j - 1]!) / scale)
      if (!(prices[j]! > 0 && prices[j]! < Infinity)) positive = false
    }
    if (positive) {
      // Only the entries the active edges can make nonzero: every other one is ν_j·0·ν_k, a plain
      // 0 for positive finite prices, as the fill leaves it.
      h.fill(0, 0, free * free)
      const { positions, positionCount } = solve
      for (let i = 0; i < positionCount; i++) {
        const at = positions[i]!
        const j = Math.floor(at / n)
        const k = at - j * n
        h[(j - 1) * free + (k - 1)] = prices[j]! * current.hessian[at]! * prices[k]!
      }
    } else
      for (let j = 1; j < n; j++) for (let k = 1; k < n; k++) h[(j - 1) * free + (k - 1)] = prices[j]! * current.hessian[j * n + k]! * prices[k]!
    if (residual < TOLERANCE) break
    // The gradient's own curvature in log-prices (ν_j·G_j on the diagonal, where positive): a token
    // holding more than it sends is priced down less steeply (see solveFlow).
    if (gradientCurvature) for (let j = 0; j < free; j++) if (g[j]! > 0) h[j * free + j] = h[j * free + j]! + g[j]!
    solveNewtonStep(h, g, free, work, step, columns)
    // Converged to the prices' float resolution: a Newton step that moves no price by more than a
    // few dozen units in its last place cannot balance the flow any better (a token trading
    // through a pool deep against the trade moves its flow by more than the tolerance when its
    // price moves by one unit in the last place, so its residual stays above the tolerance for
    // good). Taking such steps anyway cycled to the cap: one lowered the dual by float noise and
    // raised the residual, the next ('flat') lowered the residual back.
    if (residual < NEAR_OPTIMUM && largestEntry(step, free) < STEP_RESOLUTION) break
    const descent = Math.abs(dot(g, step, free))
    // Backtracking on the dual (convex in ν): take the longest step that lowers it.
    let accepted = false
    // Close to the optimum a failed step means float noise: give up sooner. Far from it, keep
    // halving: where edges sit just past their zero-size rate next to a deep concentrated range
    // (a kink), the Hessian sees none of their curvature and the dual's minimum along the step
    // can lie far below a millionth of it; stopping there left a token holding its inflow.
    const smallest = residual < NEAR_OPTIMUM ? 1 / 64 : 1e-15
    for (let alpha = Math.min(1, 4 * lastAlpha); alpha >= smallest; alpha /= 2) {
      trial[SINK] = prices[SINK]!
      let moved = false
      for (let j = 1; j < n; j++) {
        trial[j] = prices[j]! * Math.exp(alpha * step[j - 1]!)
        if (trial[j] !== prices[j]) moved = true
      }
      // A step too short to change any price in float evaluates to the current point: the same
      // dual (not lower) and the same residual (not flat), so it is never taken, and neither is
      // any shorter one (exp and the rounded product are monotone: each price stays where it
      // is). The search has failed; the evaluations down to the smallest step are skipped.
      if (!moved) break
      const next = evaluateDual(solve, trial, spare)
      let nextResidual = 0
      for (let j = 1; j < n; j++) nextResidual = Math.max(nextResidual, Math.abs(trial[j]! * next.gradient[j]!) / (trial[SOURCE]! * amountIn))
      const lower = next.dual < current.dual - 1e-4 * alpha * descent
      // Near the optimum the dual's change is below float resolution: accept a smaller imbalance.
      const flat = Math.abs(next.dual - current.dual) <= 1e-14 * Math.abs(current.dual) && nextResidual < residual
      if (lower || flat) {
        for (let j = 0; j < n; j++) prices[j] = trial[j]!
        spare = current
        current = next
        accepted = true
        lastAlpha = alpha
        break
      }
    }
    if (!accepted) break
  }
  return iterations
}

/** The flow and dual value at `prices`: each active edge traded to where its marginal rate meets their ratio. */
function flowAt(graph: RouteGraph, active: readonly boolean[], amountIn: number, prices: Float64Array, point: RatePoint, iterations: number): FlowSolution {
  const inputs = new Float64Array(graph.edges.length)
  const outputs = new Float64Array(graph.edges.length)
  let dual = prices[SOURCE]! * amountIn
  const { edges } = graph
  for (let e = 0; e < edges.length; e++) {
    if (!active[e]) continue
    const edge = edges[e]!
    const m = prices[edge.from]! / prices[edge.to]!
    // At or above its zero-size rate an edge trades nothing (inputs and outputs start at 0).
    if (m >= edge.curve.rate0) continue
    edge.curve.atRate(m, point)
    inputs[e] = point.input
    outputs[e] = point.output
    if (point.input > 0) dual += prices[edge.to]! * point.output - prices[edge.from]! * point.input
  }
  return { prices, inputs, outputs, dual, iterations }
}

/** A token's deficit (what it sends beyond what it receives) worth more than this share of the trade, at zero-size values, marks collapsed prices (0.01 bp). */
const UNBOUGHT_SHARE = 1e-6

/**
 * Whether a flow has a token other than the two ends send visibly more than it receives, valued at
 * the graph's zero-size values (`spot`): a converged flow balances every token it prices, so such
 * a deficit marks prices far below the token's worth (its log-price gradient, value-weighted, is
 * small however large the deficit). The deficits are summed in the solver's balance scratch.
 */
function sendsUnbought(graph: RouteGraph, flow: FlowSolution, amountIn: number): boolean {
  const tradeValue = amountIn * graph.spot[SOURCE]!
  if (!(tradeValue > 0)) return false
  const n = graph.tokens.length
  const balance = scratch.float(FloatSlot.Balance, n)
  balance.fill(0, 0, n)
  const { edges } = graph
  for (let e = 0; e < edges.length; e++) {
    if (!(flow.inputs[e]! > 0)) continue
    const edge = edges[e]!
    balance[edge.from] = balance[edge.from]! - flow.inputs[e]!
    balance[edge.to] = balance[edge.to]! + flow.outputs[e]!
  }
  for (let j = 0; j < n; j++) if (j !== SINK && j !== SOURCE && -balance[j]! * graph.spot[j]! > UNBOUGHT_SHARE * tradeValue) return true
  return false
}

/**
 * The active edges of one solve, with their ends and zero-size rates in flat arrays: most edges do
 * not trade at a given point (their rate at or above rate0, where atRate gives nothing), and are
 * passed over without a call. Runs of consecutive edges between the same two tokens (a graph
 * lists a pair's pools together) get one rate, and a whole run is passed over when it is at or
 * above every zero-size rate in it; the edges left are visited in the same order, so every sum is
 * the same. `positions`: the Hessian entries (row · tokens + column, both not the sink) the runs
 * can make nonzero, once each. All borrowed from the solver's scratch (so longer than their
 * counts): `edgeIndex` (the active edges' indices in `edges`), `froms`, `tos`, `rates0` hold
 * `edgeCount` entries, `runMax` `runCount`, `runStarts` `runCount` + 1 (the last closes the last
 * run), `positions` `positionCount`.
 */
type ActiveEdges = {
  edges: readonly Edge[]
  edgeIndex: Int32Array
  edgeCount: number
  froms: Int32Array
  tos: Int32Array
  rates0: Float64Array
  runStarts: Int32Array
  runMax: Float64Array
  runCount: number
  positions: Int32Array
  positionCount: number
  tokens: number
  amountIn: number
  point: RatePoint
}

/** The active edges of `graph` for one solve (see ActiveEdges). */
function activeEdges(graph: RouteGraph, active: readonly boolean[], amountIn: number, point: RatePoint): ActiveEdges {
  const { edges } = graph
  const edgeIndex = scratch.int(IntSlot.EdgeIndex, edges.length)
  let edgeCount = 0
  for (let e = 0; e < edges.length; e++) if (active[e]) edgeIndex[edgeCount++] = e
  const froms = scratch.int(IntSlot.From, edgeCount)
  const tos = scratch.int(IntSlot.To, edgeCount)
  const rates0 = scratch.float(FloatSlot.Rate0, edgeCount)
  const runStarts = scratch.int(IntSlot.RunStart, edgeCount + 1)
  const runMax = scratch.float(FloatSlot.RunMax, edgeCount)
  let runCount = 0
  const n = graph.tokens.length
  const positions = scratch.int(IntSlot.Position, n * n)
  let positionCount = 0
  const marked = scratch.int(IntSlot.Marked, n * n)
  marked.fill(0, 0, n * n)
  for (let e = 0; e < edgeCount; e++) {
    const edge = edges[edgeIndex[e]!]!
    froms[e] = edge.from
    tos[e] = edge.to
    rates0[e] = edge.curve.rate0
    if (e === 0 || froms[e] !== froms[e - 1] || tos[e] !== tos[e - 1]) {
      runStarts[runCount] = e
      runMax[runCount++] = rates0[e]!
      // Its four entries (from, from), (from, to), (to, from), (to, to), in that order; the sink's
      // price is fixed: its row and column are not Newton variables.
      for (let corner = 0; corner < 4; corner++) {
        const row = corner < 2 ? edge.from : edge.to
        const column = corner % 2 === 0 ? edge.from : edge.to
        const at = row * n + column
        if (row === SINK || column === SINK || marked[at]) continue
        marked[at] = 1
        positions[positionCount++] = at
      }
    } else runMax[runCount - 1] = Math.max(runMax[runCount - 1]!, rates0[e]!)
  }
  runStarts[runCount] = edgeCount
  return { edges, edgeIndex, edgeCount, froms, tos, rates0, runStarts, runMax, runCount, positions, positionCount, tokens: n, amountIn, point }
}

/** Buffers for one evaluation of the dual (see evaluateDual), borrowed; a solve swaps two, so it allocates nothing per step. */
const makeEvaluation = (n: number, gradientSlot: number, hessianSlot: number): Evaluation => ({
  dual: 0,
  gradient: scratch.float(gradientSlot, n),
  hessian: scratch.float(hessianSlot, n * n),
})

/** The dual at prices `nu`, its gradient and Hessian, written into `into`. */
function evaluateDual(solve: ActiveEdges, nu: Float64Array, into: Evaluation): Evaluation {
  const { edges, edgeIndex, froms, tos, rates0, runStarts, runMax, runCount, tokens: n, amountIn, point } = solve
  const { gradient, hessian } = into
  gradient.fill(0, 0, n)
  hessian.fill(0, 0, n * n)
  gradient[SOURCE] = amountIn
  let dual = nu[SOURCE]! * amountIn
  for (let run = 0; run < runCount; run++) {
    const first = runStarts[run]!
    const a = froms[first]!
    const b = tos[first]!
    const m = nu[a]! / nu[b]!
    if (m >= runMax[run]!) continue
    for (let e = first; e < runStarts[run + 1]!; e++) {
      if (m >= rates0[e]!) continue
      edges[edgeIndex[e]!]!.curve.atRate(m, point)
      if (point.input <= 0) continue
      dual += nu[b]! * point.output - nu[a]! * point.input
      gradient[b] = gradient[b]! + point.output
      gradient[a] = gradient[a]! - point.input
      if (point.slope < 0) {
        // d(input)/dν_a = slope/ν_b, d(input)/dν_b = −slope·m/ν_b; output moves by m times input.
        const w = -point.slope / nu[b]!
        hessian[a * n + a] = hessian[a * n + a]! + w
        hessian[a * n + b] = hessian[a * n + b]! - w * m
        hessian[b * n + a] = hessian[b * n + a]! - w * m
        hessian[b * n + b] = hessian[b * n + b]! + w * m * m
      }
    }
  }
  into.dual = dual
  return into
}

/** The largest magnitude among the first `length` elements of `a`. */
const largestEntry = (a: Float64Array, length: number) => {
  let largest = 0
  for (let i = 0; i < length; i++) largest = Math.max(largest, Math.abs(a[i]!))
  return largest
}

/** The dot product of the first `length` elements of `a` and `b`. */
const dot = (a: Float64Array, b: Float64Array, length: number) => {
  let sum = 0
  for (let i = 0; i < length; i++) sum += a[i]! * b[i]!
  return sum
}

/**
 * Prices from the best zero-size rates: each token's value in the output token
 * along its best chain of active edges (fee included).
 */
function initialPrices(graph: RouteGraph, active: readonly boolean[], prices: Float64Array): void {
  prices.fill(0)
  prices[SINK] = 1
  for (let round = 0; round < graph.tokens.length; round++) {
    let changed = false
    graph.edges.forEach((edge, e) => {
      if (!active[e] || edge.from === SINK) return
      const v = edge.curve.rate0 * prices[edge.to]!
      if (v > prices[edge.from]!) {
        prices[edge.from] = v
        changed = true
      }
    })
    if (!changed) break
  }
  // Tokens with no chain to the output get the spot value (or 1): any positive price is a valid dual point.
  for (let j = 1; j < prices.length; j++) if (!(prices[j]! > 0)) prices[j] = graph.spot[j]! > 0 ? graph.spot[j]! : 1
}

/**
 * Root-finds the input token's price, the others fixed, so that the active
 * edges out of the input token take exactly `amountIn`: Newton in log-price,
 * falling back to bisection whenever a step leaves the bracket. Returns the
 * iterations used.
 */
function solveInputPrice(graph: RouteGraph, active: readonly boolean[], amountIn: number, prices: Float64Array, point: RatePoint): number {
  const out: Edge[] = []
  for (let e = 0; e < graph.edges.length; e++) if (active[e] && graph.edges[e]!.from === SOURCE) out.push(graph.edges[e]!)
  if (out.length === 0) return 0
  let hi = -Infinity
  for (const edge of out) hi = Math.max(hi, Math.log(edge.curve.rate0 * prices[edge.to]!))
  // Bracket the root: from a warm start (the price given) outwards, else from the best zero-size
  // rate downwards, in steps growing fourfold, until the edges take the whole amount.
  let iterations = 0
  const warm = prices[SOURCE]! > 0 ? Math.log(prices[SOURCE]!) : Number.NaN
  let lo = warm < hi ? warm : hi - 1e-9
  // f'(u), left by inputExcess (a field written in place, not a fresh pair per evaluation).
  const slope = { derivative: 0 }
  let fLo = inputExcess(out, lo, amountIn, prices, point, slope)
  if (fLo < 0) hi = lo
  else if (warm < hi)
    for (let width = 1e-6; iterations < 200; width *= 4, iterations++) {
      const up = Math.min(hi, warm + width)
      if (inputExcess(out, up, amountIn, prices, point, slope) < 0) {
        hi = up
        break
      }
      lo = up
      if (up === hi) break
    }
  for (let width = 1e-6; fLo < 0 && iterations < 200; width *= 4, iterations++) {
    lo = hi - width
    fLo = inputExcess(out, lo, amountIn, prices, point, slope)
    if (fLo < 0) hi = lo
  }
  if (fLo < 0) {
    prices[SOURCE] = Math.exp(lo)
    return iterations
  }
  let u = lo
  let balanced = false
  for (; iterations < 200; iterations++) {
    const f = inputExcess(out, u, amountIn, prices, point, slope)
    const d = slope.derivative
    if ((balanced = Math.abs(f) <= TOLERANCE * amountIn)) break
    if (f > 0) lo = u
    else hi = u
    if (hi - lo <= 1e-15 * Math.max(1, Math.abs(u))) break
    let next = d < 0 ? u - f / d : Number.NaN
    if (!(next > lo && next < hi)) next = (lo + hi) / 2
    u = next
  }
  // Stopped at the log-price's resolution (a dust trade moves the price by less than it resolves):
  // the bracket's low side, where the edges take at least the whole amount.
  if (!balanced) u = lo
  prices[SOURCE] = Math.exp(u)
  return iterations
}

/**
 * f(u) = Σ inputs(e^u) − amountIn over the edges out of the input token, decreasing in u,
 * returned, and f'(u) = Σ slope·m, written to `slope.derivative` (see solveInputPrice).
 */
function inputExcess(out: readonly Edge[], u: number, amountIn: number, prices: Float64Array, point: RatePoint, slope: { derivative: number }): number {
  const nu = Math.exp(u)
  let total = -amountIn
  let derivative = 0
  for (const edge of out) {
    const m = nu / prices[edge.to]!
    edge.curve.atRate(m, point)
    total += point.input
    derivative += point.slope * m
  }
  slope.derivative = derivative
  return total
}

/**
 * Solves the (regularised) Newton system H·δ = −g by Gaussian elimination with
 * partial pivoting into `x` (`a`: an n·(n+1) work matrix, `columns`: n + 1
 * indices); each coordinate's step is capped at ±1 (a factor e in price).
 */
function solveNewtonStep(hessian: Float64Array, gradient: Float64Array, n: number, a: Float64Array, x: Float64Array, columns: Int32Array): void {
  let scale = 0
  for (let i = 0; i < n; i++) scale = Math.max(scale, hessian[i * n + i]!)
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) a[i * (n + 1) + j] = hessian[i * n + j]!
    const diagonal = hessian[i * n + i]!
    // A token without curvature (its edges inactive or saturated at these prices) moves its price
    // by a factor e in the direction that lowers the dual; the line search shortens the step.
    const flat = Math.abs(gradient[i]!)
    a[i * (n + 1) + i] = diagonal > 1e-12 * scale ? diagonal * (1 + 1e-10) : flat > 0 ? flat : 1
    a[i * (n + 1) + n] = -gradient[i]!
  }
  for (let col = 0; col < n; col++) {
    let pivot = col
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * (n + 1) + col]!) > Math.abs(a[pivot * (n + 1) + col]!)) pivot = r
    if (pivot !== col)
      for (let c = 0; c <= n; c++) {
        const t = a[col * (n + 1) + c]!
        a[col * (n + 1) + c] = a[pivot * (n + 1) + c]!
        a[pivot * (n + 1) + c] = t
      }
    const p = a[col * (n + 1) + col]!
    if (p === 0) continue
    // Only the pivot row's nonzero columns (and the right-hand side): a route graph's Hessian is
    // sparse (a token's row holds the tokens it trades with), and subtracting a finite multiple of
    // a zero changes an entry at most from −0 to 0, a sign no step depends on (the clamped step
    // and its exp are the same either way).
    let count = 0
    for (let c = col; c < n; c++) if (a[col * (n + 1) + c] !== 0) columns[count++] = c
    columns[count++] = n
    for (let r = col + 1; r < n; r++) {
      const f = a[r * (n + 1) + col]! / p
      if (f === 0) continue
      if (Number.isFinite(f)) for (let i = 0; i < count; i++) a[r * (n + 1) + columns[i]!] = a[r * (n + 1) + columns[i]!]! - f * a[col * (n + 1) + columns[i]!]!
      else for (let c = col; c <= n; c++) a[r * (n + 1) + c] = a[r * (n + 1) + c]! - f * a[col * (n + 1) + c]!
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = a[r * (n + 1) + n]!
    for (let c = r + 1; c < n; c++) s -= a[r * (n + 1) + c]! * x[c]!
    const p = a[r * (n + 1) + r]!
    x[r] = p !== 0 ? s / p : 0
  }
  for (let i = 0; i < n; i++) x[i] = Math.max(-1, Math.min(1, Number.isFinite(x[i]!) ? x[i]! : 0))
}
