// Synthetic markets for the router benchmark: a bench chain with several V2 and
// V3 deployments (so one pair can have 20 parallel pools), pool states as JSON
// (what a liquidity source delivers) and the weft pools built from them.
// Deterministic for a seed.
import type { Address } from 'viem'
import type { ChainConfig, DexConfig } from '../../src/chains/types.js'
import { defineChainConfig } from '../../src/chains/registry.js'
import { UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V3_INIT_CODE_HASH } from '../../src/chains/uniswap.js'
import type { Snapshot } from '../../src/liquidity/createSnapshotSource.js'
import type { Pool } from '../../src/protocols/types.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, getTickAtSqrtRatio } from '../../src/protocols/uniswapV3/tickMath.js'
import { createRandom } from '../../test/support/random.js'

/** A bench token with the USD price its pools are set up at. Address lowercase. */
export type BenchToken = { address: Address; symbol: string; decimals: number; priceUsd: number }

export type BenchPoolState = UniswapV2PoolState | UniswapV3PoolState

/** A pool of a bench market: its JSON state, the weft pool built from it, and how it was drawn. */
export type MarketPool = {
  state: BenchPoolState
  pool: Pool
  /** USD value the draft asked for (V2: both reserves; V3: both sides of the placed positions). */
  depthUsd: number
  /** V2 only: the deployment's fee in bps. */
  v2FeeBps?: number
}

/** A pool to generate. */
export type PoolDraft = {
  family: 'uniswapV2' | 'uniswapV3'
  dex: string
  /** V3 fee tier (hundredths of a bip); ignored for V2 (the dex's fee). */
  fee?: number
  tokenA: BenchToken
  tokenB: BenchToken
  depthUsd: number
  /** Price disagreement with the USD prices, in bps (pools disagree a little, as on mainnet). */
  noiseBps: number
}

/** Tokens, chain, states and pools of one synthetic market. */
export type Market = {
  chain: ChainConfig
  tokens: BenchToken[]
  tokenByAddress: Map<Address, BenchToken>
  pools: MarketPool[]
  poolByKey: Map<string, MarketPool>
  snapshot: Snapshot
}

/** The bench chain's V2 deployments: Uniswap-style pairs with four fees. */
export const BENCH_V2_DEXES = [
  { id: 'uniswapV2', feeBps: 30 },
  { id: 'sushiswapV2', feeBps: 30 },
  { id: 'pancakeV2', feeBps: 25 },
  { id: 'forkV2', feeBps: 20 },
] as const

const UNI_TIERS: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }
const PANCAKE_TIERS: Record<number, number> = { 100: 1, 500: 10, 2500: 50, 10000: 200 }

/** The bench chain's V3 deployments and their fee tiers (fee -> tick spacing). */
export const BENCH_V3_DEXES: readonly { id: string; tiers: Record<number, number> }[] = [
  { id: 'uniswapV3', tiers: UNI_TIERS },
  { id: 'sushiswapV3', tiers: UNI_TIERS },
  { id: 'pancakeV3', tiers: PANCAKE_TIERS },
  { id: 'forkV3', tiers: UNI_TIERS },
]

/** Chain id of the bench chain (not a real chain). */
export const BENCH_CHAIN_ID = 7_770_001

const hexAddress = (prefix: string, n: number): Address => `0x${prefix}${n.toString(16).padStart(40 - prefix.length, '0')}` as Address

/**
 * A token address that does not sort like its index (so pools see both swap directions).
 *
 * @example
 * tokenAddress(3) // '0x7e…'
 */
export function tokenAddress(index: number): Address {
  const random = createRandom(0x5eed0000 + index)
  let hex = ''
  while (hex.length < 32) hex += Math.floor(random() * 2 ** 32).toString(16).padStart(8, '0')
  return `0x${hex.slice(0, 32)}${index.toString(16).padStart(8, '0')}` as Address
}

/** The five majors every market has (the connectors): stablecoins, wrapped ether, bitcoin. */
export function majorTokens(): BenchToken[] {
  return [
    { address: tokenAddress(0), symbol: 'USDC', decimals: 6, priceUsd: 1 },
    { address: tokenAddress(1), symbol: 'USDT', decimals: 6, priceUsd: 1 },
    { address: tokenAddress(2), symbol: 'DAI', decimals: 18, priceUsd: 1 },
    { address: tokenAddress(3), symbol: 'WETH', decimals: 18, priceUsd: 3000 },
    { address: tokenAddress(4), symbol: 'WBTC', decimals: 8, priceUsd: 60_000 },
  ]
}

