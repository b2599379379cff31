import { describe, expect, test } from 'vitest'
import type { Address } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { QuoteError, type ParamIssue } from '../errors/QuoteError.js'
import { normalizeIntent } from './normalizeIntent.js'
import { parseQuoteParams } from './parseQuoteParams.js'
import { createBareChain } from '../../test/support/bareChain.js'

const weth: Address = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const usdc: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const native: Address = '0x0000000000000000000000000000000000000000'
const alice: Address = '0x1111111111111111111111111111111111111111'

function chain(id: number, name: string, status: ChainConfig['status']): ChainConfig {
  return createBareChain({ id, name, status, wrappedNative: weth })
}

const chains: readonly ChainConfig[] = [
  chain(1, 'Ethereum', 'active'),
  chain(8453, 'Base', 'active'),
  chain(42161, 'Arbitrum One', 'planned'),
]

const base = { chainId: 1, sellToken: weth, buyToken: usdc, sellAmount: 10n ** 18n }

function normalize(intent: unknown) {
  return normalizeIntent(intent, { chains })
}

function expectError(intent: unknown, statusCode: 400 | 422, details: ParamIssue[]) {
  let caught: unknown
  try {
    normalize(intent)
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(QuoteError)
  const head = statusCode === 400 ? 'Invalid request' : 'Unprocessable request'
  expect((caught as QuoteError).toJSON()).toEqual({
    statusCode,
    code: statusCode === 400 ? 'invalid_request' : 'unprocessable',
    message: `${head}: ${details.map((d) => `${d.param} ${d.message}`).join('; ')}`,
    details,
  })
}

describe('normalizeIntent: valid intents', () => {
  test('exact in with defaults', () => {
    expect(normalize(base)).toStrictEqual({
      chainId: 1,
      sellToken: weth,
      buyToken: usdc,
      kind: 'exactIn',
      amount: 10n ** 18n,
      slippageBps: 100,
      priceImpactLimitBps: 1000,
      receiver: null,
      fee: null,
      referralFee: null,
      surplusFee: null,
      appId: null,
    })
  })

  test('exact out, everything set, addresses lowercased, fee pairs joined', () => {
    expect(
      normalize({
        chainId: 8453,
        sellToken: native,
        buyToken: '0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
        buyAmount: 5n,
        slippageBps: 0,
        priceImpactLimitBps: 10000,
        receiver: '0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        feeBps: 25,
        feeRecipient: alice,
        surplusFeeBps: 5000,
        surplusFeeRecipient: alice,
        referralFeeBps: 1000,
        referralFeeRecipient: alice,
        appId: 'bot',
      }),
    ).toStrictEqual({
      chainId: 8453,
      sellToken: native,
      buyToken: usdc,
      kind: 'exactOut',
      amount: 5n,
      slippageBps: 0,
      priceImpactLimitBps: 10000,
      receiver: '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      fee: { bps: 25, recipient: alice },
      referralFee: { bps: 1000, recipient: alice },
      surplusFee: { bps: 5000, recipient: alice },
      appId: 'bot',
    })
  })

  test('a recipient without its bps is ignored (even the zero address)', () => {
    expect(normalize({ ...base, feeRecipient: alice, surplusFeeRecipient: native })).toMatchObject({
      fee: null,
      surplusFee: null,
    })
  })

  test('explicit undefined is absent; appId null is none', () => {
    expect(normalize({ ...base, buyAmount: undefined, receiver: undefined, appId: null })).toStrictEqual(
      normalize(base),
    )
  })

  test('wrap: native to wrapped', () => {
    expect(normalize({ ...base, sellToken: native, buyToken: weth }).kind).toBe('exactIn')
  })

  test('-0 bps becomes 0', () => {
    expect(Object.is(normalize({ ...base, slippageBps: -0 }).slippageBps, 0)).toBe(true)
  })

  test('inherited fields are not read', () => {
    const intent = Object.assign(Object.create({ buyAmount: 1n, receiver: native }), base)
    expect(normalize(intent)).toStrictEqual(normalize(base))
  })

  test('normalizing what parseQuoteParams returns gives the same result as the parser checked', () => {
    const parsed = parseQuoteParams(
      { chainId: '1', sellToken: weth, buyToken: usdc, buyAmount: '7', feeBps: '3', feeRecipient: alice },
      { chains },
    )
    expect(normalize(parsed)).toMatchObject({ kind: 'exactOut', amount: 7n, fee: { bps: 3, recipient: alice } })
  })
})

describe('normalizeIntent: garbage from a typed host is a 400', () => {
  test.each([null, undefined, 42, 'intent', 1n, [], [base], () => base])('a non-object intent: %s', (intent) => {
    expectError(intent, 400, [{ param: 'intent', message: 'must be an object' }])
  })

  test('an empty object lists every required field', () => {
    expectError({}, 400, [
      { param: 'chainId', message: 'is required' },
      { param: 'sellToken', message: 'is required' },
      { param: 'buyToken', message: 'is required' },
      { param: 'sellAmount', message: 'is required when buyAmount is absent' },
    ])
  })

  test.each([Number.NaN, Number.POSITIVE_INFINITY, 1.5, 0, -1, -0, '1', 1n, null])('chainId %s', (chainId) => {
    expectError({ ...base, chainId }, 400, [{ param: 'chainId', message: 'must be a positive integer' }])
  })

  test('unknown and planned chains', () => {
    expectError({ ...base, chainId: 10 }, 400, [{ param: 'chainId', message: 'is not a supported chain' }])
    expectError({ ...base, chainId: 2 ** 60 }, 400, [{ param: 'chainId', message: 'is not a supported chain' }])
    expectError({ ...base, chainId: 42161 }, 400, [
      { param: 'chainId', message: 'is a planned chain, not supported yet' },
    ])
  })

  test.each([1, '1000', 1.5, null, {}])('amount of the wrong type: %s', (sellAmount) => {
    expectError({ ...base, sellAmount }, 400, [{ param: 'sellAmount', message: 'must be a bigint' }])
  })

  test.each([0n, -1n, -(10n ** 30n)])('amount %s is not above 0', (sellAmount) => {
    expectError({ ...base, sellAmount }, 400, [{ param: 'sellAmount', message: 'must be greater than 0' }])
  })

  test('amount 2^256', () => {
    expectError({ ...base, sellAmount: 1n << 256n }, 400, [{ param: 'sellAmount', message: 'must be less than 2^256' }])
  })

  test.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5, '50', 50n, null])(
    'bps of the wrong kind: %s',
    (slippageBps) => {
      expectError({ ...base, slippageBps }, 400, [{ param: 'slippageBps', message: 'must be an integer' }])
    },
  )

  test('bps out of range', () => {
    expectError(
      { ...base, slippageBps: -1, priceImpactLimitBps: 10001, feeBps: 1001, feeRecipient: alice, surplusFeeBps: 1e300, surplusFeeRecipient: alice },
      400,
      [
        { param: 'slippageBps', message: 'must be between 0 and 10000' },
        { param: 'priceImpactLimitBps', message: 'must be between 0 and 10000' },
        { param: 'feeBps', message: 'must be between 0 and 1000' },
        { param: 'surplusFeeBps', message: 'must be between 0 and 10000' },
      ],
    )
  })

  test.each([42, null, weth.slice(0, 41), `${weth} `, { address: weth }])('address of the wrong kind: %s', (token) => {
    expectError({ ...base, sellToken: token }, 400, [
      { param: 'sellToken', message: 'must be an address (0x followed by 40 hex digits)' },
    ])
  })

  test('fee bps without its recipient', () => {
    expectError({ ...base, referralFeeBps: 5 }, 400, [
      { param: 'referralFeeRecipient', message: 'is required when referralFeeBps is set' },
    ])
  })

  test('both amounts', () => {
    expectError({ ...base, buyAmount: 1n }, 400, [
      { param: 'sellAmount', message: 'must not be given together with buyAmount' },
    ])
  })

  test.each(['', 'x'.repeat(129), 'ünïcode', 5, {}])('appId %s', (appId) => {
    expectError({ ...base, appId }, 400, [
      { param: 'appId', message: 'must be 1 to 128 printable ASCII characters' },
    ])
  })

  test('a getter that throws', () => {
    const intent = { ...base }
    Object.defineProperty(intent, 'chainId', {
      get() {
        throw new TypeError('boom')
      },
    })
    expectError(intent, 400, [{ param: 'chainId', message: 'could not be read' }])
  })

  test('a proxy whose traps throw', () => {
    const intent = new Proxy(base, {
      has() {
        throw new Error('trap')
      },
      getOwnPropertyDescriptor() {
        throw new Error('trap')
      },
      get() {
        throw new Error('trap')
      },
    })
    let caught: unknown
    try {
      normalize(intent)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(QuoteError)
    expect((caught as QuoteError).statusCode).toBe(400)
  })
})

describe('normalizeIntent: 422', () => {
  test('same token, zero receiver, zero fee recipient', () => {
    expectError({ ...base, buyToken: weth.toUpperCase().replace('0X', '0x'), receiver: native, referralFeeBps: 1, referralFeeRecipient: native }, 422, [
      { param: 'buyToken', message: 'must differ from sellToken' },
      { param: 'receiver', message: 'must not be the zero address' },
      { param: 'referralFeeRecipient', message: 'must not be the zero address' },
    ])
  })
})
