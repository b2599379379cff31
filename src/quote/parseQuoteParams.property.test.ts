import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import type { Address } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { QuoteError } from '../errors/QuoteError.js'
import { normalizeIntent } from './normalizeIntent.js'
import { parseQuoteParams } from './parseQuoteParams.js'
import type { NormalizedIntent, QuoteIntent } from './types.js'
import { createBareChain } from '../../test/support/bareChain.js'

// Registry stand-in: the lead's registry uses the same ids and statuses.
function chain(id: number, name: string, status: ChainConfig['status'], wrapped: Address): ChainConfig {
  return createBareChain({ id, name, status, wrappedNative: wrapped })
}

const weth: Address = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const baseWeth: Address = '0x4200000000000000000000000000000000000006'
const usdc: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const native: Address = '0x0000000000000000000000000000000000000000'

const chains: readonly ChainConfig[] = [
  chain(1, 'Ethereum', 'active', weth),
  chain(8453, 'Base', 'active', baseWeth),
  chain(42161, 'Arbitrum One', 'planned', '0x82af49447d8a07e3bd95bd0d56f35241523fbab1'),
]
const options = { chains }

const queryParams = [
  'chainId',
  'sellToken',
  'buyToken',
  'sellAmount',
  'buyAmount',
  'slippageBps',
  'priceImpactLimitBps',
  'receiver',
  'feeBps',
  'feeRecipient',
  'surplusFeeBps',
  'surplusFeeRecipient',
  'referralFeeBps',
  'referralFeeRecipient',
] as const
type QueryParam = (typeof queryParams)[number]

const feePairs = [
  ['feeBps', 'feeRecipient', 1000],
  ['surplusFeeBps', 'surplusFeeRecipient', 10000],
  ['referralFeeBps', 'referralFeeRecipient', 1000],
] as const

const LIMIT = 1n << 256n
const lowerAddress = /^0x[0-9a-f]{40}$/
const hostileKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__']

// ---------- arbitraries ----------

const hexDigits = '0123456789abcdef'
/** A valid address (random bytes, a known token, or the zero address) in a random letter case. */
const address = fc
  .tuple(
    fc.oneof(
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')),
      fc.constantFrom(weth.slice(2), usdc.slice(2), native.slice(2), baseWeth.slice(2)),
    ),
    fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
  )
  .map(([hex, upper]) => `0x${[...hex].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}`)

/** Strings built to sit just outside (or inside) each form. */
const trickyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '00',
    '-0',
    '-1',
    '+1',
    '1.0',
    '1e18',
    '0x10',
    '0X10',
    'NaN',
    'Infinity',
    '-Infinity',
    'null',
    'undefined',
    'true',
    '__proto__',
    'constructor',
    '１２３',
    '١٢٣',
    '1\u0000',
    '\t1',
    '1\n',
    ' 100 ',
    '1_000',
    LIMIT.toString(),
    (LIMIT - 1n).toString(),
    `${'0'.repeat(200)}1`,
    '9'.repeat(80),
    '9'.repeat(5000),
    `-${'9'.repeat(400)}`,
    '10000',
    '10001',
    '1000',
    '1001',
    '1',
    '8453',
    '42161',
    '0x',
    `0x${'0'.repeat(39)}`,
    `0x${'0'.repeat(41)}`,
    `0x${'g'.repeat(40)}`,
    ` ${weth}`,
    `${usdc}\n`,
    'a'.repeat(128),
    'a'.repeat(129),
    'app\u007f',
    'wället',
  ),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.stringMatching(/^-?[0-9]{1,90}$/),
  fc.bigInt({ min: -(LIMIT * 4n), max: LIMIT * 4n }).map(String),
  fc.integer({ min: -20000, max: 20000 }).map(String),
  fc.double().map(String),
  address,
  address.map((a) => a.slice(0, 41)),
  address.map((a) => `${a}0`),
)

