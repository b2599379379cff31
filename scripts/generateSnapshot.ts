// Writes src/liquidity/defaultSnapshot.json: the embedded default liquidity of
// `npm run quote`. It is SYNTHETIC (labelled so in the file): pools at the real
// addresses / pool ids of Uniswap V2/V3, PancakeSwap V3, Uniswap V4 (no hooks,
// WETH pairs as native ETH), Aerodrome Slipstream (Base) and one listed Balancer
// V2 weighted pool (Base) on Ethereum and Base, with reserves, fee tiers and tick
// ranges shaped like mainnet's, but invented states. Deterministic (seeded).
import { writeFileSync } from 'node:fs'
import { type Address, type Hex, zeroAddress } from 'viem'
import { base } from '../src/chains/base.js'
import { ethereum } from '../src/chains/ethereum.js'
import type { ChainConfig, DexConfig, TokenInfo } from '../src/chains/types.js'
import type { Snapshot } from '../src/liquidity/createSnapshotSource.js'
import { getBalancerV2PoolAddress } from '../src/protocols/balancerV2/readPools.js'
import { getAerodromeV2PoolAddress } from '../src/protocols/aerodromeV2/address.js'
import type { AerodromeV2PoolState } from '../src/protocols/aerodromeV2/state.js'
import type { BalancerV2PoolState } from '../src/protocols/balancerV2/state.js'
import { defaultFamilies } from '../src/protocols/defaultFamilies.js'
import type { PancakeV3PoolState } from '../src/protocols/pancakeV3/state.js'
import { getSlipstreamPoolAddress } from '../src/protocols/slipstream/address.js'
import type { SlipstreamPoolState } from '../src/protocols/slipstream/state.js'
import type { PoolStateBase } from '../src/protocols/types.js'
import { getUniswapV2PairAddress, sortTokens } from '../src/protocols/uniswapV2/readPools.js'
import type { UniswapV2PoolState } from '../src/protocols/uniswapV2/state.js'
import { getUniswapV3PoolAddress, getUniswapV3WordRadius } from '../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../src/protocols/uniswapV3/state.js'
import { getUniswapV4PoolId, getUniswapV4PoolKey } from '../src/protocols/uniswapV4/poolKey.js'
import type { UniswapV4PoolState } from '../src/protocols/uniswapV4/state.js'
import { MAX_TICK, MIN_TICK, getSqrtRatioAtTick, getTickAtSqrtRatio } from '../src/protocols/uniswapV3/tickMath.js'
import { createRandom } from '../test/support/random.js'

type Spec = {
  a: string
  b: string
  /** V2 pair depth: USD value of each side. */
  v2?: number
  /** V3 pools: fee tier -> USD depth of the ±2% band. */
  v3?: Record<number, number>
}

const usd: Record<string, number> = {
  USDC: 1, USDT: 1, DAI: 1, USDbC: 1, WETH: 3000, cbETH: 3240, WBTC: 60_000, cbBTC: 60_000,
  LINK: 15, UNI: 8, PEPE: 0.00001, AERO: 1.1, DEGEN: 0.004,
}

const ethereumPools: Spec[] = [
  { a: 'WETH', b: 'USDC', v2: 30e6, v3: { 500: 120e6, 3000: 40e6, 100: 3e6 } },
  { a: 'WETH', b: 'USDT', v2: 20e6, v3: { 500: 60e6, 3000: 25e6 } },
  { a: 'WETH', b: 'DAI', v2: 8e6, v3: { 500: 10e6, 3000: 6e6 } },
  { a: 'USDC', b: 'USDT', v2: 5e6, v3: { 100: 200e6, 500: 4e6 } },
  { a: 'USDC', b: 'DAI', v2: 4e6, v3: { 100: 90e6 } },
  { a: 'WBTC', b: 'WETH', v2: 10e6, v3: { 500: 50e6, 3000: 30e6 } },
  { a: 'WBTC', b: 'USDC', v3: { 3000: 15e6, 500: 8e6 } },
  { a: 'LINK', b: 'WETH', v2: 6e6, v3: { 3000: 12e6, 10000: 1e6 } },
  { a: 'LINK', b: 'USDC', v3: { 3000: 1.5e6 } },
  { a: 'UNI', b: 'WETH', v2: 5e6, v3: { 3000: 8e6 } },
  { a: 'PEPE', b: 'WETH', v2: 8e6, v3: { 3000: 9e6, 10000: 2e6 } },
]

