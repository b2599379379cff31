// Soak test: `npm run soak [-- --count 100000 --seed 1]`. Not part of `npm test`.
// Pushes random and hostile query records through parseQuoteParams (then getQuote when
// they parse) and random and hostile intents straight into getQuote, on weft's embedded
// default snapshot. Every outcome must be a quote or a QuoteError whose status and code
// are those of docs/decisions.md §3; anything else (another error type, a status outside
// the table, a code that does not match its status, a quote that cannot be serialised)
// is printed with its input. Prints the count per status, throughput, the slowest
// records and the 500s (internal errors: allowed by the table, but each one is a bug).
// Deterministic for a seed; bounded by --count; stops by itself. Exits 1 on a finding.
import { parseArgs } from 'node:util'
import { QuoteError, type QuoteIntent, createSnapshotSource, getQuote, parseQuoteParams } from '../src/index.js'
import { defaultSnapshot } from '../src/defaultSnapshot.js'
import { quoteParamForms } from '../src/quote/parseQuoteParams.js'
import { createRandom } from '../test/support/random.js'

const { values } = parseArgs({
  options: { count: { type: 'string', default: '100000' }, seed: { type: 'string', default: '1' } },
  strict: true,
})
const count = Math.max(1, Math.min(10_000_000, Number(values.count)))

/** decisions.md §3: status -> code. 429 is for servers only, so it never comes from weft itself. */
const statusCodes: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  422: 'unprocessable',
  404: 'not_found',
  500: 'internal_error',
  503: 'unavailable',
}

/** The shared seeded generator (test/support/random.ts), so a finding can be replayed with its seed. */
function createSoakRandom(seed: number) {
  const next = createRandom(seed)
  const below = (n: number) => Math.floor(next() * n)
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!
  const chance = (p: number) => next() < p
  return { next, below, pick, chance }
}
const random = createSoakRandom(Number(values.seed))

const source = createSnapshotSource(defaultSnapshot)
const snapshotTokens = defaultSnapshot.flatMap((snapshot) => snapshot.tokens.map((token) => ({ chainId: snapshot.chainId, address: token.address, decimals: token.decimals })))
const chainIds = [1, 8453, 0, -1, 42161, 10, 31337, 2 ** 53, Number.NaN]
const native = '0x0000000000000000000000000000000000000000'

const hex = (digits: number) => Array.from({ length: digits }, () => '0123456789abcdefABCDEF'[random.below(22)]).join('')
const randomAddress = () => `0x${hex(40)}`

/** Strings that have broken parsers elsewhere: empty, huge, control and bidi characters, lookalike numbers, prototype keys. */
const hostileStrings = [
  '',
  ' ',
  '0',
  '-1',
  '00',
  '1e18',
  '0x10',
  '1.5',
  '+5',
  ' 5',
  '5 ',
  '١٢٣',
  '1_000',
  'Infinity',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  '0x',
  '0X4200000000000000000000000000000000000006',
  '0x42000000000000000000000000000000000000061',
  `0x${'g'.repeat(40)}`,
  '\u0000',
  '\u001b[2K\rUSDC',
  '\u202eUSDC',
  '𝟙𝟚𝟛',
  '9'.repeat(78),
  (2n ** 256n).toString(),
  (2n ** 256n - 1n).toString(),
  'a'.repeat(100_000),
  '%00',
  '../../etc/passwd',
  '<script>',
]

/** A value for a query parameter: mostly strings (as a URL gives them), sometimes anything a careless host might pass. */
function randomParamValue(param: string): unknown {
  const roll = random.next()
  if (roll < 0.35) return plausibleValue(param)
  if (roll < 0.65) return random.pick(hostileStrings)
  if (roll < 0.75) return [plausibleValue(param), random.pick(hostileStrings)]
  return random.pick<unknown>([
    null,
    undefined,
    0,
    -0,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    10n ** 18n,
    -1n,
    true,
    {},
    [],
    { toString: () => '1000' },
    Object.create(null),
    new Date(0),
    Symbol('x'),
    () => 1,
    new Uint8Array(4),
    { valueOf: () => 7 },
  ])
}

