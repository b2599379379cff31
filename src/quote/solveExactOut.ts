import { type PreparedRoute, prepareRoute } from '../router/findRoute.js'
import { getBestSpotRate } from '../router/getBestSpotRate.js'
import { simulatePlan } from '../router/simulatePlan.js'
import { beyondEveryPlan } from './beyondEveryPlan.js'
import { modelInput } from './modelInput.js'
import type { Path, Plan, RouteParameters } from '../router/types.js'

/** A plan for a total input: the route for `routed`, plus what the user sends and nets. */
export type SizedPlan = { amountIn: bigint; routed: bigint; plan: Plan; net: bigint }

/** How fees map the user's input to the routed input, and gross output to net output. */
export type FeeMaps = {
  routedOf: (amountIn: bigint) => bigint
  netOf: (grossOut: bigint) => bigint
}

type Shape = { paths: Path[]; weights: bigint[]; total: bigint; gasCostInOutput: number }

function shapeOf(plan: Plan, gasCostInOutput: number): Shape {
  const weights = plan.paths.map((p) => p.amountIn)
  return { paths: plan.paths.map((p) => p.path), weights, total: plan.amountIn, gasCostInOutput }
}

/** Splits `routed` across the shape's paths in its proportions (cumulative rounding, exact sum). */
function planAtScale(shape: Shape, routed: bigint): Plan | undefined {
  let cumulative = 0n
  let previousCut = 0n
  const allocations = shape.paths.map((path, i) => {
    cumulative += shape.weights[i]!
    const cut = (routed * cumulative) / shape.total
    const amountIn = cut - previousCut
    previousCut = cut
    return { path, amountIn }
  })
  return simulatePlan(allocations, { gasCostInOutput: shape.gasCostInOutput })
}

/**
 * Exact output: the least amount the user sends such that the net output
 * (after every fee) is at least `target`. The router's gas-free optimum as a
 * function of the input is concave and increasing, with derivative the input
 * token's dual price, so Newton's method on the float model finds the input
 * whose optimal split delivers the gross target in a few solves (the same
 * optimality as exact-in: least input for the output). The gas-aware route at
 * that size fixes the split's shape; the least input on that shape is then
 * found on exact simulation, and the shape re-optimised once at the found
 * size. When the model cannot reach the target (pools exhausted, or families
 * without a model that the sampled curve misjudges), the exact doubling
 * search below takes over, unless the all-pools relaxation proves no plan
 * reaches the target (a 404 without a route). An answer far from the size the
 * candidate pools were chosen for has them chosen again at its own size and is
 * re-shaped there; a 404 not proved is searched once more on candidates chosen
 * at the size that came closest.
 */
export function solveExactOut(parameters: RouteParameters, target: bigint, fees: FeeMaps): SizedPlan | undefined {
  // No route delivers more than the pools hold of the output token: refuse at once.
  const gross = leastWith(fees.netOf, target)
  if (gross > maxGrossOut(parameters)) return undefined
  // The doubling search costs up to 13 routes (a second at 1,000 pools and 6 hops) before it
  // answers 404; a target past what every pool within maxHops can give at any input is known to be
  // one by a single solve of the all-pools relaxation (hard bench 1000:1 H12->H17 at 6 hops: 2.4 s).
  // Asked only once the model could not place the target: an answer found never pays for it.
  let beyond: boolean | undefined
  const outOfReach = () => (beyond ??= beyondEveryPlan(parameters, gross))
  const gasCost = parameters.gasCostInOutput
  // The route that came closest to the target (the most net output) while none delivered it.
  let closest: SizedPlan | undefined
  const weigh = (sized: SizedPlan) => {
    if (!closest || sized.net > closest.net) closest = sized
  }
  const router = prepareRoute(parameters, { amountOut: Number(gross) })
  let chosenFor = Number(gross) / (router.graph.spot[1] ?? 0)
  let answers = answerOn(router, target, gross, fees, gasCost, outOfReach, weigh)
  // The candidates were chosen for the input the target needs at the best mid-price rate; a target
  // only a deep trade delivers (far past that input, where the pools' depth, not their rates,
  // decides the route) can lie past every route on them and within reach of routes on candidates
  // chosen for a deep trade (hard bench 100:1 H0->H2 at 6 hops: findRoute at 10 times the trade's
  // depth delivered 3,354,154e24, every route on candidates chosen at the mid-price input, 1/30 of
  // it, at most 3,354,033e24: a 404 for what a route delivers). Before a 404 the search is made
  // once more on candidates chosen at the size that came closest, when it is far above the first.
  if (answers.length === 0 && closest && !outOfReach() && Number(closest.routed) > chosenFor * RESELECT_RATIO) {
    chosenFor = Number(closest.routed)
    answers = answerOn(prepareRoute(parameters, chosenFor), target, gross, fees, gasCost, outOfReach, weigh)
  }
  // Each answer found is chosen again at its own size (see reselectedAtAnswer); the least wins.
  let best: SizedPlan | undefined
  for (const answer of answers) {
    const reselected = reselectedAtAnswer(parameters, answer, chosenFor, target, fees, gasCost)
    if (!best || reselected.amountIn < best.amountIn) best = reselected
  }
  return best
}

