import { type Address, isAddress } from 'viem'
import { defineChainConfig } from '../../chains/registry.js'
import type { ChainConfig } from '../../chains/types.js'
import { QuoteError, type ParamIssue, invalidParams } from '../../errors/QuoteError.js'
import { defaultFamilies } from '../../protocols/defaultFamilies.js'
import type { PoolFamily, PoolStateBase } from '../../protocols/types.js'
import type { AppConfig } from '../../quote/fees.js'
import type { Quote, QuoteIntent } from '../../quote/types.js'
import type { AccountToken, Liquidity, TokenMetadata } from '../types.js'
import { REPLAY_BUNDLE_VERSION } from './replayBundle.js'

/** A bundle read back: the getQuote inputs it holds, typed again (bigints restored). */
export type ParsedReplayBundle = {
  weftVersion: string
  chain: ChainConfig
  intent: QuoteIntent
  liquidity: Liquidity
  options: {
    now: number
    id: string
    sender?: Address
    gasPriceWei?: bigint
    maxHops?: number
    deadlineSeconds?: number
    families?: readonly PoolFamily[]
    app?: AppConfig
  }
  quote?: Quote
}

type Json = Record<string, unknown>

const decimal = /^[0-9]{1,80}$/
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Intent fields that hold amounts (strings in the bundle, bigints for getQuote). */
const amountFields = ['sellAmount', 'buyAmount'] as const

/**
 * Reads a replay bundle (a `ReplayBundle` as JSON data, from anyone) back into getQuote's inputs.
 * A bundle is untrusted input: anything malformed is a 400 QuoteError whose details name the
 * field (`bundle.liquidity.pools[3]`), never another error. The intent's own fields are checked
 * by getQuote (400/422 as for any request).
 *
 * @example
 * const parsed = parseReplayBundle(JSON.parse(text)) // throws QuoteError 400 on a corrupted bundle
 * parsed.liquidity.blockNumber // 18432117
 */
export function parseReplayBundle(value: unknown): ParsedReplayBundle {
  const issues: ParamIssue[] = []
  const fail = (param: string, message: string) => void issues.push({ param: `bundle${param}`, message })
  if (!isObject(value)) throw invalidParams([{ param: 'bundle', message: 'must be a JSON object (a weft replay bundle)' }])
  if (value.format !== 'weft-replay') fail('.format', "must be 'weft-replay'")
  if (value.version !== REPLAY_BUNDLE_VERSION) fail('.version', `must be ${REPLAY_BUNDLE_VERSION} (this weft reads version ${REPLAY_BUNDLE_VERSION} bundles)`)
  if (issues.length > 0) throw invalidParams(issues)
  const weftVersion = typeof value.weftVersion === 'string' ? value.weftVersion : (fail('.weftVersion', 'must be a string'), '')

  const chain = readChain(value.chain, fail)
  const intent = readIntent(value.intent, fail)
  const liquidity = readLiquidity(value.liquidity, fail)
  const options = readOptions(value.options, fail)
  const quote = value.quote === undefined ? undefined : isObject(value.quote) ? (value.quote as Quote) : (fail('.quote', 'must be an object'), undefined)
  if (chain && liquidity && liquidity.chainId !== chain.id) fail('.liquidity.chainId', `must be the chain's id (${chain.id})`)
  if (issues.length > 0 || !chain || !intent || !liquidity || !options) throw invalidParams(issues)
  return { weftVersion, chain, intent, liquidity, options, ...(quote ? { quote } : {}) }
}

type Fail = (param: string, message: string) => undefined