function plausibleValue(param: string): string {
  const token = random.pick(snapshotTokens)
  switch (param) {
    case 'chainId':
      return String(random.chance(0.8) ? token.chainId : random.pick(chainIds))
    case 'sellToken':
    case 'buyToken':
      return random.chance(0.8) ? (random.chance(0.5) ? token.address : token.address.toUpperCase().replace('0X', '0x')) : random.pick([native, randomAddress()])
    case 'sellAmount':
    case 'buyAmount':
      return randomAmount().toString()
    case 'receiver':
    case 'feeRecipient':
    case 'surplusFeeRecipient':
    case 'referralFeeRecipient':
      return random.chance(0.9) ? randomAddress() : native
    case 'x-app-id':
      return random.pick(['my-wallet', 'a'.repeat(128), 'a'.repeat(129), 'tab\there', 'ünï'])
    default:
      return String(random.chance(0.8) ? random.below(1200) : random.below(20_000) - 5000)
  }
}

/** Amounts from 1 wei to far beyond any pool, log-uniform. */
const randomAmount = () => 10n ** BigInt(random.below(31)) * BigInt(1 + random.below(9))

/** Every parameter parseQuoteParams reads: the query parameters and the `x-app-id` header. */
const paramNames = Object.keys(quoteParamForms)

/** A query record: a plausible quote with some parameters dropped, broken, repeated or added. */
function randomQueryRecord(): Record<string, unknown> {
  const record: Record<string, unknown> = {}
  const token = random.pick(snapshotTokens)
  const other = random.pick(snapshotTokens.filter((t) => t.chainId === token.chainId))
  if (random.chance(0.9)) record.chainId = String(token.chainId)
  if (random.chance(0.9)) record.sellToken = token.address
  if (random.chance(0.9)) record.buyToken = other.address
  record[random.chance(0.6) ? 'sellAmount' : 'buyAmount'] = randomAmount().toString()
  for (let i = random.below(4); i > 0; i--) {
    const param = random.pick(paramNames)
    record[param] = randomParamValue(param)
  }
  if (random.chance(0.05)) record[random.pick(['__proto__', 'constructor', 'prototype', 'junk', ''])] = random.pick(hostileStrings)
  if (random.chance(0.01)) Object.defineProperty(record, 'sellAmount', { enumerable: true, get: () => { throw new Error('hostile getter') } })
  return record
}

/** An intent as a host would build it in code, sometimes with the wrong types. */
function randomIntent(): QuoteIntent {
  const token = random.pick(snapshotTokens)
  const other = random.pick(snapshotTokens.filter((t) => t.chainId === token.chainId))
  const intent: Record<string, unknown> = {
    chainId: random.chance(0.9) ? token.chainId : random.pick(chainIds),
    sellToken: random.chance(0.1) ? native : token.address,
    buyToken: random.chance(0.1) ? native : other.address,
  }
  intent[random.chance(0.6) ? 'sellAmount' : 'buyAmount'] = random.chance(0.9) ? randomAmount() : random.pick<unknown>([0n, -1n, 2n ** 256n, 1, '1000', null])
  if (random.chance(0.3)) intent.slippageBps = random.pick<unknown>([0, 50, 10_000, 10_001, -1, 0.5, '50', Number.NaN])
  if (random.chance(0.2)) intent.priceImpactLimitBps = random.pick<unknown>([0, 100, 10_000, 20_000])
  if (random.chance(0.2)) intent.receiver = random.pick<unknown>([randomAddress().toLowerCase(), native, 'nope', 42])
  if (random.chance(0.15)) {
    intent.feeBps = random.pick<unknown>([0, 10, 1000, 1001, -5])
    if (random.chance(0.8)) intent.feeRecipient = randomAddress().toLowerCase()
  }
  if (random.chance(0.1)) {
    intent.referralFeeBps = random.pick<unknown>([1, 50, 5000])
    intent.referralFeeRecipient = random.pick<unknown>([randomAddress().toLowerCase(), native])
  }
  if (random.chance(0.1)) intent.appId = random.pick<unknown>(['app', '', 'x'.repeat(200), 7, null])
  if (random.chance(0.02)) intent[random.pick(['__proto__', 'extra'])] = { polluted: true }
  return intent as QuoteIntent
}

type Finding = { kind: string; input: string; error: string }
const findings: Finding[] = []
const internalErrors: Finding[] = []
const statuses = new Map<string, number>()
const slowest: { ms: number; input: string; outcome: string }[] = []
let quotedRecords = 0

/** Inputs as text for the report: bigints as `123n`, long strings cut, functions and symbols named. */
function show(input: unknown): string {
  const text = JSON.stringify(input, (_key, value) => {
    if (typeof value === 'bigint') return `${value}n`
    if (typeof value === 'string' && value.length > 120) return `${value.slice(0, 60)}…(${value.length} chars)`
    if (typeof value === 'function' || typeof value === 'symbol' || value === undefined) return String(value)
    return value
  })
  return text ?? String(input)
}