const basePools: Spec[] = [
  { a: 'WETH', b: 'USDC', v2: 6e6, v3: { 500: 80e6, 3000: 10e6, 100: 5e6 } },
  { a: 'WETH', b: 'USDT', v3: { 500: 4e6, 3000: 1e6 } },
  { a: 'WETH', b: 'DAI', v2: 1e6, v3: { 500: 3e6 } },
  { a: 'USDC', b: 'USDbC', v3: { 100: 20e6 } },
  { a: 'USDC', b: 'USDT', v3: { 100: 15e6 } },
  { a: 'USDC', b: 'DAI', v3: { 100: 6e6 } },
  { a: 'cbBTC', b: 'WETH', v3: { 500: 30e6, 3000: 6e6 } },
  { a: 'cbBTC', b: 'USDC', v3: { 500: 20e6, 3000: 4e6 } },
  { a: 'cbETH', b: 'WETH', v3: { 100: 25e6, 500: 3e6 } },
  { a: 'AERO', b: 'WETH', v2: 3e6, v3: { 3000: 5e6, 10000: 1e6 } },
  { a: 'AERO', b: 'USDC', v3: { 3000: 4e6 } },
  { a: 'DEGEN', b: 'WETH', v2: 2e6, v3: { 3000: 3e6, 10000: 1.5e6 } },
]

/**
 * Pools of the families weft gained after Uniswap V2/V3. Depths mean what `v3` depths mean (USD
 * value of the token1 side below the price, spread over the same bands). They are drawn from a
 * seeded stream of their own, after the V2/V3 pools, so those keep their states.
 */
type ForkSpec = {
  a: string
  b: string
  /** PancakeSwap V3: fee tier -> USD depth. */
  pancakeV3?: Record<number, number>
  /** Aerodrome Slipstream: tick spacing -> USD depth (fee: the factory's default for the spacing). */
  slipstream?: Record<number, number>
  /** Uniswap V4 without hooks: `fee/tickSpacing` -> USD depth. A pair with WETH is the native-ETH pool. */
  uniswapV4?: Record<string, number>
  /** Aerodrome V2: USD value of each side of its volatile and/or stable pool (fees: the factory's defaults). */
  aerodromeV2?: { volatile?: number; stable?: number }
}

/** A Balancer V2 weighted pool listed in the chain's config: its real id and tokens with their weights (percent). */
type BalancerSpec = {
  poolId: Hex
  weights: Record<string, number>
  /** USD value of all its balances. */
  tvlUsd: number
  swapFeeBps: number
}

const ethereumForkPools: ForkSpec[] = [
  { a: 'WETH', b: 'USDC', pancakeV3: { 500: 10e6, 100: 4e6 }, uniswapV4: { '500/10': 30e6, '3000/60': 8e6 } },
  { a: 'WETH', b: 'USDT', pancakeV3: { 500: 6e6, 100: 2e6 }, uniswapV4: { '500/10': 12e6, '3000/60': 3e6 } },
  { a: 'USDC', b: 'USDT', pancakeV3: { 100: 25e6 }, uniswapV4: { '100/1': 15e6 } },
  { a: 'WBTC', b: 'WETH', pancakeV3: { 500: 5e6 }, uniswapV4: { '3000/60': 6e6 } },
  { a: 'WBTC', b: 'USDC', uniswapV4: { '3000/60': 3e6 } },
]

