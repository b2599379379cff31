import type { Address } from 'viem'
import type { CurveModel, Pool } from '../protocols/types.js'

/** Where a curve's marginal rate equals a given rate: the input, its output, and d(input)/d(rate) (≤ 0). */
export type RatePoint = { input: number; output: number; slope: number }

/**
 * A float model of one pool direction, concave and increasing: what the
 * split optimiser works on instead of exact bigint simulation. Amounts are
 * raw token units as floats.
 */
export interface Curve {
  /** Marginal rate (output per input, net of fees) at zero size. */
  readonly rate0: number
  /** Whether the curve was sampled around an expected input (true), rather than being the family's model. */
  readonly sampled: boolean
  /** Output for input `x` (inputs past the curve's end give its end output). */
  amountOut(x: number): number
  /** Marginal rate d(output)/d(input) at `x`. */
  marginal(x: number): number
  /** The input at which the marginal rate falls to `rate` (0 when it starts below; the end when it never does). */
  atRate(rate: number, into: RatePoint): RatePoint
  /** Gas of a swap of `x` (executor step units). */
  gas(x: number): number
  /** Whether the curve can take input `x` (within the pool's known state, less a float margin). */
  covers(x: number): boolean
  /** The largest input `covers` accepts (extends the curve to its end). */
  limit(): number
}

// Plans stop this fraction short of a curve's end, so float rounding never asks a pool for more than it holds.
// (`atRate` goes to the true end: the certificate's bound must cover all a pool can give.)
const END_MARGIN = 1e-6

/**
 * out = R_out·n / (R_in + n), the constant-product pair, on the net input n = γx.
 * A pool that floors its fee (`feeRoundsDown`, Aerodrome's x − ⌊x·fee⌋) credits
 * up to one raw unit more: there n = min(x, γx + 1), the least concave bound
 * (exact below 1/fee raw units, where the fee rounds to nothing), so the model
 * never under-states the pool's output, as the certificate's bound needs.
 */
class ConstantProductCurve implements Curve {
  readonly rate0: number
  readonly sampled = false
  private readonly gamma: number
  /** The raw input below which the fee rounds to nothing (0: a pool that does not round it). */
  private readonly kink: number
  constructor(
    private readonly reserveIn: number,
    private readonly reserveOut: number,
    fee: number,
    private readonly maxIn: number,
    private readonly gasUnits: number,
    feeRoundsDown = false,
  ) {
    this.gamma = 1 - fee
    this.kink = feeRoundsDown && fee > 0 ? Math.min(1 / fee, maxIn) : 0
    this.rate0 = reserveIn > 0 && reserveOut > 0 && maxIn > 0 ? ((this.kink > 0 ? 1 : this.gamma) * reserveOut) / reserveIn : 0
  }
  /** The net input credited for input `x` (clamped to the curve's end). */
  private net(x: number): number {
    const clamped = Math.max(0, Math.min(x, this.maxIn))
    return this.kink > 0 ? Math.min(clamped, this.gamma * clamped + 1) : this.gamma * clamped
  }
  amountOut(x: number): number {
    if (!(x > 0) || this.rate0 === 0) return 0
    const effective = this.net(x)
    return (this.reserveOut * effective) / (this.reserveIn + effective)
  }
  marginal(x: number): number {
    const u = this.reserveIn + this.net(x)
    const credited = Math.max(0, Math.min(x, this.maxIn)) < this.kink ? 1 : this.gamma
    return this.rate0 === 0 ? 0 : (credited * this.reserveIn * this.reserveOut) / (u * u)
  }
  atRate(rate: number, into: RatePoint): RatePoint {
    into.input = 0
    into.output = 0
    into.slope = 0
    if (!(rate < this.rate0)) return into
    // Marginal g·R_in·R_out/u² with u = R_in + n: g = 1 below the kink (n = x), γ above it.
    const kinkRate = this.kink > 0 ? (this.reserveIn * this.reserveOut) / ((this.reserveIn + this.kink) * (this.reserveIn + this.kink)) : 0
    let x: number
    if (this.kink > 0 && rate >= kinkRate) {
      const u = Math.sqrt((this.reserveIn * this.reserveOut) / rate)
      x = Math.min(u - this.reserveIn, this.kink)
      into.slope = -u / (2 * rate)
    } else if (this.kink > 0 && rate >= this.gamma * kinkRate) x = this.kink
    else {
      const u = Math.sqrt((this.gamma * this.reserveIn * this.reserveOut) / rate)
      x = this.kink > 0 ? Math.max(this.kink, (u - this.reserveIn - 1) / this.gamma) : (u - this.reserveIn) / this.gamma
      into.slope = -u / (2 * this.gamma * rate)
    }
    if (x >= this.maxIn) {
      x = this.maxIn
      into.slope = 0
    }
    into.input = x
    into.output = this.amountOut(x)
    return into
  }
  gas(): number {
    return this.gasUnits
  }
  covers(x: number): boolean {
    return this.rate0 > 0 && x <= this.limit()
  }
  limit(): number {
    return this.maxIn * (1 - END_MARGIN)
  }
}

