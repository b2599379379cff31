import { describe, expect, test } from 'vitest'
import type { Address } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { QuoteError, type ParamIssue } from '../errors/QuoteError.js'
import { parseQuoteParams } from './parseQuoteParams.js'
import { createBareChain } from '../../test/support/bareChain.js'

const weth: Address = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const usdc: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const native: Address = '0x0000000000000000000000000000000000000000'
const alice: Address = '0x1111111111111111111111111111111111111111'
const bob: Address = '0x2222222222222222222222222222222222222222'

function chain(id: number, name: string, status: ChainConfig['status'], wrapped: Address): ChainConfig {
  return createBareChain({ id, name, status, wrappedNative: wrapped, defaultGasPriceWei: 1_000_000_000n })
}

const chains: readonly ChainConfig[] = [
  chain(1, 'Ethereum', 'active', weth),
  chain(8453, 'Base', 'active', '0x4200000000000000000000000000000000000006'),
  chain(42161, 'Arbitrum One', 'planned', '0x82af49447d8a07e3bd95bd0d56f35241523fbab1'),
]

/** A valid exact-in request: 1 WETH for USDC on Ethereum. */
const base = { chainId: '1', sellToken: weth, buyToken: usdc, sellAmount: '1000000000000000000' }

function parse(params: Record<string, unknown>) {
  return parseQuoteParams(params, { chains })
}

function errorOf(fn: () => unknown): QuoteError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(QuoteError)
    return error as QuoteError
  }
  throw new Error('expected a QuoteError')
}

function expect400(params: Record<string, unknown>, details: ParamIssue[]) {
  const error = errorOf(() => parse(params))
  expect(error.toJSON()).toEqual({
    statusCode: 400,
    code: 'invalid_request',
    message: `Invalid request: ${details.map((d) => `${d.param} ${d.message}`).join('; ')}`,
    details,
  })
}

function expect422(params: Record<string, unknown>, details: ParamIssue[]) {
  const error = errorOf(() => parse(params))
  expect(error.toJSON()).toEqual({
    statusCode: 422,
    code: 'unprocessable',
    message: `Unprocessable request: ${details.map((d) => `${d.param} ${d.message}`).join('; ')}`,
    details,
  })
}

const ADDRESS = 'must be an address (0x followed by 40 hex digits)'
const DEC = 'must be a base-10 integer (digits only)'