const baseForkPools: ForkSpec[] = [
  { a: 'WETH', b: 'USDC', pancakeV3: { 100: 3e6, 500: 5e6 }, slipstream: { 100: 40e6 }, uniswapV4: { '500/10': 25e6, '3000/60': 5e6 } },
  { a: 'WETH', b: 'USDT', uniswapV4: { '500/10': 2e6 } },
  { a: 'USDC', b: 'USDT', pancakeV3: { 100: 4e6 }, slipstream: { 1: 6e6 } },
  { a: 'USDC', b: 'USDbC', slipstream: { 1: 8e6 } },
  { a: 'cbBTC', b: 'WETH', pancakeV3: { 500: 4e6 }, slipstream: { 100: 12e6 }, uniswapV4: { '3000/60': 3e6 } },
  { a: 'cbBTC', b: 'USDC', pancakeV3: { 500: 3e6 }, slipstream: { 100: 15e6 }, uniswapV4: { '3000/60': 2e6 } },
  { a: 'cbETH', b: 'WETH', slipstream: { 1: 10e6 } },
  { a: 'AERO', b: 'WETH', slipstream: { 200: 8e6 } },
  { a: 'AERO', b: 'USDC', slipstream: { 200: 4e6 } },
]

/** Aerodrome V2 pools on Base, after the other fork pools (no random draws: the others keep their states). */
const baseAerodromePools: ForkSpec[] = [
  { a: 'WETH', b: 'USDC', aerodromeV2: { volatile: 6e6 } },
  { a: 'USDC', b: 'USDbC', aerodromeV2: { stable: 4e6 } },
  { a: 'AERO', b: 'WETH', aerodromeV2: { volatile: 5e6 } },
  { a: 'AERO', b: 'USDC', aerodromeV2: { volatile: 8e6 } },
  { a: 'cbBTC', b: 'WETH', aerodromeV2: { volatile: 2e6 } },
]

// PoolFactory's defaults (constructor: stableFee 5, volatileFee 30), for pools without a custom fee.
const AERODROME_V2_DEFAULT_FEE_BPS = { stable: 5, volatile: 30 } as const

// 50WETH/50USDbC on Base: its tokens and weights as Balancer's Base pool allow-list and karpatkey's
// defi-kit list them; its balances and swap fee here are invented.
const baseBalancerPools: BalancerSpec[] = [
  { poolId: '0x012e776cc3ed4c5adea3eda8677e82343e4de396000200000000000000000015', weights: { WETH: 50, USDbC: 50 }, tvlUsd: 1.2e6, swapFeeBps: 10 },
]

// The fee Aerodrome's CLFactory gives a new pool of each tick spacing (src/chains/forks.ts).
const SLIPSTREAM_DEFAULT_FEES: Record<number, number> = { 1: 100, 50: 500, 100: 500, 200: 3000, 2000: 10_000 }

const Q96 = 2 ** 96
const toBig = (x: number) => BigInt(Math.floor(x).toLocaleString('fullwide', { useGrouping: false }))

/** The price and liquidity fields every V3-like state (Uniswap V3 and V4, PancakeSwap V3, Slipstream) shares. */
type Concentrated = Pick<UniswapV3PoolState, 'sqrtPriceX96' | 'tick' | 'liquidity' | 'ticks' | 'tickLower' | 'tickUpper'>

/**
 * A concentrated-liquidity pool near `midRaw` (raw token1 per raw token0, nudged by a little
 * noise: pools disagree slightly, as on mainnet) holding `depth1` raw token1 below the price.
 * Draws five numbers from `rand`, always in the same order.
 */