/** Newton steps of the stable curve's output before it gives up refining (it converges in a handful). */
const STABLE_NEWTON_STEPS = 100
/** A Newton step below this fraction of the output ends the stable curve's solve (float precision). */
const STABLE_TOLERANCE = 1e-16

/**
 * The Solidly stable curve x³y + xy³ = k (Aerodrome V2 stable pools), in whole
 * tokens: x = a + u after net input u, output d = b − y. The output is solved
 * from the invariant's difference k(a + u, b − d) − k(a, b) = 0 written
 * without cancellation,
 *   u·b·(3a² + 3au + u² + b²) = d·c·(c² + 3b² − 3bd + d²),   c = a + u,
 * by Newton from d = 0: the right side minus the left is convex and
 * decreasing in d on [0, b), so every step stays at or below the root and the
 * output keeps float precision for dust and whole-pool inputs alike. The
 * fee-free marginal rate is (y/x)(3x² + y²)/(x² + 3y²); with t = y/x and
 * w = (1 − t)/(1 + t) it is (1 − w³)/(1 + w³), so the input at a given rate is
 * closed-form: w = ∛((1 − r)/(1 + r)), then x = (k / (t(1 + t²)))^¼ on the
 * invariant.
 *
 * The fee: the pool credits x − ⌊x·fee⌋ raw units, at most min(x, (1 − fee)·x + 1),
 * which is the net input modelled (the least concave bound: exact below 1/fee
 * raw units, where the fee rounds to nothing, and at most one raw unit above
 * the pool's beyond). With the ideal invariant (the pool floors it, its Newton
 * and the output) the model is at or above the pool's exact output up to float
 * rounding, which the certificate's bound needs; one raw unit of a 6-decimal
 * token is a relative 1e-6 on a one-token trade, far above its slack.
 */
class StableCurve implements Curve {
  readonly rate0: number
  readonly sampled = false
  private readonly gamma: number
  /** Reserves in whole tokens, and the invariant k = ab(a² + b²). */
  private readonly a: number
  private readonly b: number
  private readonly k: number
  /** Raw output units per whole output token over raw input units per whole input token. */
  private readonly unitRatio: number
  /** The raw input where the fee starts to round to a unit (1/fee), and the fee-free marginal rate there. */
  private readonly kink: number
  private readonly kinkRate: number

  constructor(private readonly model: Extract<CurveModel, { kind: 'stable' }>) {
    this.gamma = 1 - model.fee
    this.a = model.reserveIn / model.scaleIn
    this.b = model.reserveOut / model.scaleOut
    this.k = this.a * this.b * (this.a * this.a + this.b * this.b)
    this.unitRatio = model.scaleOut / model.scaleIn
    this.kink = model.fee > 0 ? Math.min(1 / model.fee, model.maxIn) : model.maxIn
    const usable = this.a > 0 && this.b > 0 && Number.isFinite(this.k) && this.k > 0 && model.maxIn > 0 && this.gamma > 0
    this.rate0 = usable ? this.unitRatio * StableCurve.rateAt(this.b / this.a) : 0
    this.kinkRate = usable ? this.feeFreeMarginal(this.kink) : 0
  }

