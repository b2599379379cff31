/**
 * Aerodrome V2 (Solidly) pool math, bit for bit as `Pool.sol` computes it (sphere-mezo-solidity-files
 * 1.2.0, domains/aerodrome/contracts/Pool.sol): the fee taken off the input, the volatile x·y and
 * stable x³y + xy³ curves, the stable curve's Newton `_get_y` with its decimal scaling, and the
 * swap's own `K` check. Every product is checked against uint256 like Solidity 0.8's arithmetic: a
 * swap whose math would overflow reverts on chain, so it has no result here.
 */

/** Solidity's uint256 bound: a product at or above it reverts (Panic 0x11). */
const UINT256_LIMIT = 1n << 256n
/** The pool's fixed-point unit (its `1e18`). */
const WAD = 10n ** 18n
/** The factory's fee denominator (fees are in basis points of the input). */
const FEE_DENOMINATOR = 10_000n
/** `_get_y` gives up (reverts "!y") after this many Newton steps. */
const NEWTON_STEPS = 255

/** Thrown inside this module where the pool's own arithmetic would revert; caught at its exports. */
class PoolRevert extends Error {}

/** a·b, or the pool's revert when it would overflow uint256. */
function mul(a: bigint, b: bigint): bigint {
  const product = a * b
  if (product >= UINT256_LIMIT) throw new PoolRevert('overflow')
  return product
}

/** a + b, or the pool's revert when it would overflow uint256. */
function add(a: bigint, b: bigint): bigint {
  const sum = a + b
  if (sum >= UINT256_LIMIT) throw new PoolRevert('overflow')
  return sum
}

/** a − b, or the pool's revert when it would underflow. */
function sub(a: bigint, b: bigint): bigint {
  if (b > a) throw new PoolRevert('underflow')
  return a - b
}

/** a / b, or the pool's revert on a division by zero. */
function div(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new PoolRevert('division by zero')
  return a / b
}

/** What a pool's curve needs besides its reserves: its kind and its tokens' `10 ** decimals`. */
export type AerodromeV2Curve = {
  stable: boolean
  /** `10 ** decimals()` of token0 and token1, as the pool stores them (`decimals0`, `decimals1`). */
  decimals0: bigint
  decimals1: bigint
}

// Pool._k: x·y for volatile pools; for stable pools x³y + xy³ on both reserves scaled to 18 decimals.
function curveK(curve: AerodromeV2Curve, x: bigint, y: bigint): bigint {
  if (!curve.stable) return mul(x, y)
  const scaledX = div(mul(x, WAD), curve.decimals0)
  const scaledY = div(mul(y, WAD), curve.decimals1)
  const xTimesY = mul(scaledX, scaledY) / WAD
  const squares = add(mul(scaledX, scaledX) / WAD, mul(scaledY, scaledY) / WAD)
  return mul(xTimesY, squares) / WAD
}

// Pool._f: the stable invariant of two already-scaled reserves.
function invariant(x0: bigint, y: bigint): bigint {
  const xTimesY = mul(x0, y) / WAD
  const squares = add(mul(x0, x0) / WAD, mul(y, y) / WAD)
  return mul(xTimesY, squares) / WAD
}

// Pool._d: the invariant's derivative in y.
function derivative(x0: bigint, y: bigint): bigint {
  return add(mul(mul(3n, x0), mul(y, y) / WAD) / WAD, mul(mul(x0, x0) / WAD, x0) / WAD)
}

// Pool._get_y: Newton's method for the least y with _f(x0, y) >= xy, starting from y. Its
// "no closer answer than y + 1" test calls _k, which scales its (already scaled) arguments by the
// pool's decimals once more; that quirk decides some answers, so it is kept.
function solveY(curve: AerodromeV2Curve, x0: bigint, xy: bigint, start: bigint): bigint {
  let y = start
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const k = invariant(x0, y)
    if (k < xy) {
      let dy = div(mul(xy - k, WAD), derivative(x0, y))
      if (dy === 0n) {
        if (k === xy) return y
        if (curveK(curve, x0, add(y, 1n)) > xy) return add(y, 1n)
        dy = 1n
      }
      y = add(y, dy)
    } else {
      let dy = div(mul(k - xy, WAD), derivative(x0, y))
      if (dy === 0n) {
        if (k === xy || invariant(x0, sub(y, 1n)) < xy) return y
        dy = 1n
      }
      y = sub(y, dy)
    }
  }
  throw new PoolRevert('!y')
}

/**
 * The fee the pool withholds from an input: floor(amountIn · feeBps / 10000), moved to its PoolFees.
 *
 * @example
 * getAerodromeFee(10_000n, 30n) // 30n
 */
export function getAerodromeFee(amountIn: bigint, feeBps: bigint): bigint {
  return (amountIn * feeBps) / FEE_DENOMINATOR
}

