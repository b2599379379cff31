// Writes src/liquidity/defaultSnapshot.json: the embedded default liquidity of
// `npm run quote`. It is SYNTHETIC (labelled so in the file): pools at the real
// CREATE2 addresses of Uniswap V2/V3 on Ethereum and Base, with reserves, fee
// tiers and tick ranges shaped like mainnet's, but invented states. Deterministic.
import { writeFileSync } from 'node:fs'
import type { Address } from 'viem'
import { base } from '../src/chains/base.js'
import { ethereum } from '../src/chains/ethereum.js'
import type { ChainConfig } from '../src/chains/types.js'
import type { Snapshot } from '../src/liquidity/createSnapshotSource.js'
import { getUniswapV2PairAddress, sortTokens } from '../src/protocols/uniswapV2/readPools.js'
import type { UniswapV2PoolState } from '../src/protocols/uniswapV2/state.js'
import { getUniswapV3PoolAddress, getUniswapV3WordRadius } from '../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../src/protocols/uniswapV3/state.js'
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

const Q96 = 2 ** 96
const toBig = (x: number) => BigInt(Math.floor(x).toLocaleString('fullwide', { useGrouping: false }))

function build(chain: ChainConfig, specs: Spec[], blockNumber: number, timestamp: number, gasPriceWei: bigint): Snapshot {
  const rand = createRandom(chain.id)
  const token = (symbol: string) => {
    const t = chain.tokens.find((x) => x.symbol === symbol)
    if (!t) throw new Error(`${symbol} missing on ${chain.name}`)
    return t
  }
  const v2 = chain.dexes.find((d) => d.family === 'uniswapV2')!
  const v3 = chain.dexes.find((d) => d.family === 'uniswapV3')!
  const pools: (UniswapV2PoolState | UniswapV3PoolState)[] = []
  for (const spec of specs) {
    const ta = token(spec.a)
    const tb = token(spec.b)
    const [t0addr] = sortTokens(ta.address, tb.address)
    const [t0, t1] = t0addr === ta.address ? [ta, tb] : [tb, ta]
    // Raw price: raw token1 per raw token0, with a little per-pool noise (pools disagree slightly, as on mainnet).
    const midRaw = (usd[t0.symbol]! / usd[t1.symbol]!) * 10 ** (t1.decimals - t0.decimals)
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
      const price = midRaw * (1 + (rand() - 0.5) * 0.0003)
      const sqrtPriceX96 = toBig(Math.sqrt(price) * Q96)
      const tick = getTickAtSqrtRatio(sqrtPriceX96)
      // Positions: a full-range base, then bands of ±0.5%, ±2%, ±10%, ±40% with liquidity thinning outward.
      // L from the band's token1 depth: amount1 = L (sqrtP - sqrtPa), in raw units.
      const depth1 = (depthUsd / usd[t1.symbol]!) * 10 ** t1.decimals
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
      // and a known range of exactly those words (liquidity beyond them is not priced).
      const radius = getUniswapV3WordRadius(spacing)
      const word = Math.floor(Math.floor(tick / spacing) / 256)
      const knownLower = Math.max(MIN_TICK, (word - radius) * 256 * spacing)
      const knownUpper = Math.min(MAX_TICK, ((word + radius) * 256 + 255) * spacing)
      const ticks = [...net.entries()]
        .filter(([index, l]) => l !== 0n && index >= knownLower && index <= knownUpper)
        .sort((x, y) => x[0] - y[0])
      // Sanity: the price must be the tick's (the generator's float math must not drift).
      if (getSqrtRatioAtTick(tick) > sqrtPriceX96 || getSqrtRatioAtTick(tick + 1) <= sqrtPriceX96) throw new Error('tick mismatch')
      pools.push({
        family: 'uniswapV3',
        dex: v3.id,
        address: getUniswapV3PoolAddress(v3, t0.address, t1.address, fee),
        token0: t0.address,
        token1: t1.address,
        fee,
        tickSpacing: spacing,
        sqrtPriceX96: sqrtPriceX96.toString(),
        tick,
        liquidity: active.toString(),
        ticks: ticks.map(([index, liquidityNet]) => ({ index, liquidityNet: liquidityNet.toString() })),
        tickLower: knownLower,
        tickUpper: knownUpper,
      })
    }
  }
  return {
    chainId: chain.id,
    blockNumber,
    timestamp,
    gasPriceWei: gasPriceWei.toString(),
    label: `synthetic: invented pool states at the real Uniswap V2/V3 CREATE2 addresses of ${chain.name}, shaped like mainnet depth; not market data`,
    tokens: chain.tokens.map((t) => ({ address: t.address as Address, symbol: t.symbol, decimals: t.decimals, transferFeeBps: 0 })),
    pools,
  }
}

const snapshots = [
  build(ethereum, ethereumPools, 23_850_000, 1_764_115_200, 8_000_000_000n),
  build(base, basePools, 38_600_000, 1_764_115_200, 6_000_000n),
]
writeFileSync(new URL('../src/liquidity/defaultSnapshot.json', import.meta.url), `${JSON.stringify(snapshots, null, 1)}\n`)
console.log(snapshots.map((s) => `${s.chainId}: ${s.pools.length} pools`).join(', '))
