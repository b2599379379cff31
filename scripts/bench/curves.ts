// Continuous trade curves of V2 and V3 pools, built from their JSON states,
// for the bench's independent optimum solvers (none of this is weft's router).
//
// Every pool direction is the same shape: with u the "depth coordinate"
// (V3 selling token0: u = 1/√P; selling token1: u = √P; V2: u = √(Rin/Rout)),
// a piece of liquidity L moved from u to u' takes net input L(u'−u) and gives
// output L(1/u − 1/u'); the marginal output per gross input there is γ/u'²,
// with γ the fee factor (the fee is charged on the input). A V2 pair is one
// piece with L = √(Rin·Rout). A V3 pool is a run of pieces split at its
// initialized ticks, ending at the edge of the ticks its state knows (quotes
// never price past it). Integer rounding always favours the pool, so these
// curves bound any exact execution from above.
import BigNumber from 'bignumber.js'
import type { Address } from 'viem'
import { MAX_TICK, MIN_TICK } from '../../src/protocols/uniswapV3/tickMath.js'
import type { BenchPoolState } from './market.js'

const MAX_UINT112 = (1n << 112n) - 1n
const Q96 = 2n ** 96n

/** High precision for the headline optimum: 80 decimals, powers to 100 digits. */
export const Big = BigNumber.clone({ DECIMAL_PLACES: 80, POW_PRECISION: 100, EXPONENTIAL_AT: 1e9 })
export type Big = BigNumber

/** A pool direction before it is turned into numbers. */
type CurveSpec =
  | { kind: 'v2'; gamma: [bigint, bigint]; reserveIn: bigint; reserveOut: bigint }
  | {
      kind: 'v3'
      gamma: [bigint, bigint]
      sqrtPriceX96: bigint
      /** -1 selling token0 (price falls), +1 selling token1. */
      sigma: 1 | -1
      liquidity: bigint
      /** Ticks crossed in trade order and the liquidity after each. */
      crossings: { tick: number; liquidityAfter: bigint }[]
      /** Tick of the edge of the known words in this direction. */
      capTick: number
    }

/**
 * The tick where quotes in this direction must stop: the edge of the bitmap
 * words the state knows (the full range when it knows it to the end).
 */
export function getKnownEdgeTick(state: Extract<BenchPoolState, { family: 'uniswapV3' }>, zeroForOne: boolean): number {
  const { tickSpacing: spacing, tickLower, tickUpper } = state
  if (zeroForOne) return tickLower <= MIN_TICK ? MIN_TICK : Math.ceil(tickLower / (256 * spacing)) * 256 * spacing
  if (tickUpper >= MAX_TICK) return MAX_TICK
  return (Math.floor((Math.floor(tickUpper / spacing) - 255) / 256) * 256 + 255) * spacing
}

function specOf(state: BenchPoolState, tokenIn: Address, v2FeeBps: number | undefined): CurveSpec {
  const zeroForOne = tokenIn === state.token0
  if (!zeroForOne && tokenIn !== state.token1) throw new Error(`pool ${state.address} does not trade ${tokenIn}`)
  if (state.family === 'uniswapV2') {
    const r0 = BigInt(state.reserve0)
    const r1 = BigInt(state.reserve1)
    const bps = BigInt(v2FeeBps ?? 30)
    return { kind: 'v2', gamma: [10_000n - bps, 10_000n], reserveIn: zeroForOne ? r0 : r1, reserveOut: zeroForOne ? r1 : r0 }
  }
  const capTick = getKnownEdgeTick(state, zeroForOne)
  let liquidity = BigInt(state.liquidity)
  const crossings: { tick: number; liquidityAfter: bigint }[] = []
  if (zeroForOne) {
    const below = state.ticks.filter((t) => t.index <= state.tick && t.index > capTick).reverse()
    for (const t of below) crossings.push({ tick: t.index, liquidityAfter: (liquidity -= BigInt(t.liquidityNet)) })
  } else {
    const above = state.ticks.filter((t) => t.index > state.tick && t.index < capTick)
    for (const t of above) crossings.push({ tick: t.index, liquidityAfter: (liquidity += BigInt(t.liquidityNet)) })
  }
  return {
    kind: 'v3',
    gamma: [1_000_000n - BigInt(state.fee), 1_000_000n],
    sqrtPriceX96: BigInt(state.sqrtPriceX96),
    sigma: zeroForOne ? -1 : 1,
    liquidity: BigInt(state.liquidity),
    crossings,
    capTick,
  }
}

