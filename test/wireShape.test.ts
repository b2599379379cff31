// Wire-shape compatibility with the hosted service: a schema is derived from
// the three recorded Fabric responses (field names, JSON types, nesting and
// string formats), and JSON.parse(JSON.stringify(quote)) of weft quotes on the
// default snapshot must validate against it, so client code written for the
// hosted service parses weft's quotes unchanged.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type Address, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { defaultSnapshot } from '../src/defaultSnapshot.js'
import { type Quote, type QuoteIntent, createSnapshotSource, getQuote } from '../src/index.js'

// The recordings live beside the spec, outside the package (override with WEFT_FABRIC_FIXTURES).
const fixtureDir = process.env.WEFT_FABRIC_FIXTURES ?? fileURLToPath(new URL('./fixtures/fabric/', import.meta.url))

// ---------- a small JSON-schema-like model, inferred from samples ----------

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object'
/** String formats, most specific first: a field gets the first one every sample matches. */
const formats = {
  uuidV7: /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  address: /^0x[0-9a-f]{40}$/,
  hex: /^0x[0-9a-f]*$/,
  decString: /^(0|[1-9][0-9]*)$/,
} as const
type Format = keyof typeof formats | 'text'
type Schema = {
  types: Set<JsonType>
  /** For numbers: every sample an integer. */
  integer?: boolean
  format?: Format
  items?: Schema
  properties?: Map<string, Schema>
  /** Keys present in every sample object. */
  required?: Set<string>
}

const typeOf = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as 'string' | 'number' | 'boolean' | 'object')

/** The schema every sample satisfies, as tight as the samples allow. */
function infer(samples: unknown[]): Schema {
  const schema: Schema = { types: new Set(samples.map(typeOf)) }
  const numbers = samples.filter((s): s is number => typeof s === 'number')
  if (numbers.length > 0) schema.integer = numbers.every(Number.isInteger)
  const strings = samples.filter((s): s is string => typeof s === 'string')
  if (strings.length > 0) {
    schema.format = (Object.keys(formats) as (keyof typeof formats)[]).find((f) => strings.every((s) => formats[f].test(s))) ?? 'text'
  }
  const arrays = samples.filter(Array.isArray)
  if (arrays.length > 0) schema.items = infer(arrays.flat())
  const objects = samples.filter((s): s is Record<string, unknown> => typeOf(s) === 'object')
  if (objects.length > 0) {
    const keys = [...new Set(objects.flatMap(Object.keys))]
    schema.properties = new Map(keys.map((k) => [k, infer(objects.filter((o) => k in o).map((o) => o[k]))]))
    schema.required = new Set(keys.filter((k) => objects.every((o) => k in o)))
  }
  return schema
}

/** Every way `value` departs from `schema`, as `path: problem` lines. */
function problems(value: unknown, schema: Schema, path = '$'): string[] {
  const type = typeOf(value)
  if (!schema.types.has(type)) return [`${path}: ${type} where the recordings have ${[...schema.types].join(' | ')}`]
  const found: string[] = []
  if (type === 'number' && schema.integer && !Number.isInteger(value)) found.push(`${path}: ${value} is not an integer`)
  if (type === 'string' && schema.format && schema.format !== 'text' && !formats[schema.format].test(value as string))
    found.push(`${path}: ${JSON.stringify(value)} is not ${schema.format}`)
  if (type === 'array' && schema.items) (value as unknown[]).forEach((item, i) => found.push(...problems(item, schema.items!, `${path}[${i}]`)))
  if (type === 'object' && schema.properties) {
    const object = value as Record<string, unknown>
    for (const key of schema.required ?? []) if (!(key in object)) found.push(`${path}.${key}: missing`)
    for (const [key, child] of Object.entries(object)) {
      const sub = schema.properties.get(key)
      if (!sub) found.push(`${path}.${key}: not in the recordings`)
      else found.push(...problems(child, sub, `${path}.${key}`))
    }
  }
  return found
}