  /** The fee-free marginal rate, in whole tokens, where y/x = t: t(3 + t²)/(1 + 3t²). */
  private static rateAt(t: number): number {
    return (t * (3 + t * t)) / (1 + 3 * t * t)
  }

  /** Whole output tokens for net input `u` whole tokens. */
  private delta(u: number): number {
    const { a, b } = this
    const c = a + u
    const gain = u * b * (3 * a * a + 3 * a * u + u * u + b * b)
    let d = 0
    for (let step = 0; step < STABLE_NEWTON_STEPS; step++) {
      const residual = gain - d * c * (c * c + 3 * b * b - 3 * b * d + d * d)
      const y = b - d
      const next = d + residual / (c * (c * c + 3 * y * y))
      if (!(next > d)) break
      const moved = next - d
      d = next
      if (moved <= d * STABLE_TOLERANCE) break
    }
    return Math.min(d, b)
  }

  /** Net raw input the model credits for raw input `x` (clamped to the curve's end). */
  private netInput(x: number): number {
    const clamped = Math.min(Math.max(0, x), this.model.maxIn)
    return Math.min(clamped, this.gamma * clamped + 1)
  }

  /** The fee-free marginal rate in raw units after net raw input `n`. */
  private feeFreeMarginal(n: number): number {
    const u = n / this.model.scaleIn
    return this.unitRatio * StableCurve.rateAt((this.b - this.delta(u)) / (this.a + u))
  }

  amountOut(x: number): number {
    if (!(x > 0) || this.rate0 === 0) return 0
    return this.delta(this.netInput(x) / this.model.scaleIn) * this.model.scaleOut
  }

  marginal(x: number): number {
    if (this.rate0 === 0) return 0
    const clamped = Math.min(Math.max(0, x), this.model.maxIn)
    return (clamped < this.kink ? 1 : this.gamma) * this.feeFreeMarginal(this.netInput(clamped))
  }

  /**
   * The net raw input where the fee-free marginal rate is `rate` (below rate0), and its
   * derivative in that rate.
   */
  private netAtRate(rate: number): [number, number] {
    const r = rate / this.unitRatio
    const w = Math.cbrt((1 - r) / (1 + r))
    const t = (1 - w) / (1 + w)
    const c = Math.sqrt(Math.sqrt(this.k / (t * (1 + t * t))))
    const net = Math.max(0, c - this.a) * this.model.scaleIn
    // dn/d(rate) = scaleIn·dc/dt · dt/dr / unitRatio, with dr/dt = 3(1 − t²)²/(1 + 3t²)².
    const spread = 1 + 3 * t * t
    const dcdt = (-c * spread) / (4 * t * (1 + t * t))
    const dtdr = (spread * spread) / (3 * (1 - t * t) * (1 - t * t))
    const slope = (this.model.scaleIn * dcdt * dtdr) / this.unitRatio
    return [net, Number.isFinite(slope) ? slope : -Number.MAX_VALUE]
  }

  atRate(rate: number, into: RatePoint): RatePoint {
    into.input = 0
    into.output = 0
    into.slope = 0
    if (!(rate < this.rate0)) return into
    let x: number
    if (!(rate > 0)) x = this.model.maxIn
    else if (rate >= this.kinkRate) {
      // Below the kink the fee rounds to nothing: the fee-free curve.
      const [net, slope] = this.netAtRate(rate)
      x = Math.min(net, this.kink)
      into.slope = slope
    } else if (rate >= this.gamma * this.kinkRate) x = this.kink
    else {
      // Above it the pool credits (1 − fee)·x + 1 at most: x = (n − 1)/γ at the fee-free rate rate/γ.
      const [net, slope] = this.netAtRate(rate / this.gamma)
      x = Math.max(this.kink, (net - 1) / this.gamma)
      into.slope = slope / (this.gamma * this.gamma)
    }
    if (!(x < this.model.maxIn)) {
      x = this.model.maxIn
      into.slope = 0
    }
    into.input = x
    // The output on the curve at that input (not b − t·c): the pair stays on the curve even where
    // c − a loses digits to cancellation, so the dual's value at it is the curve's own.
    into.output = this.amountOut(x)
    return into
  }