function concentrated(rand: () => number, midRaw: number, spacing: number, depth1: number): Concentrated {
  const price = midRaw * (1 + (rand() - 0.5) * 0.0003)
  const sqrtPriceX96 = toBig(Math.sqrt(price) * Q96)
  const tick = getTickAtSqrtRatio(sqrtPriceX96)
  // Positions: a full-range base, then bands of ±0.5%, ±2%, ±10%, ±40% with liquidity thinning outward.
  // L from the band's token1 depth: amount1 = L (sqrtP - sqrtPa), in raw units.
  const sqrtP = Math.sqrt(price)
  const bands: [number, number][] = [[0.005, 0.35], [0.02, 0.3], [0.1, 0.2], [0.4, 0.1]]
  const net = new Map<number, bigint>()
  const add = (lower: number, upper: number, liquidity: bigint) => {
    net.set(lower, (net.get(lower) ?? 0n) + liquidity)
    net.set(upper, (net.get(upper) ?? 0n) - liquidity)
  }
  const align = (t: number, up: boolean) => (up ? Math.ceil(t / spacing) : Math.floor(t / spacing)) * spacing
  let active = 0n
  for (const [width, share] of bands) {
    const skew = 1 + (rand() - 0.5) * 0.3
    const lower = align(tick + Math.log(1 - width) / Math.log(1.0001) * skew, false)
    const upper = align(tick - Math.log(1 - width) / Math.log(1.0001) / skew, true)
    const sqrtPa = Math.sqrt(1.0001 ** lower)
    const liquidity = toBig((depth1 * share) / (sqrtP - sqrtPa))
    if (liquidity <= 0n) continue
    add(lower, upper, liquidity)
    if (lower <= tick && tick < upper) active += liquidity
  }
  const fullLower = Math.ceil(MIN_TICK / spacing) * spacing
  const fullUpper = Math.floor(MAX_TICK / spacing) * spacing
  const full = toBig((depth1 * 0.05) / sqrtP)
  add(fullLower, fullUpper, full)
  active += full
  // Deliver what the RPC source's lens would read: the bitmap words around the price, their ticks,
  // and a known range of exactly those words (liquidity beyond them is not priced). Every V3-like
  // reader (the V3 lens for V3, PancakeSwap V3 and Slipstream; the V4 lens) uses this window.
  const radius = getUniswapV3WordRadius(spacing)
  const word = Math.floor(Math.floor(tick / spacing) / 256)
  const knownLower = Math.max(MIN_TICK, (word - radius) * 256 * spacing)
  const knownUpper = Math.min(MAX_TICK, ((word + radius) * 256 + 255) * spacing)
  const ticks = [...net.entries()]
    .filter(([index, l]) => l !== 0n && index >= knownLower && index <= knownUpper)
    .sort((x, y) => x[0] - y[0])
  // Sanity: the price must be the tick's (the generator's float math must not drift).
  if (getSqrtRatioAtTick(tick) > sqrtPriceX96 || getSqrtRatioAtTick(tick + 1) <= sqrtPriceX96) throw new Error('tick mismatch')
  return {
    sqrtPriceX96: sqrtPriceX96.toString(),
    tick,
    liquidity: active.toString(),
    ticks: ticks.map(([index, liquidityNet]) => ({ index, liquidityNet: liquidityNet.toString() })),
    tickLower: knownLower,
    tickUpper: knownUpper,
  }
}

/** Look-ups on one chain's config and the USD prices above. */
type Helpers = {
  token: (symbol: string) => TokenInfo
  /** The chain's first dex of the family (the protocol's own deployment, not a fork's). */
  dex: (family: string) => DexConfig
  /** Raw units of `t1` per raw unit of `t0` at the USD prices. */
  midRaw: (t0: TokenInfo, t1: TokenInfo) => number
  /** Raw token1 amount worth `usdValue`. */
  depth1: (t1: TokenInfo, usdValue: number) => number
}

function helpersOf(chain: ChainConfig): Helpers {
  return {
    token: (symbol) => {
      const t = chain.tokens.find((x) => x.symbol === symbol)
      if (!t) throw new Error(`${symbol} missing on ${chain.name}`)
      return t
    },
    dex: (family) => {
      const found = chain.dexes.filter((d) => d.family === family)
      if (found.length === 0) throw new Error(`no ${family} dex on ${chain.name}`)
      return found[0]!
    },
    midRaw: (t0, t1) => (usd[t0.symbol]! / usd[t1.symbol]!) * 10 ** (t1.decimals - t0.decimals),
    depth1: (t1, usdValue) => (usdValue / usd[t1.symbol]!) * 10 ** t1.decimals,
  }
}

