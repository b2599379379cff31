// The 5%-grid splitter: the method of Uniswap's smart-order-router. Each
// candidate path is quoted exactly at every 5% step of the amount; then the
// best combination of (path, share) pairs is searched, at most 7 splits, no
// pool used by two paths, net of each path's gas. Where the SOR prunes its
// breadth-first search to a few routes per step, this search is exact over the
// grid (branch and bound with a knapsack bound), so it is the grid's best.
import type { Path } from '../../src/router/types.js'
import { poolKeysOf, quotePathExactIn, quotePathExactOut } from './paths.js'

/** Grid steps per 100% (20: 5%), splits and candidate paths the search takes. */
export const GRID = { units: 20, maxSplits: 7, maxPaths: 30 } as const

export type Allocation = { path: Path; amountIn: bigint }

type Table = {
  paths: Path[]
  /** values[p][k]: worth of giving path p k units (k = 0..units); -Infinity when it cannot fill. */
  values: number[][]
  /** amounts[p][k]: the exact amount the value was computed for. */
  amounts: bigint[][]
}

/** Keeps the paths with the best rank at some grid step (all of them when they are few). */
function selectCandidates(table: Table, maxPaths: number): number[] {
  const { paths, values } = table
  const indices = paths.map((_, i) => i)
  if (paths.length <= maxPaths) return indices
  const bestRank = indices.map(() => Infinity)
  for (let k = 1; k <= GRID.units; k++) {
    const ranked = [...indices].sort((a, b) => values[b]![k]! - values[a]![k]! || a - b)
    ranked.forEach((p, rank) => {
      if (Number.isFinite(values[p]![k]!) && rank < bestRank[p]!) bestRank[p] = rank
    })
  }
  return indices
    .filter((p) => Number.isFinite(bestRank[p]!))
    .sort((a, b) => bestRank[a]! - bestRank[b]! || values[b]![GRID.units]! - values[a]![GRID.units]! || a - b)
    .slice(0, maxPaths)
}

/** The best (path, units) combination over the grid: exact branch and bound. */
function searchGrid(table: Table, candidates: number[]): { path: number; units: number }[] | undefined {
  const U = GRID.units
  const order = [...candidates].sort((a, b) => table.values[b]![U]! - table.values[a]![U]! || a - b)
  const n = order.length
  const keys = order.map((p) => poolKeysOf(table.paths[p]!))
  // bound[i][r]: best worth of r units over paths order[i..], ignoring pool sharing and the split cap.
  const bound: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(U + 1).fill(-Infinity))
  bound[n]![0] = 0
  for (let i = n - 1; i >= 0; i--) {
    const row = table.values[order[i]!]!
    for (let r = 0; r <= U; r++) {
      let best = bound[i + 1]![r]!
      for (let k = 1; k <= r; k++) {
        const rest = bound[i + 1]![r - k]!
        if (row[k]! + rest > best) best = row[k]! + rest
      }
      bound[i]![r] = best
    }
  }
  let bestValue = -Infinity
  let bestChoice: { path: number; units: number }[] | undefined
  const chosen: { path: number; units: number }[] = []
  const used = new Set<string>()
  const visit = (i: number, remaining: number, value: number) => {
    if (remaining === 0) {
      if (value > bestValue) {
        bestValue = value
        bestChoice = [...chosen]
      }
      return
    }
    if (i === n || chosen.length === GRID.maxSplits) return
    if (!(value + bound[i]![remaining]! > bestValue)) return
    const row = table.values[order[i]!]!
    if (keys[i]!.every((k) => !used.has(k))) {
      for (const k of keys[i]!) used.add(k)
      for (let units = remaining; units >= 1; units--) {
        if (!Number.isFinite(row[units]!)) continue
        chosen.push({ path: order[i]!, units })
        visit(i + 1, remaining - units, value + row[units]!)
        chosen.pop()
      }
      for (const k of keys[i]!) used.delete(k)
    }
    visit(i + 1, remaining, value)
  }
  visit(0, U, 0)
  return bestChoice
}

/**
 * Exact-in grid split of `amountIn` over `paths`, maximising output minus gas
 * (`gasCost` raw output units per gas). Returns allocations summing to `amountIn`.
 *
 * @example
 * const allocations = gridSplitExactIn(paths, 10n ** 24n, 0)
 */