  gas(): number {
    return this.model.gas
  }

  covers(x: number): boolean {
    return this.rate0 > 0 && x <= this.limit()
  }
  limit(): number {
    return this.rate0 > 0 ? this.model.maxIn * (1 - END_MARGIN) : 0
  }
}

// ln(1.0001)/2 to an ulp: Math.log(1.0001) starts from 1.0001 rounded to a double, which puts it 1e-13 off,
// and a tick (up to 887,272) multiplies that into up to ~1e-8 of its price. 1e-4 is a double within 1e-20.
const HALF_LN_TICK_BASE = Math.log1p(1e-4) / 2

/**
 * An upper bound on the float error of an r this curve computes, relative to the pool's own:
 * Number(sqrtPriceX96) / 2^96 and its inverse (2 ulps), exp of a rounded tick × HALF_LN_TICK_BASE
 * (about |ln r| ulps of r, plus 2), and the contract's tick prices, rounded to 2^-96 in the sqrt price
 * (r² times that when r is its inverse). Doubled for headroom.
 */
function rError(r: number, inverse: boolean): number {
  return 2 * ((Math.abs(Math.log(r)) + 4) * Number.EPSILON * r + 2 ** -96 * (inverse ? r * r : 1))
}

/** The tick bitmap word (256 tick spacings) a tick lies in. */
const bitmapWord = (tick: number, tickSpacing: number) => Math.floor(Math.floor(tick / tickSpacing) / 256)

/**
 * Concentrated liquidity in the trade's own terms: r is the square root of the
 * fee-free rate (output per input), falling as the trade grows. Within a range
 * of liquidity L, net input L·(1/r − 1/r_start) buys L·(r_start − r). Ranges are
 * built lazily from the initialized ticks as the optimiser reaches them.
 *
 * Capacity is exact where it matters: the active liquidity is carried as a
 * bigint (from the model's `exactLiquidity`), so past the last initialized
 * tick it is exactly 0 and the curve ends there, never with a phantom range out
 * to the price limit. Ranges without liquidity (a gap between positions, or the
 * current tick sitting in one) are crossed for free, as the pool does: they add
 * no range, only ticks crossed, so a pool at an empty tick starts at the rate
 * of its first range with liquidity. Between two ticks the amounts come from
 * expm1 of the exact tick distance (no cancellation in narrow ranges), so the
 * model is within float rounding (≲1e-14 relative) of the ideal curve, which
 * is at or above the pool's exact, rounded-down output.
 */
class ConcentratedCurve implements Curve {
  rate0 = 0
  readonly sampled = false
  private readonly gamma: number
  /** +1 when r is the sqrt price (input token0), −1 when it is its inverse. */
  private readonly sign: number
  // Range k runs from r = tops[k] down to bottoms[k] with liquidity ranges[k] (> 0); a gap (no
  // liquidity) may lie between bottoms[k] and tops[k + 1]. netIn/out[k] are the cumulative net
  // input and output before range k (netIn/out[ranges.length]: the whole curve so far); crossed[k]
  // counts the initialized ticks crossed before range k starts.
  private readonly tops: number[] = []
  private readonly bottoms: number[] = []
  private readonly ranges: number[] = []
  private readonly netIn: number[] = [0]
  private readonly out: number[] = [0]
  private readonly crossed: number[] = []
  /** Where the next range starts: r, and the tick it sits on (undefined at the current price, between ticks). */
  private head: number
  private headTick: number | undefined
  private ticksCrossed = 0
  private liquidity: bigint
  private next = 0
  private done = false
  private readonly rLimit: number