/** A curve in float64: fast, for the network dual and the subset oracle. */
export type FloatCurve = {
  gamma: number
  /** Piece boundaries u_0 < … < u_m; the last is the known edge. */
  u: number[]
  /** Liquidity of piece k, on [u_k, u_k+1]. */
  L: number[]
  /** Net input and output accumulated up to boundary k. */
  netIn: number[]
  out: number[]
}

/** A curve in 80-digit decimals, for the headline optimum. */
export type BigCurve = { gamma: Big; sqrtGamma: Big; u: Big[]; L: Big[]; netIn: Big[]; out: Big[] }

/** The arithmetic the pieces are built in (float64 or 80-digit decimals). */
type Arithmetic<T> = {
  of: (x: bigint | number) => T
  add: (a: T, b: T) => T
  sub: (a: T, b: T) => T
  mul: (a: T, b: T) => T
  div: (a: T, b: T) => T
  sqrt: (a: T) => T
  max: (a: T, b: T) => T
  /** u at a tick: 1.0001^(sigma·tick/2). */
  tickU: (tick: number, sigma: number) => T
  lt: (a: T, b: T) => boolean
}

function buildPieces<T>(spec: CurveSpec, num: Arithmetic<T>): { u: T[]; L: T[]; netIn: T[]; out: T[] } {
  const u: T[] = []
  const L: T[] = []
  if (spec.kind === 'v2') {
    const liquidity = num.sqrt(num.mul(num.of(spec.reserveIn), num.of(spec.reserveOut)))
    u.push(num.div(num.of(spec.reserveIn), liquidity), num.div(num.of(MAX_UINT112), liquidity))
    L.push(liquidity)
  } else {
    const price = num.div(num.of(spec.sqrtPriceX96), num.of(Q96))
    u.push(spec.sigma < 0 ? num.div(num.of(1), price) : price)
    let current = num.of(spec.liquidity)
    for (const crossing of spec.crossings) {
      L.push(current)
      u.push(num.max(u[u.length - 1]!, num.tickU(crossing.tick, spec.sigma)))
      current = num.of(crossing.liquidityAfter)
    }
    L.push(current)
    u.push(num.max(u[u.length - 1]!, num.tickU(spec.capTick, spec.sigma)))
  }
  const netIn: T[] = [num.of(0)]
  const out: T[] = [num.of(0)]
  for (let k = 0; k < L.length; k++) {
    const width = num.sub(u[k + 1]!, u[k]!)
    const zero = !num.lt(num.of(0), width) || !num.lt(num.of(0), L[k]!)
    netIn.push(zero ? netIn[k]! : num.add(netIn[k]!, num.mul(L[k]!, width)))
    out.push(zero ? out[k]! : num.add(out[k]!, num.mul(L[k]!, num.sub(num.div(num.of(1), u[k]!), num.div(num.of(1), u[k + 1]!)))))
  }
  return { u, L, netIn, out }
}

const floatOps: Arithmetic<number> = {
  of: (x: bigint | number) => Number(x),
  add: (a: number, b: number) => a + b,
  sub: (a: number, b: number) => a - b,
  mul: (a: number, b: number) => a * b,
  div: (a: number, b: number) => a / b,
  sqrt: Math.sqrt,
  max: Math.max,
  tickU: (tick: number, sigma: number) => Math.pow(1.0001, (sigma * tick) / 2),
  lt: (a: number, b: number) => a < b,
}

const BASE = new Big('1.0001')
const tickPowers = new Map<number, Big>()
const bigOps: Arithmetic<Big> = {
  of: (x: bigint | number) => new Big(x.toString()),
  add: (a: Big, b: Big) => a.plus(b),
  sub: (a: Big, b: Big) => a.minus(b),
  mul: (a: Big, b: Big) => a.times(b),
  div: (a: Big, b: Big) => a.div(b),
  sqrt: (a: Big) => a.sqrt(),
  max: (a: Big, b: Big) => (a.gt(b) ? a : b),
  tickU: (tick: number, sigma: number) => {
    const exponent = sigma * tick
    let root = tickPowers.get(exponent)
    if (!root) {
      // 1.0001^(e/2) = sqrt(1.0001^e); negative powers via the reciprocal.
      const power = exponent >= 0 ? BASE.pow(exponent) : new Big(1).div(BASE.pow(-exponent))
      root = power.sqrt()
      tickPowers.set(exponent, root)
    }
    return root
  },
  lt: (a: Big, b: Big) => a.lt(b),
}