describe('parseQuoteParams: happy paths', () => {
  test('exact in', () => {
    expect(parse(base)).toStrictEqual({
      chainId: 1,
      sellToken: weth,
      buyToken: usdc,
      sellAmount: 10n ** 18n,
      appId: null,
    })
  })

  test('exact out', () => {
    const { sellAmount: _, ...rest } = base
    expect(parse({ ...rest, buyAmount: '2500000000' })).toStrictEqual({
      chainId: 1,
      sellToken: weth,
      buyToken: usdc,
      buyAmount: 2_500_000_000n,
      appId: null,
    })
  })

  test('native sell token', () => {
    expect(parse({ ...base, sellToken: native })).toMatchObject({ sellToken: native, buyToken: usdc })
  })

  test('native to wrapped (a wrap) and wrapped to native (an unwrap) are not errors', () => {
    expect(parse({ ...base, sellToken: native, buyToken: weth })).toMatchObject({ sellToken: native, buyToken: weth })
    expect(parse({ ...base, sellToken: weth, buyToken: native })).toMatchObject({ sellToken: weth, buyToken: native })
  })

  test('defaults are not filled in: optional parameters stay absent', () => {
    const intent = parse(base)
    expect('slippageBps' in intent).toBe(false)
    expect('priceImpactLimitBps' in intent).toBe(false)
    expect('receiver' in intent).toBe(false)
    expect(intent.appId).toBeNull()
  })

  test('every optional parameter, addresses lowercased (mixed case is not checksum-checked)', () => {
    expect(
      parse({
        ...base,
        chainId: '8453',
        sellToken: '0xC02AAA39B223FE8D0A0E5C4F27EAD9083C756CC2',
        buyToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        slippageBps: '50',
        priceImpactLimitBps: '0',
        receiver: '0x1111111111111111111111111111111111111111',
        feeBps: '1000',
        feeRecipient: '0xAbCdEfabcdefabcdefabcdefabcdefabcdefabcd',
        surplusFeeBps: '10000',
        surplusFeeRecipient: bob,
        referralFeeBps: '0',
        referralFeeRecipient: alice,
        'x-app-id': 'my-wallet v1.0',
      }),
    ).toStrictEqual({
      chainId: 8453,
      sellToken: weth,
      buyToken: usdc,
      sellAmount: 10n ** 18n,
      slippageBps: 50,
      priceImpactLimitBps: 0,
      receiver: alice,
      feeBps: 1000,
      feeRecipient: '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd',
      surplusFeeBps: 10000,
      surplusFeeRecipient: bob,
      referralFeeBps: 0,
      referralFeeRecipient: alice,
      appId: 'my-wallet v1.0',
    })
  })

  test('leading zeros are allowed in amounts, bps and chainId; -0 bps is 0', () => {
    expect(parse({ ...base, chainId: '0001', sellAmount: '0007', slippageBps: '-0', feeBps: '010', feeRecipient: alice }))
      .toMatchObject({ chainId: 1, sellAmount: 7n, slippageBps: 0, feeBps: 10 })
    expect(Object.is(parse({ ...base, slippageBps: '-0' }).slippageBps, 0)).toBe(true)
  })

  test('amount bounds: 1 and 2^256 - 1 are accepted', () => {
    expect(parse({ ...base, sellAmount: '1' }).sellAmount).toBe(1n)
    expect(parse({ ...base, sellAmount: ((1n << 256n) - 1n).toString() }).sellAmount).toBe((1n << 256n) - 1n)
  })

  test('a single-element array counts as the value; an empty array as absent', () => {
    expect(parse({ ...base, chainId: ['1'], slippageBps: [] })).toStrictEqual(parse(base))
  })

  test('unknown keys and inherited properties are ignored', () => {
    const inherited = Object.create({ buyAmount: '5', receiver: native }) as Record<string, unknown>
    Object.assign(inherited, base, { foo: 'bar', constructor: 'x', toString: '1' })
    expect(parse(inherited)).toStrictEqual(parse(base))
    const polluted = JSON.parse(`{"__proto__": {"buyAmount": "5"}, "chainId": "1"}`) as Record<string, unknown>
    Object.assign(polluted, base)
    expect(parse(polluted)).toStrictEqual(parse(base))
    expect(({} as Record<string, unknown>).buyAmount).toBeUndefined()
  })

  test('a fee recipient without its bps is accepted and kept; the zero address there is not an error', () => {
    expect(parse({ ...base, feeRecipient: native, referralFeeRecipient: alice })).toMatchObject({
      feeRecipient: native,
      referralFeeRecipient: alice,
    })
  })

  test('x-app-id: 128 printable ASCII characters, spaces included', () => {
    const id = ' ~'.repeat(64)
    expect(parse({ ...base, 'x-app-id': id }).appId).toBe(id)
  })
})

describe('parseQuoteParams: 400 a required parameter is missing', () => {
  test('chainId', () => {
    const { chainId: _, ...rest } = base
    expect400(rest, [{ param: 'chainId', message: 'is required' }])
  })
  test('sellToken', () => {
    const { sellToken: _, ...rest } = base
    expect400(rest, [{ param: 'sellToken', message: 'is required' }])
  })
  test('buyToken', () => {
    const { buyToken: _, ...rest } = base
    expect400(rest, [{ param: 'buyToken', message: 'is required' }])
  })
  test('all of them at once (every problem is listed, in parameter order)', () => {
    expect400({}, [
      { param: 'chainId', message: 'is required' },
      { param: 'sellToken', message: 'is required' },
      { param: 'buyToken', message: 'is required' },
      { param: 'sellAmount', message: 'is required when buyAmount is absent' },
    ])
  })
})

