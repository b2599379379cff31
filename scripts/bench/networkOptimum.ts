// The independent optimum for the hard-market bench, written apart from weft's
// router (nothing here imports src/router): the best gas-free output of selling
// an amount through every pool of a market, any route, any number of hops, any
// split, by convex duality on the network of pool curves (curves.ts), and an
// exact integer plan recovered from the dual's prices and re-evaluated on the
// pools' exact integer math.
//
// The dual: g(ν) = ν_in·A + Σ_directions max_x (ν_b·y(x) − ν_a·x) over token
// prices ν ≥ 0 (ν_out = 1). Every ν gives an upper bound on any flow's output
// (free disposal), so the least g found is a valid bound whatever the solver
// does. It is minimised by Newton steps in log prices, the Hessian a weighted
// graph Laplacian solved by preconditioned conjugate gradients (sparse: 10,000
// pools in a few hundred milliseconds). At the minimum each direction's best
// trade at the prices forms a flow that conserves every token; executing that
// flow exactly (pools in topological order of the tokens, each token's holding
// split over its outgoing trades in the flow's proportions) gives the primal
// value, a realised output no exact plan needs to beat by more than the dual gap.
import type { Address } from 'viem'
import type { Pool } from '../../src/protocols/types.js'
import { type FloatCurve, buildFloatCurve, evaluateFloat } from './curves.js'
import type { BenchToken, Market } from './market.js'

/** One trading direction of one pool: from token index `from` to `to`. */
type Direction = { pool: number; from: number; to: number; curve: FloatCurve }

/** The trade and the network it runs on (pools of the component that can carry flow from tokenIn to tokenOut). */
export type NetworkProblem = {
  tokens: Address[]
  directions: Direction[]
  tokenIn: number
  tokenOut: number
  /** Starting prices: raw output units per raw unit of each token, from the USD prices. */
  prices: number[]
  /** Pools kept after pruning, of the market's total. */
  poolsKept: number
}

/**
 * The network for selling `tokenIn` for `tokenOut`: the pools of the connected component of the
 * two tokens, after pruning dead ends (a token other than the two ends whose pools all lead to one
 * neighbour cannot pass flow on, since the pools hold no arbitrage). With `onlyTokens`, only pools
 * between those tokens (a sub-market: its plan is still exact, but its bound covers only it).
 *
 * @example
 * const problem = buildNetwork(market, usdc, weth)
 */
