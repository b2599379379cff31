// The router benchmark's markets: one pair over parallel pools, and random
// multi-token universes around the majors. Seeded, so every run is the same.
import type { Address } from 'viem'
import { createRandom } from '../../test/support/random.js'
import { BENCH_V2_DEXES, BENCH_V3_DEXES, type BenchToken, type Market, type PoolDraft, createMarket, majorTokens, tokenAddress } from './market.js'

/** The 20 parallel WETH/USDC pools, in the order the smaller sets take them: mixed families, tiers and depths. */
const PARALLEL_LAYOUT: readonly { dex: string; fee?: number; depthUsd: number }[] = [
  { dex: 'uniswapV3', fee: 500, depthUsd: 40e6 },
  { dex: 'uniswapV2', depthUsd: 15e6 },
  { dex: 'uniswapV3', fee: 3000, depthUsd: 12e6 },
  { dex: 'pancakeV3', fee: 100, depthUsd: 6e6 },
  { dex: 'pancakeV2', depthUsd: 3e6 },
  { dex: 'sushiswapV3', fee: 500, depthUsd: 8e6 },
  { dex: 'uniswapV3', fee: 10000, depthUsd: 1.5e6 },
  { dex: 'sushiswapV2', depthUsd: 4e6 },
  { dex: 'pancakeV3', fee: 2500, depthUsd: 5e6 },
  { dex: 'forkV3', fee: 3000, depthUsd: 2e6 },
  { dex: 'uniswapV3', fee: 100, depthUsd: 9e6 },
  { dex: 'forkV2', depthUsd: 0.8e6 },
  { dex: 'sushiswapV3', fee: 3000, depthUsd: 2.5e6 },
  { dex: 'pancakeV3', fee: 500, depthUsd: 20e6 },
  { dex: 'forkV3', fee: 500, depthUsd: 1e6 },
  { dex: 'sushiswapV3', fee: 100, depthUsd: 3e6 },
  { dex: 'forkV3', fee: 100, depthUsd: 0.6e6 },
  { dex: 'pancakeV3', fee: 10000, depthUsd: 0.4e6 },
  { dex: 'sushiswapV3', fee: 10000, depthUsd: 0.7e6 },
  { dex: 'forkV3', fee: 10000, depthUsd: 0.3e6 },
]

/** A pair market and the trade direction the scenarios use. */
export type PairMarket = { market: Market; tokenIn: BenchToken; tokenOut: BenchToken; label: string }

/**
 * WETH/USDC over the first `count` parallel pools (≤ 20), sold USDC -> WETH.
 *
 * @example
 * const { market, tokenIn, tokenOut } = createParallelMarket(5)
 */
export function createParallelMarket(count: number): PairMarket {
  const tokens = majorTokens()
  const usdc = tokens.find((t) => t.symbol === 'USDC')!
  const weth = tokens.find((t) => t.symbol === 'WETH')!
  const drafts: PoolDraft[] = PARALLEL_LAYOUT.slice(0, count).map((p) => ({
    family: p.fee === undefined ? 'uniswapV2' : 'uniswapV3',
    dex: p.dex,
    ...(p.fee !== undefined ? { fee: p.fee } : {}),
    tokenA: weth,
    tokenB: usdc,
    depthUsd: p.depthUsd,
    noiseBps: 4,
  }))
  const v2 = drafts.filter((d) => d.family === 'uniswapV2').length
  return { market: createMarket(tokens, drafts, 1000 + count), tokenIn: usdc, tokenOut: weth, label: `${count} pools (${v2} V2, ${count - v2} V3)` }
}

/** A trade in a universe. */
export type UniverseTrade = { tokenIn: BenchToken; tokenOut: BenchToken; label: string }

/** A universe: many tokens, majors as connectors, and the trades the bench makes in it. */
export type Universe = { market: Market; trades: UniverseTrade[]; label: string }