/**
 * An answer far above the size its candidates were chosen for (a deep trade) is routed on pools
 * chosen for another size, and the route chosen at the answer's own size can deliver the target
 * for less (random V2+V3 market, seed 23 market 3 at 10 times its trade: the answer 2.5 times the
 * mid-price input, where findRoute delivered 0.37% more than the target). The candidates are
 * chosen again at the answer's size and the split re-shaped on them, in a bounded number of
 * rounds; only an answer found is re-solved, so refusals cost nothing more.
 */
function reselectedAtAnswer(parameters: RouteParameters, found: SizedPlan, chosenAt: number, target: bigint, fees: FeeMaps, gasCost: number): SizedPlan {
  let best = found
  let chosenFor = chosenAt
  for (let round = 0; round < MAX_RESELECTIONS; round++) {
    const answer = Number(best.routed)
    if (!(answer > 0) || (answer <= chosenFor * RESELECT_RATIO && answer * RESELECT_RATIO >= chosenFor)) break
    chosenFor = answer
    const again = reshapedAtAnswer(routerAt(prepareRoute(parameters, answer), fees), best, target, fees, gasCost)
    if (again.amountIn >= best.amountIn) break
    best = again
  }
  return best
}

/**
 * The least input found on one prepared router's candidates: the model's input (Newton on the
 * gas-free optimum), else the doubling search; the least input on that split's shape, re-shaped
 * at the answer. `weigh` sees every route made; `outOfReach` proves a 404 before the doubling
 * search. The answers to weigh (none when nothing found delivers the target; two when the sizes
 * below the doubling search's first delivery gave another).
 */
