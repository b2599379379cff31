import { describe, expect, it } from 'vitest'
import { estimateSwapGas, EXTRA_WORD_GAS, SWAP_BASE_GAS, TICK_CROSSED_GAS } from './gas.js'

describe('estimateSwapGas', () => {
  it('charges the base, each tick crossed and each extra word step', () => {
    expect(estimateSwapGas(0, 1)).toBe(SWAP_BASE_GAS)
    expect(estimateSwapGas(2, 3)).toBe(SWAP_BASE_GAS + 2n * TICK_CROSSED_GAS)
    expect(estimateSwapGas(0, 3)).toBe(SWAP_BASE_GAS + 2n * EXTRA_WORD_GAS)
    expect(estimateSwapGas(1, 4)).toBe(SWAP_BASE_GAS + TICK_CROSSED_GAS + 2n * EXTRA_WORD_GAS)
  })

  it('never charges a negative number of word steps (a swap ending on a tick)', () => {
    expect(estimateSwapGas(1, 1)).toBe(SWAP_BASE_GAS + TICK_CROSSED_GAS)
  })
})