const junk = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.boolean(),
  fc.object({ maxDepth: 2 }),
  fc.constant({
    toString() {
      throw new Error('toString bomb')
    },
  }),
  fc.constant(Symbol('s')),
  fc.constant(() => '1'),
  fc.constant(new String('1')),
)

/** A query value: mostly strings, sometimes repeated (an array), sometimes junk. */
const queryValue = fc.oneof(
  { weight: 6, arbitrary: trickyString },
  { weight: 2, arbitrary: fc.array(trickyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(junk, { maxLength: 2 }) },
  { weight: 2, arbitrary: junk },
)

/** A plausible value for each parameter, so that many records get past the form checks. */
const plausible: Record<QueryParam | 'x-app-id', fc.Arbitrary<string>> = {
  chainId: fc.constantFrom('1', '8453', '42161', '10', '0'),
  sellToken: address,
  buyToken: address,
  sellAmount: fc.bigInt({ min: 0n, max: LIMIT }).map(String),
  buyAmount: fc.bigInt({ min: 0n, max: LIMIT }).map(String),
  slippageBps: fc.integer({ min: -5, max: 10005 }).map(String),
  priceImpactLimitBps: fc.integer({ min: -5, max: 10005 }).map(String),
  receiver: address,
  feeBps: fc.integer({ min: -5, max: 1005 }).map(String),
  feeRecipient: address,
  surplusFeeBps: fc.integer({ min: -5, max: 10005 }).map(String),
  surplusFeeRecipient: address,
  referralFeeBps: fc.integer({ min: -5, max: 1005 }).map(String),
  referralFeeRecipient: address,
  'x-app-id': fc.string({ minLength: 0, maxLength: 130 }),
}

/** A whole hostile record: each parameter absent, plausible or hostile, plus junk and prototype keys. */
const hostileRecord = fc
  .tuple(
    fc.record(
      Object.fromEntries(
        Object.entries(plausible).map(([param, arb]) => [
          param,
          fc.oneof({ weight: 3, arbitrary: arb }, { weight: 2, arbitrary: queryValue }),
        ]),
      ) as Record<string, fc.Arbitrary<unknown>>,
      { requiredKeys: [] },
    ),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...hostileKeys), fc.string()), queryValue), { maxLength: 4 }),
  )
  .map(([fields, extra]) => {
    const record: Record<string, unknown> = {}
    // defineProperty makes `__proto__` an own key instead of replacing the prototype.
    for (const [key, value] of [...extra, ...Object.entries(fields)]) {
      Object.defineProperty(record, key, { value, enumerable: true, configurable: true, writable: true })
    }
    return record
  })

/** A fully valid request; with `allFees`, every fee pair is complete (so one corrupted field yields exactly one issue). */
const validRecordOf = (allFees: boolean) =>
  fc
    .record({
      chainId: fc.constantFrom('1', '8453', '0001'),
      tokens: fc
        .tuple(address, address)
        .filter(([a, b]) => a.toLowerCase() !== b.toLowerCase()),
      amountKey: fc.constantFrom('sellAmount', 'buyAmount'),
      amount: fc.bigInt({ min: 1n, max: LIMIT - 1n }),
      leadingZeros: fc.nat({ max: 3 }),
      slippageBps: fc.option(fc.integer({ min: 0, max: 10000 }), { nil: undefined }),
      priceImpactLimitBps: fc.option(fc.integer({ min: 0, max: 10000 }), { nil: undefined }),
      receiver: fc.option(address.filter((a) => a.toLowerCase() !== native), { nil: undefined }),
      fees: fc.tuple(
        ...feePairs.map(([, , max]) => {
          const pair = fc.tuple(fc.integer({ min: 0, max }), address.filter((a) => a.toLowerCase() !== native))
          return allFees ? pair : fc.option(pair, { nil: undefined })
        }),
      ),
      appId: fc.option(fc.stringMatching(/^[\x20-\x7e]{1,128}$/), { nil: undefined }),
    })
    .map((v) => {
      const record: Record<string, string> = {
        chainId: v.chainId,
        sellToken: v.tokens[0],
        buyToken: v.tokens[1],
        [v.amountKey]: `${'0'.repeat(v.leadingZeros)}${v.amount}`,
      }
      if (v.slippageBps !== undefined) record.slippageBps = String(v.slippageBps)
      if (v.priceImpactLimitBps !== undefined) record.priceImpactLimitBps = String(v.priceImpactLimitBps)
      if (v.receiver !== undefined) record.receiver = v.receiver
      feePairs.forEach(([bps, recipient], i) => {
        const pair = v.fees[i]
        if (pair !== undefined) {
          record[bps] = String(pair[0])
          record[recipient] = pair[1]
        }
      })
      if (v.appId !== undefined) record['x-app-id'] = v.appId
      return { record, v }
    })