export function buildNetwork(market: Market, tokenIn: BenchToken, tokenOut: BenchToken, onlyTokens?: ReadonlySet<Address>): NetworkProblem | undefined {
  const poolTokens = market.pools.map((p) => [p.state.token0, p.state.token1] as const)
  const alive = market.pools.map(() => true)
  const allowed = (i: number) => !onlyTokens || (onlyTokens.has(poolTokens[i]![0]) && onlyTokens.has(poolTokens[i]![1]))
  const poolsOf = new Map<Address, number[]>()
  poolTokens.forEach(([a, b], i) => {
    if (!allowed(i)) return
    for (const t of [a, b]) {
      const list = poolsOf.get(t)
      if (list) list.push(i)
      else poolsOf.set(t, [i])
    }
  })
  // Component of tokenIn.
  const reached = new Set<Address>([tokenIn.address])
  const queue = [tokenIn.address]
  while (queue.length > 0) {
    const token = queue.pop()!
    for (const i of poolsOf.get(token) ?? []) {
      const [a, b] = poolTokens[i]!
      const next = a === token ? b : a
      if (!reached.has(next)) {
        reached.add(next)
        queue.push(next)
      }
    }
  }
  if (!reached.has(tokenOut.address)) return undefined
  market.pools.forEach((_, i) => (alive[i] = allowed(i) && reached.has(poolTokens[i]![0])))
  // Prune dead ends repeatedly.
  const ends = new Set<Address>([tokenIn.address, tokenOut.address])
  for (let changed = true; changed; ) {
    changed = false
    for (const [token, pools] of poolsOf) {
      if (ends.has(token)) continue
      const live = pools.filter((i) => alive[i])
      if (live.length === 0) continue
      const neighbours = new Set(live.map((i) => (poolTokens[i]![0] === token ? poolTokens[i]![1] : poolTokens[i]![0])))
      if (neighbours.size <= 1) {
        for (const i of live) alive[i] = false
        changed = true
      }
    }
  }
  const kept = market.pools.map((_, i) => i).filter((i) => alive[i])
  const tokens = [...new Set([tokenIn.address, tokenOut.address, ...kept.flatMap((i) => poolTokens[i]!)])]
  const index = new Map(tokens.map((t, i) => [t, i]))
  const directions: Direction[] = []
  for (const i of kept) {
    const { state, v2FeeBps } = market.pools[i]!
    const [a, b] = [index.get(state.token0)!, index.get(state.token1)!]
    directions.push({ pool: i, from: a, to: b, curve: buildFloatCurve(state, state.token0, v2FeeBps) })
    directions.push({ pool: i, from: b, to: a, curve: buildFloatCurve(state, state.token1, v2FeeBps) })
  }
  const rawUsd = (t: Address) => {
    const token = market.tokenByAddress.get(t)!
    return token.priceUsd / 10 ** token.decimals
  }
  const outUsd = rawUsd(tokenOut.address)
  return { tokens, directions, tokenIn: 0, tokenOut: 1, prices: tokens.map((t) => rawUsd(t) / outUsd), poolsKept: kept.length }
}

/**
 * The network with the hop limit built in: a node per token and hop count k (the token after k
 * hops; it exists when its fewest hops from the input, k, and its fewest hops to the output fit
 * `maxHops`), each pool direction a -> b copied from (a, k) to (b, k + 1), the input only at 0 and
 * the output one node at any k. Every flow on it is a set of routes of at most `maxHops` hops, and
 * every such plan is a flow on it with its pools' trades split over the layers they happen on
 * (each copy keeps the pool's whole curve, so the dual still bounds every plan of at most
 * `maxHops` hops); its exact plan trades a pool used on two layers twice, on the state the first
 * trade left (executeDualFlow).
 *
 * @example
 * const withinFour = layerNetwork(buildNetwork(market, usdc, weth)!, 4)
 */
export function layerNetwork(problem: NetworkProblem, maxHops: number): NetworkProblem {
  const { tokens, directions, tokenIn, tokenOut } = problem
  // Fewest hops from the input (never through the output) and to the output (never through the input).
  const distances = (start: number, barrier: number, forward: boolean) => {
    const hops = new Array<number>(tokens.length).fill(Infinity)
    hops[start] = 0
    let frontier = [start]
    for (let k = 1; k <= maxHops && frontier.length > 0; k++) {
      const at = new Set(frontier)
      const next: number[] = []
      for (const d of directions) {
        const [from, to] = forward ? [d.from, d.to] : [d.to, d.from]
        if (!at.has(from) || from === barrier || hops[to]! <= k) continue
        hops[to] = k
        next.push(to)
      }
      frontier = next
    }
    return hops
  }
  const fromIn = distances(tokenIn, tokenOut, true)
  const toOut = distances(tokenOut, tokenIn, false)
  const nodeTokens: Address[] = [tokens[tokenIn]!, tokens[tokenOut]!]
  const prices = [problem.prices[tokenIn]!, problem.prices[tokenOut]!]
  const nodes = new Map<string, number>()
  const node = (token: number, hops: number) => {
    if (token === tokenIn) return 0
    if (token === tokenOut) return 1
    const key = `${token}@${hops}`
    let i = nodes.get(key)
    if (i === undefined) {
      i = nodeTokens.push(tokens[token]!) - 1
      prices.push(problem.prices[token]!)
      nodes.set(key, i)
    }
    return i
  }
  const layered: Direction[] = []
  for (const d of directions) {
    if (d.from === tokenOut || d.to === tokenIn) continue
    const first = d.from === tokenIn ? 0 : fromIn[d.from]!
    const last = d.from === tokenIn ? 0 : maxHops - 1 - toOut[d.to]!
    for (let k = first; k <= last; k++) layered.push({ ...d, from: node(d.from, k), to: node(d.to, k + 1) })
  }
  return { tokens: nodeTokens, directions: layered, tokenIn: 0, tokenOut: 1, prices, poolsKept: problem.poolsKept }
}

