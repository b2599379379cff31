import { decodeFunctionData, erc20Abi, getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { QuoteError } from '../errors/QuoteError.js'
import type { Quote } from '../quote/types.js'
import { buildFillCalls } from './buildFillCalls.js'

const token = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const executor = '0x1111111111111111111111111111111111111111'
const base = {
  approval: { token, spender: executor, amount: '1500000000' },
  transaction: { to: executor, data: '0x292bf0c8abcdef', value: '0' },
} as unknown as Quote

describe('buildFillCalls', () => {
  it('approves exactly the quote amount to the executor, then fills', () => {
    const { calls, sendCallsParams } = buildFillCalls(base, { chainId: 8453 })
    expect(calls).toHaveLength(2)
    expect(calls[0]!.to).toBe(getAddress(token))
    expect(calls[0]!.value).toBe(0n)
    const decoded = decodeFunctionData({ abi: erc20Abi, data: calls[0]!.data })
    expect(decoded.functionName).toBe('approve')
    expect(decoded.args).toEqual([getAddress(executor), 1_500_000_000n])
    expect(calls[1]).toEqual({ to: getAddress(executor), data: '0x292bf0c8abcdef', value: 0n })
    expect(sendCallsParams).toEqual([
      {
        version: '2.0.0',
        chainId: '0x2105',
        atomicRequired: true,
        calls: calls.map((c) => ({ to: c.to, data: c.data, value: '0x0' })),
      },
    ])
  })

  it('sends only the fill, with its value, for native input', () => {
    const quote = { ...base, approval: null, transaction: { ...base.transaction, value: '2000000000000000000' } } as Quote
    const { calls, sendCallsParams } = buildFillCalls(quote, { chainId: 1, from: '0x00000000000000000000000000000000000a11ce', atomicRequired: false })
    expect(calls).toEqual([{ to: getAddress(executor), data: '0x292bf0c8abcdef', value: 2n * 10n ** 18n }])
    expect(sendCallsParams[0]).toMatchObject({ chainId: '0x1', from: getAddress('0x00000000000000000000000000000000000a11ce'), atomicRequired: false })
    expect(sendCallsParams[0].calls[0]!.value).toBe('0x1bc16d674ec80000')
  })

  it('can reset the allowance to 0 first (tokens that refuse non-zero to non-zero)', () => {
    const { calls } = buildFillCalls(base, { chainId: 8453, resetAllowance: true })
    const approvals = calls.slice(0, 2).map((c) => decodeFunctionData({ abi: erc20Abi, data: c.data }).args[1])
    expect(approvals).toEqual([0n, 1_500_000_000n])
    expect(calls[2]!.to).toBe(getAddress(executor))
  })

  it('throws a 400 QuoteError naming each bad input', () => {
    const bad = { approval: { token: 'x', spender: executor, amount: '1' }, transaction: { to: executor, data: 'nope', value: '-1' } } as unknown as Quote
    const error = (() => {
      try {
        buildFillCalls(bad, { chainId: 0, from: '0x12' as `0x${string}` })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).statusCode).toBe(400)
    expect((error as QuoteError).details!.map((d) => d.param)).toEqual(['chainId', 'from', 'quote.transaction', 'quote.approval'])
  })
})
