import { describe, expect, it } from 'vitest'
import { assertProtocolFee, DYNAMIC_FEE_FLAG, getDirectionalProtocolFee, getSwapFee, isDynamicFee, MAX_LP_FEE } from './fees.js'
import { UniswapV4RevertError } from './revertError.js'

describe('V4 fees in pips', () => {
  it('splits the packed protocol fee by direction (zeroForOne low 12 bits, oneForZero high 12)', () => {
    const packed = (700 << 12) | 250
    expect(getDirectionalProtocolFee(packed, true)).toBe(250)
    expect(getDirectionalProtocolFee(packed, false)).toBe(700)
  })

  it('composes the LP fee with the protocol fee as ProtocolFeeLibrary.calculateSwapFee', () => {
    // No protocol fee: the LP fee itself.
    expect(getSwapFee(0, 3000, true)).toBe(3000)
    expect(getSwapFee(1000 << 12, 3000, true)).toBe(3000)
    // p + l - floor(p * l / 1e6): the LP fee is taken from what the protocol fee leaves.
    expect(getSwapFee((1000 << 12) | 1000, 3000, true)).toBe(3997)
    expect(getSwapFee(1000 << 12, 3000, false)).toBe(3997)
    expect(getSwapFee(999, 7777, true)).toBe(999 + 7777 - 7)
    // A 0 LP fee: the whole fee is the protocol's.
    expect(getSwapFee(500, 0, true)).toBe(500)
    // Capped at 100%.
    expect(getSwapFee(1000, MAX_LP_FEE, true)).toBe(MAX_LP_FEE)
  })

  it('knows the dynamic-fee flag and refuses protocol fees the PoolManager could not hold', () => {
    expect(isDynamicFee(DYNAMIC_FEE_FLAG)).toBe(true)
    expect(isDynamicFee(3000)).toBe(false)
    expect(() => assertProtocolFee((1000 << 12) | 1000)).not.toThrow()
    for (const bad of [1001, 1001 << 12, -1, 1 << 24, 0.5]) expect(() => assertProtocolFee(bad)).toThrow(UniswapV4RevertError)
  })
})