const validRecord = validRecordOf(false)
const completeRecord = validRecordOf(true)

/** A malformed (never valid) value for each form. */
const malformed: Record<'chainId' | 'address' | 'amount' | 'bps' | 'appId', fc.Arbitrary<unknown>> = {
  chainId: fc.oneof(fc.constantFrom('0', '-1', '1.0', '0x1', '', ' 1', '1e3'), fc.integer(), fc.constant(null)),
  address: fc.oneof(
    fc.constantFrom('', '0x', 'weth', `0X${weth.slice(2)}`, `${weth} `),
    address.map((a) => a.slice(0, 41)),
    address.map((a) => `${a}f`),
    fc.integer(),
    fc.constant(null),
  ),
  amount: fc.oneof(
    fc.constantFrom('0', '000', '-1', '+1', '1.5', '1e18', '0x10', '', ' 1', LIMIT.toString(), '9'.repeat(300)),
    fc.bigInt({ min: LIMIT }).map(String),
    fc.integer(),
    fc.constant(null),
  ),
  bps: fc.oneof(
    fc.constantFrom('1.5', '', 'abc', '+1', '1e2', '0x1', '99999'),
    fc.integer({ max: -1 }).map(String),
    fc.integer({ min: 10001 }).map(String),
    fc.double(),
    fc.constant(null),
  ),
  appId: fc.oneof(fc.constantFrom('', 'a'.repeat(129), 'é', '\n', '\u0000'), fc.integer(), fc.constant(null)),
}

const formOf: Record<QueryParam | 'x-app-id', keyof typeof malformed> = {
  chainId: 'chainId',
  sellToken: 'address',
  buyToken: 'address',
  sellAmount: 'amount',
  buyAmount: 'amount',
  slippageBps: 'bps',
  priceImpactLimitBps: 'bps',
  receiver: 'address',
  feeBps: 'bps',
  feeRecipient: 'address',
  surplusFeeBps: 'bps',
  surplusFeeRecipient: 'address',
  referralFeeBps: 'bps',
  referralFeeRecipient: 'address',
  'x-app-id': 'appId',
}

/** Typed values for a host's intent: right types, wrong types, NaN, floats, negative and huge bigints. */
const typedJunk = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0, 1.5, -1, 2 ** 53, null),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(LIMIT * 2n), max: LIMIT * 2n }),
  trickyString,
  fc.anything({ maxDepth: 1 }),
)
const typedPlausible: Record<string, fc.Arbitrary<unknown>> = {
  chainId: fc.constantFrom(1, 8453, 42161, 10, 0, -1),
  sellToken: address,
  buyToken: address,
  sellAmount: fc.bigInt({ min: -5n, max: LIMIT + 5n }),
  buyAmount: fc.bigInt({ min: -5n, max: LIMIT + 5n }),
  slippageBps: fc.integer({ min: -5, max: 10005 }),
  priceImpactLimitBps: fc.integer({ min: -5, max: 10005 }),
  receiver: address,
  feeBps: fc.integer({ min: -5, max: 1005 }),
  feeRecipient: address,
  surplusFeeBps: fc.integer({ min: -5, max: 10005 }),
  surplusFeeRecipient: address,
  referralFeeBps: fc.integer({ min: -5, max: 1005 }),
  referralFeeRecipient: address,
  appId: fc.oneof(fc.string({ maxLength: 130 }), fc.constant(null)),
}
const typedIntent = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record(
      Object.fromEntries(
        Object.entries(typedPlausible).map(([key, arb]) => [key, fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: typedJunk })]),
      ),
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
)