/**
 * The float curve of selling `tokenIn` into a pool state.
 *
 * @example
 * const curve = buildFloatCurve(state, usdc, 30)
 */
export function buildFloatCurve(state: BenchPoolState, tokenIn: Address, v2FeeBps?: number): FloatCurve {
  const spec = specOf(state, tokenIn, v2FeeBps)
  return { gamma: Number(spec.gamma[0]) / Number(spec.gamma[1]), ...buildPieces(spec, floatOps) }
}

/**
 * The 80-digit curve of selling `tokenIn` into a pool state.
 *
 * @example
 * const curve = buildBigCurve(state, usdc, 30)
 */
export function buildBigCurve(state: BenchPoolState, tokenIn: Address, v2FeeBps?: number): BigCurve {
  const spec = specOf(state, tokenIn, v2FeeBps)
  const gamma = new Big(spec.gamma[0].toString()).div(spec.gamma[1].toString())
  return { gamma, sqrtGamma: gamma.sqrt(), ...buildPieces(spec, bigOps) }
}

/** Index of the piece holding u (u_k <= u < u_k+1), or L.length when u is at or past the edge. */
function pieceOf<T>(u: readonly T[], value: T, lt: (a: T, b: T) => boolean): number {
  let lo = 0
  let hi = u.length - 1
  if (!lt(value, u[hi]!)) return hi
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (lt(value, u[mid]!)) hi = mid
    else lo = mid
  }
  return lo
}

/** Gross input, output and dx/dλ when the curve is traded to marginal rate `lambda` (output per gross input). */
export function evaluateFloat(curve: FloatCurve, lambda: number): { x: number; y: number; dxdLambda: number } {
  const target = Math.sqrt(curve.gamma / lambda)
  return evaluateFloatAtU(curve, target, lambda)
}

/** Same as `evaluateFloat`, with the depth coordinate given directly. */
export function evaluateFloatAtU(curve: FloatCurve, target: number, lambda = curve.gamma / (target * target)) {
  const { u, L, netIn, out, gamma } = curve
  if (!(target > u[0]!)) return { x: 0, y: 0, dxdLambda: 0 }
  const k = pieceOf(u, target, (a, b) => a < b)
  if (k >= L.length) return { x: netIn[k]! / gamma, y: out[k]!, dxdLambda: 0 }
  const net = netIn[k]! + L[k]! * (target - u[k]!)
  const y = out[k]! + L[k]! * (1 / u[k]! - 1 / target)
  return { x: net / gamma, y, dxdLambda: (-L[k]! * target) / (2 * gamma * lambda) }
}

/** Gross input and output when the curve is traded to depth coordinate `w·√γ` (w = 1/√λ). */
export function evaluateBig(curve: BigCurve, w: Big): { x: Big; y: Big } {
  const { u, L, netIn, out, gamma } = curve
  const target = curve.sqrtGamma.times(w)
  if (!target.gt(u[0]!)) return { x: new Big(0), y: new Big(0) }
  const k = pieceOf(u, target, (a, b) => a.lt(b))
  if (k >= L.length) return { x: netIn[k]!.div(gamma), y: out[k]! }
  const net = netIn[k]!.plus(L[k]!.times(target.minus(u[k]!)))
  const y = out[k]!.plus(L[k]!.times(new Big(1).div(u[k]!).minus(new Big(1).div(target))))
  return { x: net.div(gamma), y }
}

/** Largest gross input the curve takes (to its known edge) and what it gives. */
export function capacityFloat(curve: FloatCurve): { x: number; y: number } {
  const m = curve.L.length
  return { x: curve.netIn[m]! / curve.gamma, y: curve.out[m]! }
}

/** The zero-size marginal rate γ/u_0², in w terms: w_0 = u_0/√γ (below it the pool takes nothing). */
export const startWBig = (curve: BigCurve): Big => curve.u[0]!.div(curve.sqrtGamma)
export const startWFloat = (curve: FloatCurve): number => curve.u[0]! / Math.sqrt(curve.gamma)
