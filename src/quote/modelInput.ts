import type { PreparedRoute } from '../router/findRoute.js'

/** Evaluations of the model allowed for the input that delivers a gross output. */
const MODEL_STEPS = 30
/** An evaluation this close to the target (relative) delivers it: float noise. */
const TARGET_TOLERANCE = 1e-12
/**
 * The search stops when the inputs known to fall short and to deliver are this close (relative).
 * Newton's steps never leave the bracket on a smooth output, so this only ends the bisection of a
 * jump, where the model's output is itself further from the exact than this (6-hop models: 6e-4).
 * The input only sizes the split whose least exact input is searched next.
 */
const BRACKET_TOLERANCE = 1e-6

/**
 * The routed input whose gas-free optimal split delivers `gross` in the float
 * model (rounded up), or undefined when the model cannot deliver it. Newton's
 * method on output(input), whose slope is the input token's price, kept inside
 * the bracket of inputs known to fall short and to deliver (a bisection when a
 * step leaves it), so it converges where the model is not smooth: the lead
 * model can change with the input, and the output jump by far more than
 * Newton's step (families soak seed 419: 30 evaluations cycling on three
 * inputs, about 1 s). Past the model's capacity (no optimum), the output is
 * concave, so no input below that point delivers more than the tangent at the
 * largest input that falls short: once that tangent is below `gross`, the
 * model cannot deliver it, and the search gives up at once rather than
 * halving towards the capacity for the rest of its steps (families soak seed
 * 412: 30 evaluations, then a route at an input past the capacity). Undefined
 * sends the caller to its exact doubling search.
 *
 * @example
 * const router = prepareRoute(parameters, { amountOut: 1e9 })
 * const routed = modelInput(router, 1e9) // about 1e9 / the best rate, or undefined
 */
export function modelInput(router: Pick<PreparedRoute, 'graph' | 'optimum'>, gross: number): bigint | undefined {
  const spot = router.graph.spot[1] ?? 0
  if (!(spot > 0) || !(gross > 0) || !Number.isFinite(gross)) return undefined
  // The largest input known to fall short, with its output and price (none yet: 0 gives nothing).
  let short = 0
  let shortOutput = 0
  let shortPrice = Number.NaN
  // The least input known to deliver, and the least known to be past the model's capacity.
  let delivers = Number.POSITIVE_INFINITY
  let past = Number.POSITIVE_INFINITY
  let x = gross / spot
  for (let step = 0; step < MODEL_STEPS; step++) {
    const at = router.optimum(x)
    let next: number
    if (!at) {
      past = Math.min(past, x)
      next = Number.NaN
    } else {
      const miss = gross - at.output
      // Within float noise of the target: this input delivers it.
      if (Math.abs(miss) <= gross * TARGET_TOLERANCE) return roundedUp(x)
      if (miss < 0) delivers = Math.min(delivers, x)
      else if (x > short) {
        short = x
        shortOutput = at.output
        shortPrice = at.inputPrice
      }
      if (!(at.inputPrice > 0)) break
      next = x + miss / at.inputPrice
      // Newton's step back to no input at all: the model's output does not start at zero (it
      // circulates an arbitrage between mispriced pools, which no route executes: families soak
      // seed 412, about 9,600 USDC for 5e9 wei of WETH), so its input means nothing.
      if (!(next > 0) || !Number.isFinite(next)) return undefined
    }
    const top = Math.min(delivers, past)
    // Concave output: below `past`, no input gives more than the tangent at `short`.
    if (delivers === Number.POSITIVE_INFINITY && past < Number.POSITIVE_INFINITY && shortOutput + shortPrice * (past - short) < gross) return undefined
    if (top < Number.POSITIVE_INFINITY && top - short <= top * BRACKET_TOLERANCE) break
    // Newton's step while it stays inside the bracket (on a smooth concave output it always does),
    // else its middle.
    x = next > short && next < top ? next : (short + top) / 2
  }
  return delivers < 2 ** 255 ? roundedUp(delivers) : undefined
}

/** An input rounded up, plus float noise, so the split is at (not just below) the size that delivers. */
const roundedUp = (input: number) => BigInt(Math.ceil(input * (1 + TARGET_TOLERANCE))) + 1n