// ---------- outcome checks ----------

const knownParams = new Set<string>([...queryParams, 'x-app-id', 'appId', 'params', 'intent'])

/** The only acceptable failure: a QuoteError 400/422 with well-formed, non-empty, one-per-param details. */
function assertQuoteFailure(error: unknown): QuoteError {
  expect(error).toBeInstanceOf(QuoteError)
  const e = error as QuoteError
  expect([400, 422]).toContain(e.statusCode)
  expect(e.code).toBe(e.statusCode === 400 ? 'invalid_request' : 'unprocessable')
  expect(Array.isArray(e.details)).toBe(true)
  const details = e.details ?? []
  expect(details.length).toBeGreaterThan(0)
  for (const d of details) {
    expect(knownParams.has(d.param)).toBe(true)
    expect(typeof d.message).toBe('string')
    expect(d.message.length).toBeGreaterThan(0)
  }
  expect(new Set(details.map((d) => d.param)).size).toBe(details.length)
  const head = e.statusCode === 400 ? 'Invalid request' : 'Unprocessable request'
  expect(e.message).toBe(`${head}: ${details.map((d) => `${d.param} ${d.message}`).join('; ')}`)
  return e
}

function assertNormalized(n: NormalizedIntent) {
  expect([1, 8453]).toContain(n.chainId)
  expect(n.sellToken).toMatch(lowerAddress)
  expect(n.buyToken).toMatch(lowerAddress)
  expect(n.sellToken).not.toBe(n.buyToken)
  expect(['exactIn', 'exactOut']).toContain(n.kind)
  expect(typeof n.amount).toBe('bigint')
  expect(n.amount > 0n && n.amount < LIMIT).toBe(true)
  for (const bps of [n.slippageBps, n.priceImpactLimitBps]) {
    expect(Number.isInteger(bps) && bps >= 0 && bps <= 10000).toBe(true)
  }
  if (n.receiver !== null) {
    expect(n.receiver).toMatch(lowerAddress)
    expect(n.receiver).not.toBe(native)
  }
  for (const [fee, max] of [[n.fee, 1000], [n.surplusFee, 10000], [n.referralFee, 1000]] as const) {
    if (fee === null) continue
    expect(Number.isInteger(fee.bps) && fee.bps >= 0 && fee.bps <= max).toBe(true)
    expect(fee.recipient).toMatch(lowerAddress)
    expect(fee.recipient).not.toBe(native)
  }
  expect(n.appId === null || /^[\x20-\x7e]{1,128}$/.test(n.appId)).toBe(true)
}

function assertParsed(intent: QuoteIntent) {
  expect(intent.sellToken).toMatch(lowerAddress)
  expect(intent.buyToken).toMatch(lowerAddress)
  expect((intent.sellAmount === undefined) !== (intent.buyAmount === undefined)).toBe(true)
  // What the parser accepts, normalizeIntent accepts too, and agrees on.
  const n = normalizeIntent(intent, options)
  assertNormalized(n)
  expect(n.chainId).toBe(intent.chainId)
  expect(n.amount).toBe(intent.sellAmount ?? intent.buyAmount)
  expect(n.kind).toBe(intent.sellAmount !== undefined ? 'exactIn' : 'exactOut')
}

/** Runs `fn`; returns the error (checked) or the value. */
function outcome<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: QuoteError } {
  try {
    return { ok: true, value: fn() }
  } catch (error) {
    return { ok: false, error: assertQuoteFailure(error) }
  }
}