  constructor(private readonly model: Extract<CurveModel, { kind: 'concentrated' }>) {
    this.gamma = 1 - model.fee
    this.sign = model.zeroForOne ? 1 : -1
    const r0 = model.zeroForOne ? model.sqrtPrice : 1 / model.sqrtPrice
    this.rLimit = model.zeroForOne ? model.limitSqrtPrice : 1 / model.limitSqrtPrice
    this.head = r0
    this.liquidity = ConcentratedCurve.initialLiquidity(model)
    // Find the first tick the trade reaches: at or below the current tick going down, above it going up.
    const ticks = model.ticks
    let lo = 0
    let hi = ticks.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (ticks[mid]!.index <= model.tick) lo = mid + 1
      else hi = mid
    }
    this.next = model.zeroForOne ? lo - 1 : lo
    if (!(r0 > this.rLimit) || !(this.gamma > 0)) this.done = true
    // The first range with liquidity sets the zero-size rate (empty ranges before it are free).
    this.extend()
    if (this.ranges.length > 0) this.rate0 = this.gamma * this.tops[0]! * this.tops[0]!
  }

  private static initialLiquidity(model: Extract<CurveModel, { kind: 'concentrated' }>): bigint {
    if (model.exactLiquidity !== undefined) return model.exactLiquidity > 0n ? model.exactLiquidity : 0n
    // Families that give only a float: the nearest integer (a residual may then remain past the last tick).
    const l = model.liquidity
    return Number.isFinite(l) && l > 0 ? BigInt(Math.round(l)) : 0n
  }

  /** r at an initialized tick. */
  private rAt(tick: number): number {
    return Math.exp(this.sign * tick * HALF_LN_TICK_BASE)
  }

  /** Adds the next range with liquidity, crossing empty ones; false when the curve has reached its end. */
  private extend(): boolean {
    const { zeroForOne, ticks } = this.model
    while (!this.done) {
      const start = this.head
      const startTick = this.headTick
      const tick = ticks[this.next]
      let end = tick === undefined ? this.rLimit : this.rAt(tick.index)
      const last = tick === undefined || end <= this.rLimit
      if (last) end = this.rLimit
      const liquidity = this.liquidity
      if (last) this.done = true
      else {
        this.liquidity = zeroForOne ? this.liquidity - tick!.liquidityNet : this.liquidity + tick!.liquidityNet
        if (this.liquidity < 0n) this.liquidity = 0n
        this.next += zeroForOne ? -1 : 1
      }
      this.head = end
      this.headTick = last ? undefined : tick!.index
      const crossedBefore = this.ticksCrossed
      if (!last) this.ticksCrossed++
      // Nothing to trade here: the price moves to the range's end for free.
      if (liquidity === 0n || !(start > end)) continue
      const l = Number(liquidity)
      // start − end and 1/end − 1/start from the exact tick distance when both ends are ticks.
      let drop: number
      let rise: number
      if (startTick !== undefined && this.headTick !== undefined) {
        const distance = Math.abs(this.headTick - startTick) * HALF_LN_TICK_BASE
        drop = -start * Math.expm1(-distance)
        rise = Math.expm1(distance) / start
      } else {
        // One end is the current price or the known state's edge: start − end cancels when the two sit
        // close (a pool inside its last tick's range), and the ends' float errors can then be a large share
        // of the range's capacity (1e-8 of it on the hard bench's 10-pool market of seed 34). The range is
        // widened by their bound, so its capacity is never below the pool's (the certificate's bound needs
        // it), and the input is the same difference over start·end, without a second cancellation.
        const inverse = this.sign < 0
        const widened = end - rError(start, inverse) - rError(end, inverse)
        if (widened > 0) end = widened
        drop = start - end
        rise = drop / (start * end)
      }
      const k = this.ranges.length
      this.ranges.push(l)
      this.tops.push(start)
      this.bottoms.push(end)
      this.crossed.push(crossedBefore)
      this.netIn.push(this.netIn[k]! + l * rise)
      this.out.push(this.out[k]! + l * drop)
      return true
    }
    return false
  }

  /** Range index containing net input `n` (extending as needed); ranges.length when past the end. */
  private rangeOfInput(n: number): number {
    while (this.netIn[this.netIn.length - 1]! < n && this.extend());
    let lo = 0
    let hi = this.ranges.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.netIn[mid + 1]! < n) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  amountOut(x: number): number {
    if (!(x > 0) || this.rate0 === 0) return 0
    const n = this.gamma * x
    const k = this.rangeOfInput(n)
    if (k >= this.ranges.length) return this.out[k]!
    const l = this.ranges[k]!
    const r = this.tops[k]!
    const d = (n - this.netIn[k]!) / l
    // r_start − r for r = 1/(1/r_start + d), without cancellation.
    return this.out[k]! + (l * r * r * d) / (1 + r * d)
  }

  marginal(x: number): number {
    if (this.rate0 === 0) return 0
    const n = this.gamma * Math.max(0, x)
    const k = this.rangeOfInput(n)
    if (k >= this.ranges.length) return 0
    const l = this.ranges[k]!
    const start = this.tops[k]!
    const r = 1 / (1 / start + (n - this.netIn[k]!) / l)
    return this.gamma * r * r
  }

  atRate(rate: number, into: RatePoint): RatePoint {
    into.input = 0
    into.output = 0
    into.slope = 0
    if (!(rate < this.rate0)) return into
    const target = Math.sqrt(rate / this.gamma)
    while (this.bottoms[this.bottoms.length - 1]! > target && this.extend());
    const n = this.ranges.length
    if (this.bottoms[n - 1]! > target) {
      // Past the end: the whole curve.
      into.input = this.netIn[n]! / this.gamma
      into.output = this.out[n]!
      return into
    }
    // The first range ending at or below the target.
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.bottoms[mid]! > target) lo = mid + 1
      else hi = mid
    }
    const start = this.tops[lo]!
    if (start <= target) {
      // In the gap before range lo: everything before it.
      into.input = this.netIn[lo]! / this.gamma
      into.output = this.out[lo]!
      return into
    }
    const l = this.ranges[lo]!
    into.input = (this.netIn[lo]! + (l * (start - target)) / (start * target)) / this.gamma
    into.output = this.out[lo]! + l * (start - target)
    into.slope = -l / (2 * this.gamma * this.gamma * target * target * target)
    return into
  }

  gas(x: number): number {
    const n = this.gamma * Math.max(0, x)
    const k = Math.min(this.rangeOfInput(n), this.ranges.length)
    // Every tick crossed before the range holding x (empty gaps included).
    let gas = this.model.gasBase + this.model.gasPerTick * (k < this.ranges.length ? this.crossed[k]! : this.ticksCrossed)
    const { gasPerWord = 0, tickSpacing = 0, zeroForOne, tick } = this.model
    if (gasPerWord > 0 && tickSpacing > 0 && k < this.ranges.length) {
      // Bitmap words the price moves across (each one more step of the swap loop).
      const l = this.ranges[k]!
      const start = this.tops[k]!
      const r = 1 / (1 / start + (n - this.netIn[k]!) / l)
      const reached = Math.floor((zeroForOne ? 1 : -1) * (Math.log(r) / HALF_LN_TICK_BASE))
      gas += gasPerWord * Math.abs(bitmapWord(reached, tickSpacing) - bitmapWord(tick, tickSpacing))
    }
    return gas
  }

  covers(x: number): boolean {
    if (this.rate0 === 0) return false
    const n = this.gamma * x
    // Against the curve's end, not the ranges built so far: an input on a range boundary extends.
    while (this.netIn[this.netIn.length - 1]! * (1 - END_MARGIN) < n && this.extend());
    return this.netIn[this.netIn.length - 1]! * (1 - END_MARGIN) >= n
  }
  limit(): number {
    while (this.extend());
    return this.rate0 === 0 ? 0 : (this.netIn[this.netIn.length - 1]! / this.gamma) * (1 - END_MARGIN)
  }
}