/**
 * The bench chain for a token list: the four V2 and four V3 deployments, the majors as connectors.
 *
 * @example
 * const chain = benchChain(majorTokens())
 */
export function benchChain(tokens: readonly BenchToken[]): ChainConfig {
  const bySymbol = (symbol: string) => tokens.find((t) => t.symbol === symbol)!
  const dexes: DexConfig[] = [
    ...BENCH_V2_DEXES.map((d, i) => ({
      id: d.id,
      family: 'uniswapV2',
      protocol: `Bench ${d.id}`,
      fork: 'UniswapV2',
      factory: hexAddress('fac2', i + 1),
      initCodeHash: UNISWAP_V2_INIT_CODE_HASH,
      feeBps: d.feeBps,
    })),
    ...BENCH_V3_DEXES.map((d, i) => ({
      id: d.id,
      family: 'uniswapV3',
      protocol: `Bench ${d.id}`,
      fork: 'UniswapV3',
      factory: hexAddress('fac3', i + 1),
      initCodeHash: UNISWAP_V3_INIT_CODE_HASH,
      feeTiers: d.tiers,
    })),
  ]
  const info = (t: BenchToken) => ({ address: t.address, symbol: t.symbol, decimals: t.decimals })
  return defineChainConfig({
    id: BENCH_CHAIN_ID,
    name: 'Bench',
    status: 'active',
    nativeSymbol: 'ETH',
    wrappedNative: info(bySymbol('WETH')),
    tokens: tokens.map(info),
    usdStablecoins: ['USDC', 'USDT', 'DAI'].map((s) => bySymbol(s).address),
    majorTokens: ['USDC', 'USDT', 'DAI', 'WETH', 'WBTC'].map((s) => bySymbol(s).address),
    dexes,
    defaultGasPriceWei: 1_000_000_000n,
  })
}

const toInteger = (x: number): bigint => BigInt(Math.max(0, Math.floor(x)))
const LN_TICK = Math.log(1.0001)

/** Raw units of token1 per raw unit of token0 at the tokens' USD prices. */
const rawPrice = (t0: BenchToken, t1: BenchToken) => (t0.priceUsd / t1.priceUsd) * 10 ** (t1.decimals - t0.decimals)

function buildV2State(draft: PoolDraft, address: Address, t0: BenchToken, t1: BenchToken, noise: number): UniswapV2PoolState {
  const reserve0 = (draft.depthUsd / 2 / t0.priceUsd) * 10 ** t0.decimals
  return {
    family: 'uniswapV2',
    dex: draft.dex,
    address,
    token0: t0.address,
    token1: t1.address,
    reserve0: toInteger(reserve0).toString(),
    reserve1: toInteger(reserve0 * rawPrice(t0, t1) * noise).toString(),
  }
}

/**
 * Bitmap words either side of the price a state knows: enough to cover about
 * ±45% of price (a lens reads whole words; 1 word is 256 spacings).
 */
const windowWords = (spacing: number) => Math.max(1, Math.ceil(6000 / (256 * spacing)))

