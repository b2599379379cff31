import type { Curve, RatePoint } from './curves.js'

/**
 * A share of a pool direction's liquidity: the curve with its input and
 * output scaled by `share` (0 < share ≤ 1), output `share · curve.amountOut(x / share)`,
 * at the same marginal rate as the whole pool at input `x / share`. Copies
 * of a pool that split its liquidity this way never model more than the pool
 * gives for their total (by concavity), and exactly that when each copy's
 * share is its part of the total input.
 *
 * @example
 * const half = shareCurve(curve, 0.5)
 * half.amountOut(1e18) // curve.amountOut(2e18) / 2
 */
export function shareCurve(curve: Curve, share: number): Curve {
  return share >= 1 ? curve : new SharedCurve(curve, share)
}

class SharedCurve implements Curve {
  readonly rate0: number
  readonly sampled: boolean

  constructor(
    private readonly base: Curve,
    private readonly share: number,
  ) {
    this.sampled = base.sampled
    this.rate0 = share > 0 ? base.rate0 : 0
  }
  amountOut(x: number): number {
    return this.rate0 === 0 ? 0 : this.share * this.base.amountOut(x / this.share)
  }
  marginal(x: number): number {
    return this.rate0 === 0 ? 0 : this.base.marginal(x / this.share)
  }
  atRate(rate: number, into: RatePoint): RatePoint {
    if (this.rate0 === 0) {
      into.input = 0
      into.output = 0
      into.slope = 0
      return into
    }
    this.base.atRate(rate, into)
    into.input *= this.share
    into.output *= this.share
    into.slope *= this.share
    return into
  }
  gas(x: number): number {
    // The pool's gas for the total, in this copy's part (executed as a flow, the pool is one step).
    return this.rate0 === 0 ? 0 : this.share * this.base.gas(x / this.share)
  }
  covers(x: number): boolean {
    return this.rate0 > 0 && this.base.covers(x / this.share)
  }
  limit(): number {
    return this.rate0 === 0 ? 0 : this.share * this.base.limit()
  }
}