function answerOn(
  router: PreparedRoute,
  target: bigint,
  gross: bigint,
  fees: FeeMaps,
  gasCost: number,
  outOfReach: () => boolean,
  weigh: (sized: SizedPlan) => void,
): SizedPlan[] {
  const routeOf = routerAt(router, fees)
  // Every route made on these candidates that fell short of the target.
  const short: SizedPlan[] = []
  const routeAt = (amountIn: bigint) => {
    const sized = routeOf(amountIn)
    if (sized) {
      weigh(sized)
      if (sized.net < target) short.push(sized)
    }
    return sized
  }
  const routed = modelInput(router, Number(gross))
  let sized = routed === undefined ? undefined : routeAt(leastWith(fees.routedOf, routed))
  if (!sized && outOfReach()) return []
  // Whether `sized` is the doubling search's (the first size that delivered, doubling from below).
  let doubled = sized === undefined
  sized ??= doublingSearch(router, target, fees, routeAt)
  if (!sized) return []
  let best = leastInputNear(shapeOf(sized.plan, gasCost), target, sized.amountIn, fees)
  if (!best && sized.net < target && !outOfReach()) {
    // The model's split falls short (the model overrates it) and its proportions cannot grow to the
    // target: a pool one of its paths drains ends first. The doubling search splits afresh at each
    // size (families soak seed 80: 404s on exact outputs a single path fills ten times over).
    const resized = doublingSearch(router, target, fees, routeAt)
    if (resized) {
      sized = resized
      doubled = true
      best = leastInputNear(shapeOf(resized.plan, gasCost), target, resized.amountIn, fees)
    }
  }
  if (!best) return sized.net >= target ? [sized] : []
  const reshaped = reshapedAtAnswer(routeAt, best, target, fees, gasCost)
  // The doubling search delivered first at a size twice one that fell short: the least size that
  // delivers lies between the two, and the split found at the first is shrunk on its own
  // proportions only, which the route's output, not monotone, can leave far above it (hard bench
  // 100:2 H9->H14 at 6 hops, 99.9% of findRoute's output at 3 times the depth: short at 1.26e12,
  // delivering at 2.51e12, a split that could not shrink below 2.48e12, where the route fell to 88%
  // of the target: 1.23 times the input findRoute needs). The bracket between the largest short
  // size below and the delivering one is halved on the route's outcome; the split of the least
  // size that delivers is searched and re-shaped too, and that answer weighed with the first.
  const delivering = sized
  let below: bigint | undefined
  for (const route of short) if (route.amountIn < delivering.amountIn && (below === undefined || route.amountIn > below)) below = route.amountIn
  if (!doubled || below === undefined) return [reshaped]
  const least = leastDeliveringBelow(routeAt, delivering, below, target)
  if (least === delivering) return [reshaped]
  const lesser = leastInputNear(shapeOf(least.plan, gasCost), target, least.amountIn, fees)
  return lesser ? [reshaped, reshapedAtAnswer(routeAt, lesser, target, fees, gasCost)] : [reshaped]
}

/**
 * The least size found to deliver `target` between `below` (a size whose route fell short) and
 * `delivering`'s, by halving that bracket BELOW_STEPS times on the route's own outcome at its middle
 * (the route is not monotone: a heuristic bracket, whose every delivering size is a real route).
 */
function leastDeliveringBelow(routeAt: (amountIn: bigint) => SizedPlan | undefined, delivering: SizedPlan, below: bigint, target: bigint): SizedPlan {
  let least = delivering
  let short = below
  for (let step = 0; step < BELOW_STEPS && least.amountIn - short > 1n; step++) {
    const middle = (short + least.amountIn) / 2n
    const sized = routeAt(middle)
    if (sized && sized.net >= target) least = sized
    else short = middle
  }
  return least
}

/** Routes the user's input (through the fees) on a prepared router's candidates. */
function routerAt(router: PreparedRoute, fees: FeeMaps): (amountIn: bigint) => SizedPlan | undefined {
  return (amountIn) => sizedAt(amountIn, fees, router.search)
}

/** The user's input, what the fees leave of it to route, the plan `planOf` makes of that, and its net output (undefined when nothing is routed). */
function sizedAt(amountIn: bigint, fees: FeeMaps, planOf: (routed: bigint) => Plan | undefined): SizedPlan | undefined {
  const routed = fees.routedOf(amountIn)
  if (routed <= 0n) return undefined
  const plan = planOf(routed)
  return plan ? { amountIn, routed, plan, net: fees.netOf(plan.amountOut) } : undefined
}

/** The least input found from `found` (which delivers `target`) by re-routing the split at the answer. */
function reshapedAtAnswer(
  routeAt: (amountIn: bigint) => SizedPlan | undefined,
  found: SizedPlan,
  target: bigint,
  fees: FeeMaps,
  gasCost: number,
): SizedPlan {
  let best = found
  // The shape re-optimised at the found size, until the size it was routed at is the answer's: a
  // first shape that falls short can need far more input on its proportions than the route at the
  // answer (a path it leans on runs out of depth, or the doubling search shaped it at up to twice
  // the size), and a shape routed at that larger size, scaled back down, is not the best split there:
  // it shrinks a path the route at the answer keeps whole (families soak seed 412 LINK->PEPE 0.5% at
  // 6 hops and 76 gwei: shaped at 674.19 LINK, answered 670.48; routed at the answer, 670.40).
  // The size sought is where the route's own net output meets the target; the next size is that
  // root's secant estimate from the sizes routed so far, else the least input found.
  const routedSizes: SizedPlan[] = []
  let shapedAt = best.amountIn
  for (let round = 0; round < MAX_RESHAPES; round++) {
    const reshaped = routeAt(shapedAt)
    if (!reshaped || reshaped.plan.paths.length === 0) break
    routedSizes.push(reshaped)
    const again = leastInputNear(shapeOf(reshaped.plan, gasCost), target, shapedAt, fees)
    if (again && again.amountIn < best.amountIn) best = again
    const next = rootEstimate(routedSizes, target, best.amountIn) ?? best.amountIn
    // Routed within a hair of the next size: a route there would be the same split.
    const step = next > shapedAt ? next - shapedAt : shapedAt - next
    if (step * RESHAPE_RESOLUTION <= shapedAt) break
    shapedAt = next
  }
  return best
}