/**
 * `Pool.getAmountOut(amountIn, tokenIn)`: the fee taken off the input, then the curve's output
 * (volatile: floor(in·rOut / (rIn + in)); stable: Newton's `_get_y` on 18-decimal reserves, scaled
 * back to the output's decimals). Returns undefined where the pool's own math reverts (overflow,
 * a Newton search that does not converge). Not yet checked against what `swap` accepts: see
 * {@link getAerodromeSwapOutput}.
 *
 * @example
 * getAerodromeAmountOut({ stable: false, decimals0: 10n ** 18n, decimals1: 10n ** 6n }, true, 10n ** 18n, 10n ** 21n, 3n * 10n ** 12n, 30n)
 */
export function getAerodromeAmountOut(
  curve: AerodromeV2Curve,
  zeroForOne: boolean,
  amountIn: bigint,
  reserve0: bigint,
  reserve1: bigint,
  feeBps: bigint,
): bigint | undefined {
  try {
    const netIn = amountIn - mul(amountIn, feeBps) / FEE_DENOMINATOR
    if (!curve.stable) {
      const [reserveIn, reserveOut] = zeroForOne ? [reserve0, reserve1] : [reserve1, reserve0]
      return div(mul(netIn, reserveOut), add(reserveIn, netIn))
    }
    const xy = curveK(curve, reserve0, reserve1)
    const scaled0 = div(mul(reserve0, WAD), curve.decimals0)
    const scaled1 = div(mul(reserve1, WAD), curve.decimals1)
    const [reserveA, reserveB] = zeroForOne ? [scaled0, scaled1] : [scaled1, scaled0]
    const scaledIn = div(mul(netIn, WAD), zeroForOne ? curve.decimals0 : curve.decimals1)
    const y = sub(reserveB, solveY(curve, add(scaledIn, reserveA), xy, reserveB))
    return mul(y, zeroForOne ? curve.decimals1 : curve.decimals0) / WAD
  } catch (error) {
    if (error instanceof PoolRevert) return undefined
    throw error
  }
}

/**
 * Whether `Pool.swap` takes `amountIn` (already in the pool) for `amountOut`: it refuses a zero
 * output (InsufficientOutputAmount), an output at or above its reserve (InsufficientLiquidity), a
 * zero input (InsufficientInputAmount), and, once the fee has left, balances whose curve value is
 * below the reserves' (K). Returns the reason it refuses, or undefined when it takes the trade.
 *
 * @example
 * getAerodromeSwapRefusal(curve, true, amountIn, amountOut + 1n, reserve0, reserve1, 30n) // 'K'
 */
export function getAerodromeSwapRefusal(
  curve: AerodromeV2Curve,
  zeroForOne: boolean,
  amountIn: bigint,
  amountOut: bigint,
  reserve0: bigint,
  reserve1: bigint,
  feeBps: bigint,
): 'InsufficientOutputAmount' | 'InsufficientLiquidity' | 'InsufficientInputAmount' | 'K' | 'overflow' | undefined {
  const reserveOut = zeroForOne ? reserve1 : reserve0
  if (amountOut === 0n) return 'InsufficientOutputAmount'
  if (amountOut >= reserveOut) return 'InsufficientLiquidity'
  if (amountIn === 0n) return 'InsufficientInputAmount'
  try {
    const fee = mul(amountIn, feeBps) / FEE_DENOMINATOR
    const credited = add(zeroForOne ? reserve0 : reserve1, amountIn - fee)
    const [balance0, balance1] = zeroForOne ? [credited, reserve1 - amountOut] : [reserve0 - amountOut, credited]
    return curveK(curve, balance0, balance1) < curveK(curve, reserve0, reserve1) ? 'K' : undefined
  } catch (error) {
    if (error instanceof PoolRevert) return 'overflow'
    throw error
  }
}

/**
 * What an exact-input swap through weft's executor delivers: the pool's `getAmountOut`, provided
 * `swap` takes it (a non-zero output below the reserve that passes `K`). Undefined otherwise.
 *
 * @example
 * getAerodromeSwapOutput(curve, true, 10n ** 6n, reserve0, reserve1, 5n)
 */
export function getAerodromeSwapOutput(
  curve: AerodromeV2Curve,
  zeroForOne: boolean,
  amountIn: bigint,
  reserve0: bigint,
  reserve1: bigint,
  feeBps: bigint,
): bigint | undefined {
  if (amountIn <= 0n) return undefined
  const amountOut = getAerodromeAmountOut(curve, zeroForOne, amountIn, reserve0, reserve1, feeBps)
  if (amountOut === undefined) return undefined
  return getAerodromeSwapRefusal(curve, zeroForOne, amountIn, amountOut, reserve0, reserve1, feeBps) === undefined ? amountOut : undefined
}