describe('parseQuoteParams: 400 a value has the wrong form', () => {
  test.each([
    ['no 0x prefix', 'c02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'],
    ['0X prefix', '0XC02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'],
    ['39 hex digits', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc'],
    ['41 hex digits', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc22'],
    ['a non-hex digit', '0xg02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'],
    ['surrounding whitespace', ` ${weth}`],
    ['empty', ''],
  ])('address: %s', (_, value) => {
    expect400({ ...base, sellToken: value }, [{ param: 'sellToken', message: ADDRESS }])
  })

  test('every address parameter is checked', () => {
    expect400(
      {
        ...base,
        buyToken: 'usdc',
        receiver: 'alice',
        feeBps: '1',
        feeRecipient: '0x',
        surplusFeeRecipient: 1,
        referralFeeRecipient: null,
      },
      [
        { param: 'buyToken', message: ADDRESS },
        { param: 'receiver', message: ADDRESS },
        { param: 'feeRecipient', message: ADDRESS },
        { param: 'surplusFeeRecipient', message: ADDRESS },
        { param: 'referralFeeRecipient', message: ADDRESS },
      ],
    )
  })

  test.each([
    ['a sign', '+1'],
    ['a minus sign', '-1'],
    ['hex', '0x10'],
    ['an exponent', '1e18'],
    ['a decimal point', '1.5'],
    ['spaces', ' 1'],
    ['an underscore', '1_000'],
    ['unicode digits', '١٢٣'],
    ['empty', ''],
  ])('dec_string amount: %s', (_, value) => {
    expect400({ ...base, sellAmount: value }, [{ param: 'sellAmount', message: DEC }])
  })

  test('dec_string amount: a non-string (number, object, null)', () => {
    const { sellAmount: _, ...rest } = base
    expect400({ ...rest, buyAmount: 5 }, [{ param: 'buyAmount', message: DEC }])
    expect400({ ...rest, buyAmount: { toString: () => '5' } }, [{ param: 'buyAmount', message: DEC }])
    expect400({ ...rest, buyAmount: null }, [{ param: 'buyAmount', message: DEC }])
  })

  test.each([
    ['a float', '1.5'],
    ['hex', '0x10'],
    ['an exponent', '1e2'],
    ['a plus sign', '+5'],
    ['text', 'abc'],
    ['empty', ''],
    ['a number, not a string', 50],
  ])('bps: %s', (_, value) => {
    expect400({ ...base, slippageBps: value }, [{ param: 'slippageBps', message: 'must be an integer' }])
  })

  test.each([
    ['zero', '0'],
    ['negative', '-1'],
    ['a float', '1.0'],
    ['hex', '0x1'],
    ['a number, not a string', 1],
  ])('chainId: %s', (_, value) => {
    expect400({ ...base, chainId: value }, [{ param: 'chainId', message: 'must be a positive integer' }])
  })

  test('a duplicated query parameter', () => {
    expect400({ ...base, chainId: ['1', '1'], buyToken: [usdc, weth] }, [
      { param: 'chainId', message: 'must be given once' },
      { param: 'buyToken', message: 'must be given once' },
    ])
  })

  test('params that are not an object', () => {
    for (const junk of [null, undefined, 'chainId=1', 42, ['1']]) {
      expect400(junk as unknown as Record<string, unknown>, [{ param: 'params', message: 'must be an object' }])
    }
  })

  test('a value whose getter throws', () => {
    const params = { ...base }
    Object.defineProperty(params, 'receiver', {
      enumerable: true,
      get() {
        throw new Error('boom')
      },
    })
    expect400(params, [{ param: 'receiver', message: 'could not be read' }])
  })
})

describe('parseQuoteParams: 400 both or neither of sellAmount/buyAmount', () => {
  test('both', () => {
    expect400({ ...base, buyAmount: '1' }, [{ param: 'sellAmount', message: 'must not be given together with buyAmount' }])
  })
  test('neither', () => {
    const { sellAmount: _, ...rest } = base
    expect400(rest, [{ param: 'sellAmount', message: 'is required when buyAmount is absent' }])
  })
  test('both, one malformed: the form problem is reported first', () => {
    expect400({ ...base, buyAmount: 'x' }, [
      { param: 'sellAmount', message: 'must not be given together with buyAmount' },
      { param: 'buyAmount', message: DEC },
    ])
    expect400({ ...base, sellAmount: 'x', buyAmount: '1' }, [{ param: 'sellAmount', message: DEC }])
  })
})

describe('parseQuoteParams: 400 a fee bps without its recipient', () => {
  test.each([
    ['feeBps', 'feeRecipient'],
    ['surplusFeeBps', 'surplusFeeRecipient'],
    ['referralFeeBps', 'referralFeeRecipient'],
  ])('%s without %s', (bps, recipient) => {
    expect400({ ...base, [bps]: '10' }, [{ param: recipient, message: `is required when ${bps} is set` }])
  })
  test('a malformed bps still needs its recipient', () => {
    expect400({ ...base, feeBps: 'ten' }, [
      { param: 'feeBps', message: 'must be an integer' },
      { param: 'feeRecipient', message: 'is required when feeBps is set' },
    ])
  })
})

describe('parseQuoteParams: 400 a fee bps above its maximum (or negative)', () => {
  test.each([
    ['feeBps', 'feeRecipient', '1001', 1000],
    ['referralFeeBps', 'referralFeeRecipient', '1001', 1000],
    ['surplusFeeBps', 'surplusFeeRecipient', '10001', 10000],
    ['feeBps', 'feeRecipient', '-1', 1000],
    ['surplusFeeBps', 'surplusFeeRecipient', '99999999999999999999999999999999999999', 10000],
  ])('%s = %s', (bps, recipient, value, max) => {
    expect400({ ...base, [bps]: value, [recipient]: alice }, [{ param: bps, message: `must be between 0 and ${max}` }])
  })
})

describe('parseQuoteParams: 400 slippageBps or priceImpactLimitBps outside 0..10000', () => {
  test.each([
    ['slippageBps', '-1'],
    ['slippageBps', '10001'],
    ['priceImpactLimitBps', '-1'],
    ['priceImpactLimitBps', '10001'],
    ['priceImpactLimitBps', '9'.repeat(400)],
    ['slippageBps', `-${'9'.repeat(400)}`],
  ])('%s = %s', (param, value) => {
    expect400({ ...base, [param]: value }, [{ param, message: 'must be between 0 and 10000' }])
  })
  test('the bounds 0 and 10000 are accepted', () => {
    expect(parse({ ...base, slippageBps: '10000', priceImpactLimitBps: '0' })).toMatchObject({
      slippageBps: 10000,
      priceImpactLimitBps: 0,
    })
  })
})

describe('parseQuoteParams: 400 an amount of 0 or at least 2^256', () => {
  test('sellAmount 0', () => {
    expect400({ ...base, sellAmount: '0' }, [{ param: 'sellAmount', message: 'must be greater than 0' }])
  })
  test('buyAmount 000', () => {
    const { sellAmount: _, ...rest } = base
    expect400({ ...rest, buyAmount: '000' }, [{ param: 'buyAmount', message: 'must be greater than 0' }])
  })
  test('2^256', () => {
    expect400({ ...base, sellAmount: (1n << 256n).toString() }, [
      { param: 'sellAmount', message: 'must be less than 2^256' },
    ])
  })
  test('a 100000-digit amount (not parsed)', () => {
    expect400({ ...base, sellAmount: '1'.repeat(100_000) }, [
      { param: 'sellAmount', message: 'must be less than 2^256' },
    ])
  })
})

describe('parseQuoteParams: 400 the chain is unknown or planned', () => {
  test('unknown chain', () => {
    expect400({ ...base, chainId: '5' }, [{ param: 'chainId', message: 'is not a supported chain' }])
  })
  test('a chain id too big for a number', () => {
    expect400({ ...base, chainId: '9'.repeat(400) }, [{ param: 'chainId', message: 'is not a supported chain' }])
  })
  test('planned chain (Arbitrum One)', () => {
    expect400({ ...base, chainId: '42161' }, [
      { param: 'chainId', message: 'is a planned chain, not supported yet' },
    ])
  })
})

describe('parseQuoteParams: 400 x-app-id', () => {
  test.each([
    ['empty', ''],
    ['129 characters', 'a'.repeat(129)],
    ['non-ASCII', 'wället'],
    ['a control character', 'app\n'],
    ['a number', 7],
  ])('%s', (_, value) => {
    expect400({ ...base, 'x-app-id': value }, [
      { param: 'x-app-id', message: 'must be 1 to 128 printable ASCII characters' },
    ])
  })
  test('a repeated header', () => {
    expect400({ ...base, 'x-app-id': ['a', 'b'] }, [{ param: 'x-app-id', message: 'must be given once' }])
  })
})

describe('parseQuoteParams: 422 well-formed but cannot be traded', () => {
  test('sellToken equals buyToken', () => {
    expect422({ ...base, buyToken: weth }, [{ param: 'buyToken', message: 'must differ from sellToken' }])
  })
  test('sellToken equals buyToken in another letter case', () => {
    expect422({ ...base, buyToken: weth.toUpperCase().replace('0X', '0x') }, [
      { param: 'buyToken', message: 'must differ from sellToken' },
    ])
  })
  test('native to native', () => {
    expect422({ ...base, sellToken: native, buyToken: native }, [
      { param: 'buyToken', message: 'must differ from sellToken' },
    ])
  })
  test('receiver is the zero address', () => {
    expect422({ ...base, receiver: native }, [{ param: 'receiver', message: 'must not be the zero address' }])
  })
  test.each([
    ['feeBps', 'feeRecipient'],
    ['surplusFeeBps', 'surplusFeeRecipient'],
    ['referralFeeBps', 'referralFeeRecipient'],
  ])('%s recipient %s is the zero address', (bps, recipient) => {
    expect422({ ...base, [bps]: '10', [recipient]: native }, [
      { param: recipient, message: 'must not be the zero address' },
    ])
  })
  test('every 422 problem is listed', () => {
    expect422({ ...base, buyToken: weth, receiver: native, feeBps: '1', feeRecipient: native }, [
      { param: 'buyToken', message: 'must differ from sellToken' },
      { param: 'receiver', message: 'must not be the zero address' },
      { param: 'feeRecipient', message: 'must not be the zero address' },
    ])
  })
})

describe('parseQuoteParams: 400 wins over 422', () => {
  test('only the 400 problems are listed when both kinds exist', () => {
    expect400({ ...base, buyToken: weth, receiver: native, slippageBps: '20000', chainId: '42161' }, [
      { param: 'chainId', message: 'is a planned chain, not supported yet' },
      { param: 'slippageBps', message: 'must be between 0 and 10000' },
    ])
  })
})