/** A node of the schema by path (`route.swaps[]` style segments). */
function at(schema: Schema, ...keys: string[]): Schema {
  let node = schema
  for (const key of keys) node = key === '[]' ? node.items! : node.properties!.get(key)!
  return node
}

/** A readable rendering, for the one inline snapshot of what the recordings say. */
function describeSchema(schema: Schema, indent = ''): string {
  const kind = [...schema.types]
    .sort()
    .map((t) => (t === 'number' && schema.integer ? 'integer' : t === 'string' && schema.format !== 'text' ? `string<${schema.format}>` : t))
    .join(' | ')
  if (!schema.properties && !schema.items) return kind
  if (schema.items) return `${kind} of ${describeSchema(schema.items, indent)}`
  const lines = [...schema.properties!].map(([k, s]) => `${indent}  ${k}${schema.required!.has(k) ? '' : '?'}: ${describeSchema(s, `${indent}  `)}`)
  return `${kind} {\n${lines.join('\n')}\n${indent}}`
}

// ---------- the recordings ----------

if (!existsSync(fixtureDir)) throw new Error(`Fabric recordings not found at ${fixtureDir}; set WEFT_FABRIC_FIXTURES`)
const recordings = Object.fromEntries(
  readdirSync(fixtureDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(`${fixtureDir}/${f}`, 'utf8')) as Record<string, unknown>]),
)
const recorded = infer(Object.values(recordings))

/**
 * The recorded schema, widened exactly where the spec says weft may differ:
 * the two fields the recordings omit (quote-api.md lists them), and null
 * where the spec types a field as nullable (`price?`, `priceUsd?`,
 * `approval?`, `appId: string or null`).
 */
function weftSchema(): Schema {
  const schema = infer(Object.values(recordings))
  schema.properties!.set('gasEstimate', { types: new Set(['number']), integer: true })
  schema.properties!.set('priceImpactBps', { types: new Set(['number']), integer: false })
  at(schema, 'price').types.add('null')
  at(schema, 'tokens', '[]', 'priceUsd').types.add('null')
  at(schema, 'approval').types.add('null')
  at(schema, 'appId').types.add('null')
  return schema
}
const schema = weftSchema()

// ---------- weft quotes ----------

const source = createSnapshotSource(defaultSnapshot)
const ETH = zeroAddress
const T = {
  USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  WETH: '0x4200000000000000000000000000000000000006',
  DEGEN: '0x4ed4e862860bed51a9570b96d89af5e1b0efefed',
  mainnetPEPE: '0x6982508145454ce325ddbe47a25d4ec3d2311933',
  mainnetDAI: '0x6b175474e89094c44da98b954eedeac495271d0f',
} as const satisfies Record<string, Address>
const FEE_TO: Address = '0x484ce84a92a17c108c94a91bb222daef93eb8ce7'
const REFERRER: Address = '0xb774e63f89332186c668e0f29f8945bf53a7dd14'

