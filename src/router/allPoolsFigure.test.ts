// A route's all-pools figure: computed at most once and only when asked, and the certificate's
// all-pools fields the same whether the figure was known when it was made (plain values) or is
// computed on first read (getters). The plain form is what keeps a quote's route search from
// lingering in the old generation (a fresh getter lives until the next full collection).
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { Pool } from '../protocols/types.js'
import { allPoolsBound } from './allPoolsBound.js'
import { AllPoolsFigure, type AllPoolsInputs, type CandidateCertificate, certifyRoute } from './allPoolsFigure.js'
import { findRoute } from './findRoute.js'
import { SINK, SOURCE } from './types.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const token = (n: number) => `0x${(0xd0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X] = [0, 1, 2].map(token) as [Address, Address, Address]
const v2Pair = createV2Pairs({ nextAddress: createAddressCounter(0xe000) })
/** A V2 pair at price 1 with `whole` whole tokens a side. */
const pair = (a: Address, b: Address, whole = 1_000n) => v2Pair(a, b, whole * 10n ** 18n, whole * 10n ** 18n)

const pools = [pair(A, B), pair(A, X, 2_000n), pair(X, B, 3_000n)]
const amountIn = 5e19
const inputs: AllPoolsInputs = { pools, tokenIn: A, tokenOut: B, amountIn, maxHops: 3, tokens: [B, A], prices: Float64Array.from([1, 1]) }
const candidate: CandidateCertificate = { upperBound: 10n ** 20n, gapBps: 1, candidatePools: 3, candidateEdges: 4, candidatePaths: 2, pathsUsed: 2, iterations: 7 }
const FIELDS = ['allPoolsUpperBound', 'allPoolsGapBps', 'allPools'] as const

describe('AllPoolsFigure', () => {
  it('computes nothing until asked, then once: the bound allPoolsBound gives for its inputs', () => {
    const figure = new AllPoolsFigure(inputs)
    expect(figure.known).toBeUndefined()
    const first = figure.get()
    expect(figure.known).toBe(first)
    expect(figure.get()).toBe(first)
    const prices = new Map<Address, number>([
      [inputs.tokens[SINK]!, inputs.prices[SINK]!],
      [inputs.tokens[SOURCE]!, inputs.prices[SOURCE]!],
    ])
    expect(first.bound).toBe(allPoolsBound(pools, A, B, amountIn, 3, prices).bound)
    expect(first.pools).toBe(3)
  })

  it('keeps a figure it is given instead of computing one', () => {
    const given = { bound: 123, pools: 9, prices: new Map<Address, number>(), trading: [] }
    const figure = new AllPoolsFigure(inputs, given)
    expect(figure.known).toBe(given)
    expect(figure.get()).toBe(given)
  })

  it('leaves the figure out (bound NaN) when a pool throws', () => {
    const throwing = Object.create(pools[0]!, {
      curveModel: {
        value: () => {
          throw new Error('host pool broke')
        },
      },
    }) as Pool
    const figure = new AllPoolsFigure({ ...inputs, pools: [throwing, pools[1]!, pools[2]!] })
    expect(Number.isNaN(figure.get().bound)).toBe(true)
    const certificate = certifyRoute(candidate, figure, 10n ** 19n)
    expect(certificate.allPoolsUpperBound).toBeUndefined()
    expect(certificate.allPoolsGapBps).toBeUndefined()
    expect(certificate.allPools).toBe(0)
  })
})

describe('certifyRoute', () => {
  const amountOut = 4n * 10n ** 19n

  it('gives the same certificate with the figure known (plain values) or computed on first read (getters)', () => {
    const known = new AllPoolsFigure(inputs)
    known.get()
    const eager = certifyRoute(candidate, known, amountOut)
    const lazyFigure = new AllPoolsFigure(inputs)
    const lazy = certifyRoute(candidate, lazyFigure, amountOut)
    // Nothing computed by making the certificate: only reading a field does it.
    expect(lazyFigure.known).toBeUndefined()
    for (const field of FIELDS) {
      const plain = Object.getOwnPropertyDescriptor(eager, field)!
      expect(plain.enumerable && 'value' in plain && plain.get === undefined).toBe(true)
      expect(typeof Object.getOwnPropertyDescriptor(lazy, field)!.get).toBe('function')
    }
    expect({ ...lazy }).toEqual({ ...eager })
    expect(Object.keys(lazy)).toEqual(Object.keys(eager))
    const bound = known.get().bound
    expect(eager.allPoolsUpperBound).toBe(BigInt(Math.ceil(bound)))
    expect(eager.allPoolsGapBps).toBe(((bound - Number(amountOut)) / bound) * 10_000)
    expect(eager.allPools).toBe(3)
    expect(eager).toMatchObject(candidate)
  })

  it("is plain values on findRoute's certificate at the quoted amount (the candidate search made the figure there)", () => {
    const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors: [X], gasCostInOutput: 0 }, 5n * 10n ** 19n)!
    const certificate = plan.certificate!
    for (const field of FIELDS) expect(Object.getOwnPropertyDescriptor(certificate, field)!.get).toBeUndefined()
    expect(certificate.allPoolsUpperBound! >= plan.amountOut).toBe(true)
    expect(certificate.allPools).toBe(3)
  })
})