function record(outcome: string, kind: string, input: unknown, ms: number) {
  statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1)
  if (slowest.length < 5 || ms > slowest[slowest.length - 1]!.ms) {
    slowest.push({ ms, input: `${kind} ${show(input)}`, outcome })
    slowest.sort((a, b) => b.ms - a.ms)
    slowest.length = Math.min(slowest.length, 5)
  }
}

/** Checks one thrown value against §3; returns the outcome label. */
function classify(thrown: unknown, kind: string, input: unknown): string {
  if (!(thrown instanceof QuoteError)) {
    findings.push({ kind: `${kind}: not a QuoteError`, input: show(input), error: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown) })
    return 'not a QuoteError'
  }
  const expected = statusCodes[thrown.statusCode]
  if (expected === undefined || thrown.code !== expected) {
    findings.push({ kind: `${kind}: status ${thrown.statusCode} / code ${thrown.code} not in decisions.md §3`, input: show(input), error: thrown.message })
    return `bad ${thrown.statusCode}`
  }
  const details = thrown.details
  if (details !== null && !(Array.isArray(details) && details.every((d) => typeof d.param === 'string' && typeof d.message === 'string')))
    findings.push({ kind: `${kind}: details neither null nor [{ param, message }]`, input: show(input), error: thrown.message })
  if (thrown.statusCode === 500) internalErrors.push({ kind, input: show(input), error: `${thrown.message}; cause: ${String((thrown as { cause?: unknown }).cause)}` })
  return String(thrown.statusCode)
}

async function quoteAndCheck(intent: QuoteIntent, kind: string, input: unknown): Promise<string> {
  const quote = await getQuote(intent, source)
  quotedRecords++
  try {
    JSON.stringify(quote)
  } catch (error) {
    findings.push({ kind: `${kind}: quote is not JSON`, input: show(input), error: String(error) })
  }
  return '200'
}

console.log(`soak: ${count} records (seed ${values.seed}) on the embedded default snapshot: ~half query records (parseQuoteParams, then getQuote), ~half intents (getQuote)`)
const started = performance.now()
let routerMs = 0
for (let i = 0; i < count; i++) {
  const isQuery = random.chance(0.5)
  const input = isQuery ? randomQueryRecord() : randomIntent()
  const kind = isQuery ? 'query' : 'intent'
  const recordStarted = performance.now()
  let outcome: string
  try {
    const intent = isQuery ? parseQuoteParams(input as Record<string, unknown>) : (input as QuoteIntent)
    const quoteStarted = performance.now()
    try {
      outcome = await quoteAndCheck(intent, kind, input)
    } finally {
      routerMs += performance.now() - quoteStarted
    }
  } catch (thrown) {
    outcome = classify(thrown, kind, input)
  }
  record(outcome, kind, input, performance.now() - recordStarted)
  if ((i + 1) % 10_000 === 0) console.log(`  ${i + 1} records, ${((performance.now() - started) / 1000).toFixed(0)} s`)
}
const seconds = (performance.now() - started) / 1000

console.log(`\n${count} records in ${seconds.toFixed(1)} s: ${(count / seconds).toFixed(0)} records/s; ${quotedRecords} quotes; ${(routerMs / 1000).toFixed(1)} s inside getQuote`)
console.log('outcomes by status:')
for (const [outcome, n] of [...statuses].sort()) console.log(`  ${outcome.padEnd(18)} ${String(n).padStart(7)}  (${statusCodes[Number(outcome)] ?? (outcome === '200' ? 'quote' : 'FINDING')})`)
console.log('slowest records:')
for (const slow of slowest) console.log(`  ${slow.ms.toFixed(0)} ms -> ${slow.outcome}: ${slow.input.slice(0, 300)}`)
console.log(`500 internal errors: ${internalErrors.length}`)
for (const error of internalErrors.slice(0, 10)) console.log(`  ${error.kind} ${error.input.slice(0, 300)} -> ${error.error.slice(0, 300)}`)
console.log(`findings (outcomes other than a quote or a §3 QuoteError): ${findings.length}`)
for (const finding of findings.slice(0, 20)) console.log(`  ${finding.kind}: ${finding.input.slice(0, 300)} -> ${finding.error.slice(0, 300)}`)
process.exit(findings.length > 0 || internalErrors.length > 0 ? 1 : 0)
