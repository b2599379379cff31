import { maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { ONE, add, complement, divDown, divUp, mulDown, mulUp, powDown, powUp, sub } from './fixedPoint.js'
import { exp, pow } from './logExpMath.js'
import { BalancerV2RevertError } from './revertError.js'
import { MAX_IN_RATIO, calcInGivenOut, calcOutGivenIn, swapGivenIn, swapGivenOut } from './weightedMath.js'

const codeOf = (run: () => unknown): number | undefined => {
  try {
    run()
    return undefined
  } catch (error) {
    if (error instanceof BalancerV2RevertError) return error.balCode
    throw error
  }
}

describe('FixedPoint', () => {
  it('rounds each operation the way its name says', () => {
    expect(mulDown(1n, 1n)).toBe(0n)
    expect(mulUp(1n, 1n)).toBe(1n)
    expect(mulUp(0n, 5n)).toBe(0n)
    expect(mulDown(3n * ONE, ONE / 2n)).toBe(15n * 10n ** 17n)
    expect(divDown(ONE, 3n * ONE)).toBe(333_333_333_333_333_333n)
    expect(divUp(ONE, 3n * ONE)).toBe(333_333_333_333_333_334n)
    expect(divUp(0n, 7n)).toBe(0n)
    expect(complement(ONE / 4n)).toBe((3n * ONE) / 4n)
    expect(complement(ONE + 1n)).toBe(0n)
  })
  it('reverts where the contract does, with its codes', () => {
    expect(codeOf(() => add(maxUint256, 1n))).toBe(0)
    expect(codeOf(() => sub(1n, 2n))).toBe(1)
    expect(codeOf(() => mulDown(maxUint256, 2n))).toBe(3)
    expect(codeOf(() => mulUp(maxUint256, 2n))).toBe(3)
    expect(codeOf(() => divDown(1n, 0n))).toBe(4)
    expect(codeOf(() => divUp(maxUint256 / ONE + 1n, 1n))).toBe(5)
    expect(codeOf(() => divDown(maxUint256 / ONE, 1n))).toBeUndefined()
  })
  it('takes the exact fast paths for exponents 1, 2 and 4, and brackets LogExpMath otherwise', () => {
    const x = 7n * 10n ** 17n
    expect(powUp(x, ONE)).toBe(x)
    expect(powDown(x, 2n * ONE)).toBe(mulDown(x, x))
    expect(powUp(x, 4n * ONE)).toBe(mulUp(mulUp(x, x), mulUp(x, x)))
    const y = 15n * 10n ** 17n
    const raw = pow(x, y)
    expect(powUp(x, y)).toBe(raw + mulUp(raw, 10_000n) + 1n)
    expect(powDown(x, y)).toBe(raw - mulUp(raw, 10_000n) - 1n)
  })
})

describe('LogExpMath.pow', () => {
  it('is within 1e-14 of the real power over the weighted-pool range', () => {
    const bases = [1n, 10n ** 12n, 5n * 10n ** 17n, 7692307692307692308n / 10n, 95n * 10n ** 16n, ONE - 1n, ONE + 1n, 105n * 10n ** 16n, 2n * ONE, 10n ** 24n]
    const exponents = [10n ** 16n, 25n * 10n ** 16n, 5n * 10n ** 17n, 666666666666666667n, 15n * 10n ** 17n, 3n * ONE, 49n * ONE]
    for (const x of bases) {
      for (const y of exponents) {
        const expected = (Number(x) / 1e18) ** (Number(y) / 1e18)
        if (expected < 1e-10 || expected > 1e30) continue
        const actual = Number(pow(x, y)) / 1e18
        expect(Math.abs(actual - expected) / expected, `${x}^${y}`).toBeLessThan(1e-12)
      }
    }
    expect(Number(exp(ONE)) / 1e18).toBeCloseTo(Math.E, 15)
    expect(exp(-41n * ONE)).toBeGreaterThan(0n)
  })
  it('solves 0^0 as 1 and 0^y as 0, and reverts out of its domain', () => {
    expect(pow(0n, 0n)).toBe(ONE)
    expect(pow(5n, 0n)).toBe(ONE)
    expect(pow(0n, ONE)).toBe(0n)
    expect(codeOf(() => pow(1n << 255n, ONE))).toBe(6)
    expect(codeOf(() => pow(ONE, 2n ** 254n / 10n ** 20n))).toBe(7)
    // ln(1e-18) · 5 < -41: the product leaves exp's domain.
    expect(codeOf(() => pow(1n, 5n * ONE))).toBe(8)
    expect(codeOf(() => exp(131n * ONE))).toBe(9)
    expect(codeOf(() => exp(-42n * ONE))).toBe(9)
  })
})

describe('WeightedMath', () => {
  const w = ONE / 2n
  it('is the constant product for equal weights (rounded against the trader)', () => {
    const out = calcOutGivenIn(100n * ONE, w, 100n * ONE, w, ONE)
    const exact = (100n * ONE * ONE) / (101n * ONE)
    expect(out).toBeLessThanOrEqual(exact)
    expect(exact - out).toBeLessThan(10n ** 4n)
    const inGivenOut = calcInGivenOut(100n * ONE, w, 100n * ONE, w, ONE)
    expect(inGivenOut).toBeGreaterThanOrEqual((100n * ONE * ONE) / (99n * ONE))
  })
  it('caps the input and the output at 30% of the balance', () => {
    const balance = 1_000n * ONE
    expect(codeOf(() => calcOutGivenIn(balance, w, balance, w, (balance * MAX_IN_RATIO) / ONE))).toBeUndefined()
    expect(codeOf(() => calcOutGivenIn(balance, w, balance, w, (balance * MAX_IN_RATIO) / ONE + 1n))).toBe(304)
    expect(codeOf(() => calcInGivenOut(balance, w, balance, w, (balance * 3n) / 10n + 1n))).toBe(305)
  })
  it('takes the fee before upscaling and downscales the output down (6-decimal output)', () => {
    const side = { balanceIn: 100n * ONE, balanceOut: 300_000n * 10n ** 6n, weightIn: w, weightOut: w, scalingIn: ONE, scalingOut: 10n ** 30n, swapFee: 3n * 10n ** 15n }
    const amountIn = ONE
    const afterFee = amountIn - mulUp(amountIn, side.swapFee)
    const upscaled = calcOutGivenIn(100n * ONE, w, 300_000n * ONE, w, afterFee)
    expect(swapGivenIn(side, amountIn)).toBe(upscaled / 10n ** 12n)
    // The Vault's GIVEN_OUT input and the least GIVEN_IN input for the same output differ by rounding,
    // either way: here GIVEN_IN at the GIVEN_OUT input pays one unit short.
    const input = swapGivenOut(side, 1_000_000n)
    expect(swapGivenIn(side, input)).toBe(999_999n)
    expect(swapGivenIn(side, input + 10n ** 8n)).toBeGreaterThanOrEqual(1_000_000n)
  })
})