/** The dual's answer. */
export type DualSolution = {
  /** The least g(ν) seen: an upper bound on the output of any flow of the amount. */
  bound: number
  /** The prices at the bound. */
  prices: number[]
  /** The prices after a last sweep from them (every token's inflow covers its outflow): a second primal to try. */
  sweptPrices: number[]
  iterations: number
  /** Newton decrement relative to the bound at the end (the model's estimate of what is left). */
  slack: number
}

/**
 * Minimises the dual for `amountIn` (raw units, as a float) by Newton-CG in log prices.
 *
 * @example
 * const { bound, prices } = solveDual(problem, 1e21)
 */
export function solveDual(problem: NetworkProblem, amountIn: number): DualSolution {
  const { directions, tokenIn, tokenOut } = problem
  const tokenCount = problem.tokens.length
  // Log prices of every token but the output (its price is 1).
  const evaluate = (logPrices: readonly number[]) => {
    const prices = logPrices.map(Math.exp)
    prices[tokenOut] = 1
    let g = prices[tokenIn]! * amountIn
    const gradient = new Array<number>(tokenCount).fill(0)
    gradient[tokenIn] = amountIn
    // Hessian in log prices: Σ weight·(e_from − e_to)(e_from − e_to)ᵀ plus a diagonal.
    const weights = new Array<number>(directions.length).fill(0)
    for (const [d, direction] of directions.entries()) {
      const priceFrom = prices[direction.from]!
      const priceTo = prices[direction.to]!
      const lambda = priceFrom / priceTo
      const { x, y, dxdLambda } = evaluateFloat(direction.curve, lambda)
      weights[d] = (-dxdLambda * priceFrom * priceFrom) / priceTo
      if (x <= 0) continue
      g += priceTo * y - priceFrom * x
      gradient[direction.from]! -= x
      gradient[direction.to]! += y
    }
    const logGradient = gradient.map((v, k) => (k === tokenOut ? 0 : v * prices[k]!))
    return { g, prices, logGradient, weights }
  }
  const multiply = (weights: readonly number[], diagonal: readonly number[], vector: readonly number[]) => {
    const out = vector.map((v, k) => diagonal[k]! * v)
    for (const [d, direction] of directions.entries()) {
      const w = weights[d]!
      if (w === 0) continue
      const difference = w * (vector[direction.from]! - vector[direction.to]!)
      out[direction.from]! += difference
      out[direction.to]! -= difference
    }
    out[tokenOut] = 0
    return out
  }
  const dot = (a: readonly number[], b: readonly number[]) => a.reduce((sum, v, k) => sum + v * b[k]!, 0)

  let logPrices = problem.prices.map((p) => Math.log(p))
  logPrices[tokenOut] = 0
  let state = evaluate(logPrices)
  let best = { g: state.g, prices: state.prices }
  const startValue = state.g
  const history: number[] = []
  let slack = Infinity
  let iterations = 0
  let damping = 1e-6
  // Newton, then exact coordinate line searches, a few times: where a pool's curve is flat (a gap
  // between ranges) the Hessian has no curvature there and Newton crawls under its damping,
  // leaving tokens unbalanced (the flow then strands input or pushes it past the optimum).
  for (let phase = 0; phase < DUAL_PHASES; phase++) {
  history.length = 0
  damping = 1e-6
  for (let step = 0; step < 300; step++, iterations++) {
    const { weights, logGradient } = state
    // The diagonal: what the Laplacian misses (the gradient's own curvature in log prices, its
    // negative part dropped) and a little damping so the system is positive definite.
    const laplacianDiagonal = new Array<number>(tokenCount).fill(0)
    for (const [d, direction] of directions.entries()) {
      laplacianDiagonal[direction.from]! += weights[d]!
      laplacianDiagonal[direction.to]! += weights[d]!
    }
    // Levenberg-Marquardt damping: where a pool's curve is flat (a gap between ranges) the Laplacian
    // has no curvature, and a bare Newton step would be huge; the damping adapts to the line search.
    const scale = Math.max(1e-300, ...laplacianDiagonal, ...logGradient.map(Math.abs))
    const diagonal = logGradient.map(
      (v, k) => Math.max(0, v) + damping * (laplacianDiagonal[k]! + Math.abs(v)) + scale * 1e-13 + 1e-300 + (k === tokenOut ? 1 : 0),
    )
    const preconditioner = laplacianDiagonal.map((v, k) => 1 / (v + diagonal[k]!))
    // Conjugate gradients on H·step = −gradient.
    const step = new Array<number>(tokenCount).fill(0)
    let residual = logGradient.map((v) => -v)
    let z = residual.map((r, k) => r * preconditioner[k]!)
    let direction = [...z]
    let rz = dot(residual, z)
    const target = 1e-26 * dot(logGradient, logGradient)
    for (let cg = 0; cg < Math.min(3 * tokenCount + 50, 600) && dot(residual, residual) > target; cg++) {
      const product = multiply(weights, diagonal, direction)
      const curvature = dot(direction, product)
      if (!(curvature > 0)) break
      const alpha = rz / curvature
      for (let k = 0; k < tokenCount; k++) {
        step[k]! += alpha * direction[k]!
        residual[k]! -= alpha * product[k]!
      }
      z = residual.map((r, k) => r * preconditioner[k]!)
      const rzNext = dot(residual, z)
      direction = z.map((v, k) => v + (rzNext / rz) * direction[k]!)
      rz = rzNext
    }
    step[tokenOut] = 0
    // Nothing routes (a dead route): the bound has fallen to nothing next to the input's start value.
    if (state.g <= 1e-12 * startValue) break
    const decrement = -dot(step, logGradient)
    slack = decrement / 2 / Math.abs(state.g)
    if (!(slack > 1e-14)) break
    // Float noise in g is about 1e-13 of its largest terms.
    const noise = 1e-13 * Math.max(Math.abs(state.g), state.prices[tokenIn]! * amountIn)
    let accepted = false
    for (let t = 1, tries = 0; tries < 60; tries++, t /= 2) {
      const trial = logPrices.map((v, k) => v + t * step[k]!)
      const candidate = evaluate(trial)
      if (candidate.g <= state.g - 1e-4 * t * decrement + noise) {
        logPrices = trial
        state = candidate
        accepted = true
        damping = Math.max(1e-12, damping / 4)
        break
      }
    }
    if (!accepted) {
      // No progress along this step: damp harder and try again, unless damping is already large.
      if (damping >= 1e6) break
      damping = Math.min(1e6, damping * 100)
      continue
    }
    if (state.g < best.g) best = { g: state.g, prices: state.prices }
    // Stalled: under 1e-14 of the bound gained over the last 10 steps (far below 0.01 bp).
    history.push(best.g)
    if (history.length > 10 && history[history.length - 11]! - best.g <= 1e-14 * Math.abs(best.g)) break
  }
  if (state.g <= 1e-12 * startValue) break
  const swept = sweepPrices(problem, amountIn, logPrices)
  if (!(swept.g < best.g)) break
  const gained = (best.g - swept.g) / Math.abs(best.g)
  logPrices = swept.logPrices
  state = evaluate(logPrices)
  if (state.g < best.g) best = { g: state.g, prices: state.prices }
  if (gained <= 1e-15) break
  }
  // A second set of prices for the plan: a last sweep from the best, each token's price where what it receives at
  // least covers what it sends (at a kink, a curve whose input jumps at one rate, that side of
  // the jump: the flow then never sends more than arrives). Any prices bound; the lower counts.
  const final = sweepPrices(
    problem,
    amountIn,
    best.prices.map((p) => Math.log(p)),
  )
  const swept = final.logPrices.map(Math.exp)
  swept[tokenOut] = 1
  return { bound: Math.min(best.g, final.g), prices: best.prices, sweptPrices: swept, iterations, slack: Math.max(0, slack) }
}