/**
 * Where the routes' net output meets `target`, by the line through two routed sizes: the largest
 * that falls short and the least that delivers when both are known, else the two least that
 * deliver. Undefined without two such sizes, or when the line leaves the range the answer is in
 * (above the largest size known short, below `ceiling`, an input known to deliver).
 */
function rootEstimate(routedSizes: readonly SizedPlan[], target: bigint, ceiling: bigint): bigint | undefined {
  const delivering = routedSizes.filter((sized) => sized.net >= target).sort((a, b) => (a.amountIn < b.amountIn ? -1 : 1))
  const short = routedSizes.filter((sized) => sized.net < target).sort((a, b) => (a.amountIn > b.amountIn ? -1 : 1))
  const least = delivering[0]
  const under = short.find((sized) => !least || sized.amountIn < least.amountIn)
  const other = under ?? delivering[1]
  if (!least || !other || other.net === least.net) return undefined
  const next = least.amountIn + ((target - least.net) * (other.amountIn - least.amountIn)) / (other.net - least.net)
  const floor = under?.amountIn ?? 0n
  return next > floor && next < ceiling ? next : undefined
}

/** Times the candidates may be chosen again at the answer's size (each a graph build and up to MAX_RESHAPES routes). */
const MAX_RESELECTIONS = 2
/** An answer more than this factor from the size its candidates were chosen for has them chosen again. */
const RESELECT_RATIO = 1.5
/** Routes at the found size allowed (each a solve of the candidate graph: tens of ms at 6 hops). */
const MAX_RESHAPES = 6
/** A next size within 1 / RESHAPE_RESOLUTION of the size just routed is not routed: the same split. */
const RESHAPE_RESOLUTION = 10_000n

/**
 * The least input (for a fixed split shape) whose net output reaches
 * `target`, searching on exact simulation from `guess`: steps by the deficit
 * (or surplus) at the trial's average rate bracket the answer within a hair,
 * then a binary search closes it. Undefined when no input below 2^256 reaches it.
 */
function leastInputNear(shape: Shape, target: bigint, guess: bigint, fees: FeeMaps): SizedPlan | undefined {
  const evaluate = (amountIn: bigint) => sizedAt(amountIn, fees, (routed) => planAtScale(shape, routed))
  // An input that reaches the target.
  let x = guess > 0n ? guess : 1n
  let best: SizedPlan | undefined
  for (let step = 0; step < 64 && !best; step++) {
    const trial = evaluate(x)
    if (trial && trial.net >= target) best = trial
    else {
      const up = trial && trial.net > 0n ? ((target - trial.net) * x) / trial.net + (x >> 40n) + 1n : x
      x += up
      if (x >= 1n << 256n) return undefined
    }
  }
  if (!best) return undefined
  let hi = best.amountIn
  // An input below it that falls short (0 falls short of any positive target).
  let lo = 0n
  // The net output at `lo` (none at no input; undefined when no plan routed there).
  let loNet: bigint | undefined = 0n
  for (let step = 0; step < 16; step++) {
    const down = best.net > 0n ? ((best.net - target) * hi) / best.net + (hi >> 40n) + 1n : hi
    const next = hi - down
    if (next <= lo) break
    const trial = evaluate(next)
    if (trial && trial.net >= target) {
      hi = next
      best = trial
    } else {
      lo = next
      loNet = trial?.net
      break
    }
  }
  // Closed by interpolating the net output, all but linear across so narrow a bracket (halving
  // alone costs a simulation of the split per bit of the bracket), with a halving after any
  // interpolation that leaves more than half the bracket (the pools' rounding makes it uneven).
  let halve = false
  while (hi - lo > 1n) {
    const width = hi - lo
    const interpolate: boolean = !halve && loNet !== undefined && best.net > loNet
    let mid = (lo + hi) / 2n
    if (interpolate) {
      const rise = best.net - loNet!
      mid = lo + ((target - loNet!) * width + rise - 1n) / rise
      if (mid <= lo) mid = lo + 1n
      if (mid >= hi) mid = hi - 1n
    }
    const trial = evaluate(mid)
    if (trial && trial.net >= target) {
      hi = mid
      best = trial
    } else {
      lo = mid
      loNet = trial?.net
    }
    halve = interpolate && (hi - lo) * 2n > width
  }
  return best
}