const cases: Record<string, QuoteIntent> = {
  'ERC-20 in (USDC -> WETH)': { chainId: 8453, sellToken: T.USDC, buyToken: T.WETH, sellAmount: 2_000_000_000n },
  'native in (ETH -> USDC)': { chainId: 8453, sellToken: ETH, buyToken: T.USDC, sellAmount: 10n ** 18n },
  'native out (USDC -> ETH)': { chainId: 8453, sellToken: T.USDC, buyToken: ETH, sellAmount: 500_000_000n },
  'split (10,000 WETH -> USDC)': { chainId: 8453, sellToken: T.WETH, buyToken: T.USDC, sellAmount: 10n ** 22n },
  'with fees (USDC -> WETH, integrator + referral + surplus)': {
    chainId: 8453,
    sellToken: T.USDC,
    buyToken: T.WETH,
    sellAmount: 2_000_000_000n,
    feeBps: 10,
    feeRecipient: FEE_TO,
    referralFeeBps: 5,
    referralFeeRecipient: REFERRER,
    surplusFeeBps: 5000,
    surplusFeeRecipient: FEE_TO,
  },
  'with appId, exact output, fees on the output (DEGEN -> WETH)': {
    chainId: 8453,
    sellToken: T.DEGEN,
    buyToken: T.WETH,
    buyAmount: 10n ** 17n,
    feeBps: 20,
    feeRecipient: FEE_TO,
    appId: 'test',
  },
  'multi-hop on Ethereum (PEPE -> DAI)': { chainId: 1, sellToken: T.mainnetPEPE, buyToken: T.mainnetDAI, sellAmount: 10n ** 27n },
  'wrap (ETH -> WETH)': { chainId: 8453, sellToken: ETH, buyToken: T.WETH, sellAmount: 10n ** 18n },
}

const quotes = Object.fromEntries(
  await Promise.all(Object.entries(cases).map(async ([name, intent]) => [name, await getQuote(intent, source)] as const)),
) as Record<string, Quote>
const wire = (quote: Quote) => JSON.parse(JSON.stringify(quote)) as Record<string, unknown>

describe('the schema the recordings define', () => {
  test('three recordings, and each validates against the schema derived from them all', () => {
    expect(Object.keys(recordings)).toEqual(['native-input.json', 'native-output.json', 'usdc-weth-split-with-fees.json'])
    for (const [name, body] of Object.entries(recordings)) expect(problems(body, recorded), name).toEqual([])
  })

  test('reads as the hosted Quote: names, types, nesting and formats', () => {
    expect(describeSchema(recorded)).toMatchInlineSnapshot(`
      "object {
        blockNumber: integer
        amountIn: string<decString>
        amountOut: string<decString>
        minimumAmountOut?: string<decString>
        price: number
        description: string
        tokens: array of object {
          address: string<address>
          symbol: string
          decimals: integer
          transferFeeBps: integer
          priceUsd: number
        }
        route: object {
          swaps: array of array of object {
            key: string<hex>
            address: string<address>
            protocol: string
            fork: string
            tokenIn: string<address>
            tokenOut: string<address>
            amountIn: string<decString>
            amountOut: string<decString>
          }
          amountIn: string<decString>
          amountOut: string<decString>
        }
        approval: null | object {
          token: string<address>
          amount: string<decString>
          spender: string<address>
        }
        transaction: object {
          to: string<address>
          data: string<hex>
          value: string<decString>
        }
        fees: array of object {
          token: string<address>
          amount: string<decString>
          recipient: string<address>
        }
        id: string<uuidV7>
        appId?: string
      }"
    `)
  })

  test('the checker has teeth: it flags each kind of departure', () => {
    const body = structuredClone(recordings['native-output.json']!) as Record<string, any>
    body.amountIn = 500000000
    body.tokens[0].address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
    body.route.swaps[0][0].amountOut = '2.44e17'
    delete body.transaction.value
    body.fees[0].extra = true
    body.id = '019cb024-e907-43b0-81a3-72611c9bdc5e'
    body.price = null
    expect(problems(body, recorded)).toEqual([
      '$.amountIn: number where the recordings have string',
      '$.price: null where the recordings have number',
      '$.tokens[0].address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" is not address',
      '$.route.swaps[0][0].amountOut: "2.44e17" is not decString',
      '$.transaction.value: missing',
      '$.fees[0].extra: not in the recordings',
      '$.id: "019cb024-e907-43b0-81a3-72611c9bdc5e" is not uuidV7',
    ])
  })
})

