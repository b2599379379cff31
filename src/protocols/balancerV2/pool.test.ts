import type { Address, Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { ethereum } from '../../chains/ethereum.js'
import type { DexConfig } from '../../chains/types.js'
import { QuoteError } from '../../errors/QuoteError.js'
import { balancerV2Family } from './family.js'
import { BALANCER_V2_MULTI_TOKEN_GAS, BALANCER_V2_POW_GAS, BALANCER_V2_STEP_GAS } from './gas.js'
import { BalancerV2WeightedPool, MAX_VAULT_BALANCE } from './pool.js'
import type { BalancerV2PoolState } from './state.js'

const E18 = 10n ** 18n
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8' as Address
const POOL = '0x00000000000000000000000000000000000000c0' as Address
const POOL_ID = `${POOL}000200000000000000000001` as Hex
const WETH = '0x00000000000000000000000000000000000000a0' as Address
const USDC = '0x00000000000000000000000000000000000000b0' as Address
const DAI = '0x00000000000000000000000000000000000000d0' as Address
const dex: DexConfig = { id: 'balancerV2', family: 'balancerV2', protocol: 'Balancer V2', fork: 'BalancerV2', factory: VAULT, initCodeHash: `0x${'0'.repeat(64)}` }
const context = { chain: { ...ethereum, dexes: [...ethereum.dexes, dex] }, dex, dexIndex: ethereum.dexes.length }

function stateOf(overrides: Partial<BalancerV2PoolState> = {}): BalancerV2PoolState {
  return {
    family: 'balancerV2',
    dex: 'balancerV2',
    address: VAULT,
    poolId: POOL_ID,
    pool: POOL,
    tokens: [WETH, USDC],
    balances: [String(100n * E18), String(300_000n * 10n ** 6n)],
    weights: [String(E18 / 2n), String(E18 / 2n)],
    scalingFactors: [String(E18), String(10n ** 30n)],
    swapFeePercentage: String(3n * 10n ** 15n),
    ...overrides,
  }
}
const poolOf = (overrides: Partial<BalancerV2PoolState> = {}) => balancerV2Family.fromState(stateOf(overrides), context) as BalancerV2WeightedPool

describe('BalancerV2WeightedPool', () => {
  it('returns the next balances and leaves the old state unchanged', () => {
    const pool = poolOf()
    const result = pool.quoteExactIn(WETH, USDC, E18)!
    const next = result.next as BalancerV2WeightedPool
    expect(next.balances).toEqual([101n * E18, 300_000n * 10n ** 6n - result.amountOut])
    expect(pool.balances).toEqual([100n * E18, 300_000n * 10n ** 6n])
    expect(pool.quoteExactIn(WETH, USDC, E18)!.amountOut).toBe(result.amountOut)
    // 0.3% fee and the price moved by the trade: a little under 2,970 USDC.
    expect(result.amountOut).toBeGreaterThan(2_960n * 10n ** 6n)
    expect(result.amountOut).toBeLessThan(2_970n * 10n ** 6n)
  })

  it('accepts exactly up to the 30% max-in ratio and nothing past it', () => {
    const pool = poolOf()
    const { maxIn, maxOut } = pool.limits(WETH, USDC)
    // 30% of the balance after the 0.3% fee: maxIn · 0.997 ≈ 30 WETH.
    expect(maxIn).toBeGreaterThan(30n * E18)
    expect(maxIn).toBeLessThan(31n * E18)
    expect(pool.quoteExactIn(WETH, USDC, maxIn)!.amountOut).toBe(maxOut)
    expect(pool.quoteExactIn(WETH, USDC, maxIn + 1n)).toBeUndefined()
    expect(pool.quoteExactOut(WETH, USDC, maxOut + 1n)).toBeUndefined()
  })

  it('refuses amounts that overflow the math or the Vault balance, and zero', () => {
    const pool = poolOf()
    expect(pool.quoteExactIn(WETH, USDC, 0n)).toBeUndefined()
    expect(pool.quoteExactIn(WETH, USDC, 1n << 255n)).toBeUndefined()
    expect(pool.quoteExactIn(WETH, USDC, 1n)).toBeUndefined() // pays nothing
    // Near the Vault's 112-bit balance the Vault's cap binds before the 30% ratio.
    const huge = String(MAX_VAULT_BALANCE - 10n ** 24n)
    const full = poolOf({ tokens: [WETH, DAI], balances: [huge, huge], scalingFactors: [String(E18), String(E18)] })
    expect(full.limits(WETH, DAI).maxIn).toBe(10n ** 24n)
    expect(full.quoteExactIn(WETH, DAI, 10n ** 24n)!.amountOut).toBeGreaterThan(0n)
    expect(full.quoteExactIn(WETH, DAI, 10n ** 24n + 1n)).toBeUndefined()
    // Unreachable outputs: more than the balance, or more than the 30% input can buy.
    expect(pool.quoteExactOut(WETH, USDC, 300_000n * 10n ** 6n + 1n)).toBeUndefined()
    expect(pool.quoteExactOut(USDC, WETH, 29n * E18)).toBeUndefined()
  })

  it('has an empty pool quote nothing', () => {
    const empty = poolOf({ balances: ['0', '0'] })
    expect(empty.quoteExactIn(WETH, USDC, E18)).toBeUndefined()
    expect(empty.quoteExactOut(WETH, USDC, 1n)).toBeUndefined()
    expect(empty.limits(WETH, USDC)).toEqual({ maxIn: 0n, maxOut: 0n })
    expect(empty.spotPrice(WETH, USDC)).toBe(0)
  })

  it('quotes exact out as the least exact-in input that pays the output', () => {
    const pool = poolOf({ weights: [String((E18 * 4n) / 5n), String(E18 / 5n)] })
    for (const [tokenIn, tokenOut, amountOut] of [
      [WETH, USDC, 1n],
      [WETH, USDC, 1_000_000n],
      [WETH, USDC, 123_456_789_000n],
      [USDC, WETH, 10n ** 15n],
      [USDC, WETH, 5n * E18],
    ] as const) {
      const result = pool.quoteExactOut(tokenIn, tokenOut, amountOut)!
      expect(result.amountOut).toBeGreaterThanOrEqual(amountOut)
      expect(pool.quoteExactIn(tokenIn, tokenOut, result.amountIn)!.amountOut).toBe(result.amountOut)
      expect(pool.quoteExactIn(tokenIn, tokenOut, result.amountIn - 1n)?.amountOut ?? 0n).toBeLessThan(amountOut)
    }
    // 80/20 lets exact in take more than 30% of the 20% side's balance (the Vault's GIVEN_OUT limit).
    const beyond = (300_000n * 10n ** 6n * 4n) / 10n
    expect(pool.limits(WETH, USDC).maxOut).toBeGreaterThan(beyond)
    expect(pool.quoteExactOut(WETH, USDC, beyond)!.amountOut).toBeGreaterThanOrEqual(beyond)
  })

  it('prices at the weighted spot, builds its step with the pool id, and reports gas per shape', () => {
    const pool = poolOf({ weights: [String((E18 * 4n) / 5n), String(E18 / 5n)] })
    // (bO/wO)/(bI/wI) = (3e11/0.2)/(1e20/0.8) raw USDC per raw wei.
    expect(pool.spotPrice(WETH, USDC)).toBeCloseTo(1.2e-8, 20)
    expect(pool.buildStep(WETH, USDC)).toEqual({ dex: context.dexIndex, tokenIn: WETH, tokenOut: USDC, param: BigInt(POOL_ID) })
    expect(pool.key).toBe(POOL_ID)
    expect(pool.address).toBe(VAULT)
    expect([pool.protocol, pool.fork]).toEqual(['Balancer V2', 'BalancerV2'])
    expect(pool.quoteExactIn(WETH, USDC, E18)!.gas).toBe(BALANCER_V2_STEP_GAS) // 80/20: exponent 4
    const three = poolOf({
      tokens: [WETH, USDC, DAI],
      balances: [String(100n * E18), String(300_000n * 10n ** 6n), String(300_000n * E18)],
      weights: [String(E18 / 2n), String((E18 * 3n) / 10n), String(E18 / 5n)],
      scalingFactors: [String(E18), String(10n ** 30n), String(E18)],
    })
    expect(three.quoteExactIn(USDC, DAI, 10n ** 9n)!.gas).toBe(BALANCER_V2_STEP_GAS + BALANCER_V2_MULTI_TOKEN_GAS + BALANCER_V2_POW_GAS)
  })

  it('models equal weights as a constant product and leaves other weights to sampling', () => {
    expect(poolOf().curveModel(WETH, USDC)).toMatchObject({ kind: 'constantProduct', reserveIn: 1e20, reserveOut: 3e11, fee: 0.003 })
    expect(poolOf({ weights: [String((E18 * 4n) / 5n), String(E18 / 5n)] }).curveModel(WETH, USDC)).toBeUndefined()
  })

  it('refuses tokens it does not trade with a 500 (a router mistake)', () => {
    const pool = poolOf()
    expect(() => pool.quoteExactIn(WETH, DAI, E18)).toThrow(QuoteError)
    expect(() => pool.buildStep(WETH, WETH)).toThrow(/does not trade/)
  })

  it('rejects malformed states', () => {
    const bad: [Partial<BalancerV2PoolState>, RegExp][] = [
      [{ poolId: '0x1234' }, /poolId/],
      [{ pool: WETH }, /first 20 bytes/],
      [{ address: WETH }, /dex Vault/],
      [{ tokens: [WETH] }, /2 to 8/],
      [{ tokens: [WETH, WETH] }, /distinct/],
      [{ balances: ['1'] }, /one value per token/],
      [{ balances: ['-1', '1'] }, /base-10/],
      [{ balances: [String(MAX_VAULT_BALANCE + 1n), '1'] }, /112 bits/],
      [{ weights: [String(E18 / 2n), String(E18 / 3n)] }, /sum to 1e18/],
      [{ weights: [String(E18 - 10n ** 15n), String(10n ** 15n)] }, /at least 1e16/],
      [{ scalingFactors: ['0', String(E18)] }, /positive/],
      [{ swapFeePercentage: String(E18) }, /10%/],
    ]
    for (const [overrides, message] of bad) {
      expect(() => poolOf(overrides), JSON.stringify(overrides)).toThrow(message)
      try {
        poolOf(overrides)
      } catch (error) {
        expect(error).toBeInstanceOf(QuoteError)
        expect((error as QuoteError).statusCode).toBe(500)
      }
    }
  })
})