/**
 * A curve sampled from exact quotes, for pool families without a model: the
 * marginal rate runs linearly between the chords' midpoints (each chord's
 * slope, made non-increasing), and the output is its integral.
 */
class SampledCurve implements Curve {
  readonly rate0: number
  readonly sampled = true
  // Knots of the marginal: at, rates, and the output integrated up to each knot.
  private readonly at: number[] = []
  private readonly rates: number[] = []
  private readonly integral: number[] = []
  private readonly sizes: number[] = []
  private readonly gases: number[] = []

  constructor(samples: { x: number; y: number; gas: number }[]) {
    let previousX = 0
    let previousY = 0
    for (const { x, y, gas } of samples) {
      this.at.push((previousX + x) / 2)
      this.rates.push(Math.max(0, (y - previousY) / (x - previousX)))
      this.sizes.push(x)
      this.gases.push(gas)
      previousX = x
      previousY = y
    }
    // A pool's marginal rate never rises with its input: chords that do are an earlier sample's
    // output rounded down (a few raw units of a low-decimals token, a visible share of them), so the
    // earlier chord is raised to the later one's rate. Lowering the later ones instead carried one
    // rounded sample's rate through the whole curve (a 1-unit sample: 9% under every exact quote).
    for (let i = this.rates.length - 2; i >= 0; i--) this.rates[i] = Math.max(this.rates[i]!, this.rates[i + 1]!)
    const n = this.at.length
    if (n > 0) {
      // The marginal is flat from 0 to the first knot and from the last knot to the end.
      this.at.unshift(0)
      this.rates.unshift(this.rates[0]!)
      this.at.push(previousX)
      this.rates.push(this.rates[this.rates.length - 1]!)
      let total = 0
      this.integral.push(0)
      for (let i = 1; i < this.at.length; i++) {
        total += ((this.rates[i - 1]! + this.rates[i]!) / 2) * (this.at[i]! - this.at[i - 1]!)
        this.integral.push(total)
      }
    }
    this.rate0 = n > 0 ? this.rates[0]! : 0
  }

