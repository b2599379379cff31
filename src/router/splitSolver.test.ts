// Optimality of the router's split (findRoute, solved by splitSolver): the KKT conditions on
// exact simulation, gas pruning at its boundary, exact-out as the inverse of exact-in, and the
// certificate checked against an independent brute-force grid.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createRandom } from '../../test/support/random.js'
import { base } from '../chains/base.js'
import type { ChainConfig } from '../chains/types.js'
import type { Pool } from '../protocols/types.js'
import { V2_STEP_GAS } from '../protocols/uniswapV2/gas.js'
import { uniswapV3Family } from '../protocols/uniswapV3/family.js'
import { getSqrtRatioAtTick, getTickAtSqrtRatio } from '../protocols/uniswapV3/tickMath.js'
import { solveExactOut } from '../quote/solveExactOut.js'
import { findPaths } from './findPaths.js'
import { findRoute } from './findRoute.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { Path, Plan, RouteParameters } from './types.js'
import { createV2Pairs } from '../../test/support/v2Pairs.js'

const A = '0x000000000000000000000000000000000000000a' as Address
const B = '0x000000000000000000000000000000000000000b' as Address
const C = '0x000000000000000000000000000000000000000c' as Address
const D = '0x000000000000000000000000000000000000000d' as Address
const E = '0x000000000000000000000000000000000000000e' as Address
const E18 = 10n ** 18n

const chain: ChainConfig = {
  ...base,
  dexes: [{ ...base.dexes[0]!, id: 'v2a', feeBps: 30 }, { ...base.dexes[0]!, id: 'v2b', feeBps: 5 }, base.dexes[1]!],
}

let counter = 0
const nextAddress = () => `0x${(++counter).toString(16).padStart(40, '0')}` as Address
/** A V2 pair holding `reserveA` of tokenA and `reserveB` of tokenB (dex 0: 0.3%, dex 1: 0.05%). */
const pair = createV2Pairs({ chain, nextAddress })

/**
 * A V3 pool (0.3%, spacing 60) at `price` (tokenB per tokenA, raw) with liquidity `liquidity` in
 * a band of ±`width` ticks around the price and a tenth of it in a band five times wider.
 */
function concentrated(tokenA: Address, tokenB: Address, price: number, liquidity: bigint, width = 1200): Pool {
  const [token0, token1] = tokenA < tokenB ? [tokenA, tokenB] : [tokenB, tokenA]
  const p = tokenA < tokenB ? price : 1 / price
  const sqrtPriceX96 = BigInt(Math.floor(Math.sqrt(p) * 2 ** 96))
  const tick = getTickAtSqrtRatio(sqrtPriceX96)
  const at = (t: number) => Math.floor(t / 60) * 60
  const positions: [number, number, bigint][] = [
    [at(tick - width), at(tick + width), liquidity],
    [at(tick - 5 * width), at(tick + 5 * width), liquidity / 10n],
  ]
  const net = new Map<number, bigint>()
  let active = 0n
  for (const [lower, upper, l] of positions) {
    net.set(lower, (net.get(lower) ?? 0n) + l)
    net.set(upper, (net.get(upper) ?? 0n) - l)
    if (lower <= tick && tick < upper) active += l
  }
  const ticks = [...net.entries()].sort((x, y) => x[0] - y[0]).map(([index, n]) => ({ index, liquidityNet: String(n) }))
  return uniswapV3Family.fromState(
    {
      family: 'uniswapV3',
      dex: chain.dexes[2]!.id,
      address: nextAddress(),
      token0,
      token1,
      fee: 3000,
      tickSpacing: 60,
      sqrtPriceX96: String(sqrtPriceX96 > getSqrtRatioAtTick(tick) ? sqrtPriceX96 : getSqrtRatioAtTick(tick) + 1n),
      tick,
      liquidity: String(active),
      ticks,
      tickLower: -887272,
      tickUpper: 887272,
    },
    { chain, dex: chain.dexes[2]!, dexIndex: 2 },
  )
}

const params = (pools: Pool[], gasCostInOutput = 0, maxHops = 3): RouteParameters => ({ pools, tokenIn: A, tokenOut: B, connectors: [C, D], maxHops, gasCostInOutput })

