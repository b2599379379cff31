// Curves sampled from exact quotes (families without a model: Balancer V2 pools of unequal
// weights) when the smallest probes give no output unit: 2^-24 of 0.2 WETH is 0 WBTC (8 decimals),
// which the pool refuses. The sampling stopped at that first refusal, the curve came out flat at
// zero and the pool vanished from the candidate graph, the single paths and the bound (a families
// soak market, seed 309: findRoute 689 USDT where one 6-hop path through such a pool gives 810).
import type { Address, Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { ChainConfig, DexConfig } from '../chains/types.js'
import { balancerV2Family } from '../protocols/balancerV2/family.js'
import type { BalancerV2PoolState } from '../protocols/balancerV2/state.js'
import type { Pool } from '../protocols/types.js'
import { getCurve } from './curves.js'
import { findRoute } from './findRoute.js'

const E18 = 10n ** 18n
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8' as Address
const POOL = '0x00000000000000000000000000000000000000c1' as Address
const WETH = '0x00000000000000000000000000000000000000a1' as Address
const WBTC = '0x00000000000000000000000000000000000000b1' as Address
const balancerDex: DexConfig = { id: 'balancerV2', family: 'balancerV2', protocol: 'Balancer V2', fork: 'BalancerV2', factory: VAULT, initCodeHash: `0x${'0'.repeat(64)}` }
const chain: ChainConfig = { ...base, dexes: [...base.dexes, balancerDex] }

/** An 80/20 WETH/WBTC weighted pool: 100 WETH and 1.25 WBTC (about 20 WETH a WBTC), WBTC of 8 decimals. */
function wethWbtc(): Pool {
  const state: BalancerV2PoolState = {
    family: 'balancerV2',
    dex: 'balancerV2',
    address: VAULT,
    poolId: `${POOL}000200000000000000000001` as Hex,
    pool: POOL,
    tokens: [WETH, WBTC],
    balances: [String(100n * E18), String(125_000_000n)],
    weights: [String((E18 * 4n) / 5n), String(E18 / 5n)],
    scalingFactors: [String(E18), String(10n ** 28n)],
    swapFeePercentage: String(3n * 10n ** 15n),
  }
  return balancerV2Family.fromState(state, { chain, dex: balancerDex, dexIndex: chain.dexes.length - 1 })
}

const relative = (model: number, exact: bigint) => Math.abs(model - Number(exact)) / Number(exact)

describe('a sampled curve whose smallest probes give nothing', () => {
  it('starts at the first probe that gives output and follows the exact quotes', () => {
    const pool = wethWbtc()
    expect(pool.curveModel?.(WETH, WBTC)).toBeUndefined()
    const scale = 2e17
    expect(pool.quoteExactIn(WETH, WBTC, BigInt(Math.floor(scale * 2 ** -24)))).toBeUndefined()
    const curve = getCurve(pool, WETH, WBTC, scale)
    expect(curve.rate0).toBeGreaterThan(0)
    for (const x of [10n ** 16n, 10n ** 17n, 2n * 10n ** 17n, 10n ** 18n]) {
      expect(curve.covers(Number(x))).toBe(true)
      expect(relative(curve.amountOut(Number(x)), pool.quoteExactIn(WETH, WBTC, x)!.amountOut)).toBeLessThan(1e-4)
    }
  })

  it('follows the exact quotes of a trade of a few output units', () => {
    const pool = wethWbtc()
    // 10^12 wei: about 5 WBTC units; the leading probes give 0, 1 or 2 units, rounded down by up to a half.
    const curve = getCurve(pool, WETH, WBTC, 1e12)
    expect(curve.rate0).toBeGreaterThan(0)
    expect(relative(curve.amountOut(8e12), pool.quoteExactIn(WETH, WBTC, 8n * 10n ** 12n)!.amountOut)).toBeLessThan(0.05)
  })

  it('routes through the pool when it is the only one', () => {
    const pool = wethWbtc()
    const amountIn = 2n * 10n ** 17n
    const plan = findRoute({ pools: [pool], tokenIn: WETH, tokenOut: WBTC, connectors: [], maxHops: 4, gasCostInOutput: 0 }, amountIn)
    expect(plan?.amountOut).toBe(pool.quoteExactIn(WETH, WBTC, amountIn)!.amountOut)
    expect(plan!.certificate!.upperBound >= plan!.amountOut).toBe(true)
  })
})