describe('weft quotes on the default snapshot match the recorded wire shape', () => {
  test('the cases cover what the recordings show', () => {
    const all = Object.values(quotes)
    expect(all.some((q) => q.approval === null)).toBe(true)
    expect(all.some((q) => q.approval !== null)).toBe(true)
    expect(all.some((q) => q.route.swaps.length > 1)).toBe(true)
    expect(all.some((q) => q.route.swaps.some((p) => p.length > 1))).toBe(true)
    expect(all.some((q) => q.fees.length >= 2)).toBe(true)
    expect(all.some((q) => q.appId !== null)).toBe(true)
    expect(all.some((q) => q.tokens.some((t) => t.address === ETH))).toBe(true)
  })

  test.each(Object.keys(cases))('%s', (name) => {
    const body = wire(quotes[name]!)
    expect(problems(body, schema)).toEqual([])
    // Everything the recordings always carry, weft carries too; beyond them only the two fields they omit.
    for (const key of recorded.required!) expect(body).toHaveProperty(key)
    expect(Object.keys(body).filter((k) => !recorded.properties!.has(k)).sort()).toEqual(['gasEstimate', 'priceImpactBps'])
  })

  test('id is a UUID v7: version nibble 7, variant bits 10', () => {
    for (const quote of Object.values(quotes)) {
      const hex = quote.id.replace(/-/g, '')
      expect(quote.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(hex[12]).toBe('7')
      expect(parseInt(hex[16]!, 16) >> 2).toBe(0b10)
      // Time-ordered: the first 48 bits are a recent Unix time in ms.
      const ms = parseInt(hex.slice(0, 12), 16)
      expect(Math.abs(ms - Date.now())).toBeLessThan(10 * 60_000)
    }
  })

  test('every address is lowercase 0x + 40 hex, every integer amount a base-10 string', () => {
    const addressFields = new Set(['address', 'tokenIn', 'tokenOut', 'token', 'spender', 'to', 'recipient'])
    const amountFields = new Set(['amountIn', 'amountOut', 'minimumAmountOut', 'amount', 'value'])
    const visit = (value: unknown, key: string, path: string, found: string[]) => {
      if (Array.isArray(value)) value.forEach((v, i) => visit(v, key, `${path}[${i}]`, found))
      else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k, `${path}.${k}`, found)
      else if (addressFields.has(key) && !/^0x[0-9a-f]{40}$/.test(value as string)) found.push(`${path}: ${String(value)}`)
      else if (amountFields.has(key) && !/^(0|[1-9][0-9]*)$/.test(value as string)) found.push(`${path}: ${String(value)}`)
    }
    for (const [name, quote] of Object.entries(quotes)) {
      const found: string[] = []
      visit(wire(quote), '', '$', found)
      expect(found, name).toEqual([])
    }
  })

  test('native sides are the zero address, as the recordings write them', () => {
    const nativeIn = wire(quotes['native in (ETH -> USDC)']!)
    const nativeOut = wire(quotes['native out (USDC -> ETH)']!)
    expect(nativeIn.approval).toBeNull()
    expect((nativeIn.transaction as { value: string }).value).toBe(nativeIn.amountIn)
    expect(nativeIn.tokens).toContainEqual(expect.objectContaining({ address: ETH, symbol: 'ETH', decimals: 18 }))
    expect(nativeOut.approval).toEqual({ token: T.USDC, amount: nativeOut.amountIn, spender: (nativeOut.transaction as { to: string }).to })
    expect((nativeOut.transaction as { value: string }).value).toBe('0')
    expect(nativeOut.tokens).toContainEqual(expect.objectContaining({ address: ETH, symbol: 'ETH', decimals: 18 }))
  })

  test('an empty fee list is [] and the appId default is null, not absent', () => {
    const plain = wire(quotes['ERC-20 in (USDC -> WETH)']!)
    expect(plain.fees).toEqual([])
    expect(plain).toHaveProperty('appId', null)
    expect(wire(quotes['with appId, exact output, fees on the output (DEGEN -> WETH)']!)).toHaveProperty('appId', 'test')
  })
})