  /** Knot interval [i, i + 1] holding x (clamped). */
  private intervalOf(x: number): number {
    let lo = 0
    let hi = this.at.length - 2
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.at[mid + 1]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  amountOut(x: number): number {
    if (!(x > 0) || this.rate0 === 0) return 0
    const end = this.at[this.at.length - 1]!
    if (x >= end) return this.integral[this.integral.length - 1]!
    const i = this.intervalOf(x)
    const m = this.marginalIn(i, x)
    return this.integral[i]! + ((this.rates[i]! + m) / 2) * (x - this.at[i]!)
  }

  private marginalIn(i: number, x: number): number {
    const width = this.at[i + 1]! - this.at[i]!
    if (!(width > 0)) return this.rates[i]!
    return this.rates[i]! + ((this.rates[i + 1]! - this.rates[i]!) * (x - this.at[i]!)) / width
  }

  marginal(x: number): number {
    if (this.rate0 === 0) return 0
    return this.marginalIn(this.intervalOf(Math.max(0, x)), Math.max(0, x))
  }

  atRate(rate: number, into: RatePoint): RatePoint {
    into.input = 0
    into.output = 0
    into.slope = 0
    if (!(rate < this.rate0)) return into
    const last = this.at.length - 1
    if (rate <= this.rates[last]!) {
      into.input = this.at[last]!
      into.output = this.amountOut(into.input)
      return into
    }
    // First knot whose rate is at or below `rate`: the crossing lies in the interval before it.
    let lo = 1
    let hi = last
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.rates[mid]! > rate) lo = mid + 1
      else hi = mid
    }
    const i = lo - 1
    const drop = this.rates[i]! - this.rates[lo]!
    const width = this.at[lo]! - this.at[i]!
    const x = drop > 0 ? this.at[i]! + ((this.rates[i]! - rate) / drop) * width : this.at[i]!
    into.input = x
    into.output = this.amountOut(x)
    into.slope = drop > 0 ? -width / drop : 0
    return into
  }

  gas(x: number): number {
    for (let i = 0; i < this.sizes.length; i++) if (this.sizes[i]! >= x) return this.gases[i]!
    return this.gases[this.gases.length - 1] ?? 0
  }

  covers(x: number): boolean {
    return this.at.length > 0 && x <= this.limit()
  }
  limit(): number {
    return this.at.length > 0 ? this.at[this.at.length - 1]! * (1 - END_MARGIN) : 0
  }
}

