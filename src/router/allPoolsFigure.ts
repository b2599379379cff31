import type { Address } from 'viem'
import type { Pool } from '../protocols/types.js'
import { type AllPoolsBound, allPoolsBound } from './allPoolsBound.js'
import type { RouteCertificate } from './types.js'

/** What one route's all-pools bound is computed from (see `allPoolsBound`). */
export type AllPoolsInputs = {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  amountIn: number
  maxHops: number
  /** The candidate graph's tokens and the prices its solve ended at (index by index). */
  tokens: readonly Address[]
  prices: Float64Array
}

/**
 * One route's all-pools figure, computed at most once: it costs a pass over every pool, so it is
 * made when first asked, unless the candidate search already made it at the same amount.
 *
 * It holds only its inputs, not the route search's scope: a certificate's lazy fields keep what
 * they close over alive, and V8 keeps a fresh getter (with everything it reaches) until the next
 * full collection, since the getter sits in the object's hidden class, in the old generation.
 * Closing over the route search's scope sent its graph, swap memo and plans to the old
 * generation on every quote.
 *
 * @example
 * const figure = new AllPoolsFigure({ pools, tokenIn: weth, tokenOut: usdc, amountIn: 1e18, maxHops: 4, tokens, prices })
 * figure.known // undefined: nothing computed yet
 * figure.get().bound // computed now, kept for later reads
 */
export class AllPoolsFigure {
  #inputs: AllPoolsInputs
  #value: AllPoolsBound | undefined

  constructor(inputs: AllPoolsInputs, known?: AllPoolsBound) {
    this.#inputs = inputs
    this.#value = known
  }

  /** The figure, computed on the first call (a pool that throws leaves it out: bound NaN). */
  get(): AllPoolsBound {
    if (this.#value) return this.#value
    const { pools, tokenIn, tokenOut, amountIn, maxHops, tokens, prices } = this.#inputs
    try {
      this.#value = allPoolsBound(pools, tokenIn, tokenOut, amountIn, maxHops, new Map(tokens.map((token, i) => [token, prices[i]!])))
    } catch {
      // Read lazily, possibly after getQuote returned: a host pool that throws leaves the figure out.
      this.#value = { bound: Number.NaN, pools: 0, prices: new Map(), trading: [] }
    }
    return this.#value
  }

  /** The figure when it is already computed, else undefined (computes nothing). */
  get known(): AllPoolsBound | undefined {
    return this.#value
  }
}

/** A certificate's fields other than the all-pools ones. */
export type CandidateCertificate = Omit<RouteCertificate, 'allPoolsUpperBound' | 'allPoolsGapBps' | 'allPools'>

/**
 * The route's certificate: the candidate fields, and the all-pools ones measured against the plan's
 * `amountOut`. Plain values when the figure is already computed (the usual case: the candidate
 * search makes it at the quoted amount); otherwise getters that compute it when first read, which
 * keep only the figure alive (see AllPoolsFigure).
 *
 * @example
 * plan.certificate = certifyRoute({ upperBound, gapBps, candidatePools, candidateEdges, candidatePaths, pathsUsed, iterations }, figure, plan.amountOut)
 * plan.certificate.allPoolsGapBps // the gap to the bound over every pool
 */
export function certifyRoute(candidate: CandidateCertificate, figure: AllPoolsFigure, amountOut: bigint): RouteCertificate {
  const out = Number(amountOut)
  const gap = (upper: number) => ((upper - out) / upper) * 10_000
  const allBound = (found: AllPoolsBound) => (Number.isFinite(found.bound) && found.bound > 0 ? found.bound : undefined)
  const known = figure.known
  if (known) {
    const figureBound = allBound(known)
    // Each field written out: an object spread followed by more fields gets a hidden class of its
    // own in V8 (old-generation garbage on every quote).
    return {
      upperBound: candidate.upperBound,
      gapBps: candidate.gapBps,
      candidatePools: candidate.candidatePools,
      candidateEdges: candidate.candidateEdges,
      candidatePaths: candidate.candidatePaths,
      pathsUsed: candidate.pathsUsed,
      iterations: candidate.iterations,
      allPoolsUpperBound: figureBound === undefined ? undefined : BigInt(Math.ceil(figureBound)),
      allPoolsGapBps: figureBound === undefined ? undefined : gap(figureBound),
      allPools: known.pools,
    }
  }
  return {
    upperBound: candidate.upperBound,
    gapBps: candidate.gapBps,
    candidatePools: candidate.candidatePools,
    candidateEdges: candidate.candidateEdges,
    candidatePaths: candidate.candidatePaths,
    pathsUsed: candidate.pathsUsed,
    iterations: candidate.iterations,
    get allPoolsUpperBound() {
      const figureBound = allBound(figure.get())
      return figureBound === undefined ? undefined : BigInt(Math.ceil(figureBound))
    },
    get allPoolsGapBps() {
      const figureBound = allBound(figure.get())
      return figureBound === undefined ? undefined : gap(figureBound)
    },
    get allPools() {
      return figure.get().pools
    },
  }
}
