// Balancer V2's LogExpMath.pow (solidity-utils LogExpMath.sol): x^y for 18-decimal fixed-point x
// and y as exp(y·ln(x)), with the contract's exact integer steps — 20-decimal (ln, exp) and
// 36-decimal (ln near 1) intermediates, the same decomposition constants and Taylor terms.
// Solidity's signed division truncates toward zero and `%` takes the dividend's sign; bigint's `/`
// and `%` do the same. The contract's bounds keep every intermediate inside int256, so no step
// here needs wrapping.
import { BAL, balRequire } from './revertError.js'

const ONE_18 = 10n ** 18n
const ONE_20 = 10n ** 20n
const ONE_36 = 10n ** 36n

// exp's domain: results must fit 20-decimal int256 on top, and stay >= 1e-18 below.
const MAX_NATURAL_EXPONENT = 130n * ONE_18
const MIN_NATURAL_EXPONENT = -41n * ONE_18

// ln_36 is used for arguments in (0.9, 1.1).
const LN_36_LOWER_BOUND = ONE_18 - 10n ** 17n
const LN_36_UPPER_BOUND = ONE_18 + 10n ** 17n

const MILD_EXPONENT_BOUND = 2n ** 254n / ONE_20

// x_n = 2^(7-n) and a_n = e^(x_n). x0, x1 and their a are 18-decimal exponents with plain-integer
// results; the rest are 20-decimal.
const x0 = 128_000000000000000000n
const a0 = 38877084059945950922200000000000000000000000000000000000n
const x1 = 64_000000000000000000n
const a1 = 6235149080811616882910000000n
const x2 = 3200_000000000000000000n
const a2 = 7896296018268069516100000000000000n
const x3 = 1600_000000000000000000n
const a3 = 888611052050787263676000000n
const x4 = 800_000000000000000000n
const a4 = 298095798704172827474000n
const x5 = 400_000000000000000000n
const a5 = 5459815003314423907810n
const x6 = 200_000000000000000000n
const a6 = 738905609893065022723n
const x7 = 100_000000000000000000n
const a7 = 271828182845904523536n
const x8 = 50_000000000000000000n
const a8 = 164872127070012814685n
const x9 = 25_000000000000000000n
const a9 = 128402541668774148407n
const x10 = 12_500000000000000000n
const a10 = 113314845306682631683n
const x11 = 6_250000000000000000n
const a11 = 106449445891785942956n

// exp's decomposition after x0/x1: subtract each 20-decimal x_n it contains, multiply by a_n.
const EXP_TERMS: readonly (readonly [bigint, bigint])[] = [
  [x2, a2], [x3, a3], [x4, a4], [x5, a5], [x6, a6], [x7, a7], [x8, a8], [x9, a9],
]
// ln's decomposition after a0/a1: divide by each a_n the argument still exceeds, add x_n.
const LN_TERMS: readonly (readonly [bigint, bigint])[] = [
  [x2, a2], [x3, a3], [x4, a4], [x5, a5], [x6, a6], [x7, a7], [x8, a8], [x9, a9], [x10, a10], [x11, a11],
]

/**
 * x^y with 18-decimal fixed-point base and exponent, bit for bit as LogExpMath.pow: 0^0 = 1,
 * 0^y = 0; BAL#006 for x >= 2^255, BAL#007 for y >= 2^254/1e20, BAL#008 when y·ln(x) leaves
 * [-41, 130].
 *
 * @example
 * pow(2n * 10n ** 18n, 5n * 10n ** 17n) // ≈ 1.414213562373095048e18
 */
export function pow(x: bigint, y: bigint): bigint {
  if (y === 0n) return ONE_18
  if (x === 0n) return 0n
  balRequire(x >> 255n === 0n, BAL.X_OUT_OF_BOUNDS)
  balRequire(y < MILD_EXPONENT_BOUND, BAL.Y_OUT_OF_BOUNDS)

  let logTimesY: bigint
  if (LN_36_LOWER_BOUND < x && x < LN_36_UPPER_BOUND) {
    const ln36 = ln36Of(x)
    // Two 18-decimal products (the whole and the fractional 18 digits of ln36), as the contract
    // does to keep 36 decimals without overflowing.
    logTimesY = (ln36 / ONE_18) * y + ((ln36 % ONE_18) * y) / ONE_18
  } else {
    logTimesY = lnOf(x) * y
  }
  logTimesY /= ONE_18

  balRequire(MIN_NATURAL_EXPONENT <= logTimesY && logTimesY <= MAX_NATURAL_EXPONENT, BAL.PRODUCT_OUT_OF_BOUNDS)
  return exp(logTimesY)
}

/**
 * e^x for a signed 18-decimal exponent in [-41, 130] (BAL#009 outside), as LogExpMath.exp.
 *
 * @example
 * exp(10n ** 18n) // 2718281828459045235n
 */
export function exp(x: bigint): bigint {
  balRequire(x >= MIN_NATURAL_EXPONENT && x <= MAX_NATURAL_EXPONENT, BAL.INVALID_EXPONENT)
  if (x < 0n) return (ONE_18 * ONE_18) / exp(-x)

  let firstAN: bigint
  if (x >= x0) {
    x -= x0
    firstAN = a0
  } else if (x >= x1) {
    x -= x1
    firstAN = a1
  } else {
    firstAN = 1n
  }

  // 20 decimals from here.
  x *= 100n
  let product = ONE_20
  for (const [xn, an] of EXP_TERMS) {
    if (x >= xn) {
      x -= xn
      product = (product * an) / ONE_20
    }
  }

  // Taylor series of e^x for the small remainder: 12 terms.
  let seriesSum = ONE_20
  let term = x
  seriesSum += term
  for (let n = 2n; n <= 12n; n++) {
    term = (term * x) / ONE_20 / n
    seriesSum += term
  }

  return (((product * seriesSum) / ONE_20) * firstAN) / 100n
}

/** LogExpMath._ln: ln(a) for an 18-decimal a > 0, in 18 decimals. */
function lnOf(a: bigint): bigint {
  if (a < ONE_18) return -lnOf((ONE_18 * ONE_18) / a)

  let sum = 0n
  if (a >= a0 * ONE_18) {
    a /= a0
    sum += x0
  }
  if (a >= a1 * ONE_18) {
    a /= a1
    sum += x1
  }

  // 20 decimals from here.
  sum *= 100n
  a *= 100n
  for (const [xn, an] of LN_TERMS) {
    if (a >= an) {
      a = (a * ONE_20) / an
      sum += xn
    }
  }

  // ln(a) = 2·(z + z^3/3 + z^5/5 + ...) with z = (a - 1)/(a + 1): 6 terms.
  const z = ((a - ONE_20) * ONE_20) / (a + ONE_20)
  const zSquared = (z * z) / ONE_20
  let num = z
  let seriesSum = num
  for (let d = 3n; d <= 11n; d += 2n) {
    num = (num * zSquared) / ONE_20
    seriesSum += num / d
  }
  seriesSum *= 2n

  return (sum + seriesSum) / 100n
}

/** LogExpMath._ln_36: ln(x) in 36 decimals for an 18-decimal x close to 1. */
function ln36Of(x: bigint): bigint {
  x *= ONE_18
  const z = ((x - ONE_36) * ONE_36) / (x + ONE_36)
  const zSquared = (z * z) / ONE_36
  let num = z
  let seriesSum = num
  for (let d = 3n; d <= 15n; d += 2n) {
    num = (num * zSquared) / ONE_36
    seriesSum += num / d
  }
  return seriesSum * 2n
}
