// Random Uniswap V2 + V3 markets built in memory, for the router's property tests (issue 9): V3
// positions with gaps between them, pools whose current tick sits in a gap (no active liquidity,
// liquidity above or below), pools drained to one side, prices exactly on a tick boundary, and
// tokens beyond the connectors that may hold the only deep pools. Exact single-path optimum by
// brute force over every token, for the checks the router promises.
import type { Address } from 'viem'
import { base } from '../../src/chains/base.js'
import type { ChainConfig } from '../../src/chains/types.js'
import type { Pool } from '../../src/protocols/types.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { MAX_TICK, MIN_TICK, getSqrtRatioAtTick } from '../../src/protocols/uniswapV3/tickMath.js'
import { createV2Pairs, type V2PairMaker } from './v2Pairs.js'

/** The chain the pools are built for: Uniswap V2 (0.3%) and Uniswap V3 with its fee tiers. */
export const marketChain: ChainConfig = { ...base, dexes: [{ ...base.dexes[0]!, id: 'v2', feeBps: 30 }, base.dexes[1]!] }

/** A random market: its pools, the trade's ends, the connectors and the tokens beyond them. */
export type RandomMarket = { pools: Pool[]; tokenIn: Address; tokenOut: Address; connectors: Address[]; others: Address[]; amountIn: bigint }

const token = (i: number) => `0x${(0xa0 + i).toString(16).padStart(40, '0')}` as Address
const V3_TIERS = [
  { fee: 500, spacing: 10 },
  { fee: 3000, spacing: 60 },
  { fee: 10000, spacing: 200 },
]
const LN_TICK = Math.log(1.0001)

let poolCounter = 0
const nextPoolAddress = () => `0x${(0x100000 + ++poolCounter).toString(16).padStart(40, '0')}` as Address

/** A V2 pair holding `reserveA` and `reserveB` raw units (18 decimals both sides). */
export const v2Pool: V2PairMaker = createV2Pairs({ chain: marketChain, nextAddress: nextPoolAddress })

/**
 * A V3 pool at `tick` (price exactly on the tick's boundary when `onBoundary`, else inside it)
 * with positions [lower, upper, liquidity]; the whole tick range is known.
 */
export function v3Pool(tokenA: Address, tokenB: Address, tier: { fee: number; spacing: number }, tick: number, positions: [number, number, bigint][], onBoundary: boolean): Pool {
  const [token0, token1] = tokenA < tokenB ? [tokenA, tokenB] : [tokenB, tokenA]
  const net = new Map<number, bigint>()
  let liquidity = 0n
  for (const [lower, upper, l] of positions) {
    net.set(lower, (net.get(lower) ?? 0n) + l)
    net.set(upper, (net.get(upper) ?? 0n) - l)
    if (lower <= tick && tick < upper) liquidity += l
  }
  const ticks = [...net.entries()].filter(([, n]) => n !== 0n).sort((x, y) => x[0] - y[0]).map(([index, n]) => ({ index, liquidityNet: String(n) }))
  const low = getSqrtRatioAtTick(tick)
  const high = getSqrtRatioAtTick(tick + 1)
  const sqrtPriceX96 = onBoundary ? low : low + (high - low) / 3n
  return uniswapV3Family.fromState(
    {
      family: 'uniswapV3',
      dex: marketChain.dexes[1]!.id,
      address: nextPoolAddress(),
      token0,
      token1,
      fee: tier.fee,
      tickSpacing: tier.spacing,
      sqrtPriceX96: String(sqrtPriceX96),
      tick,
      liquidity: String(liquidity),
      ticks,
      tickLower: MIN_TICK,
      tickUpper: MAX_TICK,
    },
    { chain: marketChain, dex: marketChain.dexes[1]!, dexIndex: 1 },
  )
}

/**
 * A random market of `tokens` tokens (0: input, 1: output, 2..connectors+1: connectors, the rest
 * beyond them), each pair pooled with probability `density` by one or two V2/V3 pools around a
 * common price (±skew/2, default ±2%: arbitrage between pools). V3 pools: 1–4 positions with gaps; a third sit at an empty tick, a sixth
 * are drained to one side; a third of prices lie exactly on a tick boundary. The trade is
 * 0.01%–30% of the input token's depth.
 */