/**
 * `poolCount` pools over the five majors and poolCount/4 random tokens: most
 * random tokens pair with one or two majors, some with each other, the majors
 * with each other on several dexes. Depths are log-uniform.
 *
 * @example
 * const universe = createUniverse(1000, 42)
 */
export function createUniverse(poolCount: number, seed: number): Universe {
  const random = createRandom(seed)
  const majors = majorTokens()
  const others: BenchToken[] = []
  const otherCount = Math.max(4, Math.round(poolCount / 4))
  for (let i = 0; i < otherCount; i++) {
    others.push({
      address: tokenAddress(100 + seed * 10_000 + i),
      symbol: `T${i}`,
      decimals: [6, 8, 9, 18, 18, 18][Math.floor(random() * 6)]!,
      priceUsd: 10 ** (-5 + random() * 8),
    })
  }
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const logUniform = (lo: number, hi: number) => lo * (hi / lo) ** random()
  const draft = (a: BenchToken, b: BenchToken, depthUsd: number): PoolDraft => {
    if (random() < 0.35) return { family: 'uniswapV2', dex: pick(BENCH_V2_DEXES).id, tokenA: a, tokenB: b, depthUsd, noiseBps: 0 }
    const dex = pick(BENCH_V3_DEXES)
    const fee = Number(pick(Object.keys(dex.tiers)))
    return { family: 'uniswapV3', dex: dex.id, fee, tokenA: a, tokenB: b, depthUsd, noiseBps: 0 }
  }
  const drafts: PoolDraft[] = []
  // Majors with each other: a sixth of the pools, deep.
  const majorPools = Math.round(poolCount / 6)
  for (let i = 0; i < majorPools; i++) {
    const a = pick(majors)
    let b = pick(majors)
    while (b === a) b = pick(majors)
    drafts.push(draft(a, b, logUniform(1e6, 5e7)))
  }
  // Every other token gets one pool with a major first, so each is reachable.
  for (const token of others) {
    if (drafts.length >= poolCount) break
    drafts.push(draft(token, pick(majors), logUniform(5e4, 5e6)))
  }
  while (drafts.length < poolCount) {
    const a = pick(others)
    const b = random() < 0.75 ? pick(majors) : pick(others)
    if (a === b) continue
    drafts.push(draft(a, b, logUniform(2e4, 3e6)))
  }
  const market = createMarket([...majors, ...others], drafts, seed)
  // Trades: a token to another token (up to 3 hops through majors), a token to a major, a major to a token.
  const degree = new Map<Address, number>()
  for (const d of drafts) for (const t of [d.tokenA, d.tokenB]) degree.set(t.address, (degree.get(t.address) ?? 0) + 1)
  const connected = [...others].sort((a, b) => (degree.get(b.address) ?? 0) - (degree.get(a.address) ?? 0) || (a.address < b.address ? -1 : 1))
  const usdc = majors[0]!
  const weth = majors[3]!
  const trades: UniverseTrade[] = [
    { tokenIn: connected[0]!, tokenOut: connected[1]!, label: `${connected[0]!.symbol}->${connected[1]!.symbol}` },
    { tokenIn: connected[2]!, tokenOut: usdc, label: `${connected[2]!.symbol}->USDC` },
    { tokenIn: weth, tokenOut: connected[3]!, label: `WETH->${connected[3]!.symbol}` },
  ]
  return { market, trades, label: `${poolCount} pools, ${majors.length + others.length} tokens` }
}

/**
 * How much of `token` the market's pools touching it could absorb: half the
 * USD depth of each such pool, in raw units of `token`. Trade sizes are
 * fractions of it.
 *
 * @example
 * getDepth(market, usdc) // raw USDC
 */
export function getDepth(market: Market, token: BenchToken): bigint {
  let usd = 0
  for (const p of market.pools) if (p.state.token0 === token.address || p.state.token1 === token.address) usd += p.depthUsd / 2
  return BigInt(Math.floor((usd / token.priceUsd) * 10 ** token.decimals))
}