function readChain(value: unknown, fail: Fail): ChainConfig | undefined {
  if (!isObject(value)) return fail('.chain', 'must be an object (a chain configuration)')
  const gas = value.defaultGasPriceWei
  if (typeof gas !== 'string' || !decimal.test(gas)) return fail('.chain.defaultGasPriceWei', 'must be a base-10 integer string')
  if (!Array.isArray(value.dexes)) return fail('.chain.dexes', 'must be an array')
  for (const field of ['tokens', 'usdStablecoins', 'majorTokens'] as const)
    if (!Array.isArray(value[field])) return fail(`.chain.${field}`, 'must be an array')
  for (const [index, dex] of value.dexes.entries()) {
    const problem = checkDex(dex)
    if (problem) return fail(`.chain.dexes[${index}]${problem.field}`, problem.message)
  }
  try {
    return defineChainConfig({ ...(value as unknown as ChainConfig), defaultGasPriceWei: BigInt(gas) })
  } catch (error) {
    // defineChainConfig speaks to a host (500); here the configuration is the bundle's, a caller's input.
    return fail('.chain', error instanceof QuoteError ? error.message : 'is not a chain configuration')
  }
}

/** The family-specific fields of a dex that defineChainConfig leaves to the families (they trust a host). */
function checkDex(dex: unknown): { field: string; message: string } | undefined {
  if (!isObject(dex)) return { field: '', message: 'must be an object' }
  if (dex.feeBps !== undefined && !Number.isInteger(dex.feeBps)) return { field: '.feeBps', message: 'must be an integer' }
  if (dex.feeTiers !== undefined && (!isObject(dex.feeTiers) || !Object.values(dex.feeTiers).every(Number.isInteger)))
    return { field: '.feeTiers', message: 'must map fee tiers to integer tick spacings' }
  if (dex.tickSpacings !== undefined && (!Array.isArray(dex.tickSpacings) || !dex.tickSpacings.every(Number.isInteger)))
    return { field: '.tickSpacings', message: 'must be an array of integers' }
  for (const field of ['poolKeys', 'pools', 'poolFactories'] as const)
    if (dex[field] !== undefined && !Array.isArray(dex[field])) return { field: `.${field}`, message: 'must be an array' }
  if (Array.isArray(dex.poolKeys) && !dex.poolKeys.every((key) => isObject(key) && isAddressString(key.currency0) && isAddressString(key.currency1) && isAddressString(key.hooks) && Number.isInteger(key.fee) && Number.isInteger(key.tickSpacing)))
    return { field: '.poolKeys', message: 'must be pool keys { currency0, currency1, fee, tickSpacing, hooks }' }
  return undefined
}

function readIntent(value: unknown, fail: Fail): QuoteIntent | undefined {
  if (!isObject(value)) return fail('.intent', 'must be an object')
  const intent: Json = { ...value }
  for (const field of amountFields) {
    const amount = value[field]
    if (amount === undefined) continue
    if (typeof amount !== 'string' || !decimal.test(amount)) return fail(`.intent.${field}`, 'must be a base-10 integer string')
    intent[field] = BigInt(amount)
  }
  return intent as QuoteIntent
}

function readLiquidity(value: unknown, fail: Fail): Liquidity | undefined {
  if (!isObject(value)) return fail('.liquidity', 'must be an object')
  const { chainId, blockNumber, tokens, pools, gasPriceWei, balances } = value
  let ok = true
  const bad = (param: string, message: string) => {
    ok = false
    fail(`.liquidity${param}`, message)
  }
  if (!Number.isSafeInteger(chainId) || (chainId as number) <= 0) bad('.chainId', 'must be a positive integer')
  if (!Number.isSafeInteger(blockNumber) || (blockNumber as number) < 0) bad('.blockNumber', 'must be a non-negative integer')
  if (!Array.isArray(tokens)) bad('.tokens', 'must be an array')
  else tokens.forEach((token, index) => checkToken(token, (message) => bad(`.tokens[${index}]`, message)))
  if (!Array.isArray(pools)) bad('.pools', 'must be an array')
  else
    pools.forEach((pool, index) => {
      if (!isObject(pool) || typeof pool.family !== 'string' || typeof pool.dex !== 'string' || typeof pool.address !== 'string')
        bad(`.pools[${index}]`, 'must be a pool state (an object with family, dex and address)')
    })
  if (gasPriceWei !== undefined && (typeof gasPriceWei !== 'string' || !decimal.test(gasPriceWei))) bad('.gasPriceWei', 'must be a base-10 integer string')
  const readBalances: (AccountToken & { balance: bigint })[] = []
  if (balances !== undefined) {
    if (!Array.isArray(balances)) bad('.balances', 'must be an array')
    else
      balances.forEach((entry, index) => {
        if (!isObject(entry) || !isAddressString(entry.token) || !isAddressString(entry.account) || typeof entry.balance !== 'string' || !decimal.test(entry.balance))
          return bad(`.balances[${index}]`, 'must be { token, account, balance } (addresses, a base-10 balance)')
        readBalances.push({ token: entry.token as Address, account: entry.account as Address, balance: BigInt(entry.balance) })
      })
  }
  if (!ok) return undefined
  return {
    chainId: chainId as number,
    blockNumber: blockNumber as number,
    tokens: tokens as TokenMetadata[],
    pools: pools as PoolStateBase[],
    ...(gasPriceWei !== undefined ? { gasPriceWei: BigInt(gasPriceWei as string) } : {}),
    ...(balances !== undefined ? { balances: readBalances } : {}),
    report: { roundTrips: 0, requests: 0, skipped: [] },
  }
}

