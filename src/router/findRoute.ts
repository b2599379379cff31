import { findPaths } from './findPaths.js'
import { type PoolStates, simulatePath, simulatePlan } from './simulatePlan.js'
import type { Path, Plan, RouteParameters } from './types.js'

/** Candidate paths kept for splitting after ranking. */
const MAX_CANDIDATES = 8
/** Greedy allocation grain: the amount is first dealt out in this many chunks. */
const CHUNKS = 50
/** Refinement stops at this fraction of the amount (1/4096 ≈ 0.024%). */
const FINEST_DIVISOR = 4096n

/** Passes over the path pairs at one step size before halving it. */
const MAX_PASSES_PER_LEVEL = 4

type Allocation = { path: Path; amountIn: bigint }

/** Output net of gas, in raw output units (float: used only to compare plans). */
function netValue(plan: Plan, gasCostInOutput: number): number {
  return Number(plan.amountOut) - Number(plan.gas) * gasCostInOutput
}

/** Deterministic ordering key of a path (pool keys and directions). */
function pathId(path: Path): string {
  return path.map((h) => `${h.pool.key}:${h.tokenIn}`).join('>')
}

/**
 * Ranks candidate paths by what they return on a slice of the amount and keeps the best few.
 * The best single path for the whole amount is always kept.
 */
