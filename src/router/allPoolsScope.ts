import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { SINK, SOURCE } from './types.js'

/** A pool direction between two tokens of the all-pools scope (token indices into `tokens`). */
export type ScopeDirection = {
  pool: Pool
  tokenIn: Address
  tokenOut: Address
  from: number
  to: number
  /** Whether a ≤ maxHops path can trade it (the bound's edges); the others only spread mid prices. */
  routable: boolean
}

/** What the all-pools bound looks at for one pair and hop limit: it depends on the pool list alone. */
export type AllPoolsScope = {
  /** Fewest hops from the input (never through the output). */
  fromIn: ReadonlyMap<Address, number>
  /** Fewest hops to the output (never through the input). */
  toOut: ReadonlyMap<Address, number>
  /** The tokens in scope: SINK the output, SOURCE the input, then the rest. */
  tokens: readonly Address[]
  /** Every pool direction between two tokens in scope, in pool order. */
  directions: readonly ScopeDirection[]
  /** The pools the routable directions belong to. */
  pools: number
}

/** Pair scopes kept per pool list (the most recently used; a quote asks for one pair, twice or more). */
const MAX_SCOPES_PER_LIST = 16

/** Per pool list: the pools it was computed for (checked element by element), token neighbours, and the pair scopes. */
type ListEntry = { pools: readonly Pool[]; neighbours: ReadonlyMap<Address, ReadonlySet<Address>>; scopes: Map<string, AllPoolsScope | null> }

/**
 * Keyed weakly by the pool list: a source that hands out the same states builds the same list
 * object once (buildPools), so repeated quotes on it share the scopes, and they go away with it.
 */
const lists = new WeakMap<readonly Pool[], ListEntry>()

function sameList(a: readonly Pool[], b: readonly Pool[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function tokenNeighbours(pools: readonly Pool[]): Map<Address, Set<Address>> {
  const neighbours = new Map<Address, Set<Address>>()
  for (const pool of pools)
    for (const a of pool.tokens) {
      let set = neighbours.get(a)
      if (!set) neighbours.set(a, (set = new Set()))
      for (const b of pool.tokens) if (a !== b) set.add(b)
    }
  return neighbours
}

/** Fewest hops from `start` (up to `maxHops`), never continuing through `barrier`. */
function distances(neighbours: ReadonlyMap<Address, ReadonlySet<Address>>, start: Address, barrier: Address, maxHops: number): Map<Address, number> {
  const hops = new Map<Address, number>([[start, 0]])
  let frontier = [start]
  for (let k = 1; k <= maxHops && frontier.length > 0; k++) {
    const next: Address[] = []
    for (const a of frontier) {
      if (a === barrier) continue
      for (const b of neighbours.get(a) ?? []) {
        if (hops.has(b)) continue
        hops.set(b, k)
        next.push(b)
      }
    }
    frontier = next
  }
  return hops
}

function computeScope(pools: readonly Pool[], neighbours: ReadonlyMap<Address, ReadonlySet<Address>>, tokenIn: Address, tokenOut: Address, maxHops: number): AllPoolsScope | null {
  const fromIn = distances(neighbours, tokenIn, tokenOut, maxHops)
  const toOut = distances(neighbours, tokenOut, tokenIn, maxHops)
  if (!fromIn.has(tokenOut)) return null
  // Token indices: SINK the output, SOURCE the input, then the rest in scope (a token counts when
  // its fewest hops from the input plus to the output fit).
  const tokens: Address[] = []
  tokens[SINK] = tokenOut
  tokens[SOURCE] = tokenIn
  const index = new Map<Address, number>([
    [tokenOut, SINK],
    [tokenIn, SOURCE],
  ])
  for (const [token, hops] of fromIn) if (!index.has(token) && hops + (toOut.get(token) ?? Infinity) <= maxHops) index.set(token, tokens.push(token) - 1)
  const covered = new Set<string>()
  const directions: ScopeDirection[] = []
  for (const pool of pools)
    for (const a of pool.tokens)
      for (const b of pool.tokens) {
        const from = index.get(a)
        const to = index.get(b)
        if (a === b || from === undefined || to === undefined) continue
        // Never out of the output or into the input, and only where a path of ≤ maxHops fits.
        const routable = a !== tokenOut && b !== tokenIn && fromIn.get(a)! + 1 + toOut.get(b)! <= maxHops
        if (routable) covered.add(pool.key)
        directions.push({ pool, tokenIn: a, tokenOut: b, from, to, routable })
      }
  return { fromIn, toOut, tokens, directions, pools: covered.size }
}

/**
 * The all-pools bound's scope for `tokenIn` → `tokenOut` within `maxHops` over `pools`: the
 * tokens a ≤ maxHops path can pass through, their hop distances, and the pool directions between
 * them (null when no such path reaches the output). It depends on the pool list alone, not on the
 * amount or prices, so it is computed once per list and pair: the list's token neighbours once,
 * then the most recent pairs (a list handed in again with other pools, or changed in place,
 * computes afresh). The result is shared: read it, never change it.
 *
 * @example
 * const scope = allPoolsScope(pools, weth, usdc, 4)
 * if (scope) console.log(`${scope.tokens.length} tokens, ${scope.pools} pools in reach`)
 */
export function allPoolsScope(pools: readonly Pool[], tokenIn: Address, tokenOut: Address, maxHops: number): AllPoolsScope | null {
  let entry = lists.get(pools)
  if (!entry || !sameList(entry.pools, pools)) {
    entry = { pools: [...pools], neighbours: tokenNeighbours(pools), scopes: new Map() }
    lists.set(pools, entry)
  }
  const key = `${tokenIn}>${tokenOut}@${maxHops}`
  let scope = entry.scopes.get(key)
  if (scope !== undefined) {
    // Most recently used last: the first key is the one to drop.
    entry.scopes.delete(key)
    entry.scopes.set(key, scope)
    return scope
  }
  scope = computeScope(pools, entry.neighbours, tokenIn, tokenOut, maxHops)
  if (entry.scopes.size >= MAX_SCOPES_PER_LIST) entry.scopes.delete(entry.scopes.keys().next().value!)
  entry.scopes.set(key, scope)
  return scope
}