const runs = { numRuns: 3000 }

afterAll(() => {
  // Nothing leaked onto Object.prototype along the way.
  for (const param of [...queryParams, 'x-app-id', 'appId']) {
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, param)).toBe(false)
  }
})

describe('parseQuoteParams on hostile records', () => {
  test('returns a valid intent or throws a 400/422 QuoteError with details, nothing else', () => {
    fc.assert(
      fc.property(hostileRecord, (record) => {
        const result = outcome(() => parseQuoteParams(record, options))
        if (result.ok) assertParsed(result.value)
      }),
      runs,
    )
  })

  test('anything at all as the record', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (record) => {
        const result = outcome(() => parseQuoteParams(record as Record<string, unknown>, options))
        if (result.ok) assertParsed(result.value)
      }),
      runs,
    )
  })

  test('a 400 never lists a 422 problem and vice versa', () => {
    const only422 = new Set(['must differ from sellToken', 'must not be the zero address'])
    fc.assert(
      fc.property(hostileRecord, (record) => {
        const result = outcome(() => parseQuoteParams(record, options))
        if (result.ok) return
        for (const d of result.error.details ?? []) {
          expect(only422.has(d.message)).toBe(result.error.statusCode === 422)
        }
      }),
      runs,
    )
  })
})

describe('parseQuoteParams on valid records', () => {
  test('accepts them and keeps every value (addresses lowercased)', () => {
    fc.assert(
      fc.property(validRecord, ({ record, v }) => {
        const intent = parseQuoteParams(record, options)
        assertParsed(intent)
        expect(intent.chainId).toBe(Number(v.chainId))
        expect(intent.sellToken).toBe(v.tokens[0].toLowerCase())
        expect(intent.buyToken).toBe(v.tokens[1].toLowerCase())
        expect(intent[v.amountKey]).toBe(v.amount)
        expect(intent.slippageBps).toBe(v.slippageBps)
        expect(intent.priceImpactLimitBps).toBe(v.priceImpactLimitBps)
        expect(intent.receiver).toBe(v.receiver?.toLowerCase())
        feePairs.forEach(([bps, recipient], i) => {
          expect(intent[bps]).toBe(v.fees[i]?.[0])
          expect(intent[recipient]).toBe(v.fees[i]?.[1].toLowerCase())
        })
        expect(intent.appId).toBe(v.appId ?? null)
      }),
      runs,
    )
  })

  test('one malformed parameter gives a 400 on that parameter alone', () => {
    const param = fc.constantFrom(...(Object.keys(formOf) as (keyof typeof formOf)[]))
    fc.assert(
      fc.property(
        completeRecord,
        param.chain((p) => malformed[formOf[p]].map((value) => [p, value] as const)),
        ({ record }, [p, value]) => {
          // Corrupting the absent amount would add "both given"; corrupt the one present.
          const target = p === 'sellAmount' || p === 'buyAmount' ? ('sellAmount' in record ? 'sellAmount' : 'buyAmount') : p
          const result = outcome(() => parseQuoteParams({ ...record, [target]: value }, options))
          expect(result.ok).toBe(false)
          if (result.ok) return
          expect(result.error.statusCode).toBe(400)
          expect(result.error.details?.map((d) => d.param)).toEqual([target])
        },
      ),
      runs,
    )
  })

  test('one repeated parameter gives a 400 "must be given once" on it alone', () => {
    fc.assert(
      fc.property(validRecord, fc.nat(), fc.integer({ min: 2, max: 4 }), ({ record }, pick, copies) => {
        const keys = Object.keys(record)
        const key = keys[pick % keys.length]!
        const result = outcome(() => parseQuoteParams({ ...record, [key]: Array(copies).fill(record[key]) }, options))
        expect(result.ok).toBe(false)
        if (result.ok) return
        expect(result.error.toJSON().details).toEqual([{ param: key, message: 'must be given once' }])
      }),
      runs,
    )
  })

  test('zero-address receivers and fee recipients, and equal tokens, give a 422 listing each', () => {
    fc.assert(
      fc.property(
        validRecord,
        fc.boolean(),
        fc.boolean(),
        fc.subarray([...feePairs]),
        ({ record }, sameToken, zeroReceiver, zeroFees) => {
          const bad: Record<string, string> = { ...record }
          const expected: string[] = []
          if (sameToken) {
            bad.buyToken = record.sellToken!.toUpperCase().replace('0X', '0x')
            expected.push('buyToken')
          }
          if (zeroReceiver) {
            bad.receiver = native
            expected.push('receiver')
          }
          for (const [bps, recipient] of zeroFees) {
            bad[bps] = '1'
            bad[recipient] = native
            expected.push(recipient)
          }
          const result = outcome(() => parseQuoteParams(bad, options))
          if (expected.length === 0) {
            expect(result.ok).toBe(true)
            return
          }
          expect(result.ok).toBe(false)
          if (result.ok) return
          expect(result.error.statusCode).toBe(422)
          const order = [...queryParams] as string[]
          expect(result.error.details?.map((d) => d.param)).toEqual(
            expected.sort((a, b) => order.indexOf(a) - order.indexOf(b)),
          )
        },
      ),
      runs,
    )
  })
})