/** Exact marginal rate of a path at input x on the pools' current states (central difference). */
function pathMarginal(path: Path, x: bigint): number {
  const delta = x / 1_000_000n > 1000n ? x / 1_000_000n : 1000n
  const out = (amount: bigint) => Number(simulatePlan([{ path, amountIn: amount }])?.amountOut ?? 0n)
  const low = x > delta ? x - delta : 0n
  return (out(x + delta) - out(low)) / Number(x + delta - low)
}

/** A market of pool-disjoint paths: four direct pools (V2 and V3, both fees) and two two-hop routes. */
function disjointMarket(): Pool[] {
  return [
    pair(A, B, 800n * E18, 2_400_000n * E18),
    pair(A, B, 300n * E18, 905_000n * E18, 1),
    concentrated(A, B, 3001, 10n ** 23n),
    pair(A, B, 50n * E18, 149_000n * E18),
    pair(A, C, 2000n * E18, 2000n * E18),
    pair(C, B, 1500n * E18, 4_510_000n * E18),
    concentrated(A, D, 1.0, 5n * 10n ** 22n),
    pair(D, B, 1000n * E18, 3_005_000n * E18, 1),
    // Priced below the others: unused until a large trade pulls the common rate down to it.
    pair(A, B, 100n * E18, 290_000n * E18),
  ]
}

