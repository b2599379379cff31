// Every failure getQuote itself produces (decisions.md §3), body for body:
// statusCode, code, message and details exactly, and nothing else in toJSON().
// Offline: the embedded snapshot, custom snapshots and hand-written sources (one bare anvil for
// the RPC source's configuration check).
import { type Address, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { defaultSnapshot } from '../src/defaultSnapshot.js'
import {
  type ChainConfig,
  type Liquidity,
  type LiquiditySource,
  type PoolFamily,
  type Quote,
  type QuoteIntent,
  type Snapshot,
  QuoteError,
  base as baseChain,
  createRpcSource,
  createSnapshotSource,
  getQuote,
  uniswapV2Family,
} from '../src/index.js'
import { startAnvil } from './devnet/anvil.js'

const source = createSnapshotSource(defaultSnapshot)
const ethSnapshot = defaultSnapshot.find((s) => s.chainId === 1)!
const baseSnapshot = defaultSnapshot.find((s) => s.chainId === 8453)!

const ETH = zeroAddress
const base = {
  WETH: '0x4200000000000000000000000000000000000006',
  USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  DEGEN: '0x4ed4e862860bed51a9570b96d89af5e1b0efefed',
} as const satisfies Record<string, Address>
const mainnet = {
  WETH: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
} as const satisfies Record<string, Address>
const STRANGER: Address = '0x1111111111111111111111111111111111111111'
const OTHER_STRANGER: Address = '0x2222222222222222222222222222222222222222'
const RECIPIENT: Address = '0x000000000000000000000000000000000000fee1'

/** 1 WETH -> USDC on Base: a plain quote every case below perturbs. */
const intent: QuoteIntent = { chainId: 8453, sellToken: base.WETH, buyToken: base.USDC, sellAmount: 10n ** 18n }

type Body = ReturnType<QuoteError['toJSON']>

/** The QuoteError a promise rejects with; fails the test on anything else, or on success. */
async function rejection(promise: Promise<unknown>): Promise<QuoteError> {
  let outcome: { settled: 'fulfilled'; value: unknown } | { settled: 'rejected'; error: unknown }
  try {
    outcome = { settled: 'fulfilled', value: await promise }
  } catch (error) {
    outcome = { settled: 'rejected', error }
  }
  expect(outcome.settled, 'getQuote should have rejected').toBe('rejected')
  const error = (outcome as { error: unknown }).error
  expect(error).toBeInstanceOf(QuoteError)
  return error as QuoteError
}

/** The error body exactly (toJSON and JSON.stringify), and the error's own fields agreeing with it. */
function expectBody(error: QuoteError, body: Body) {
  expect(error.toJSON()).toStrictEqual(body)
  expect(Object.keys(error.toJSON())).toEqual(['statusCode', 'code', 'message', 'details'])
  expect(JSON.parse(JSON.stringify(error))).toStrictEqual(body)
  expect(error.name).toBe('QuoteError')
  expect(error.statusCode).toBe(body.statusCode)
  expect(error.code).toBe(body.code)
  expect(error.message).toBe(body.message)
  expect(error.details).toStrictEqual(body.details)
}

const failQuote = (i: unknown, s: LiquiditySource = source, o: Parameters<typeof getQuote>[2] = {}) =>
  rejection(getQuote(i as QuoteIntent, s, o))

const invalid = (...details: { param: string; message: string }[]): Body => ({
  statusCode: 400,
  code: 'invalid_request',
  message: `Invalid request: ${details.map((d) => `${d.param} ${d.message}`).join('; ')}`,
  details,
})
const unprocessable = (...details: { param: string; message: string }[]): Body => ({
  statusCode: 422,
  code: 'unprocessable',
  message: `Unprocessable request: ${details.map((d) => `${d.param} ${d.message}`).join('; ')}`,
  details,
})
const noRoute: Body = { statusCode: 404, code: 'not_found', message: 'No route found', details: null }
const unavailable = (message: string): Body => ({ statusCode: 503, code: 'unavailable', message, details: null })
const internal: Body = { statusCode: 500, code: 'internal_error', message: 'Internal error', details: null }


/** A snapshot source over a modified copy of the Base snapshot. */
const baseWith = (change: (s: Snapshot) => Snapshot) => createSnapshotSource(change(structuredClone(baseSnapshot) as Snapshot))

describe('400 invalid_request', () => {
  test('an unknown chain', async () => {
    expectBody(await failQuote({ ...intent, chainId: 10 }), invalid({ param: 'chainId', message: 'is not a supported chain' }))
  })

  test('a planned chain (Arbitrum One, 42161)', async () => {
    expectBody(
      await failQuote({ ...intent, chainId: 42161, sellToken: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1', buyToken: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' }),
      invalid({ param: 'chainId', message: 'is a planned chain, not supported yet' }),
    )
  })

  test.each([
    ['a missing chainId', { ...intent, chainId: undefined }, [{ param: 'chainId', message: 'is required' }]],
    ['a malformed token address', { ...intent, buyToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda0291' }, [{ param: 'buyToken', message: 'must be an address (0x followed by 40 hex digits)' }]],
    ['both amounts', { ...intent, buyAmount: 1n }, [{ param: 'sellAmount', message: 'must not be given together with buyAmount' }]],
    ['neither amount', { ...intent, sellAmount: undefined }, [{ param: 'sellAmount', message: 'is required when buyAmount is absent' }]],
    ['an amount of 0', { ...intent, sellAmount: 0n }, [{ param: 'sellAmount', message: 'must be greater than 0' }]],
    ['an amount of 2^256', { ...intent, sellAmount: 1n << 256n }, [{ param: 'sellAmount', message: 'must be less than 2^256' }]],
    ['a fee without its recipient', { ...intent, feeBps: 10 }, [{ param: 'feeRecipient', message: 'is required when feeBps is set' }]],
    ['a fee above its maximum', { ...intent, referralFeeBps: 1001, referralFeeRecipient: RECIPIENT }, [{ param: 'referralFeeBps', message: 'must be between 0 and 1000' }]],
    ['slippage outside 0..10000', { ...intent, slippageBps: 10001 }, [{ param: 'slippageBps', message: 'must be between 0 and 10000' }]],
    ['a fractional bps', { ...intent, priceImpactLimitBps: 1.5 }, [{ param: 'priceImpactLimitBps', message: 'must be an integer' }]],
  ] as const)('%s', async (_, bad, details) => {
    expectBody(await failQuote(bad), invalid(...details))
  })

  describe('price impact above priceImpactLimitBps', () => {
    // 10^26 DEGEN -> WETH on Base: about 40 bps of impact, so limits of 40 and 41 straddle it.
    const degen = { ...intent, sellToken: base.DEGEN, buyToken: base.WETH, sellAmount: 10n ** 26n }

    test('states the quote\'s own priceImpactBps and the limit; details null', async () => {
      const quote = await getQuote({ ...degen, priceImpactLimitBps: 10000 }, source)
      const impact = quote.priceImpactBps
      expect(impact).toBeGreaterThan(1)
      const limit = Math.floor(impact) === impact ? impact - 1 : Math.floor(impact)
      expectBody(await failQuote({ ...degen, priceImpactLimitBps: limit }), {
        statusCode: 400,
        code: 'invalid_request',
        message: `Price impact of ${impact} bps too high (limit = ${limit} bps)`,
        details: null,
      })
      // Just above the impact, the same request quotes, with the same impact.
      const passing = await getQuote({ ...degen, priceImpactLimitBps: Math.ceil(impact + 0.005) }, source)
      expect(passing.priceImpactBps).toBe(impact)
    })

    test('a limit of 0 refuses any quote through a pool', async () => {
      const quote = await getQuote(intent, source)
      expect(quote.priceImpactBps).toBeGreaterThan(0)
      expectBody(await failQuote({ ...intent, priceImpactLimitBps: 0 }), {
        statusCode: 400,
        code: 'invalid_request',
        message: `Price impact of ${quote.priceImpactBps} bps too high (limit = 0 bps)`,
        details: null,
      })
    })

    test('the default limit is 1000 bps', async () => {
      const big = { ...degen, sellAmount: 10n ** 28n }
      const quote = await getQuote({ ...big, priceImpactLimitBps: 10000 }, source)
      expect(quote.priceImpactBps).toBeGreaterThan(1000)
      expectBody(await failQuote(big), {
        statusCode: 400,
        code: 'invalid_request',
        message: `Price impact of ${quote.priceImpactBps} bps too high (limit = 1000 bps)`,
        details: null,
      })
    })

    test('an exact-output quote is checked the same way', async () => {
      const out = { chainId: 8453, sellToken: base.DEGEN, buyToken: base.WETH, buyAmount: 10n ** 20n }
      const quote = await getQuote({ ...out, priceImpactLimitBps: 10000 }, source)
      const limit = Math.floor(quote.priceImpactBps)
      expect(limit).toBeLessThan(quote.priceImpactBps)
      expectBody(await failQuote({ ...out, priceImpactLimitBps: limit }), {
        statusCode: 400,
        code: 'invalid_request',
        message: `Price impact of ${quote.priceImpactBps} bps too high (limit = ${limit} bps)`,
        details: null,
      })
    })
  })
})

describe('422 unprocessable', () => {
  test('sellToken equal to buyToken, in any letter case', async () => {
    const same = unprocessable({ param: 'buyToken', message: 'must differ from sellToken' })
    expectBody(await failQuote({ ...intent, buyToken: base.WETH }), same)
    expectBody(await failQuote({ ...intent, buyToken: `0x${base.WETH.slice(2).toUpperCase()}` }), same)
    expectBody(await failQuote({ ...intent, sellToken: ETH, buyToken: ETH }), same)
  })

  const cannotDescribe = 'is a token the liquidity source cannot describe (no decimals)'

  test('a sell token unknown to the snapshot and the chain config', async () => {
    expectBody(await failQuote({ ...intent, sellToken: STRANGER }), unprocessable({ param: 'sellToken', message: cannotDescribe }))
  })

  test('a buy token unknown to the snapshot and the chain config', async () => {
    expectBody(await failQuote({ ...intent, buyToken: STRANGER }), unprocessable({ param: 'buyToken', message: cannotDescribe }))
  })

  test('both tokens unknown: one entry each, in parameter order', async () => {
    expectBody(
      await failQuote({ ...intent, sellToken: OTHER_STRANGER, buyToken: STRANGER }),
      unprocessable({ param: 'sellToken', message: cannotDescribe }, { param: 'buyToken', message: cannotDescribe }),
    )
  })

  test("a token of the other chain's snapshot is unknown here", async () => {
    expectBody(await failQuote({ ...intent, buyToken: mainnet.USDC }), unprocessable({ param: 'buyToken', message: cannotDescribe }))
  })

  test('a token the source lists without decimals cannot be described either', async () => {
    // decisions.md §3: "a token the liquidity source cannot describe (no decimals)" is a 422.
    const lacking = baseWith((s) => ({
      ...s,
      tokens: [...s.tokens, { address: STRANGER, symbol: 'NODEC' } as Snapshot['tokens'][number]],
    }))
    expectBody(await failQuote({ ...intent, sellToken: STRANGER }, lacking), unprocessable({ param: 'sellToken', message: cannotDescribe }))
  })

  test('a known token whose source entry lacks decimals is not quoted with a token of unknown decimals', async () => {
    // The source's entry replaces the chain config's (USDC, 6 decimals). A quote
    // built on it would carry a Token without decimals, which the wire shape forbids.
    const lacking = baseWith((s) => ({
      ...s,
      tokens: s.tokens.map((t) => (t.address === base.USDC ? ({ address: t.address, symbol: t.symbol } as unknown as typeof t) : t)),
    }))
    const outcome = await getQuote(intent, lacking).then(
      (quote: Quote) => ({ quote }),
      (error: unknown) => ({ error }),
    )
    if ('quote' in outcome) {
      for (const token of outcome.quote.tokens) expect(Number.isInteger(token.decimals), `decimals of ${token.symbol}`).toBe(true)
    } else {
      expectBody(outcome.error as QuoteError, unprocessable({ param: 'buyToken', message: cannotDescribe }))
    }
  })

  test('a zero-address receiver', async () => {
    expectBody(await failQuote({ ...intent, receiver: ETH }), unprocessable({ param: 'receiver', message: 'must not be the zero address' }))
  })

  test.each([
    ['feeBps', 'feeRecipient'],
    ['surplusFeeBps', 'surplusFeeRecipient'],
    ['referralFeeBps', 'referralFeeRecipient'],
  ] as const)('a zero-address %s recipient', async (bps, recipient) => {
    expectBody(
      await failQuote({ ...intent, [bps]: 5, [recipient]: ETH }),
      unprocessable({ param: recipient, message: 'must not be the zero address' }),
    )
  })

  test('every zero-address recipient at once: one entry each, in parameter order', async () => {
    const zero = 'must not be the zero address'
    expectBody(
      await failQuote({
        ...intent,
        referralFeeBps: 1,
        referralFeeRecipient: ETH,
        receiver: ETH,
        surplusFeeBps: 1,
        surplusFeeRecipient: ETH,
        feeBps: 1,
        feeRecipient: ETH,
      }),
      unprocessable(
        { param: 'receiver', message: zero },
        { param: 'feeRecipient', message: zero },
        { param: 'surplusFeeRecipient', message: zero },
        { param: 'referralFeeRecipient', message: zero },
      ),
    )
  })

  test('a 400 problem wins over a 422 one, and the 422 is not listed', async () => {
    expectBody(
      await failQuote({ ...intent, buyToken: base.WETH, slippageBps: -1 }),
      invalid({ param: 'slippageBps', message: 'must be between 0 and 10000' }),
    )
  })
})

describe('404 not_found', () => {
  test('a described token with no pool at all', async () => {
    const LONE: Address = '0x3333333333333333333333333333333333333333'
    const lonely = baseWith((s) => ({ ...s, tokens: [...s.tokens, { address: LONE, symbol: 'LONE', decimals: 18, transferFeeBps: 0 }] }))
    expectBody(await failQuote({ ...intent, sellToken: LONE }, lonely), noRoute)
    expectBody(await failQuote({ ...intent, buyToken: LONE }, lonely), noRoute)
    expectBody(await failQuote({ chainId: 8453, sellToken: ETH, buyToken: LONE, buyAmount: 10n ** 18n }, lonely), noRoute)
  })

  test('two described tokens whose pools do not connect them', async () => {
    // Keep only WETH/USDC pools and describe DEGEN: DEGEN is known but unreachable.
    const island = baseWith((s) => ({
      ...s,
      pools: s.pools.filter((p) => {
        const { token0, token1 } = p as unknown as { token0: Address; token1: Address }
        return [token0, token1].every((t) => t === base.WETH || t === base.USDC)
      }),
    }))
    expectBody(await failQuote({ ...intent, sellToken: base.DEGEN }, island), noRoute)
    expectBody(await failQuote({ chainId: 8453, sellToken: base.USDC, buyToken: base.DEGEN, buyAmount: 10n ** 18n }, island), noRoute)
  })

  test('an input larger than every pool can take', async () => {
    // 10^70 wei: beyond any V2 reserve (uint112) and any V3 pool's known liquidity.
    expectBody(await failQuote({ ...intent, sellAmount: 10n ** 70n }), noRoute)
  })

  test('an input too small to buy one unit of output', async () => {
    expectBody(await failQuote({ ...intent, sellAmount: 1n }), noRoute)
  })

  test('an exact output larger than the liquidity holds', async () => {
    // One V3 pool (WETH/USDC 0.05%) whose known ticks cannot deliver 10^9 USDC.
    const onePool = baseWith((s) => ({ ...s, pools: s.pools.filter((p) => p.address === '0xd0b53d9277642d899df5c87a3966a349a798f224') }))
    expectBody(await failQuote({ chainId: 8453, sellToken: base.WETH, buyToken: base.USDC, buyAmount: 10n ** 15n }, onePool), noRoute)
  })
})

// A refusal must not cost a server minutes of CPU: one unauthenticated GET can
// ask for any amount. Each request runs in a child process, killed at the
// deadline, so a search that runs for minutes fails here in seconds. Normal
// quotes on this snapshot take 5-150 ms; the bound is 5 s.
// Requests far past the liquidity end in the right refusal (their latency is a
// benchmark figure, printed by `npm run bench`, not asserted here).
describe('refusals far past the liquidity', () => {
  const cbETH: Address = '0x2ae3f1ec7f1f5012cfeab0185bfc7aa3cf0dec22'
  const DAI: Address = '0x50c5725949a6f0c72e6c4a641f24049a917db0cb'
  const USDT: Address = '0xfde4c96c8593536e31f229ea8f37b2ada2699bb2'

  test('(control) buying 1 WETH with USDC quotes', async () => {
    const quote = await getQuote({ chainId: 8453, sellToken: base.USDC, buyToken: base.WETH, buyAmount: 10n ** 18n }, source)
    expect(BigInt(quote.amountOut)).toBeGreaterThanOrEqual(10n ** 18n)
  })

  test('404: buying 1,000,000 WETH, more than all Base pools hold', async () => {
    expectBody(await failQuote({ chainId: 8453, sellToken: base.USDC, buyToken: base.WETH, buyAmount: 10n ** 24n }), noRoute)
  })

  test('404: buying 100,000,000 USDC with cbETH, more than the cbETH side can deliver', async () => {
    // The USDC pools together hold enough, so the "more than the pools hold" shortcut does not
    // apply; the search has to find out that cbETH's pools run dry.
    expectBody(await failQuote({ chainId: 8453, sellToken: cbETH, buyToken: base.USDC, buyAmount: 10n ** 14n }), noRoute)
  })

  test('400: selling $20,000,000 of DAI for USDT, far past the price-impact limit', async () => {
    const error = await failQuote({ chainId: 8453, sellToken: DAI, buyToken: USDT, sellAmount: 2n * 10n ** 25n })
    expect(error.toJSON()).toMatchObject({ statusCode: 400, code: 'invalid_request', details: null })
    expect(error.message).toMatch(/^Price impact of [\d.]+ bps too high \(limit = 1000 bps\)$/)
  })
})

describe('503 unavailable', () => {
  test('a source that rejects with a plain Error: its message does not leak', async () => {
    const failing: LiquiditySource = {
      getLiquidity: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:8545 (api key sk-live-123)')
      },
    }
    const error = await failQuote(intent, failing)
    expectBody(error, unavailable('Liquidity source unavailable'))
    expect(JSON.stringify(error)).not.toMatch(/ECONNREFUSED|sk-live|8545/)
  })

  test('a source that throws synchronously, or throws a non-Error', async () => {
    const sync: LiquiditySource = {
      getLiquidity: () => {
        throw new RangeError('sync')
      },
    }
    const thrower: LiquiditySource = { getLiquidity: () => Promise.reject('a string') }
    expectBody(await failQuote(intent, sync), unavailable('Liquidity source unavailable'))
    expectBody(await failQuote(intent, thrower), unavailable('Liquidity source unavailable'))
  })

  test('a source whose state is never for the requested chain', async () => {
    const elsewhere: LiquiditySource = {
      async getLiquidity(): Promise<Liquidity> {
        return {
          chainId: 1,
          blockNumber: ethSnapshot.blockNumber,
          tokens: ethSnapshot.tokens,
          pools: ethSnapshot.pools,
          report: { roundTrips: 0, requests: 0, skipped: [] },
        }
      },
    }
    expectBody(await failQuote(intent, elsewhere), unavailable('Liquidity source has no state for chain 8453'))
  })

  test('a snapshot source without a snapshot of the chain', async () => {
    expectBody(await failQuote(intent, createSnapshotSource(ethSnapshot)), unavailable('No liquidity snapshot for chain 8453'))
  })

  describe('staleness (createSnapshotSource maxAgeSeconds)', () => {
    const at = (seconds: number) => () => seconds * 1000
    const stamp = baseSnapshot.timestamp!

    test('older than allowed', async () => {
      const stale = createSnapshotSource(defaultSnapshot, { maxAgeSeconds: 60, now: at(stamp + 61) })
      expectBody(await failQuote(intent, stale), unavailable('Liquidity snapshot for chain 8453 is older than 60 s'))
    })

    test('exactly as old as allowed still quotes', async () => {
      const fresh = createSnapshotSource(defaultSnapshot, { maxAgeSeconds: 60, now: at(stamp + 60) })
      await expect(getQuote(intent, fresh)).resolves.toMatchObject({ blockNumber: baseSnapshot.blockNumber })
    })

    test('a snapshot without a timestamp is stale under any bound', async () => {
      const undated = createSnapshotSource({ ...baseSnapshot, timestamp: undefined }, { maxAgeSeconds: 1e12, now: at(stamp) })
      expectBody(await failQuote(intent, undated), unavailable('Liquidity snapshot for chain 8453 is older than 1000000000000 s'))
    })
  })
})

describe('500 internal_error', () => {
  const secret = "Cannot read properties of undefined (reading 'reserve0') at /srv/weft/secret.ts:42"
  /** Uniswap V2 pools that build fine but whose exact-in math throws a TypeError. */
  const brokenV2: PoolFamily = {
    id: 'uniswapV2',
    executorKind: 1,
    fromState(state, context) {
      const pool = uniswapV2Family.fromState(state as Parameters<typeof uniswapV2Family.fromState>[0], context)
      return new Proxy(pool, {
        get(target, property) {
          if (property === 'quoteExactIn') {
            return () => {
              throw new TypeError(secret)
            }
          }
          const value = Reflect.get(target, property, target) as unknown
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    },
  }

  test('a pool family whose quoteExactIn throws: "Internal error", no inner message or stack', async () => {
    const error = await failQuote(intent, source, { families: [brokenV2] })
    expectBody(error, internal)
    const wire = JSON.stringify(error)
    for (const leak of ['TypeError', 'reserve0', 'secret', '/srv/', '    at ', 'stack'])
      expect(wire.includes(leak), `body leaks ${JSON.stringify(leak)}`).toBe(false)
    expect(error.message).toBe('Internal error')
    expect(error.shortMessage).toBe('Internal error')
    // The cause stays on the error for the host's logs.
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  test('the same failure on the exact-output path', async () => {
    const error = await failQuote({ chainId: 8453, sellToken: base.WETH, buyToken: base.USDC, buyAmount: 10n ** 9n }, source, { families: [brokenV2] })
    expectBody(error, internal)
  })

  test('a router asking a pool for a pair it lacks is a host error: 500, not 400', async () => {
    // Pools that claim USDC where they hold DEGEN: the router then asks them for a pair they lack.
    const lying: PoolFamily = {
      ...uniswapV2Family,
      fromState(state, context) {
        const pool = uniswapV2Family.fromState(state as Parameters<typeof uniswapV2Family.fromState>[0], context)
        if (!pool.tokens.includes(base.DEGEN)) return pool
        const tokens = pool.tokens.map((t) => (t === base.DEGEN ? base.USDC : t))
        return new Proxy(pool, {
          get(target, property) {
            if (property === 'tokens') return tokens
            const value = Reflect.get(target, property, target) as unknown
            return typeof value === 'function' ? value.bind(target) : value
          },
        })
      },
    }
    const error = await failQuote({ ...intent, sellAmount: 10n ** 15n }, source, { families: [lying] })
    expect(error.statusCode).toBe(500)
    expect(error.message).toMatch(/does not trade/)
  })

  test('a chains option that is not an array of chain configs is a 500 naming it', async () => {
    for (const chains of [1, 'base', {}, [null], [{ name: 'no id' }]]) {
      const error = await failQuote(intent, source, { chains: chains as never })
      expect(error.toJSON()).toStrictEqual({
        statusCode: 500,
        code: 'internal_error',
        message: 'Invalid option chains: must be an array of chain configs, each with an integer id',
        details: null,
      })
    }
  })

  test('a now or randomBytes option that throws is a 500 naming it', async () => {
    const throws = () => {
      throw new Error('host clock down')
    }
    expect((await failQuote(intent, source, { now: throws })).message).toBe('getQuote option now threw')
    expect((await failQuote(intent, source, { randomBytes: throws })).message).toBe('getQuote option randomBytes threw')
  })

  test('a bad DexConfig is a host error (500 naming it), not 503', async () => {
    const anvil = await startAnvil()
    try {
      const v3 = baseChain.dexes.find((d) => d.id === 'uniswapV3')!
      const chain: ChainConfig = { ...baseChain, id: anvil.chainId, dexes: [{ ...v3, feeTiers: { 500: 0 } }] }
      const rpc = createRpcSource({ client: anvil.publicClient, chain })
      const error = await failQuote({ ...intent, chainId: anvil.chainId }, rpc, { chains: [chain] })
      expect(error.toJSON()).toStrictEqual({
        statusCode: 500,
        code: 'internal_error',
        message: 'Invalid chain configuration: uniswapV3 dex uniswapV3 fee tier 500 has an invalid tick spacing 0',
        details: null,
      })
    } finally {
      await anvil.stop()
    }
  })
})

describe('the wrap case is a quote, not an error', () => {
  const expectWrap = (quote: Quote, from: Address, to: Address, amount: bigint) => {
    const wei = amount.toString()
    expect(quote.amountIn).toBe(wei)
    expect(quote.amountOut).toBe(wei)
    expect(quote.minimumAmountOut).toBe((amount - (amount * 100n) / 10000n).toString())
    expect(quote.priceImpactBps).toBe(0)
    expect(quote.price).toBe(1)
    expect(quote.fees).toEqual([])
    expect(quote.route.amountIn).toBe(wei)
    expect(quote.route.amountOut).toBe(wei)
    expect(quote.route.swaps).toHaveLength(1)
    expect(quote.route.swaps[0]).toHaveLength(1)
    expect(quote.route.swaps[0]![0]).toMatchObject({ tokenIn: from, tokenOut: to, amountIn: wei, amountOut: wei })
    if (from === ETH) {
      expect(quote.approval).toBeNull()
      expect(quote.transaction.value).toBe(wei)
    } else {
      expect(quote.approval).toEqual({ token: from, amount: wei, spender: quote.transaction.to })
      expect(quote.transaction.value).toBe('0')
    }
  }

  test('ETH -> WETH on Base is 1:1', async () => {
    const quote = await getQuote({ chainId: 8453, sellToken: ETH, buyToken: base.WETH, sellAmount: 10n ** 18n }, source)
    expectWrap(quote, ETH, base.WETH, 10n ** 18n)
  })

  test('WETH -> ETH on Ethereum is 1:1, with the exact approval', async () => {
    const quote = await getQuote({ chainId: 1, sellToken: mainnet.WETH, buyToken: ETH, sellAmount: 123_456_789n }, source)
    expectWrap(quote, mainnet.WETH, ETH, 123_456_789n)
  })

  test('an exact-output wrap sends exactly the amount bought; mixed-case addresses', async () => {
    const quote = await getQuote(
      { chainId: 1, sellToken: ETH, buyToken: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', buyAmount: 5n * 10n ** 17n },
      source,
    )
    expectWrap(quote, ETH, mainnet.WETH, 5n * 10n ** 17n)
  })

  test('an exact-output wrap whose input with fees would reach 2^256 is refused by the rules of §3', async () => {
    // Buying 2^256 - 1 WETH for ETH with a 10 bps fee needs more than 2^256 - 1
    // wei in. No transaction can carry that: the answer is a 404 (the amount
    // cannot be filled) or a 400 naming buyAmount; never a details-less 400
    // about the executor's ABI, which §3 reserves for price impact.
    const error = await failQuote({
      chainId: 8453,
      sellToken: ETH,
      buyToken: base.WETH,
      buyAmount: (1n << 256n) - 1n,
      feeBps: 10,
      feeRecipient: RECIPIENT,
    })
    if (error.statusCode === 404) expectBody(error, noRoute)
    else {
      expect(error.statusCode).toBe(400)
      expect(error.details?.map((d) => d.param)).toEqual(['buyAmount'])
    }
  })

  test('even 2^256 - 1 wei wraps, with no price impact', async () => {
    const max = (1n << 256n) - 1n
    const quote = await getQuote({ chainId: 8453, sellToken: ETH, buyToken: base.WETH, sellAmount: max, priceImpactLimitBps: 0 }, source)
    expectWrap(quote, ETH, base.WETH, max)
  })
})
