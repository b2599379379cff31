// Independent optimum solvers over the continuous curves of curves.ts:
// - parallel pools (one pair): bisection on the common marginal rate, in 80-digit
//   decimals (the headline optimum) or float64 (the subset oracle);
// - a network of pools (multi-hop): the Lagrange dual over token prices,
//   minimised by damped Newton (its last decrement estimates how tight the bound is).
import { Big, type BigCurve, type FloatCurve, capacityFloat, evaluateBig, evaluateFloat, evaluateFloatAtU, startWBig, startWFloat } from './curves.js'

/** What an optimum solve returns: the optimal value and each curve's share. */
export type ParallelOptimum<T> = { value: T; inputs: T[]; outputs: T[] }

/**
 * The best continuous split over parallel curves (all selling the same token
 * for the same token). `exactIn`: maximum output for `amount` in; `exactOut`:
 * least input for `amount` out. All active curves end at one marginal rate
 * 1/w²; w is found by bisection to 1e-40 relative. Undefined when the
 * curves cannot take (or give) `amount` within what their states know.
 *
 * @example
 * const best = solveParallelBig(curves, 10n ** 12n, 'exactIn')
 */
export function solveParallelBig(curves: readonly BigCurve[], amount: bigint, kind: 'exactIn' | 'exactOut'): ParallelOptimum<Big> | undefined {
  const target = new Big(amount.toString())
  const side = (w: Big) => {
    let sum = new Big(0)
    for (const curve of curves) {
      const { x, y } = evaluateBig(curve, w)
      sum = sum.plus(kind === 'exactIn' ? x : y)
    }
    return sum
  }
  let lo = curves.map(startWBig).reduce((a, b) => (b.lt(a) ? b : a))
  let hi = lo.times(2)
  for (let i = 0; side(hi).lt(target); i++) {
    if (i > 400) return undefined
    lo = hi
    hi = hi.times(2)
  }
  const tolerance = new Big('1e-40')
  while (hi.minus(lo).div(hi).gt(tolerance)) {
    const mid = lo.plus(hi).div(2)
    if (side(mid).lt(target)) lo = mid
    else hi = mid
  }
  const points = curves.map((c) => evaluateBig(c, hi))
  const inputs = points.map((p) => p.x)
  const outputs = points.map((p) => p.y)
  const sumIn = inputs.reduce((a, b) => a.plus(b), new Big(0))
  const sumOut = outputs.reduce((a, b) => a.plus(b), new Big(0))
  // First-order correction for the last 1e-40 of overshoot, at the common rate 1/w².
  const rate = new Big(1).div(hi.times(hi))
  const value = kind === 'exactIn' ? sumOut.minus(sumIn.minus(target).times(rate)) : sumIn.minus(sumOut.minus(target).div(rate))
  return { value, inputs, outputs }
}

/**
 * Float64 version of `solveParallelBig` (relative 1e-15), for the many small
 * solves of the subset oracle.
 *
 * @example
 * const best = solveParallelFloat(curves, 1e12, 'exactIn')
 */
export function solveParallelFloat(curves: readonly FloatCurve[], amount: number, kind: 'exactIn' | 'exactOut'): ParallelOptimum<number> | undefined {
  const capacity = curves.reduce((a, c) => a + (kind === 'exactIn' ? capacityFloat(c).x : capacityFloat(c).y), 0)
  if (!(capacity >= amount)) return undefined
  const at = (w: number) => curves.map((c) => evaluateFloatAtU(c, w * Math.sqrt(c.gamma)))
  const side = (w: number) => at(w).reduce((a, p) => a + (kind === 'exactIn' ? p.x : p.y), 0)
  let lo = Math.min(...curves.map(startWFloat))
  let hi = lo * 2
  for (let i = 0; side(hi) < amount; i++) {
    if (i > 2000) return undefined
    lo = hi
    hi *= 2
  }
  for (let i = 0; i < 200 && hi - lo > hi * 1e-16; i++) {
    const mid = (lo + hi) / 2
    if (side(mid) < amount) lo = mid
    else hi = mid
  }
  const points = at(hi)
  const inputs = points.map((p) => p.x)
  const outputs = points.map((p) => p.y)
  const sumIn = inputs.reduce((a, b) => a + b, 0)
  const sumOut = outputs.reduce((a, b) => a + b, 0)
  const rate = 1 / (hi * hi)
  const value = kind === 'exactIn' ? sumOut - (sumIn - amount) * rate : sumIn - (sumOut - amount) / rate
  return { value, inputs, outputs }
}

/** A pool in the network: its two tokens (indices) and its curve in each direction. */
export type NetworkEdge = { a: number; b: number; sellA: FloatCurve; sellB: FloatCurve }

/** The dual's answer: an upper bound on the output, and how tight it is. */
export type NetworkBound = {
  /** The least g(ν) found: no flow of `amountIn` through these pools (any paths, any split) gives more. */
  bound: number
  /**
   * Half the last Newton decrement, relative to the bound: the local quadratic
   * model's estimate of how far `bound` still is above the true minimum.
   */
  slack: number
  iterations: number
  converged: boolean
}

/**
 * Upper bound on the output of selling `amountIn` of token `tokenIn` for
 * `tokenOut` through a network of pools (continuous flows, no path or hop
 * limit): the Lagrange dual g(ν) = ν_in·A + Σ_pools max_x (ν_b·y(x) − ν_a·x),
 * minimised over token prices ν (ν_out = 1) by damped Newton in log prices.
 * At the minimum each pool's best trade at prices ν forms a flow that
 * conserves every token and delivers the bound.
 *
 * @example
 * const { bound } = solveNetworkDual(tokens.length, 0, 3, 1e12, edges, prices)
 */
