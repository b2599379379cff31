import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { ethereum } from '../chains/ethereum.js'
import { afterFees, buildFeePlan, feeAmounts, getFeeSide } from './fees.js'
import type { NormalizedIntent } from './types.js'

const token = (symbol: string) => ethereum.tokens.find((t) => t.symbol === symbol)!.address
const LONG_TAIL_A = '0x1111111111111111111111111111111111111111' as Address
const LONG_TAIL_B = '0x2222222222222222222222222222222222222222' as Address
const RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const TREASURY = '0x00000000000000000000000000000000000fee04' as Address

const intent = (overrides: Partial<NormalizedIntent> = {}): NormalizedIntent => ({
  chainId: 1,
  sellToken: token('WETH'),
  buyToken: token('USDC'),
  kind: 'exactIn',
  amount: 10n ** 18n,
  slippageBps: 100,
  priceImpactLimitBps: 1000,
  receiver: null,
  fee: null,
  referralFee: null,
  surplusFee: null,
  appId: null,
  ...overrides,
})

describe('getFeeSide (decisions.md §6)', () => {
  it('pays as the hosted recordings do: ETH→USDC in USDC, USDC→ETH in USDC, USDC→WETH in WETH', () => {
    expect(getFeeSide(ethereum, token('WETH'), token('USDC'), false)).toBe('output')
    expect(getFeeSide(ethereum, token('USDC'), token('WETH'), true)).toBe('input')
    expect(getFeeSide(ethereum, token('USDC'), token('WETH'), false)).toBe('output')
  })
  it('pays in the buy token when both sides are major and the buy token is not native', () => {
    expect(getFeeSide(ethereum, token('WBTC'), token('WETH'), false)).toBe('output')
    expect(getFeeSide(ethereum, token('DAI'), token('WBTC'), false)).toBe('output')
    expect(getFeeSide(ethereum, token('USDT'), token('USDC'), false)).toBe('output')
    expect(getFeeSide(ethereum, token('WBTC'), token('WETH'), true)).toBe('input')
  })
  it('takes the major side when only one side is major, the buy token when neither is', () => {
    expect(getFeeSide(ethereum, LONG_TAIL_A, token('WETH'), false)).toBe('output')
    expect(getFeeSide(ethereum, LONG_TAIL_A, token('WETH'), true)).toBe('output')
    expect(getFeeSide(ethereum, token('WETH'), LONG_TAIL_A, false)).toBe('input')
    expect(getFeeSide(ethereum, LONG_TAIL_A, LONG_TAIL_B, false)).toBe('output')
  })
})

describe('fee arithmetic', () => {
  it('floors each fee of bps on the base', () => {
    const plan = buildFeePlan(
      intent({ fee: { bps: 25, recipient: RECIPIENT }, referralFee: { bps: 10, recipient: RECIPIENT } }),
      ethereum,
      'output',
      undefined,
    )
    expect(feeAmounts(plan.shares, 1_000_001n)).toEqual([2500n, 1000n])
    expect(afterFees(plan.shares, 1_000_001n)).toBe(1_000_001n - 3500n)
  })
  it('charges the service fee of surplusFeeBps / 1000 bps only with a treasury', () => {
    const surplus = intent({ surplusFee: { bps: 5000, recipient: RECIPIENT } })
    expect(buildFeePlan(surplus, ethereum, 'output', undefined).shares).toEqual([])
    const plan = buildFeePlan(surplus, { ...ethereum, treasury: TREASURY }, 'output', undefined)
    expect(plan.shares).toEqual([{ recipient: TREASURY, rate: 5000n }])
    // 5 bps of 10^8 is 50,000; 1.234 bps (surplusFeeBps 1234) of 10^8 is 12,340: fractions stay exact.
    expect(feeAmounts(plan.shares, 100_000_000n)).toEqual([50_000n])
    const fractional = buildFeePlan(intent({ surplusFee: { bps: 1234, recipient: RECIPIENT } }), { ...base, treasury: TREASURY }, 'input', undefined)
    expect(feeAmounts(fractional.shares, 100_000_000n)).toEqual([12_340n])
    expect(plan.surplusRecipient).toBe(RECIPIENT)
    expect(plan.surplusBps).toBe(5000)
  })
  it('lets an app override the service fee and set a default integrator fee', () => {
    const plan = buildFeePlan(intent({ appId: 'issued' }), { ...ethereum, treasury: TREASURY }, 'output', {
      serviceFeeBps: 2.5,
      feeBps: 20,
      feeRecipient: RECIPIENT,
    })
    expect(plan.shares).toEqual([
      { recipient: RECIPIENT, rate: 20_000n },
      { recipient: TREASURY, rate: 2_500n },
    ])
  })
})