/**
 * The previous search, for targets the model cannot place: an upper bound
 * from the best single path's exact-out input, or doublings from the input the
 * best spot rate implies (at most MAX_DOUBLINGS past the first fill).
 */
function doublingSearch(
  router: PreparedRoute,
  target: bigint,
  fees: FeeMaps,
  routeAt: (amountIn: bigint) => SizedPlan | undefined,
): SizedPlan | undefined {
  const paths = singlePaths(router)
  let hi = singlePathInput(paths, target, fees) ?? spotInput(paths, target, fees)
  let previous: bigint | undefined
  let doublings = 0
  // Sizes nothing filled before any route did (see MAX_UNFILLED_DOUBLINGS).
  let unfilled = 0
  // The size whose route came closest so far, and whether the sizes around it were routed.
  let peak: SizedPlan | undefined
  let probed = false
  // The route's output is not monotone in its input: past the size that came closest, a larger
  // input can route to less (its best pools past their range), so the sizes that deliver can lie
  // between two doublings that both fall short (hard bench 100:2 H9->H14 at 6 hops, 99.9% of what
  // findRoute delivers at 3 times the trade's depth: 99.07% of it at 1.28 times, less at 2.56
  // times and every size up to 328 times, whose split answered 310 times the input findRoute
  // needs). The first time the output falls (or nothing fills) after the closest size, the sizes
  // between it and its neighbours are routed, the nearest first; the first that delivers is kept.
  const probePeak = (): SizedPlan | undefined => {
    if (probed || !peak) return undefined
    probed = true
    for (const [numerator, denominator] of PEAK_PROBES) {
      const sized = routeAt((peak.amountIn * numerator) / denominator)
      if (sized && sized.net >= target) return sized
    }
    return undefined
  }
  for (let i = 0; i < 256; i++) {
    const sized = routeAt(hi)
    if (sized) {
      if (sized.net >= target) return sized
      if (previous !== undefined && sized.net < previous) {
        const probe = probePeak()
        if (probe) return probe
      }
      // Doubling the input no longer moves the output (under 1 ppm): the pools are exhausted. An
      // output that falls is no such sign: the best route at the smaller input ran out of range
      // (a pool it drains ends), and a larger one reaches other liquidity (families soak seed 4:
      // 5,035 LINK for 4.9 WETH, 2,632 for 9.9, 10,017 through another path for 57.7).
      if (previous !== undefined && sized.net >= previous && (sized.net - previous) * 1_000_000n < sized.net) return undefined
      if (++doublings > MAX_DOUBLINGS) return undefined
      previous = sized.net
      if (!peak || sized.net > peak.net) peak = sized
    } else if (previous !== undefined) return probePeak() // past the liquidity the pools hold
    else if (++unfilled > MAX_UNFILLED_DOUBLINGS) return undefined
    if (hi >= 1n << 255n) return undefined
    hi *= 2n
  }
  return undefined
}