function checkToken(token: unknown, bad: (message: string) => void): void {
  const fee = isObject(token) ? token.transferFeeBps : undefined
  if (
    !isObject(token) ||
    !isAddressString(token.address) ||
    typeof token.symbol !== 'string' ||
    !Number.isInteger(token.decimals) ||
    !(fee === null || Number.isInteger(fee))
  )
    bad('must be token metadata { address, symbol, decimals, transferFeeBps }')
}

function readOptions(value: unknown, fail: Fail): ParsedReplayBundle['options'] | undefined {
  if (!isObject(value)) return fail('.options', 'must be an object')
  const { now, id, sender, gasPriceWei, maxHops, deadlineSeconds, families, app } = value
  let ok = true
  const bad = (param: string, message: string) => {
    ok = false
    fail(`.options${param}`, message)
  }
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0) bad('.now', 'must be the quote clock in milliseconds')
  if (typeof id !== 'string' || !uuid.test(id)) bad('.id', 'must be the quote id (a UUID)')
  if (sender !== undefined && !isAddressString(sender)) bad('.sender', 'must be an address')
  if (gasPriceWei !== undefined && (typeof gasPriceWei !== 'string' || !decimal.test(gasPriceWei))) bad('.gasPriceWei', 'must be a base-10 integer string')
  if (maxHops !== undefined && !Number.isInteger(maxHops)) bad('.maxHops', 'must be an integer')
  if (deadlineSeconds !== undefined && !Number.isInteger(deadlineSeconds)) bad('.deadlineSeconds', 'must be an integer')
  let chosen: PoolFamily[] | undefined
  if (families !== undefined) {
    if (!Array.isArray(families) || !families.every((family) => typeof family === 'string')) bad('.families', 'must be an array of family ids')
    else {
      const unknown = families.filter((family) => !defaultFamilies.some((known) => known.id === family))
      if (unknown.length > 0) bad('.families', `names families this weft does not have: ${unknown.join(', ')}`)
      chosen = defaultFamilies.filter((known) => families.includes(known.id))
    }
  }
  if (app !== undefined && !isObject(app)) bad('.app', 'must be an object (an app fee configuration)')
  if (!ok) return undefined
  return {
    now: now as number,
    id: id as string,
    ...(sender !== undefined ? { sender: sender as Address } : {}),
    ...(gasPriceWei !== undefined ? { gasPriceWei: BigInt(gasPriceWei as string) } : {}),
    ...(maxHops !== undefined ? { maxHops: maxHops as number } : {}),
    ...(deadlineSeconds !== undefined ? { deadlineSeconds: deadlineSeconds as number } : {}),
    ...(chosen !== undefined ? { families: chosen } : {}),
    ...(app !== undefined ? { app: app as AppConfig } : {}),
  }
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const isAddressString = (value: unknown): value is string => typeof value === 'string' && isAddress(value, { strict: false })