describe('normalizeIntent on typed intents from a host', () => {
  test('returns a valid normalized intent or throws a 400/422 QuoteError with details, nothing else', () => {
    fc.assert(
      fc.property(typedIntent, (intent) => {
        const result = outcome(() => normalizeIntent(intent, options))
        if (result.ok) assertNormalized(result.value)
      }),
      runs,
    )
  })

  test('the typed path and the query-string path agree on the result, or on status and offending parameters', () => {
    // Typed intents whose values all have a query-string spelling (numbers, bigints, strings):
    // random ones (mostly 400s) and valid ones with up to two fields replaced (all outcomes).
    const override = fc
      .constantFrom(...Object.keys(typedPlausible))
      .chain((key) => typedPlausible[key]!.map((value) => [key, value] as const))
    const nearlyValid = fc.tuple(validRecord, fc.array(override, { maxLength: 2 })).map(([{ v }, overrides]) => {
      const intent: Record<string, unknown> = {
        chainId: Number(v.chainId),
        sellToken: v.tokens[0],
        buyToken: v.tokens[1],
        [v.amountKey]: v.amount,
        slippageBps: v.slippageBps,
        priceImpactLimitBps: v.priceImpactLimitBps,
        receiver: v.receiver,
        appId: v.appId,
      }
      feePairs.forEach(([bps, recipient], i) => {
        intent[bps] = v.fees[i]?.[0]
        intent[recipient] = v.fees[i]?.[1]
      })
      for (const [key, value] of overrides) intent[key] = value
      return intent
    })
    const spellable = fc.oneof(fc.record(typedPlausible, { requiredKeys: [] }), nearlyValid)
    fc.assert(
      fc.property(spellable, (intent) => {
        const query: Record<string, unknown> = {}
        for (const [key, value] of Object.entries(intent)) {
          if (value === null || value === undefined) continue
          query[key === 'appId' ? 'x-app-id' : key] = String(value)
        }
        const typed = outcome(() => normalizeIntent(intent, options))
        const parsed = outcome(() => normalizeIntent(parseQuoteParams(query, options), options))
        expect(parsed.ok).toBe(typed.ok)
        if (typed.ok && parsed.ok) {
          expect(parsed.value).toEqual(typed.value)
        } else if (!typed.ok && !parsed.ok) {
          expect(parsed.error.statusCode).toBe(typed.error.statusCode)
          const rename = (p: string) => (p === 'x-app-id' ? 'appId' : p)
          expect(parsed.error.details?.map((d) => rename(d.param))).toEqual(typed.error.details?.map((d) => d.param))
        }
      }),
      runs,
    )
  })
})