export function gridSplitExactIn(paths: readonly Path[], amountIn: bigint, gasCost: number): Allocation[] | undefined {
  const U = GRID.units
  const amounts: bigint[] = []
  for (let k = 0; k <= U; k++) amounts.push((amountIn * BigInt(k)) / BigInt(U))
  const worth = (path: Path, k: number) => {
    const quote = amounts[k]! > 0n ? quotePathExactIn(path, amounts[k]!) : undefined
    return quote ? Number(quote.amountOut) - Number(quote.gas) * gasCost : -Infinity
  }
  const table = buildTable(paths, worth, () => amounts)
  const choice = searchGrid(table, selectCandidates(table, GRID.maxPaths))
  if (!choice) return undefined
  const allocations = choice.map(({ path, units }) => ({ path: table.paths[path]!, amountIn: amounts[units]! }))
  // Rounding leftovers (under one unit per split) go to the largest share.
  const sum = allocations.reduce((a, b) => a + b.amountIn, 0n)
  const largest = allocations.reduce((a, b) => (b.amountIn > a.amountIn ? b : a))
  largest.amountIn += amountIn - sum
  return allocations
}

/**
 * The quote table. With many paths (multi-hop universes) only the best few by
 * their worth at 5% and at 100% are quoted at every step, as the SOR quotes
 * only its top candidate routes.
 */
function buildTable(paths: readonly Path[], worth: (path: Path, k: number) => number, amountsOf: (path: Path, index: number) => bigint[]): Table {
  const U = GRID.units
  let chosen = paths.map((_, i) => i)
  if (paths.length > GRID.maxPaths * 2) {
    const small = paths.map((p) => worth(p, 1))
    const full = paths.map((p) => worth(p, U))
    const rank = (values: number[]) => {
      const order = chosen.filter((i) => Number.isFinite(values[i]!)).sort((a, b) => values[b]! - values[a]! || a - b)
      const ranks = new Map<number, number>()
      order.forEach((p, r) => ranks.set(p, r))
      return ranks
    }
    const [r1, r2] = [rank(small), rank(full)]
    chosen = chosen
      .filter((i) => r1.has(i) || r2.has(i))
      .sort((a, b) => Math.min(r1.get(a) ?? Infinity, r2.get(a) ?? Infinity) - Math.min(r1.get(b) ?? Infinity, r2.get(b) ?? Infinity) || a - b)
      .slice(0, GRID.maxPaths * 2)
  }
  const table: Table = { paths: [], values: [], amounts: [] }
  for (const i of chosen) {
    const path = paths[i]!
    const values = [0]
    for (let k = 1; k <= U; k++) values.push(worth(path, k))
    table.paths.push(path)
    table.values.push(values)
    table.amounts.push(amountsOf(path, i))
  }
  return table
}

/**
 * Exact-out grid split: each path is quoted for 5% steps of the wanted output
 * (least exact input), the combination minimising input plus gas (`gasCostIn`
 * raw input units per gas) is searched. Returns the allocations' inputs.
 *
 * @example
 * const allocations = gridSplitExactOut(paths, 10n ** 21n, 0)
 */
export function gridSplitExactOut(paths: readonly Path[], amountOut: bigint, gasCostIn: number): Allocation[] | undefined {
  const U = GRID.units
  const outputs: bigint[] = []
  for (let k = 0; k <= U; k++) outputs.push((amountOut * BigInt(k)) / BigInt(U))
  const inputs = new Map<Path, bigint[]>()
  const worth = (path: Path, k: number) => {
    const quote = outputs[k]! > 0n ? quotePathExactOut(path, outputs[k]!) : undefined
    let list = inputs.get(path)
    if (!list) inputs.set(path, (list = new Array<bigint>(U + 1).fill(0n)))
    list[k] = quote?.amountIn ?? 0n
    return quote ? -(Number(quote.amountIn) + Number(quote.gas) * gasCostIn) : -Infinity
  }
  const table = buildTable(paths, worth, (path) => inputs.get(path)!)
  const choice = searchGrid(table, selectCandidates(table, GRID.maxPaths))
  if (!choice) return undefined
  // The largest split also delivers the outputs' rounding leftover: re-quote its input.
  const delivered = choice.reduce((a, c) => a + outputs[c.units]!, 0n)
  const largest = choice.reduce((a, b) => (b.units > a.units ? b : a))
  const allocations: Allocation[] = []
  for (const c of choice) {
    const path = table.paths[c.path]!
    if (c === largest && delivered !== amountOut) {
      const quote = quotePathExactOut(path, outputs[c.units]! + (amountOut - delivered))
      if (!quote) return undefined
      allocations.push({ path, amountIn: quote.amountIn })
    } else allocations.push({ path, amountIn: table.amounts[c.path]![c.units]! })
  }
  return allocations
}