const sorted = (ta: TokenInfo, tb: TokenInfo): [TokenInfo, TokenInfo] => {
  const [t0addr] = sortTokens(ta.address, tb.address)
  return t0addr === ta.address ? [ta, tb] : [tb, ta]
}

/** The Uniswap V2/V3 pools: unchanged from the first snapshot (same specs, same random stream). */
function uniswapPools(chain: ChainConfig, specs: Spec[], h: Helpers): (UniswapV2PoolState | UniswapV3PoolState)[] {
  const rand = createRandom(chain.id)
  const v2 = h.dex('uniswapV2')
  const v3 = h.dex('uniswapV3')
  const pools: (UniswapV2PoolState | UniswapV3PoolState)[] = []
  for (const spec of specs) {
    const [t0, t1] = sorted(h.token(spec.a), h.token(spec.b))
    const midRaw = h.midRaw(t0, t1)
    if (spec.v2) {
      const noise = 1 + (rand() - 0.5) * 0.0006
      const reserve0 = (spec.v2 / usd[t0.symbol]!) * 10 ** t0.decimals
      pools.push({
        family: 'uniswapV2',
        dex: v2.id,
        address: getUniswapV2PairAddress(v2, t0.address, t1.address),
        token0: t0.address,
        token1: t1.address,
        reserve0: toBig(reserve0).toString(),
        reserve1: toBig(reserve0 * midRaw * noise).toString(),
      })
    }
    for (const [feeText, depthUsd] of Object.entries(spec.v3 ?? {})) {
      const fee = Number(feeText)
      const spacing = v3.feeTiers![fee]!
      pools.push({
        family: 'uniswapV3',
        dex: v3.id,
        address: getUniswapV3PoolAddress(v3, t0.address, t1.address, fee),
        token0: t0.address,
        token1: t1.address,
        fee,
        tickSpacing: spacing,
        ...concentrated(rand, midRaw, spacing, h.depth1(t1, depthUsd)),
      })
    }
  }
  return pools
}

type ForkState = PancakeV3PoolState | SlipstreamPoolState | UniswapV4PoolState | BalancerV2PoolState

/**
 * Aerodrome V2 pools at their real addresses: volatile pools hold each side's USD value at the
 * devnet-style mid price; stable pools hold equal 18-decimal amounts (where their curve is flat),
 * the first deposit the pool itself demands. No random draws.
 */
function aerodromePools(chain: ChainConfig, specs: ForkSpec[], h: Helpers): AerodromeV2PoolState[] {
  const pools: AerodromeV2PoolState[] = []
  for (const spec of specs) {
    const [t0, t1] = sorted(h.token(spec.a), h.token(spec.b))
    const dex = h.dex('aerodromeV2')
    for (const kind of ['volatile', 'stable'] as const) {
      const depthUsd = spec.aerodromeV2?.[kind]
      if (depthUsd === undefined) continue
      const reserve1 = h.depth1(t1, depthUsd)
      pools.push({
        family: 'aerodromeV2',
        dex: dex.id,
        address: getAerodromeV2PoolAddress(dex, t0.address, t1.address, kind === 'stable'),
        token0: t0.address,
        token1: t1.address,
        stable: kind === 'stable',
        reserve0: toBig(kind === 'stable' ? (reserve1 / 10 ** t1.decimals) * 10 ** t0.decimals : reserve1 / h.midRaw(t0, t1)).toString(),
        reserve1: toBig(reserve1).toString(),
        decimals0: t0.decimals,
        decimals1: t1.decimals,
        feeBps: AERODROME_V2_DEFAULT_FEE_BPS[kind],
      })
    }
  }
  return pools
}