export function randomMarket(random: () => number, options: { tokens?: number; connectors?: number; density?: number; skew?: number } = {}): RandomMarket {
  const { tokens: count = 6, connectors: connectorCount = 2, density = 0.6, skew: spread = 0.04 } = options
  const tokens = Array.from({ length: count }, (_, i) => token(i))
  const prices = tokens.map(() => 10 ** (4 * random() - 2))
  const pools: Pool[] = []
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1))
  let depthIn = 0
  for (let a = 0; a < count; a++)
    for (let b = a + 1; b < count; b++) {
      if (random() > density) continue
      for (let k = between(1, 2); k > 0; k--) {
        // Value of the pool in the output token's units (raw, 18 decimals).
        const value = 10 ** (3 + 4 * random())
        const skew = 1 + spread * (random() - 0.5)
        if (a === 0 || b === 0) depthIn += value / prices[0]!
        if (random() < 0.4) {
          const reserveA = BigInt(Math.floor((value / prices[a]!) * 1e6)) * 10n ** 12n
          const reserveB = BigInt(Math.floor(((value * skew) / prices[b]!) * 1e6)) * 10n ** 12n
          if (reserveA > 1000n && reserveB > 1000n) pools.push(v2Pool(tokens[a]!, tokens[b]!, reserveA, reserveB))
          continue
        }
        const tier = V3_TIERS[between(0, 2)]!
        const [t0, t1] = tokens[a]! < tokens[b]! ? [a, b] : [b, a]
        const price = (prices[t0]! / prices[t1]!) * skew
        const tick = Math.floor(Math.log(price) / LN_TICK)
        const aligned = (t: number) => Math.max(MIN_TICK + tier.spacing, Math.min(MAX_TICK - tier.spacing, Math.floor(t / tier.spacing) * tier.spacing))
        const mode = random()
        const positions: [number, number, bigint][] = []
        // Liquidity so that a 1% move trades about `value` (L ≈ value·200 / sqrt(price of token1 in output units)).
        const liquidity = (share: number) => BigInt(Math.max(1, Math.floor(((value * share * 100) / Math.sqrt(prices[t0]! * prices[t1]!)) * 1e6))) * 10n ** 12n
        for (let p = between(1, 4); p > 0; p--) {
          let lower: number
          let upper: number
          if (mode < 1 / 3) {
            // At an empty tick: every position above or below, past a gap.
            const above = random() < 0.5
            const gap = tier.spacing * between(1, 40)
            const width = tier.spacing * between(1, 200)
            lower = above ? aligned(tick + gap + tier.spacing) : aligned(tick - gap - width)
            upper = above ? lower + width : aligned(tick - gap)
          } else if (mode < 1 / 2) {
            // Drained to one side: positions end at the current tick's range.
            const width = tier.spacing * between(1, 200)
            upper = aligned(tick) + tier.spacing
            lower = upper - width
          } else {
            const width = tier.spacing * between(1, 400)
            lower = aligned(tick - tier.spacing * between(-100, 300))
            upper = lower + width
          }
          if (upper <= lower) upper = lower + tier.spacing
          positions.push([lower, Math.min(upper, aligned(MAX_TICK)), liquidity(random())])
        }
        pools.push(v3Pool(tokens[a]!, tokens[b]!, tier, tick, positions, random() < 1 / 3))
      }
    }
  const share = 10 ** (-4 + (4 + Math.log10(0.3)) * random())
  const amountIn = BigInt(Math.max(1, Math.floor(depthIn * share * 1e6))) * 10n ** 12n
  return { pools, tokenIn: tokens[0]!, tokenOut: tokens[1]!, connectors: tokens.slice(2, 2 + connectorCount), others: tokens.slice(2 + connectorCount), amountIn }
}

/**
 * The best single path of at most `maxHops` pools through any token, by exact simulation of every
 * simple path (any pool on each hop): the most output, or with `gasCost` (raw output units per gas
 * unit) the most output net of its steps' gas. Undefined when none fills `amountIn`.
 */
export function bestSinglePath(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
  maxHops: number,
  gasCost = 0,
): { amountOut: bigint; gas: bigint; value: number; hops: number } | undefined {
  const byToken = new Map<Address, Pool[]>()
  for (const pool of pools) for (const t of pool.tokens) byToken.set(t, [...(byToken.get(t) ?? []), pool])
  let best: { amountOut: bigint; gas: bigint; value: number; hops: number } | undefined
  const visited = new Set<Address>([tokenIn])
  const walk = (at: Address, amount: bigint, hops: number, gas: bigint) => {
    if (hops >= maxHops) return
    for (const pool of byToken.get(at) ?? [])
      for (const next of pool.tokens) {
        if (next === at || visited.has(next)) continue
        const result = pool.quoteExactIn(at, next, amount)
        if (!result || result.amountOut <= 0n) continue
        if (next === tokenOut) {
          const total = gas + result.gas
          const value = Number(result.amountOut) - gasCost * Number(total)
          if (!best || value > best.value) best = { amountOut: result.amountOut, gas: total, value, hops: hops + 1 }
          continue
        }
        visited.add(next)
        walk(next, result.amountOut, hops + 1, gas + result.gas)
        visited.delete(next)
      }
  }
  walk(tokenIn, amountIn, 0, 0n)
  return best
}

/**
 * Whether one simple path of at most `maxHops` pools through any token delivers `amountOut` (each
 * hop's exact-out input computed backwards from the output, every pool on each hop): the exhaustive
 * check that an exact-output 404 was wrong.
 */
export function singlePathDelivers(pools: readonly Pool[], tokenIn: Address, tokenOut: Address, amountOut: bigint, maxHops: number): boolean {
  const byToken = new Map<Address, Pool[]>()
  for (const pool of pools) for (const t of pool.tokens) byToken.set(t, [...(byToken.get(t) ?? []), pool])
  const visited = new Set<Address>([tokenOut])
  // Walks backwards from the output: `owed` of `at` is what the rest of the path needs.
  const walk = (at: Address, owed: bigint, hops: number): boolean => {
    if (hops >= maxHops) return false
    for (const pool of byToken.get(at) ?? [])
      for (const previous of pool.tokens) {
        if (previous === at || visited.has(previous)) continue
        const needed = pool.quoteExactOut(previous, at, owed)?.amountIn
        if (needed === undefined || needed <= 0n || needed >= 1n << 256n) continue
        if (previous === tokenIn) return true
        visited.add(previous)
        const delivers = walk(previous, needed, hops + 1)
        visited.delete(previous)
        if (delivers) return true
      }
    return false
  }
  return walk(tokenOut, amountOut, 0)
}