function rankCandidates(paths: Path[], amountIn: bigint): Path[] {
  const slice = amountIn / 8n > 0n ? amountIn / 8n : amountIn
  const scored: { path: Path; small: bigint; full: bigint; id: string }[] = []
  for (const path of paths) {
    const small = simulatePath(path, slice, new Map())?.amountOut ?? 0n
    if (small === 0n) continue
    const full = simulatePath(path, amountIn, new Map())?.amountOut ?? 0n
    scored.push({ path, small, full, id: pathId(path) })
  }
  const byFull = [...scored].sort((a, b) => (b.full === a.full ? cmp(a.id, b.id) : b.full > a.full ? 1 : -1))
  const bySmall = [...scored].sort((a, b) => (b.small === a.small ? cmp(a.id, b.id) : b.small > a.small ? 1 : -1))
  const kept: Path[] = []
  const seen = new Set<string>()
  for (const entry of [...byFull.slice(0, 1), ...bySmall, ...byFull]) {
    if (kept.length >= MAX_CANDIDATES) break
    if (seen.has(entry.id)) continue
    seen.add(entry.id)
    kept.push(entry.path)
  }
  return kept
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Deals the amount out chunk by chunk, each to the path that pays most for it on the states so far. */
function greedyAllocate(candidates: Path[], amountIn: bigint): bigint[] {
  const shares = candidates.map(() => 0n)
  const states: PoolStates = new Map()
  const chunks = amountIn < BigInt(CHUNKS) ? amountIn : BigInt(CHUNKS)
  const chunk = amountIn / chunks
  for (let k = 0n; k < chunks; k++) {
    const size = k === chunks - 1n ? amountIn - chunk * (chunks - 1n) : chunk
    let best = -1
    let bestOut = 0n
    let bestStates: PoolStates | undefined
    for (let i = 0; i < candidates.length; i++) {
      const trial: PoolStates = new Map(states)
      const out = simulatePath(candidates[i]!, size, trial)?.amountOut ?? 0n
      if (out > bestOut) {
        best = i
        bestOut = out
        bestStates = trial
      }
    }
    if (best < 0 || !bestStates) break
    shares[best] = shares[best]! + size
    for (const [key, pool] of bestStates) states.set(key, pool)
  }
  return shares
}

function planOf(candidates: Path[], shares: bigint[]): Plan | undefined {
  const allocations: Allocation[] = []
  candidates.forEach((path, i) => {
    if (shares[i]! > 0n) allocations.push({ path, amountIn: shares[i]! })
  })
  return simulatePlan(allocations)
}

/**
 * Local search on exact plans: moves amounts between paths (halving the step)
 * while the output net of gas improves; also tries dropping a path entirely.
 */
function refine(candidates: Path[], shares: bigint[], amountIn: bigint, gasCost: number): { shares: bigint[]; plan: Plan } | undefined {
  let plan = planOf(candidates, shares)
  if (!plan) return undefined
  let value = netValue(plan, gasCost)
  const tryShares = (next: bigint[]): boolean => {
    const candidate = planOf(candidates, next)
    if (!candidate) return false
    const v = netValue(candidate, gasCost)
    if (v > value || (v === value && candidate.amountOut > plan!.amountOut)) {
      shares = next
      plan = candidate
      value = v
      return true
    }
    return false
  }
  // Drop paths whose gas is not paid for: move each one's share to the others' best.
  for (let improved = true; improved; ) {
    improved = false
    const used = shares.map((s, i) => (s > 0n ? i : -1)).filter((i) => i >= 0)
    if (used.length < 2) break
    for (const i of used) {
      for (const j of used) {
        if (i === j) continue
        const next = [...shares]
        next[j] = next[j]! + next[i]!
        next[i] = 0n
        if (tryShares(next)) {
          improved = true
          break
        }
      }
      if (improved) break
    }
  }
  let step = amountIn / BigInt(CHUNKS * 2)
  const finest = amountIn / FINEST_DIVISOR > 0n ? amountIn / FINEST_DIVISOR : 1n
  // A level repeats while moves help, at most MAX_PASSES_PER_LEVEL times: each pass costs a plan
  // simulation per ordered pair of paths.
  let passes = 0
  while (step >= finest && step > 0n) {
    let moved = false
    for (let i = 0; i < candidates.length; i++) {
      for (let j = 0; j < candidates.length; j++) {
        if (i === j || shares[i]! < step) continue
        // Only open a new path when it pays for its gas: that is what netValue decides.
        const next = [...shares]
        next[i] = next[i]! - step
        next[j] = next[j]! + step
        if (tryShares(next)) moved = true
      }
    }
    if (!moved || ++passes >= MAX_PASSES_PER_LEVEL) {
      step /= 2n
      passes = 0
    }
  }
  return { shares, plan }
}

/**
 * The exact-in route: candidate paths up to `maxHops` through the connectors,
 * an amount split across them (greedy at 2% then refined to ~0.02% on exact
 * simulation), net of each path's gas, and never worse than the best single
 * path. Returns undefined when no path can fill the amount.
 *
 * @example
 * const plan = findRoute({ pools, tokenIn: weth, tokenOut: usdc, connectors, gasCostInOutput: 0 }, 10n ** 18n)
 */
export function findRoute(parameters: RouteParameters, amountIn: bigint): Plan | undefined {
  const { pools, tokenIn, tokenOut, connectors, maxHops = 3, gasCostInOutput } = parameters
  const paths = findPaths(pools, tokenIn, tokenOut, { connectors, maxHops })
  if (paths.length === 0 || amountIn <= 0n) return undefined
  const candidates = rankCandidates(paths, amountIn)
  if (candidates.length === 0) return undefined

  let best: Plan | undefined
  let bestValue = -Infinity
  const consider = (plan: Plan | undefined) => {
    if (!plan || plan.amountIn !== amountIn) return
    const v = netValue(plan, gasCostInOutput)
    if (v > bestValue) {
      best = plan
      bestValue = v
    }
  }
  // The best single path, by construction a floor for the split.
  for (const path of candidates) consider(simulatePlan([{ path, amountIn }]))
  const greedy = greedyAllocate(candidates, amountIn)
  if (greedy.reduce((a, b) => a + b, 0n) === amountIn) consider(refine(candidates, greedy, amountIn, gasCostInOutput)?.plan)
  return best
}

/** Candidate paths, exported for callers that want to inspect the search. */
export { findPaths }