function buildV3State(
  draft: PoolDraft,
  address: Address,
  t0: BenchToken,
  t1: BenchToken,
  noise: number,
  random: () => number,
): UniswapV3PoolState {
  const fee = draft.fee!
  const spacing = BENCH_V3_DEXES.find((d) => d.id === draft.dex)!.tiers[fee]!
  const price = rawPrice(t0, t1) * noise
  let sqrtPriceX96 = BigInt(Math.floor(Math.sqrt(price) * 2 ** 96))
  if (sqrtPriceX96 < MIN_SQRT_RATIO) sqrtPriceX96 = MIN_SQRT_RATIO
  if (sqrtPriceX96 >= MAX_SQRT_RATIO) sqrtPriceX96 = MAX_SQRT_RATIO - 1n
  const tick = getTickAtSqrtRatio(sqrtPriceX96)
  const sqrtP = Math.sqrt(price)
  const minUsable = Math.ceil(MIN_TICK / spacing) * spacing
  const maxUsable = Math.floor(MAX_TICK / spacing) * spacing
  const floorTick = (t: number) => Math.min(maxUsable, Math.max(minUsable, Math.floor(t / spacing) * spacing))
  const ceilTick = (t: number) => Math.min(maxUsable, Math.max(minUsable, Math.ceil(t / spacing) * spacing))
  // token1 placed below the price, in raw units: half the pool's value.
  const depth1 = (draft.depthUsd / 2 / t1.priceUsd) * 10 ** t1.decimals

  const net = new Map<number, bigint>()
  let active = 0n
  const place = (lower: number, upper: number, liquidity: bigint) => {
    if (liquidity <= 0n || lower >= upper) return
    net.set(lower, (net.get(lower) ?? 0n) + liquidity)
    net.set(upper, (net.get(upper) ?? 0n) - liquidity)
    if (lower <= tick && tick < upper) active += liquidity
  }
  // A full-range base and 1-4 bands around the price (narrow ones hold more), skewed at random.
  const widths = [0.003, 0.01, 0.03, 0.1, 0.3, 0.6].filter(() => random() < 0.55)
  if (widths.length === 0) widths.push(0.05)
  const fullShare = 0.05 + random() * 0.15
  const weights = widths.map((w) => 1 / Math.sqrt(w))
  const total = weights.reduce((a, b) => a + b, 0)
  for (const [i, width] of widths.entries()) {
    const share = ((1 - fullShare) * weights[i]!) / total
    const down = Math.log(1 - width * (0.6 + 0.8 * random())) / LN_TICK
    const up = -Math.log(1 - width * (0.6 + 0.8 * random())) / LN_TICK
    const lower = floorTick(tick + down)
    const upper = Math.max(ceilTick(tick + up), lower + spacing)
    const sqrtLower = Math.sqrt(1.0001 ** lower)
    place(lower, upper, toInteger((share * depth1) / (sqrtP - sqrtLower)))
  }
  place(minUsable, maxUsable, toInteger((fullShare * depth1) / sqrtP))
  // Sometimes a range above or below the price holding one token only: a gap in liquidity.
  if (random() < 0.3) {
    const side = random() < 0.5 ? -1 : 1
    const near = Math.round((side * (0.02 + 0.1 * random())) / LN_TICK)
    const far = near + side * Math.round(0.05 / LN_TICK)
    const [a, b] = side > 0 ? [near, far] : [far, near]
    const lower = floorTick(tick + a)
    const upper = Math.max(ceilTick(tick + b), lower + spacing)
    // About a tenth of the pool's value spread over a 5% band (amount1 ≈ L·√P·width/2).
    place(lower, upper, toInteger((0.1 * depth1) / (sqrtP * 0.025)))
  }
  const words = windowWords(spacing)
  const word = Math.floor(Math.floor(tick / spacing) / 256)
  const knownLower = Math.max(MIN_TICK, (word - words) * 256 * spacing)
  const knownUpper = Math.min(MAX_TICK, ((word + words) * 256 + 255) * spacing)
  const ticks = [...net.entries()]
    .filter(([index, liquidityNet]) => liquidityNet !== 0n && index >= knownLower && index <= knownUpper)
    .sort((a, b) => a[0] - b[0])
    .map(([index, liquidityNet]) => ({ index, liquidityNet: liquidityNet.toString() }))
  return {
    family: 'uniswapV3',
    dex: draft.dex,
    address,
    token0: t0.address,
    token1: t1.address,
    fee,
    tickSpacing: spacing,
    sqrtPriceX96: sqrtPriceX96.toString(),
    tick,
    liquidity: active.toString(),
    ticks,
    tickLower: knownLower,
    tickUpper: knownUpper,
  }
}

/**
 * Builds a market: the chain, each draft's JSON state, and the weft pool from
 * that state (through the families' `fromState`, as a source's states are).
 *
 * @example
 * const market = createMarket(majorTokens(), drafts, 7)
 */