/** Newton phases of the dual, each followed by coordinate sweeps. */
const DUAL_PHASES = 4
/** Coordinate sweeps per phase, and bisection steps of one token's log price (to ~1e-12 of a bracket of width 2). */
const SWEEPS = 12
const BISECTION_STEPS = 42

/**
 * Coordinate descent on the dual in log prices with an exact line search per token: each token's
 * price (the output's stays 1) moves to where what its directions bring in equals what they take
 * out (the dual's partial derivative, increasing in its own price, found by bisection), SWEEPS
 * times over every token. Robust where Newton is not: a flat piece of a curve only makes the
 * balance flat, never wrong. Returns the log prices and the dual value there (a valid bound).
 */
function sweepPrices(problem: NetworkProblem, amountIn: number, start: readonly number[]): { logPrices: number[]; g: number } {
  const { directions, tokenIn, tokenOut } = problem
  const logPrices = [...start]
  const touching: number[][] = problem.tokens.map(() => [])
  directions.forEach((d, i) => {
    touching[d.from]!.push(i)
    touching[d.to]!.push(i)
  })
  const balance = (k: number, logPrice: number) => {
    let net = k === tokenIn ? amountIn : 0
    for (const i of touching[k]!) {
      const d = directions[i]!
      const from = d.from === k ? logPrice : logPrices[d.from]!
      const to = d.to === k ? logPrice : logPrices[d.to]!
      const { x, y } = evaluateFloat(d.curve, Math.exp(from - to))
      if (!(x > 0)) continue
      if (d.to === k) net += y
      else net -= x
    }
    return net
  }
  // A token already balanced to 1e-13 of the trade's value is left where it is (most are, after Newton).
  const tolerance = 1e-13 * amountIn * Math.exp(start[tokenIn]!)
  for (let sweep = 0; sweep < SWEEPS; sweep++)
    for (let k = 0; k < logPrices.length; k++) {
      if (k === tokenOut || touching[k]!.length === 0) continue
      const at = logPrices[k]!
      if (Math.abs(balance(k, at)) * Math.exp(at) <= tolerance) continue
      let lo = at - 1
      let hi = at + 1
      for (let width = 2; balance(k, lo) > 0 && width < 200; width *= 2) lo = at - width
      for (let width = 2; balance(k, hi) < 0 && width < 200; width *= 2) hi = at + width
      for (let i = 0; i < BISECTION_STEPS; i++) {
        const middle = (lo + hi) / 2
        if (balance(k, middle) > 0) hi = middle
        else lo = middle
      }
      logPrices[k] = hi
    }
  // The dual value at the prices reached.
  const prices = logPrices.map(Math.exp)
  prices[tokenOut] = 1
  let g = prices[tokenIn]! * amountIn
  for (const d of directions) {
    const { x, y } = evaluateFloat(d.curve, prices[d.from]! / prices[d.to]!)
    if (x > 0) g += prices[d.to]! * y - prices[d.from]! * x
  }
  return { logPrices, g }
}

