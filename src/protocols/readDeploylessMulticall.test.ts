// How readDeploylessMulticall splits calls (no chain: sizes only). Reads against real contracts on
// anvil are in test/readers.*.test.ts.
import { type Address, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { chunkDeploylessCalls } from './readDeploylessMulticall.js'

const feeAbi = parseAbi(['function fee() view returns (uint24)'])
const weightsAbi = parseAbi(['function getNormalizedWeights() view returns (uint256[])'])
/** EIP-170: a deployless multicall answers as the code of the contract it "deploys". */
const CODE_CAP = 24_576
/** aggregate3's answer for one call of one word: offset, success flag, data offset, length, the word. */
const ONE_WORD_ANSWER = 5 * 32

const pool = (k: number) => `0x${(0x1000 + k).toString(16).padStart(40, '0')}` as Address

describe('chunkDeploylessCalls', () => {
  it('splits 396 fee() calls into the fewest chunks whose answers fit the code cap, in order', () => {
    const calls = Array.from({ length: 396 }, (_, k) => ({ address: pool(k), abi: feeAbi, functionName: 'fee' }))
    const chunks = chunkDeploylessCalls(calls)
    expect(chunks.flat()).toEqual(calls)
    for (const chunk of chunks) expect(chunk.length * ONE_WORD_ANSWER).toBeLessThanOrEqual(CODE_CAP)
    expect(chunks.length).toBe(Math.ceil((396 * ONE_WORD_ANSWER) / CODE_CAP))
  })

  it('keeps a small list in one chunk', () => {
    const calls = Array.from({ length: 20 }, (_, k) => ({ address: pool(k), abi: feeAbi, functionName: 'fee' }))
    expect(chunkDeploylessCalls(calls)).toEqual([calls])
  })

  it('sizes an array answer by the bound the caller gives, and asks for one', () => {
    const bounded = Array.from({ length: 100 }, (_, k) => ({ address: pool(k), abi: weightsAbi, functionName: 'getNormalizedWeights', answerBytes: 320 }))
    const chunks = chunkDeploylessCalls(bounded)
    for (const chunk of chunks) expect(chunk.length * (4 * 32 + 320)).toBeLessThanOrEqual(CODE_CAP)
    expect(chunks.length).toBeGreaterThan(1)
    expect(() => chunkDeploylessCalls([{ address: pool(0), abi: weightsAbi, functionName: 'getNormalizedWeights' }])).toThrow(/needs answerBytes/)
  })
})