export function createMarket(tokens: BenchToken[], drafts: readonly PoolDraft[], seed: number): Market {
  const chain = benchChain(tokens)
  const random = createRandom(seed)
  const pools: MarketPool[] = []
  for (const [i, draft] of drafts.entries()) {
    const [t0, t1] = draft.tokenA.address < draft.tokenB.address ? [draft.tokenA, draft.tokenB] : [draft.tokenB, draft.tokenA]
    const address = hexAddress('b0', seed * 100_000 + i + 1)
    const noise = 1 + ((random() * 2 - 1) * draft.noiseBps) / 10_000
    const dexIndex = chain.dexes.findIndex((d) => d.id === draft.dex)
    const dex = chain.dexes[dexIndex]
    if (!dex) throw new Error(`unknown bench dex ${draft.dex}`)
    if (draft.family === 'uniswapV2') {
      const state = buildV2State(draft, address, t0, t1, noise)
      const pool = uniswapV2Family.fromState(state, { chain, dex, dexIndex })
      pools.push({ state, pool, depthUsd: draft.depthUsd, v2FeeBps: dex.feeBps ?? 30 })
    } else {
      const state = buildV3State(draft, address, t0, t1, noise, random)
      const pool = uniswapV3Family.fromState(state, { chain, dex, dexIndex })
      pools.push({ state, pool, depthUsd: draft.depthUsd })
    }
  }
  const snapshot: Snapshot = {
    chainId: chain.id,
    blockNumber: 1,
    label: 'bench: synthetic',
    tokens: tokens.map((t) => ({ address: t.address, symbol: t.symbol, decimals: t.decimals, transferFeeBps: 0 })),
    pools: pools.map((p) => p.state),
  }
  return {
    chain,
    tokens,
    tokenByAddress: new Map(tokens.map((t) => [t.address, t])),
    pools,
    poolByKey: new Map(pools.map((p) => [p.pool.key, p])),
    snapshot,
  }
}

/** The bench's price of the native token (ETH), in USD. */
const NATIVE_PRICE_USD = 3000

/**
 * Whole units of `token` that one whole native token is worth at the bench's USD prices (ETH at
 * $3000): what a host would pass as getQuote's `nativePriceInBuyToken`, the valuation `gasCostIn` uses.
 *
 * @example
 * nativePriceIn(usdc) // 3000
 */
export function nativePriceIn(token: BenchToken): number {
  return NATIVE_PRICE_USD / token.priceUsd
}

/**
 * Raw units of `token` that one unit of gas costs at `gasPriceWei` (ETH at
 * the bench's $3000), for `RouteParameters.gasCostInOutput` and friends.
 *
 * @example
 * gasCostIn(usdc, 20_000_000_000n) // 60 (raw USDC per gas)
 */
export function gasCostIn(token: BenchToken, gasPriceWei: bigint): number {
  const usdPerGas = (Number(gasPriceWei) / 1e18) * NATIVE_PRICE_USD
  return (usdPerGas / token.priceUsd) * 10 ** token.decimals
}

/** A pool state made elsewhere (the hard-market generator), with the USD depth it was drawn at. */
export type StateDraft = { state: BenchPoolState; depthUsd: number }

/**
 * A market from ready pool states (V2 or V3, dexes of the bench chain): the chain, the weft pools
 * built through the families' `fromState`, and the snapshot that serves the same states.
 *
 * @example
 * const market = createMarketFromStates(tokens, [{ state, depthUsd: 1e6 }], 'hard, seed 7')
 */
export function createMarketFromStates(tokens: BenchToken[], drafts: readonly StateDraft[], label: string): Market {
  const chain = benchChain(tokens)
  const pools: MarketPool[] = drafts.map(({ state, depthUsd }) => {
    const dexIndex = chain.dexes.findIndex((d) => d.id === state.dex)
    const dex = chain.dexes[dexIndex]
    if (!dex) throw new Error(`unknown bench dex ${state.dex}`)
    if (state.family === 'uniswapV2') return { state, pool: uniswapV2Family.fromState(state, { chain, dex, dexIndex }), depthUsd, v2FeeBps: dex.feeBps ?? 30 }
    return { state, pool: uniswapV3Family.fromState(state, { chain, dex, dexIndex }), depthUsd }
  })
  const snapshot: Snapshot = {
    chainId: chain.id,
    blockNumber: 1,
    label,
    tokens: tokens.map((t) => ({ address: t.address, symbol: t.symbol, decimals: t.decimals, transferFeeBps: 0 })),
    pools: pools.map((p) => p.state),
  }
  return { chain, tokens, tokenByAddress: new Map(tokens.map((t) => [t.address, t])), pools, poolByKey: new Map(pools.map((p) => [p.pool.key, p])), snapshot }
}