/** The exact plan recovered from the dual's prices. */
export type PrimalPlan = {
  /** Exact output of the plan on the pools' integer math. */
  amountOut: bigint
  /** Whether the whole input reached the output (`stranded` under 1e-8). */
  filled: boolean
  /**
   * What is left at the input or on the way: the larger of its value at the dual's prices as a share
   * of the output, and the share of the input it took to get it there. At a network's capacity the
   * dual prices of saturated tokens fall near zero, so a plan that sells the input into pools and
   * leaves their output stuck on the way is only seen by the second measure.
   */
  stranded: number
  /** Trades of the plan (pool directions with an amount). */
  trades: number
  /** Most hops on any route of the plan from the input to the output (over every executed trade). */
  hops: number
  /** The plan's trades in order (for BENCH_HARD_DEBUG): token addresses, the market's pool index, exact amounts. */
  steps: { from: Address; to: Address; pool: number; amountIn: bigint; amountOut: bigint }[]
}

/**
 * The better exact plan of the dual's flows at its best prices and at its swept prices (see
 * DualSolution): near a kink (a curve whose input jumps at one rate) either side may strand less.
 *
 * @example
 * const plan = executeDual(market, problem, solveDual(problem, 1e21), 10n ** 21n)
 */
export function executeDual(market: Market, problem: NetworkProblem, dual: DualSolution, amountIn: bigint): PrimalPlan {
  const atBest = executeDualFlow(market, problem, dual.prices, amountIn)
  const atSwept = executeDualFlow(market, problem, dual.sweptPrices, amountIn)
  return atSwept.amountOut > atBest.amountOut ? atSwept : atBest
}

