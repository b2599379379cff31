// The token-path search of route graphs: every path while they are few, a bounded search
// (shorter first, the widest bottleneck first) when a dense market would have too many.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { Pool } from '../protocols/types.js'
import { findTokenPaths } from './findPaths.js'
import { createMarket } from './market.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const token = (n: number) => `0x${(0xa0 + n).toString(16).padStart(40, '0')}` as Address
const v2Pair = createV2Pairs({ nextAddress: createAddressCounter(0xf000) })
/** A V2 pair at price 1 holding `reserve` of each token. */
const pair = (a: Address, b: Address, reserve: bigint) => v2Pair(a, b, reserve, reserve)

/** Every path by brute force: the reference the search must equal while under its limit. */
function allPaths(tokens: readonly Address[], linked: (a: Address, b: Address) => boolean, from: Address, to: Address, maxHops: number): string[] {
  const found: string[] = []
  const walk = (path: Address[]) => {
    const last = path[path.length - 1]!
    if (linked(last, to)) found.push([...path, to].join())
    if (path.length >= maxHops) return
    for (const t of tokens) if (!path.includes(t) && linked(last, t)) walk([...path, t])
  }
  walk([from])
  return found
}

describe('findTokenPaths', () => {
  // A clique of 8 connectors and the two ends: 1, 8, 56, 336, 1,680 and 6,720 paths of 1 to 6 hops.
  const ends = { tokenIn: token(0), tokenOut: token(1) }
  const connectors = Array.from({ length: 8 }, (_, i) => token(2 + i))
  const everyToken = [ends.tokenIn, ends.tokenOut, ...connectors]
  // Pairs through connector k are 10^(18+k) deep: the later connectors are the wider ones.
  const depthOf = (a: Address, b: Address) => 10n ** BigInt(18 + Math.min(connectors.indexOf(a) >>> 0, connectors.indexOf(b) >>> 0, 9))
  const pools: Pool[] = []
  for (let i = 0; i < everyToken.length; i++) for (let j = i + 1; j < everyToken.length; j++) pools.push(pair(everyToken[i]!, everyToken[j]!, depthOf(everyToken[i]!, everyToken[j]!)))
  const market = createMarket(pools)
  const linked = (a: Address, b: Address) => market.pairs.get(a)?.has(b) === true

  it('lists every path, depth first, while they fit the limit', () => {
    for (const maxHops of [1, 2, 3, 4, 5]) {
      const paths = findTokenPaths(market, { ...ends, connectors, maxHops, size: 1e18 }, 1e6)
      expect(paths.map((p) => p.join())).toEqual(allPaths(connectors, linked, ends.tokenIn, ends.tokenOut, maxHops))
    }
  })

  it('past the limit keeps the shorter paths, then the widest, never more than the limit', () => {
    const every = allPaths(connectors, linked, ends.tokenIn, ends.tokenOut, 6)
    expect(every.length).toBe(1 + 8 + 56 + 336 + 1680 + 6720)
    const limit = 100
    const paths = findTokenPaths(market, { ...ends, connectors, maxHops: 6, size: 1e18 }, limit)
    expect(paths).toHaveLength(limit)
    expect(new Set(paths.map((p) => p.join())).size).toBe(limit)
    for (const path of paths) {
      expect(every).toContain(path.join())
      expect(path.length - 1).toBeLessThanOrEqual(6)
    }
    // Every path of 1, 2 and 3 hops (1 + 8 + 56 = 65) comes before any longer one.
    const lengths = paths.map((p) => p.length - 1)
    expect(lengths.filter((h) => h <= 3)).toHaveLength(65)
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b))
    // The 4-hop paths kept are the widest: their bottleneck pair avoids the two shallowest connectors.
    const shallow = new Set(connectors.slice(0, 2))
    for (const path of paths.filter((p) => p.length - 1 === 4)) expect(path.some((t) => shallow.has(t))).toBe(false)
  })

  it('lists every path while they fit the limit, however many walks lead into dead ends', () => {
    // Twelve deep connectors pooled with the input and with each other but never with the output
    // (1000:7 at 6 hops: most candidates led nowhere near H14), and one shallow 5-hop chain
    // in -> A1 -> A2 -> A3 -> A4 -> out beside a 2-hop path. The walks into the dead ends used to
    // spend the step budget (each a step, 12 + 132 + ... of them) and hand over to the bounded
    // search, whose widest prefixes were all dead ends: the 5-hop path was lost.
    const deadEnds = Array.from({ length: 12 }, (_, i) => token(20 + i))
    const chain = Array.from({ length: 4 }, (_, i) => token(40 + i))
    const mid = token(50)
    const deep = 10n ** 24n
    const shallow = 10n ** 18n
    const deadEndPools: Pool[] = []
    for (let i = 0; i < deadEnds.length; i++) {
      deadEndPools.push(pair(ends.tokenIn, deadEnds[i]!, deep))
      for (let j = i + 1; j < deadEnds.length; j++) deadEndPools.push(pair(deadEnds[i]!, deadEnds[j]!, deep))
    }
    const ways = [ends.tokenIn, ...chain, ends.tokenOut]
    const chainPools = ways.slice(1).map((t, k) => pair(ways[k]!, t, shallow))
    const market = createMarket([...deadEndPools, ...chainPools, pair(ends.tokenIn, mid, deep), pair(mid, ends.tokenOut, deep)])
    const linkedHere = (a: Address, b: Address) => market.pairs.get(a)?.has(b) === true
    const connectorsHere = [...deadEnds, ...chain, mid]
    const paths = findTokenPaths(market, { ...ends, connectors: connectorsHere, maxHops: 6, size: 1e18 }, 64)
    expect(paths.map((p) => p.join())).toEqual(allPaths(connectorsHere, linkedHere, ends.tokenIn, ends.tokenOut, 6))
    expect(paths.map((p) => p.join())).toContain(ways.join())
  })
})