/** The PancakeSwap V3, Slipstream, Uniswap V4 and Balancer V2 pools, at their real addresses / ids. */
function forkPools(chain: ChainConfig, specs: ForkSpec[], balancer: BalancerSpec[], h: Helpers): ForkState[] {
  // A stream of its own (seed: chain id + 1e6), so adding pools here leaves the V2/V3 states alone.
  const rand = createRandom(chain.id + 1_000_000)
  const weth = chain.wrappedNative
  const pools: ForkState[] = []
  for (const spec of specs) {
    const [t0, t1] = sorted(h.token(spec.a), h.token(spec.b))
    const midRaw = h.midRaw(t0, t1)
    for (const [feeText, depthUsd] of Object.entries(spec.pancakeV3 ?? {})) {
      const dex = h.dex('pancakeV3')
      const fee = Number(feeText)
      const spacing = dex.feeTiers?.[fee]
      if (spacing === undefined) throw new Error(`PancakeSwap V3 on ${chain.name} has no fee tier ${fee}`)
      pools.push({
        family: 'pancakeV3',
        dex: dex.id,
        address: getUniswapV3PoolAddress(dex, t0.address, t1.address, fee),
        token0: t0.address,
        token1: t1.address,
        fee,
        tickSpacing: spacing,
        ...concentrated(rand, midRaw, spacing, h.depth1(t1, depthUsd)),
      })
    }
    for (const [spacingText, depthUsd] of Object.entries(spec.slipstream ?? {})) {
      const dex = h.dex('slipstream')
      const spacing = Number(spacingText)
      const fee = SLIPSTREAM_DEFAULT_FEES[spacing]
      if (!dex.tickSpacings?.includes(spacing) || fee === undefined) throw new Error(`Slipstream on ${chain.name} has no tick spacing ${spacing}`)
      pools.push({
        family: 'slipstream',
        dex: dex.id,
        address: getSlipstreamPoolAddress(dex, t0.address, t1.address, spacing),
        token0: t0.address,
        token1: t1.address,
        fee,
        tickSpacing: spacing,
        ...concentrated(rand, midRaw, spacing, h.depth1(t1, depthUsd)),
      })
    }
    for (const [keyText, depthUsd] of Object.entries(spec.uniswapV4 ?? {})) {
      const dex = h.dex('uniswapV4')
      const [fee, spacing] = keyText.split('/').map(Number) as [number, number]
      if (dex.feeTiers?.[fee] !== spacing) throw new Error(`Uniswap V4 on ${chain.name} does not try ${keyText}`)
      const key = getUniswapV4PoolKey(t0.address, t1.address, fee, spacing, { native: true, weth: weth.address })
      // Native ETH (address(0)) is always currency0: price the pool in the key's order.
      const [c0, c1] = key.currency0 === zeroAddress ? [weth, key.currency1 === t0.address ? t0 : t1] : [t0, t1]
      pools.push({
        family: 'uniswapV4',
        dex: dex.id,
        address: dex.factory,
        id: getUniswapV4PoolId(key),
        currency0: key.currency0,
        currency1: key.currency1,
        fee,
        tickSpacing: spacing,
        hooks: key.hooks,
        ...concentrated(rand, h.midRaw(c0, c1), spacing, h.depth1(c1, depthUsd)),
        protocolFee: 0,
        lpFee: fee,
      })
    }
  }
  for (const spec of balancer) {
    const dex = h.dex('balancerV2')
    const poolId = spec.poolId.toLowerCase() as Hex
    if (!(dex.pools ?? []).some((id) => id.toLowerCase() === poolId)) throw new Error(`Balancer pool ${poolId} is not listed on ${chain.name}`)
    // A weighted pool registers its tokens with the Vault sorted by address.
    const entries = Object.entries(spec.weights)
      .map(([symbol, percent]) => ({ token: h.token(symbol), percent }))
      .sort((x, y) => (x.token.address < y.token.address ? -1 : 1))
    const weights = entries.map((e) => BigInt(e.percent) * 10n ** 16n)
    if (weights.reduce((x, y) => x + y, 0n) !== 10n ** 18n) throw new Error(`Balancer pool ${poolId}: weights do not sum to 100%`)
    pools.push({
      family: 'balancerV2',
      dex: dex.id,
      address: dex.factory,
      poolId,
      pool: getBalancerV2PoolAddress(poolId),
      tokens: entries.map((e) => e.token.address),
      balances: entries.map((e) => {
        const noise = 1 + (rand() - 0.5) * 0.0006
        return toBig(((spec.tvlUsd * e.percent) / 100 / usd[e.token.symbol]!) * 10 ** e.token.decimals * noise).toString()
      }),
      weights: weights.map(String),
      scalingFactors: entries.map((e) => (10n ** BigInt(36 - e.token.decimals)).toString()),
      swapFeePercentage: (BigInt(spec.swapFeeBps) * 10n ** 14n).toString(),
    })
  }
  return pools
}