describe('findRoute optimality', () => {
  it('equalises the marginal rates of the paths it uses; unused paths start below the common rate', () => {
    const pools = disjointMarket()
    let unused = 0
    for (const amount of [20n * E18, 150n * E18, 600n * E18]) {
      const plan = findRoute(params(pools), amount)!
      expect(plan.paths.length).toBeGreaterThan(1)
      const used = plan.paths.map((p) => pathMarginal(p.path, p.amountIn))
      const rate = used.reduce((a, b) => a + b, 0) / used.length
      for (const m of used) expect(Math.abs(m - rate) / rate).toBeLessThan(1e-5)
      const usedKeys = new Set(plan.paths.map((p) => p.path.map((h) => h.pool.key).join()))
      for (const path of findPaths(pools, A, B, { connectors: [C, D], maxHops: 3 })) {
        if (usedKeys.has(path.map((h) => h.pool.key).join())) continue
        unused++
        expect(pathMarginal(path, 10n ** 12n)).toBeLessThanOrEqual(rate * (1 + 1e-5))
      }
    }
    expect(unused).toBeGreaterThan(0)
  })

  it('certifies an upper bound at or above its own output and a brute-force fine-grid optimum', () => {
    // Three paths; the grid tries every split in steps of 1% of the amount on exact simulation.
    const pools = [pair(A, B, 400n * E18, 1_200_000n * E18), pair(A, B, 150n * E18, 451_000n * E18, 1), pair(A, C, 900n * E18, 900n * E18), pair(C, B, 700n * E18, 2_110_000n * E18)]
    const paths = findPaths(pools, A, B, { connectors: [C], maxHops: 2 })
    expect(paths).toHaveLength(3)
    for (const amount of [5n * E18, 60n * E18, 250n * E18]) {
      const plan = findRoute({ ...params(pools), connectors: [C] }, amount)!
      const certificate = plan.certificate!
      let grid = 0n
      const steps = 100n
      for (let i = 0n; i <= steps; i++)
        for (let j = 0n; i + j <= steps; j++) {
          const a = (amount * i) / steps
          const b = (amount * j) / steps
          const out = simulatePlan([
            { path: paths[0]!, amountIn: a },
            { path: paths[1]!, amountIn: b },
            { path: paths[2]!, amountIn: amount - a - b },
          ])?.amountOut
          if (out !== undefined && out > grid) grid = out
        }
      expect(certificate.upperBound).toBeGreaterThanOrEqual(plan.amountOut)
      expect(certificate.upperBound).toBeGreaterThanOrEqual(grid)
      // The plan beats the grid, and is within 0.01 bp of the bound.
      expect(plan.amountOut).toBeGreaterThanOrEqual(grid)
      expect(certificate.gapBps).toBeGreaterThanOrEqual(0)
      expect(certificate.gapBps).toBeLessThan(0.01)
      expect(certificate.pathsUsed).toBe(plan.paths.length)
      expect(certificate.candidatePaths).toBe(2)
      expect(certificate.candidatePools).toBe(4)
    }
  })

  it('routes through a shared pool as a flow, within 0.01 bp of the bound', () => {
    // A -> C is one deep pool; C -> B is split over three pools; the direct pool is shallow.
    const pools = [pair(A, C, 5000n * E18, 5000n * E18), pair(C, B, 900n * E18, 2_700_000n * E18), pair(C, B, 600n * E18, 1_801_000n * E18, 1), concentrated(C, B, 3002, 5n * 10n ** 22n), pair(A, B, 20n * E18, 60_000n * E18)]
    const amount = 300n * E18
    const plan = findRoute(params(pools), amount)!
    expect(plan.mode).toBe('flow')
    expect(plan.certificate!.gapBps).toBeLessThan(0.01)
    for (const path of findPaths(pools, A, B, { connectors: [C], maxHops: 3 })) {
      const single = simulatePlan([{ path, amountIn: amount }])
      if (single) expect(plan.amountOut).toBeGreaterThan(single.amountOut)
    }
  })

  it('is never worse than the best single path, with or without gas (random markets)', () => {
    const random = createRandom(7)
    for (let round = 0; round < 12; round++) {
      const depth = (k: number) => BigInt(Math.floor((1 + 30 * random()) * k)) * E18
      const price = 3000 * (1 + (random() - 0.5) * 0.01)
      const reserve = depth(10)
      const pools = [
        pair(A, B, reserve, (reserve * BigInt(Math.floor(price * 1000))) / 1000n, round % 2),
        concentrated(A, B, price * (1 + (random() - 0.5) * 0.004), BigInt(Math.floor(random() * 1e6)) * 10n ** 17n),
        pair(A, C, depth(50), depth(50)),
        pair(C, B, depth(40), depth(40) * 3000n),
      ]
      const gas = round % 3 === 0 ? 0 : 10 ** (6 + 4 * random())
      const value = (plan: Plan) => getNetOutput(plan, gas)
      for (const amount of [E18 / 100n, E18, 20n * E18]) {
        const plan = findRoute({ ...params(pools, gas), connectors: [C] }, amount)!
        for (const path of findPaths(pools, A, B, { connectors: [C], maxHops: 3 })) {
          const single = simulatePlan([{ path, amountIn: amount }])
          if (single) expect(value(plan)).toBeGreaterThanOrEqual(value(single))
        }
      }
    }
  })

  it('picks the pool with the best output net of gas, not the best output, for a dust trade', () => {
    // The V3 pool pays more (a better price, same fee) but its swap costs more gas than the pair's.
    const v2 = pair(A, B, 1000n * E18, 2_990_000n * E18)
    const v3 = concentrated(A, B, 3001, 10n ** 23n)
    const pools = [v3, v2]
    // Dust: the V3 price moves by about a millionth, finer than the float solve balances the input to a billionth.
    const amount = E18 / 1000n
    const [viaV2, viaV3] = [v2, v3].map((pool) => simulatePlan([{ path: [{ pool, tokenIn: A, tokenOut: B }], amountIn: amount }])!)
    expect(viaV3!.amountOut).toBeGreaterThan(viaV2!.amountOut)
    expect(viaV3!.gas).toBeGreaterThan(viaV2!.gas)
    // A gas price at which the pair nets more: its output deficit is a third of the gas it saves.
    const gasCost = Number(viaV3!.amountOut - viaV2!.amountOut) / Number(viaV3!.gas - viaV2!.gas) * 3
    const value = (plan: Plan) => getNetOutput(plan, gasCost)
    expect(value(viaV2!)).toBeGreaterThan(value(viaV3!))

    const free = findRoute(params(pools), amount)!
    expect(free.paths.map((p) => p.path[0]!.pool.key)).toEqual([v3.key])
    const priced = findRoute(params(pools, gasCost), amount)!
    expect(priced.paths.map((p) => p.path[0]!.pool.key)).toEqual([v2.key])
    expect(value(priced)).toBeGreaterThanOrEqual(value(viaV2!))
    // A second V3 pool priced between the two: dropping the best pool for its gas leads to it (worse
    // net), yet the pair is still the best single path net of gas.
    const between = concentrated(A, B, 2996, 10n ** 23n)
    const three = findRoute(params([v3, between, v2], gasCost), amount)!
    expect(three.paths.map((p) => p.path[0]!.pool.key)).toEqual([v2.key])
    // The same through a connector: each hop's pool is chosen on the whole path's net value.
    const viaC = [pair(A, C, 10_000n * E18, 10_000n * E18), concentrated(C, B, 3001, 10n ** 23n), pair(C, B, 1000n * E18, 2_990_000n * E18)]
    const hopped = findRoute({ ...params(viaC, gasCost), connectors: [C] }, amount)!
    expect(hopped.paths).toHaveLength(1)
    expect(hopped.paths[0]!.path[1]!.pool.key).toBe(viaC[2]!.key)
    for (const path of findPaths(viaC, A, B, { connectors: [C], maxHops: 3 })) expect(value(hopped)).toBeGreaterThanOrEqual(value(simulatePlan([{ path, amountIn: amount }])!))
  })

  it('drops a path whose gas exceeds its gain, and adds it on a slightly larger trade', () => {
    const pools = [pair(A, B, 1000n * E18, 1000n * E18), pair(A, B, 1000n * E18, 1000n * E18)]
    const gasCost = 1e9
    const split = (amount: bigint) => findRoute(params(pools, gasCost), amount)!.paths.length > 1
    // Bisect the size where the router starts to split.
    let lo = E18 / 1000n
    let hi = 100n * E18
    expect(split(lo)).toBe(false)
    expect(split(hi)).toBe(true)
    while (hi - lo > lo / 1000n) {
      const mid = (lo + hi) / 2n
      if (split(mid)) hi = mid
      else lo = mid
    }
    // Independently: the even split's gain over one pool, against the second step's gas.
    const [p, q] = pools.map((pool) => [{ pool, tokenIn: A, tokenOut: B }] as Path)
    const gain = (amount: bigint) =>
      Number(simulatePlan([{ path: p!, amountIn: amount / 2n }, { path: q!, amountIn: amount - amount / 2n }])!.amountOut) -
      Number(simulatePlan([{ path: p!, amountIn: amount }])!.amountOut)
    const stepGas = Number(V2_STEP_GAS) * gasCost
    expect(gain(lo)).toBeLessThanOrEqual(stepGas)
    expect(gain(hi)).toBeGreaterThanOrEqual(stepGas * 0.999)
    // The boundary is where the gain crosses the gas (gain grows with the square of the size).
    expect(gain((hi * 102n) / 100n)).toBeGreaterThan(stepGas)
    expect(gain((lo * 98n) / 100n)).toBeLessThan(stepGas)
  })

  it('gives the same plan for the same pools and parameters', () => {
    const run = () => {
      counter = 100
      return findRoute(params(disjointMarket(), 3e8), 200n * E18)!
    }
    const a = run()
    const b = run()
    const summary = (plan: Plan) => ({ paths: plan.paths.map((p) => [p.path.map((h) => h.pool.key), p.amountIn, p.amountOut]), out: plan.amountOut, gas: plan.gas, certificate: plan.certificate })
    expect(summary(a)).toEqual(summary(b))
  })

  it('reaches a four-hop path only when maxHops allows it', () => {
    const pools = [pair(A, C, 100n * E18, 100n * E18), pair(C, D, 100n * E18, 100n * E18), pair(D, E, 100n * E18, 100n * E18), pair(E, B, 100n * E18, 100n * E18)]
    const connectors = { connectors: [C, D, E] }
    expect(findRoute({ ...params(pools, 0, 3), ...connectors }, E18)).toBeUndefined()
    const plan = findRoute({ ...params(pools, 0, 4), ...connectors }, E18)!
    expect(plan.paths[0]!.hops).toHaveLength(4)
  })
})

describe('solveExactOut', () => {
  const identity = { routedOf: (x: bigint) => x, netOf: (y: bigint) => y }

  it('inverts exact-in: the least input for an output is the input that produced it', () => {
    const pools = disjointMarket()
    for (const amount of [E18 / 10n, 30n * E18, 400n * E18]) {
      const forward = findRoute(params(pools), amount)!
      const target = forward.amountOut
      const solved = solveExactOut(params(pools), target, identity)!
      expect(solved.net).toBeGreaterThanOrEqual(target)
      expect(solved.plan.amountOut).toBeGreaterThanOrEqual(target)
      // No more input than exact-in needed (up to its integer rounding), and no less than a hair below it.
      expect(solved.amountIn).toBeLessThanOrEqual(amount + amount / 10n ** 9n)
      expect(solved.amountIn).toBeGreaterThan(amount - amount / 10n ** 6n)
      const less = findRoute(params(pools), solved.amountIn - solved.amountIn / 10n ** 6n)!
      expect(less.amountOut).toBeLessThan(target)
    }
  })
})