/** Samples per octave-spaced grid of the fallback curve: 2^-24 to 2^3 of the expected scale. */
const SAMPLE_LOW = -24
const SAMPLE_HIGH = 3

/**
 * Model curves by pool state and direction (tokenIn, then tokenOut). A model curve depends on the
 * pool's state alone, and states are immutable, so a curve is built once per state: a snapshot's
 * pools (built once, see buildPoolCached) keep theirs across quotes. Curves extend themselves
 * lazily, the same ranges in the same order whatever asked first, so sharing one changes no answer.
 * Sampled curves depend on the scale they were sampled around and are never kept.
 */
const modelCurves = new WeakMap<Pool, Map<Address, Map<Address, Curve>>>()

/**
 * The float curve of one pool direction: the family's own model when it has
 * one (built once per pool state and direction), else a curve sampled from
 * exact quotes around `scale` (the input the trade is expected to bring to
 * this pool, in raw units of `tokenIn`).
 *
 * @example
 * const curve = getCurve(pool, weth, usdc, 1e18)
 * curve.amountOut(5e17) // ≈ Number(pool.quoteExactIn(weth, usdc, 5n * 10n ** 17n)!.amountOut)
 */
export function getCurve(pool: Pool, tokenIn: Address, tokenOut: Address, scale: number): Curve {
  let byInput = modelCurves.get(pool)
  const known = byInput?.get(tokenIn)?.get(tokenOut)
  if (known) return known
  const modelled = modelCurve(pool, tokenIn, tokenOut)
  if (modelled) {
    if (!byInput) modelCurves.set(pool, (byInput = new Map()))
    let byOutput = byInput.get(tokenIn)
    if (!byOutput) byInput.set(tokenIn, (byOutput = new Map()))
    byOutput.set(tokenOut, modelled)
    return modelled
  }
  return sampleCurve(pool, tokenIn, tokenOut, scale)
}

/** The family's own model of a pool direction as a curve, when the family has one. */
function modelCurve(pool: Pool, tokenIn: Address, tokenOut: Address): Curve | undefined {
  const model = pool.curveModel?.(tokenIn, tokenOut)
  if (model?.kind === 'constantProduct') return new ConstantProductCurve(model.reserveIn, model.reserveOut, model.fee, model.maxIn, model.gas, model.feeRoundsDown === true)
  if (model?.kind === 'concentrated') return new ConcentratedCurve(model)
  if (model?.kind === 'stable') return new StableCurve(model)
  return undefined
}

/**
 * A curve sampled from exact quotes around `scale`, for families without a model. The smallest
 * inputs may give no output unit at all (an 18-decimals token into an 8-decimals one: 2^-24 of
 * 0.2 WETH is 0 WBTC, which the pool refuses): the samples start at the first input that gives
 * output. Stopping at that first refusal made the curve flat at zero, and the pool vanished from
 * routing, the single paths and the bound. The first quote that fails after one gave output ends
 * the curve (the pool's capacity).
 */
function sampleCurve(pool: Pool, tokenIn: Address, tokenOut: Address, scale: number): Curve {
  const samples: { x: number; y: number; gas: number }[] = []
  const base = Number.isFinite(scale) && scale >= 1 ? scale : 1
  for (let e = SAMPLE_LOW; e <= SAMPLE_HIGH; e++) {
    const x = BigInt(Math.max(1, Math.floor(base * 2 ** e)))
    if (samples.length > 0 && Number(x) <= samples[samples.length - 1]!.x) continue
    const result = pool.quoteExactIn(tokenIn, tokenOut, x)
    if (!result || result.amountOut <= 0n) {
      if (samples.length === 0) continue
      break
    }
    samples.push({ x: Number(x), y: Number(result.amountOut), gas: Number(result.gas) })
  }
  return new SampledCurve(samples)
}
