import type { RatePoint } from './curves.js'
import { type RouteGraph, SINK, SOURCE } from './types.js'

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

type Evaluation = { dual: number; gradient: Float64Array; hessian: Float64Array }

/**
 * Solves the gas-free split of `amountIn` over the active edges: a
 * safeguarded 1-D root-find of the input token's price when the graph has no
 * intermediate token, else damped Newton on the dual in log-prices (started
 * from `start` or the zero-size prices, the input price root-found first; at
 * most `maxIterations` steps). Deterministic.
 *
 * @example
 * const flow = solveFlow(graph, graph.edges.map(() => true), 1e18)
 */
export function solveFlow(graph: RouteGraph, active: readonly boolean[], amountIn: number, start?: Float64Array, maxIterations = MAX_ITERATIONS): FlowSolution {
  const n = graph.tokens.length
  const prices = new Float64Array(n)
  if (start) prices.set(start)
  else initialPrices(graph, active, prices)
  const inputs = new Float64Array(graph.edges.length)
  const outputs = new Float64Array(graph.edges.length)
  const point: RatePoint = { input: 0, output: 0, slope: 0 }
  let iterations = solveInputPrice(graph, active, amountIn, prices, point)

  // The active edges, once, with their ends and zero-size rates in flat arrays: most edges do not
  // trade at a given point (their rate at or above rate0, where atRate gives nothing), and are
  // passed over without a call.
  const edges = graph.edges.filter((_, e) => active[e])
  const froms = Int32Array.from(edges, (edge) => edge.from)
  const tos = Int32Array.from(edges, (edge) => edge.to)
  const rates0 = Float64Array.from(edges, (edge) => edge.curve.rate0)
  // Runs of consecutive edges between the same two tokens (a graph lists a pair's pools together):
  // one rate for the run, and the whole run passed over when it is at or above every zero-size
  // rate in it. The edges left are visited in the same order, so every sum is the same.
  const runStarts: number[] = []
  const runMax: number[] = []
  for (let e = 0; e < edges.length; e++) {
    if (e === 0 || froms[e] !== froms[e - 1] || tos[e] !== tos[e - 1]) {
      runStarts.push(e)
      runMax.push(rates0[e]!)
    } else runMax[runMax.length - 1] = Math.max(runMax[runMax.length - 1]!, rates0[e]!)
  }
  runStarts.push(edges.length)
  // Evaluations write into one of two buffers (the current point's and a trial's), swapped when a
  // trial is taken: a solve allocates nothing per step.
  const makeEvaluation = (): Evaluation => ({ dual: 0, gradient: new Float64Array(n), hessian: new Float64Array(n * n) })
  const evaluate = (nu: Float64Array, into: Evaluation): Evaluation => {
    const { gradient, hessian } = into
    gradient.fill(0)
    hessian.fill(0)
    gradient[SOURCE] = amountIn
    let dual = nu[SOURCE]! * amountIn
    for (let run = 0; run + 1 < runStarts.length; run++) {
      const first = runStarts[run]!
      const a = froms[first]!
      const b = tos[first]!
      const m = nu[a]! / nu[b]!
      if (m >= runMax[run]!) continue
      for (let e = first; e < runStarts[run + 1]!; e++) {
        if (m >= rates0[e]!) continue
        edges[e]!.curve.atRate(m, point)
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

  if (n > 2) {
    // The Newton variables: every token's price but the sink's (fixed at 1, index SINK = 0, so
    // token j is variable j − 1).
    const free = n - 1
    let current = evaluate(prices, makeEvaluation())
    let spare = makeEvaluation()
    const g = new Float64Array(free)
    const h = new Float64Array(free * free)
    const trial = new Float64Array(n)
    const work = new Float64Array(free * (free + 1))
    const step = new Float64Array(free)
    // The line search starts from four times the last step taken (at most a full step).
    let lastAlpha = 1
    for (; iterations < maxIterations; iterations++) {
      const scale = prices[SOURCE]! * amountIn
      // Newton in log-prices: scaled gradient ĝ_j = ν_j·G_j, scaled Hessian ν_j·H_jk·ν_k.
      let residual = 0
      for (let j = 1; j < n; j++) {
        g[j - 1] = prices[j]! * current.gradient[j]!
        residual = Math.max(residual, Math.abs(g[j - 1]!) / scale)
        for (let k = 1; k < n; k++) h[(j - 1) * free + (k - 1)] = prices[j]! * current.hessian[j * n + k]! * prices[k]!
      }
      if (residual < TOLERANCE) break
      solveNewtonStep(h, g, free, work, step)
      const descent = Math.abs(dot(g, step))
      // Backtracking on the dual (convex in ν): take the longest step that lowers it.
      let accepted = false
      // Close to the optimum a failed step means float noise: give up sooner. Far from it, keep
      // halving: where edges sit just past their zero-size rate next to a deep concentrated range
      // (a kink), the Hessian sees none of their curvature and the dual's minimum along the step
      // can lie far below a millionth of it; stopping there left a token holding its inflow.
      const smallest = residual < 1e-7 ? 1 / 64 : 1e-15
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
        const next = evaluate(trial, spare)
        let nextResidual = 0
        for (let j = 1; j < n; j++) nextResidual = Math.max(nextResidual, Math.abs(trial[j]! * next.gradient[j]!) / (trial[SOURCE]! * amountIn))
        const lower = next.dual < current.dual - 1e-4 * alpha * descent
        // Near the optimum the dual's change is below float resolution: accept a smaller imbalance.
        const flat = Math.abs(next.dual - current.dual) <= 1e-14 * Math.abs(current.dual) && nextResidual < residual
        if (lower || flat) {
          prices.set(trial)
          spare = current
          current = next
          accepted = true
          lastAlpha = alpha
          break
        }
      }
      if (!accepted) break
    }
  }

  let dual = prices[SOURCE]! * amountIn
  graph.edges.forEach((edge, e) => {
    if (!active[e]) return
    const m = prices[edge.from]! / prices[edge.to]!
    // At or above its zero-size rate an edge trades nothing (inputs and outputs start at 0).
    if (m >= edge.curve.rate0) return
    edge.curve.atRate(m, point)
    inputs[e] = point.input
    outputs[e] = point.output
    if (point.input > 0) dual += prices[edge.to]! * point.output - prices[edge.from]! * point.input
  })
  return { prices, inputs, outputs, dual, iterations }
}

const dot = (a: Float64Array, b: Float64Array) => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
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
  const out = graph.edges.map((edge, e) => (active[e] && edge.from === SOURCE ? e : -1)).filter((e) => e >= 0)
  if (out.length === 0) return 0
  // f(u) = Σ inputs(e^u) − amountIn, decreasing in u; f'(u) = Σ slope·m.
  const excess = (u: number): [number, number] => {
    const nu = Math.exp(u)
    let total = -amountIn
    let derivative = 0
    for (const e of out) {
      const edge = graph.edges[e]!
      const m = nu / prices[edge.to]!
      edge.curve.atRate(m, point)
      total += point.input
      derivative += point.slope * m
    }
    return [total, derivative]
  }
  let hi = -Infinity
  for (const e of out) {
    const edge = graph.edges[e]!
    hi = Math.max(hi, Math.log(edge.curve.rate0 * prices[edge.to]!))
  }
  // Bracket the root: from a warm start (the price given) outwards, else from the best zero-size
  // rate downwards, in steps growing fourfold, until the edges take the whole amount.
  let iterations = 0
  const warm = prices[SOURCE]! > 0 ? Math.log(prices[SOURCE]!) : Number.NaN
  let lo = warm < hi ? warm : hi - 1e-9
  let [fLo] = excess(lo)
  if (fLo < 0) hi = lo
  else if (warm < hi)
    for (let width = 1e-6; iterations < 200; width *= 4, iterations++) {
      const up = Math.min(hi, warm + width)
      if (excess(up)[0] < 0) {
        hi = up
        break
      }
      lo = up
      if (up === hi) break
    }
  for (let width = 1e-6; fLo < 0 && iterations < 200; width *= 4, iterations++) {
    lo = hi - width
    ;[fLo] = excess(lo)
    if (fLo < 0) hi = lo
  }
  if (fLo < 0) {
    prices[SOURCE] = Math.exp(lo)
    return iterations
  }
  let u = lo
  let balanced = false
  for (; iterations < 200; iterations++) {
    const [f, d] = excess(u)
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
 * Solves the (regularised) Newton system H·δ = −g by Gaussian elimination with
 * partial pivoting into `x` (`a`: an n·(n+1) work matrix); each coordinate's
 * step is capped at ±1 (a factor e in price).
 */
function solveNewtonStep(hessian: Float64Array, gradient: Float64Array, n: number, a: Float64Array, x: Float64Array): void {
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
    for (let r = col + 1; r < n; r++) {
      const f = a[r * (n + 1) + col]! / p
      if (f === 0) continue
      for (let c = col; c <= n; c++) a[r * (n + 1) + c] = a[r * (n + 1) + c]! - f * a[col * (n + 1) + c]!
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
