import { describe, expect, it } from 'vitest'
import { inferTransferFee } from './probeTransferFees.js'

describe('inferTransferFee', () => {
  it('reads a fraction-of-amount fee from both measured transfers', () => {
    // DeflatingERC20: 1% of each transfer burnt.
    expect(inferTransferFee([10n ** 22n, 99n * 10n ** 20n, 495n * 10n ** 19n, 49_005n * 10n ** 17n])).toBe(100)
    expect(inferTransferFee([1_000_000n, 1_000_000n, 500_000n, 500_000n])).toBe(0)
    // 2.5% with floors: 123_457 * 250 / 10000 = 3086.4 -> 3086 kept.
    expect(inferTransferFee([123_457n, 120_371n, 60_185n, 58_681n])).toBe(250)
  })

  it('fails closed: nothing measured, a fee that is no bps figure, or a token that minted on the way', () => {
    expect(inferTransferFee([0n, 0n, 0n, 0n])).toBeNull()
    // One unit kept per transfer, whatever the amount (FixedFeeToken).
    expect(inferTransferFee([10n ** 22n, 10n ** 22n - 1n, 5n * 10n ** 21n - 1n, 5n * 10n ** 21n - 2n])).toBeNull()
    // Different fees on the two legs (a sell tax).
    expect(inferTransferFee([1_000_000n, 990_000n, 495_000n, 470_250n])).toBeNull()
    expect(inferTransferFee([1_000n, 1_001n, 500n, 500n])).toBeNull()
  })
})