export function solveNetworkDual(
  tokenCount: number,
  tokenIn: number,
  tokenOut: number,
  amountIn: number,
  edges: readonly NetworkEdge[],
  initialPrices: readonly number[],
): NetworkBound {
  const variables = Array.from({ length: tokenCount }, (_, k) => k).filter((k) => k !== tokenOut)
  const slot = new Map(variables.map((k, i) => [k, i]))
  const n = variables.length
  const pricesOf = (z: readonly number[]) => {
    const nu = new Array<number>(tokenCount).fill(1)
    variables.forEach((k, i) => (nu[k] = Math.exp(z[i]!)))
    return nu
  }
  // g, its gradient in ν and its Hessian in ν (variables only).
  const evaluate = (z: readonly number[], withHessian: boolean) => {
    const nu = pricesOf(z)
    let g = nu[tokenIn]! * amountIn
    const grad = new Array<number>(tokenCount).fill(0)
    grad[tokenIn] = amountIn
    const hessian = withHessian ? Array.from({ length: n }, () => new Array<number>(n).fill(0)) : []
    for (const edge of edges) {
      for (const [from, to, curve] of [
        [edge.a, edge.b, edge.sellA],
        [edge.b, edge.a, edge.sellB],
      ] as const) {
        const lambda = nu[from]! / nu[to]!
        const { x, y, dxdLambda } = evaluateFloat(curve, lambda)
        if (x <= 0) continue
        g += nu[to]! * y - nu[from]! * x
        grad[from]! -= x
        grad[to]! += y
        if (!withHessian || dxdLambda === 0) continue
        const nb = nu[to]!
        const na = nu[from]!
        const entries: [number, number, number][] = [
          [from, from, -dxdLambda / nb],
          [from, to, (dxdLambda * na) / (nb * nb)],
          [to, from, (dxdLambda * na) / (nb * nb)],
          [to, to, (-dxdLambda * na * na) / (nb * nb * nb)],
        ]
        for (const [r, c, v] of entries) {
          const i = slot.get(r)
          const j = slot.get(c)
          if (i !== undefined && j !== undefined) hessian[i]![j]! += v
        }
      }
    }
    return { g, grad, hessian, nu }
  }

  let z = variables.map((k) => Math.log(initialPrices[k]! / initialPrices[tokenOut]!))
  let state = evaluate(z, true)
  let best = state.g
  let slack = Infinity
  let iterations = 0
  for (; iterations < 100; iterations++) {
    const gz = variables.map((k) => state.nu[k]! * state.grad[k]!)
    // Newton in z = ln ν: H_z = D·H·D + diag(ν∘∇g) (its negative part dropped), a little damping.
    const H = variables.map((k, i) =>
      variables.map((l, j) => state.hessian[i]![j]! * state.nu[k]! * state.nu[l]! + (i === j ? Math.max(0, gz[i]!) : 0)),
    )
    const scale = Math.max(...H.map((row, i) => Math.abs(row[i]!)), 1e-300)
    for (let i = 0; i < n; i++) H[i]![i]! += scale * 1e-12 + 1e-300
    const step = solveLinear(H, gz.map((v) => -v))
    const decrement = -step.reduce((a, s, i) => a + s * gz[i]!, 0)
    slack = decrement / 2 / Math.abs(state.g)
    // Converged when the quadratic model has nothing left to gain (1e-13 of the bound, 1e-9 bp).
    if (slack <= 1e-13) break
    // Terms of g reach ν_in·A; float noise in g is about 1e-13 of that.
    const noise = 1e-13 * Math.max(Math.abs(state.g), state.nu[tokenIn]! * amountIn)
    let t = 1
    let accepted = false
    for (let tries = 0; tries < 50; tries++, t /= 2) {
      const trial = z.map((v, i) => v + t * step[i]!)
      const candidate = evaluate(trial, false)
      if (candidate.g <= state.g - 1e-4 * t * decrement + noise) {
        z = trial
        accepted = true
        break
      }
    }
    if (!accepted) break
    state = evaluate(z, true)
    best = Math.min(best, state.g)
  }
  // Every g(ν) bounds the optimum: keep the lowest seen.
  return { bound: best, slack: Math.max(0, slack), iterations, converged: slack <= 1e-11 }
}

/** Gaussian elimination with partial pivoting (small dense systems). */
function solveLinear(matrix: number[][], rhs: number[]): number[] {
  const n = rhs.length
  const a = matrix.map((row, i) => [...row, rhs[i]!])
  for (let col = 0; col < n; col++) {
    let pivot = col
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r
    ;[a[col], a[pivot]] = [a[pivot]!, a[col]!]
    const p = a[col]![col]!
    if (p === 0) continue
    for (let r = col + 1; r < n; r++) {
      const f = a[r]![col]! / p
      if (f === 0) continue
      for (let c = col; c <= n; c++) a[r]![c]! -= f * a[col]![c]!
    }
  }
  const x = new Array<number>(n).fill(0)
  for (let r = n - 1; r >= 0; r--) {
    let s = a[r]![n]!
    for (let c = r + 1; c < n; c++) s -= a[r]![c]! * x[c]!
    x[r] = a[r]![r]! === 0 ? 0 : s / a[r]![r]!
  }
  return x
}
