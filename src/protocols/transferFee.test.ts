import { describe, expect, it } from 'vitest'
import { afterTransferFee, sentForReceived } from './transferFee.js'

describe('transfer fees', () => {
  it('keeps floor(amount * bps / 10000), as DeflatingERC20 burns value / 100 at 100 bps', () => {
    for (const amount of [0n, 1n, 99n, 100n, 101n, 12_345n, 10n ** 18n + 7n]) expect(afterTransferFee(amount, 100)).toBe(amount - amount / 100n)
    expect(afterTransferFee(12_345n, 0)).toBe(12_345n)
  })

  it('finds the least amount to send for an amount to arrive (checked against every smaller amount)', () => {
    for (const bps of [1, 30, 100, 250, 999, 5_000, 9_999]) {
      for (let wanted = 1n; wanted <= 400n; wanted++) {
        const sent = sentForReceived(wanted, bps)!
        expect(afterTransferFee(sent, bps) >= wanted, `bps ${bps} wanted ${wanted}`).toBe(true)
        expect(afterTransferFee(sent - 1n, bps) < wanted, `bps ${bps} wanted ${wanted}`).toBe(true)
      }
    }
    expect(sentForReceived(5n, 10_000)).toBeUndefined()
    const big = 10n ** 30n + 3n
    const sent = sentForReceived(big, 100)!
    expect([afterTransferFee(sent, 100) >= big, afterTransferFee(sent - 1n, 100) < big]).toEqual([true, true])
  })
})