/** One path per token path of the graph: its best pool at each hop by zero-size rate. */
function singlePaths(router: PreparedRoute): Path[] {
  const { graph } = router
  return graph.tokenPaths.flatMap((tokens) => {
    const hops: Path[number][] = []
    for (let k = 0; k + 1 < tokens.length; k++) {
      let best: (typeof graph.edges)[number] | undefined
      for (const edge of graph.edges)
        if (edge.from === tokens[k] && edge.to === tokens[k + 1] && (!best || edge.curve.rate0 > best.curve.rate0)) best = edge
      if (!best) return []
      hops.push(best.hop)
    }
    return [hops]
  })
}

/** Doublings of the input allowed once a route fills but falls short of the target. */
const MAX_DOUBLINGS = 12
/** Halvings of the bracket between the doubling search's first delivering size and the largest short one below it. */
const BELOW_STEPS = 4
/**
 * Sizes routed around the closest doubling when the output falls after it, as multiples of it,
 * the nearest first: 2^(-1/4), 2^(1/4), 2^(-1/2), 2^(1/2), 2^(-3/4), 2^(3/4) (its neighbours, at
 * half and twice it, were routed already).
 */
const PEAK_PROBES: readonly (readonly [bigint, bigint])[] = [
  [8409n, 10_000n],
  [11_892n, 10_000n],
  [7071n, 10_000n],
  [14_142n, 10_000n],
  [5946n, 10_000n],
  [16_818n, 10_000n],
]
/**
 * Sizes allowed that nothing fills before any route does. Dust can fill nothing (a hop's output
 * rounds to no raw unit: an 18-decimals input through a token of few decimals), so a search from
 * the spot-implied input doubles on; but past 2^64 times its first size (more than any gap between
 * decimals) an input nothing fills is past what the pools can take, and no larger input is filled
 * either: a plan for it, halved path by path, would fill the smaller one. It doubled to 2^255
 * before (hard bench 1000:1 H0->H2 at 6 hops, twice the most any route delivered: 177 routes, 4 s).
 */
const MAX_UNFILLED_DOUBLINGS = 64

/** The input the best zero-size rate among the candidate paths implies: no route needs less. */
function spotInput(paths: readonly Path[], target: bigint, fees: FeeMaps): bigint {
  const best = getBestSpotRate(paths)
  if (!(best > 0)) return 1n
  const estimate = Number(leastWith(fees.netOf, target)) / best
  if (!Number.isFinite(estimate) || estimate < 1) return 1n
  const routed = BigInt(Math.min(Math.floor(estimate), 2 ** 255))
  return leastWith(fees.routedOf, routed > 0n ? routed : 1n)
}

/** Least x with f(x) >= target for a non-decreasing f, searching up from `target` (fees only shrink amounts). */
export function leastWith(f: (x: bigint) => bigint, target: bigint): bigint {
  let lo = target - 1n
  let hi = target > 0n ? target : 1n
  while (f(hi) < target) {
    lo = hi
    hi *= 2n
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (f(mid) >= target) hi = mid
    else lo = mid
  }
  return hi
}

/**
 * The input the best single path needs for the target, computed backwards with
 * each pool's exact-out math; undefined when no single path can deliver it.
 */
function singlePathInput(paths: readonly Path[], target: bigint, fees: FeeMaps): bigint | undefined {
  const gross = leastWith(fees.netOf, target)
  let best: bigint | undefined
  for (const path of paths) {
    let amount: bigint | undefined = gross
    for (let k = path.length - 1; k >= 0 && amount !== undefined; k--) {
      const hop = path[k]!
      amount = hop.pool.quoteExactOut(hop.tokenIn, hop.tokenOut, amount)?.amountIn
    }
    if (amount !== undefined && (best === undefined || amount < best)) best = amount
  }
  return best === undefined ? undefined : leastWith(fees.routedOf, best)
}

/** The most any route could deliver: every pool's output-token limit, summed. */
function maxGrossOut({ pools, tokenOut }: RouteParameters): bigint {
  let total = 0n
  for (const pool of pools) {
    if (!pool.tokens.includes(tokenOut)) continue
    let most = 0n
    for (const token of pool.tokens) {
      if (token === tokenOut) continue
      const { maxOut } = pool.limits(token, tokenOut)
      if (maxOut > most) most = maxOut
    }
    total += most
  }
  return total
}