/**
 * Every state through its family's `fromState` (what getQuote does with it), and its spot price
 * against the intended one: a state in the wrong token order or at the wrong price fails here.
 */
function check(chain: ChainConfig, pools: PoolStateBase[]): void {
  for (const state of pools) {
    const family = defaultFamilies.find((f) => f.id === state.family)
    const dexIndex = chain.dexes.findIndex((d) => d.id === state.dex && d.family === state.family)
    if (!family || dexIndex < 0) throw new Error(`${chain.name}: no ${state.family} dex ${state.dex}`)
    const pool = family.fromState(state, { chain, dex: chain.dexes[dexIndex]!, dexIndex })
    const [a, b] = pool.tokens as [Address, Address]
    const ta = chain.tokens.find((t) => t.address === a)!
    const tb = chain.tokens.find((t) => t.address === b)!
    const spot = pool.spotPrice(a, b)
    const intended = (usd[ta.symbol]! / usd[tb.symbol]!) * 10 ** (tb.decimals - ta.decimals)
    if (!(Math.abs(spot / intended - 1) < 0.001)) throw new Error(`${chain.name} ${state.family} ${pool.key}: spot ${spot}, intended ${intended}`)
    if (!pool.quoteExactIn(a, b, 10n ** BigInt(ta.decimals))) throw new Error(`${chain.name} ${state.family} ${pool.key}: cannot sell one ${ta.symbol}`)
  }
}

function build(
  chain: ChainConfig,
  specs: { uniswap: Spec[]; forks: ForkSpec[]; balancer: BalancerSpec[]; aerodrome?: ForkSpec[] },
  blockNumber: number,
  timestamp: number,
  gasPriceWei: bigint,
): Snapshot {
  const h = helpersOf(chain)
  const pools = [...uniswapPools(chain, specs.uniswap, h), ...forkPools(chain, specs.forks, specs.balancer, h), ...aerodromePools(chain, specs.aerodrome ?? [], h)]
  check(chain, pools)
  const protocols = [...new Set(pools.map((p) => chain.dexes.find((d) => d.id === p.dex)!.fork))]
  return {
    chainId: chain.id,
    blockNumber,
    timestamp,
    gasPriceWei: gasPriceWei.toString(),
    label: `synthetic: invented pool states at the real pool addresses / ids (${protocols.join(', ')}) of ${chain.name}, shaped like mainnet depth; not market data`,
    tokens: chain.tokens.map((t) => ({ address: t.address as Address, symbol: t.symbol, decimals: t.decimals, transferFeeBps: 0 })),
    pools,
  }
}

const snapshots = [
  build(ethereum, { uniswap: ethereumPools, forks: ethereumForkPools, balancer: [] }, 23_850_000, 1_764_115_200, 8_000_000_000n),
  build(base, { uniswap: basePools, forks: baseForkPools, balancer: baseBalancerPools, aerodrome: baseAerodromePools }, 38_600_000, 1_764_115_200, 6_000_000n),
]
writeFileSync(new URL('../src/liquidity/defaultSnapshot.json', import.meta.url), `${JSON.stringify(snapshots, null, 1)}\n`)
const countByFamily = (s: Snapshot) => {
  const counts = new Map<string, number>()
  for (const p of s.pools) counts.set(p.family, (counts.get(p.family) ?? 0) + 1)
  return [...counts].map(([family, n]) => `${n} ${family}`).join(', ')
}
console.log(snapshots.map((s) => `${s.chainId}: ${s.pools.length} pools (${countByFamily(s)})`).join('; '))