/**
 * Executes the dual's flow exactly: tokens in topological order of the flow, each token's whole
 * holding split over its outgoing trades in the flow's proportions, every trade on the pool's exact
 * `quoteExactIn` (what a pool cannot take moves on to the token's next trade).
 *
 * @example
 * const plan = executeDualFlow(market, problem, solution.prices, amountIn)
 */
export function executeDualFlow(market: Market, problem: NetworkProblem, prices: readonly number[], amountIn: bigint): PrimalPlan {
  const { directions, tokenIn, tokenOut, tokens } = problem
  const flows = directions.map((d) => {
    const { x, y } = evaluateFloat(d.curve, prices[d.from]! / prices[d.to]!)
    return x > 0 && y > 0 ? x : 0
  })
  // Negligible trades (below 1e-12 of the input's value) are dropped.
  const inputValue = prices[tokenIn]! * Number(amountIn)
  const active = directions.map((d, i) => i).filter((i) => flows[i]! * prices[directions[i]!.from]! > 1e-12 * inputValue)
  // Topological order of the tokens over the active trades (a cycle, which a market without
  // arbitrage should not give, loses its smallest trade).
  let edges = [...active]
  let order: number[] = []
  for (;;) {
    const indegree = new Array<number>(tokens.length).fill(0)
    for (const i of edges) indegree[directions[i]!.to]!++
    const ready = tokens.map((_, k) => k).filter((k) => indegree[k] === 0)
    order = []
    while (ready.length > 0) {
      const token = ready.pop()!
      order.push(token)
      for (const i of edges)
        if (directions[i]!.from === token && --indegree[directions[i]!.to]! === 0) ready.push(directions[i]!.to)
    }
    if (order.length === tokens.length) break
    const placed = new Set(order)
    const cyclic = edges.filter((i) => !placed.has(directions[i]!.from))
    const smallest = cyclic.reduce((a, b) => (flows[a]! <= flows[b]! ? a : b))
    edges = edges.filter((i) => i !== smallest)
  }
  // A pool traded twice (both directions, or on two hop layers of a layered network) trades the
  // second time on the state the first left.
  const current = new Map<number, Pool>()
  const balance = new Array<bigint>(tokens.length).fill(0n)
  balance[tokenIn] = amountIn
  // Per token: what it received, and how much of the input that took (each trade carries the share
  // of its token's input cost that its amount is of what the token received).
  const received = new Array<number>(tokens.length).fill(0)
  const inputCost = new Array<number>(tokens.length).fill(0)
  received[tokenIn] = Number(amountIn)
  inputCost[tokenIn] = Number(amountIn)
  const depth = new Array<number>(tokens.length).fill(0)
  let trades = 0
  const steps: PrimalPlan['steps'] = []
  for (const token of order) {
    if (token === tokenOut) continue
    const outgoing = edges.filter((i) => directions[i]!.from === token)
    const held = balance[token]!
    if (outgoing.length === 0 || held === 0n) continue
    // The whole holding in the flow's proportions (floors, the remainder to the largest). A trade
    // the pool cannot take whole takes what it can (bisection on its exact math), and the rest
    // moves on to the next trade out of the token, largest first.
    const total = outgoing.reduce((a, i) => a + flows[i]!, 0)
    const ranked = [...outgoing].sort((a, b) => flows[b]! - flows[a]!)
    const shares = ranked.map((i) => (held * BigInt(Math.round((flows[i]! / total) * 1e15))) / 10n ** 15n)
    shares[0] = shares[0]! + held - shares.reduce((a, b) => a + b, 0n)
    let carry = 0n
    for (const [k, i] of ranked.entries()) {
      const direction = directions[i]!
      const pool = current.get(direction.pool) ?? market.pools[direction.pool]!.pool
      const [from, to] = [tokens[direction.from]!, tokens[direction.to]!]
      const wanted = shares[k]! + carry
      if (wanted <= 0n) continue
      let amount = wanted
      let result = pool.quoteExactIn(from, to, amount)
      if (!result) {
        let lo = 0n
        let hi = wanted
        while (hi - lo > 1n) {
          const mid = (lo + hi) / 2n
          if (pool.quoteExactIn(from, to, mid)) lo = mid
          else hi = mid
        }
        amount = lo
        result = amount > 0n ? pool.quoteExactIn(from, to, amount) : undefined
      }
      carry = wanted - (result ? amount : 0n)
      if (!result) continue
      current.set(direction.pool, result.next)
      balance[direction.from]! -= amount
      balance[direction.to]! += result.amountOut
      received[direction.to]! += Number(result.amountOut)
      inputCost[direction.to]! += (Number(amount) / received[direction.from]!) * inputCost[direction.from]!
      steps.push({ from, to, pool: direction.pool, amountIn: amount, amountOut: result.amountOut })
      // Every executed trade counts, dust included: its output is in amountOut, so a plan held to a
      // hop limit must hold it too. (Weighing trades by their value at the dual's prices let 6-hop
      // dust into a 4-hop reference, above the hop-limited certificate: hard bench 100:508 and
      // 100:513 H11->H12 10%; and near capacity a saturated token's price falls near zero, so a
      // large trade out of it looked like dust.)
      depth[direction.to] = Math.max(depth[direction.to]!, depth[direction.from]! + 1)
      trades++
    }
  }
  // Dust left on the way (a pool refusing a few units) is valued at the dual's prices and at the
  // share of the input it cost; the plan fills when both are below 1e-8 (0.0001 bp).
  const strandedValue = balance.reduce((sum, b, k) => (k === tokenOut ? sum : sum + Number(b) * prices[k]!), 0)
  const strandedInput = balance.reduce((sum, b, k) => (k === tokenOut || !(received[k]! > 0) ? sum : sum + (Number(b) / received[k]!) * inputCost[k]!), 0)
  const amountOut = balance[tokenOut]!
  const stranded = amountOut > 0n ? Math.max(strandedValue / Number(amountOut), strandedInput / Number(amountIn)) : Infinity
  return { amountOut, filled: amountOut > 0n && stranded <= 1e-8, stranded, trades, hops: depth[tokenOut]!, steps }
}
