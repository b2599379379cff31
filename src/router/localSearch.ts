import { polishSplit } from './polishSplit.js'
import { getBestSpotRate } from './getBestSpotRate.js'
import { type Allocation, type PoolStates, executedPathGas, getNetOutput, simulatePath, simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Path, Plan } from './types.js'
import { pathKey } from './pathKey.js'

/** Rounds of the search at most (each takes one improving move, balanced). */
const MAX_ROUNDS = 4
/** Raw moves (one exact simulation each) the whole search may spend; balancing is counted apart. */
const MOVE_BUDGET = 96
/** Paths tried as a drop per round: the thinnest (they add least output for their gas). */
const DROPS_PER_ROUND = 3
/** Candidate paths tried as an add per round, in the order given (the likeliest first). */
const ADDS_PER_ROUND = 8
/** Pool swaps tried per round. */
const SWAPS_PER_ROUND = 8
/** Candidate paths tried per round in place of a plan path they share a pool with, in the order given. */
const REPLACES_PER_ROUND = 4
/**
 * Added paths whose share is searched further per round (the best raw first): an add's first share
 * is arbitrary, and a path that pays its gas once balanced can take little of the input.
 */
const REFINED_ADDS = 2
/** Shares an added path's share is searched over: its whole amount over 2^1 .. 2^REFINE_HALVINGS. */
const REFINE_HALVINGS = 5
/**
 * An add's share is first estimated on the path alone, at the input over 2^ESTIMATE_HALVINGS and
 * doubled from there while what it adds beyond the plan's marginal rate grows (see estimateAdds).
 */
const ESTIMATE_HALVINGS = 10
/**
 * An estimated add's share is refined to 3/2 and 2/3 of itself (ESTIMATE_REFINEMENT_UP over _DOWN):
 * the path's best share lies between the doublings beside the one it was found at.
 */
const ESTIMATE_REFINEMENT_UP = 3n
const ESTIMATE_REFINEMENT_DOWN = 2n
/**
 * Improving moves of each kind balanced per round, the best raw first: the best raw move is not
 * always the best balanced (hard bench 1000:30 H14->H19 30% at 20 gwei, 4 hops: the thinnest path
 * dropped to the path through its tokens, not to the one that paid most raw, balanced 1e-4 bp higher).
 */
const BALANCED_PER_KIND = 2
/** Replaces (the best raw first) each paired with adds on a one-path plan (see the pairs below). */
const PAIRED_REPLACES = 1
/** Estimated adds (the likeliest first) paired with each such replace. */
const PAIRED_ADDS = 3
/**
 * A path whose gas is worth at most this share of the plan's value is not tried as a drop (0.001
 * bp): balanced, a plan with the path gives at least as much gross, so dropping it gains at most its gas.
 */
const DROP_GAS_SHARE = 1e-7

/**
 * A move's plan before balancing, and which kind of move it is. An add also carries how to remake
 * it at another share (`reshare`), and either the amount it may take (`whole`, halved from) or the
 * share it was estimated at (`share`, refined around).
 */
type Move = { kind: 'drop' | 'swap' | 'replace' | 'add'; plan: Plan; reshare?: (share: bigint) => Allocation[]; whole?: bigint; share?: bigint }

/** What the search starts from: the paths it may add, and how to find the paths beside a plan's. */
export type LocalSearchOptions = {
  /** Paths a move may add, likeliest first (the plan's own are skipped). */
  candidates: readonly Path[]
  /** The plan's paths, each with one pool swapped for another pool between the same two tokens. */
  beside: (plan: Plan) => readonly Path[]
  /** Raw output units per unit of gas (0 for gross output). */
  gasCostInOutput: number
  /** Swaps already simulated in this route search. */
  memo?: SwapMemo
}

/**
 * The plan improved by one exact local search over its set of paths: each round tries, on exact
 * simulation, the moves of its neighbourhood and takes the best that raises the plan's value net
 * of gas, balanced (polishSplit), until no move improves or the budget is spent.
 * - drop a path (one of the thinnest), its whole amount to each other path in turn (the pruning
 *   gives it to a path's siblings or to all in proportion, and misses the one path through a pool
 *   beside it that pays most);
 * - add a candidate path, taking a share of the input from the plan's paths in proportion (a path
 *   the gas search or the pruning dropped that pays its gas once balanced), at the share estimated
 *   on the path alone against the plan's marginal rate, the likeliest first (see estimateAdds); the
 *   best adds' shares are searched further;
 * - replace a plan path by a candidate through one of its pools, with the path's whole amount;
 * - on a one-path plan, pair the best replace with each of the likeliest adds, balanced whatever
 *   the pair gives unbalanced (two moves, each worse alone, can make a better pair);
 * - swap one pool of a path for a pool beside it (same two tokens), with the path's whole amount,
 *   or add that path beside its own with a share of the path's amount (in a flow the two share
 *   their other pools, so the second costs one swap's gas).
 *
 * Only a move that already improves the plan unbalanced is balanced (the best two of each kind): a
 * balance costs a few dozen exact plans, and the search runs on every quote priced with gas. The
 * float model and the steps before it each change the plan one way for one reason; this weighs
 * each such neighbour of the plan on the simulation the calldata executes. Returns the better
 * plan, or `plan`.
 *
 * @example
 * const better = localSearch(plan, { candidates: singlePaths, beside: (current) => besidePaths(graph, pairEdges, current), gasCostInOutput: 2e9, memo })
 */
export function localSearch(plan: Plan, options: LocalSearchOptions): Plan {
  const { candidates, beside, gasCostInOutput, memo } = options
  if (!(gasCostInOutput >= 0)) return plan
  const value = (candidate: Plan) => getNetOutput(candidate, gasCostInOutput)
  let best = plan
  let bestValue = value(plan)
  let budget = MOVE_BUDGET
  const simulate = (allocations: readonly Allocation[]): Plan | undefined => {
    budget--
    const trial = simulatePlan(allocations, { gasCostInOutput, memo })
    return trial && trial.amountIn === plan.amountIn && trial.amountOut > 0n ? trial : undefined
  }
  for (let round = 0; round < MAX_ROUNDS && budget > 0; round++) {
    const moves: Move[] = []
    const allocations = best.paths.map((executed) => ({ path: executed.path, amountIn: executed.amountIn }))
    const own = new Set(allocations.map((allocation) => pathKey(allocation.path)))
    // Drops: each of the thinnest paths worth its gas, its amount to each other path alone.
    if (allocations.length > 1) {
      const thinnest = allocations.map((_, index) => index).sort((a, b) => compareAmounts(allocations[a]!.amountIn, allocations[b]!.amountIn))
      const worthDropping = (index: number) => Number(executedPathGas(best.paths[index]!)) * gasCostInOutput > DROP_GAS_SHARE * bestValue
      for (const dropped of thinnest.filter(worthDropping).slice(0, DROPS_PER_ROUND)) {
        for (let taker = 0; taker < allocations.length && budget > 0; taker++) {
          if (taker === dropped) continue
          const freed = allocations[dropped]!.amountIn
          const rest = allocations.flatMap((allocation, index) =>
            index === dropped ? [] : [index === taker ? { path: allocation.path, amountIn: allocation.amountIn + freed } : allocation],
          )
          const trial = simulate(rest)
          if (trial) moves.push({ kind: 'drop', plan: trial })
        }
      }
    }
    // A path added (a candidate, or one beside the plan's) costs one swap's gas at least: it can pay
    // only when the input at the best mid rate of every path it may hold, less the plan's gas and
    // one swap's more, comes above the plan's value (no plan over those paths gives more gross).
    const besides = beside(best)
    const swapGas = best.paths.reduce((least, executed) => executed.hops.reduce((fewest, hop) => (hop.gas < fewest ? hop.gas : fewest), least), best.gas)
    const ceiling = Number(plan.amountIn) * getBestSpotRate([...allocations.map((allocation) => allocation.path), ...candidates, ...besides])
    const addsPay = ceiling - Number(best.gas + swapGas) * gasCostInOutput > bestValue
    // Swaps: a path's pool for one beside it, the path's whole amount moved, or half of it (the two
    // side by side, an add). besidePaths lists each path's neighbours in the plan's order.
    let swaps = 0
    for (const path of besides) {
      if (swaps >= SWAPS_PER_ROUND || budget <= 0) break
      if (own.has(pathKey(path))) continue
      const from = allocations.findIndex((allocation) => sameTokens(allocation.path, path) && sharesAllButOne(allocation.path, path))
      if (from < 0) continue
      swaps++
      const moved = allocations[from]!.amountIn
      const swapped = simulate(allocations.map((allocation, index) => (index === from ? { path, amountIn: moved } : allocation)))
      if (swapped) moves.push({ kind: 'swap', plan: swapped })
      const reshare = (share: bigint) => [...allocations.map((allocation, index) => (index === from ? { path: allocation.path, amountIn: moved - share } : allocation)), { path, amountIn: share }]
      const half = moved / 2n
      const sideBySide = addsPay && half > 0n && budget > 0 ? simulate(reshare(half)) : undefined
      if (sideBySide) moves.push({ kind: 'add', plan: sideBySide, reshare, whole: moved })
    }
    // Adds: a candidate path taking a share from every path in proportion to what it carries. The
    // share is estimated on the path alone (see estimateAdds), the candidates tried by what the
    // estimate promises: an even share of the input is far above where a thin path pays its gas
    // (hard bench 100:501 H12->H17 1% at 20 gwei, 4 hops: a second path pays at 16% and loses 130
    // bp at half), and a first few candidates tried at it crowd out one that pays at 3% (100:285
    // H2->H4 1% at 20 gwei: the 5% grid's H2 -> DAI -> H4, 0.81 bp above weft, was the tenth).
    let adds = 0
    const total = plan.amountIn
    const estimated = addsPay ? estimateAdds(best, candidates.filter((path) => !own.has(pathKey(path))), gasCostInOutput, memo) : []
    for (const { path, share } of estimated) {
      if (adds >= ADDS_PER_ROUND || budget <= 0) break
      adds++
      const reshare = (taken: bigint) => [...takeShare(allocations, taken, total), { path, amountIn: taken }]
      const trial = simulate(reshare(share))
      if (trial) moves.push({ kind: 'add', plan: trial, reshare, share })
    }
    // Replaces: a candidate that shares a pool with a plan path takes that path's whole amount (the
    // path it shares most pools with): beside the plan, such a path meets the shared pool where the
    // plan left it, so an add's estimate and its trial both find it does not pay, and the drop that
    // would make room for it gives its amount to the plan's other paths (hard bench 100:512 H17->H19
    // 10% at 20 gwei, 6 hops: the 5% grid's 6-hop path through the first pool of weft's 4-hop one,
    // 0.87 bp above weft, pays in its place).
    let replaces = 0
    for (const path of candidates) {
      if (replaces >= REPLACES_PER_ROUND || budget <= 0) break
      if (own.has(pathKey(path))) continue
      const pools = new Set(path.map((hop) => hop.pool.key))
      let from = -1
      let most = 0
      allocations.forEach((allocation, index) => {
        const shared = allocation.path.filter((hop) => pools.has(hop.pool.key)).length
        if (shared > most) [from, most] = [index, shared]
      })
      if (from < 0 || (most === allocations[from]!.path.length - 1 && sameTokens(allocations[from]!.path, path))) continue
      replaces++
      const replaced = simulate(allocations.map((allocation, index) => (index === from ? { path, amountIn: allocation.amountIn } : allocation)))
      if (replaced) moves.push({ kind: 'replace', plan: replaced })
    }
    // The best adds' shares searched further: by halving from half a path's amount when it goes
    // beside its own (hard bench 100:217 H15->H16 0.01% at 0.01 gwei, 4 hops: a second path through
    // the first's last pool pays at 12% of the input, not at half), or around an estimated share,
    // between the doublings it was found at.
    const refined = moves
      .filter((move) => move.kind === 'add' && move.reshare)
      .sort((one, other) => value(other.plan) - value(one.plan))
      .slice(0, REFINED_ADDS)
    for (const move of refined) {
      const shares: bigint[] = []
      if (move.whole !== undefined) for (let halving = 1n; halving <= BigInt(REFINE_HALVINGS); halving++) shares.push(move.whole >> halving)
      else if (move.share !== undefined) shares.push((move.share * ESTIMATE_REFINEMENT_UP) / ESTIMATE_REFINEMENT_DOWN, (move.share * ESTIMATE_REFINEMENT_DOWN) / ESTIMATE_REFINEMENT_UP)
      for (const share of shares) {
        if (budget <= 0 || share <= 0n || share >= total) continue
        const trial = simulate(move.reshare!(share))
        if (trial) moves.push({ kind: 'add', plan: trial })
      }
    }
    // Pairs: on a one-path plan, the replace that gives most, with each of the likeliest adds beside
    // it at the add's estimated share, all balanced below whatever they give unbalanced. Two moves
    // from the plan, each worse alone, can make a better pair: a sibling path with less gas, alone
    // below the plan, leaves room for a thin path's gas that the plan's own path does not (hard
    // bench 1000:46 H7->H11 1% at 20 gwei, 4 hops: the 5% grid's 3-hop sibling of weft's 4-hop path,
    // 0.3 bp below it alone, beside a 4-hop chain at a fifth of the input, 1.46 bp above weft). An
    // estimated share is past such a path's best when its rate falls off between two doublings
    // (there, a quarter against a fifth), and unbalanced the pair came out 5 bp below the plan.
    // One-path plans only: there a balance of two paths is a short line search.
    const pairs: Plan[] = []
    if (allocations.length === 1) {
      const leaders = moves
        .filter((move) => move.kind === 'replace')
        .sort((one, other) => value(other.plan) - value(one.plan))
        .slice(0, PAIRED_REPLACES)
      for (const leader of leaders) {
        const lead = leader.plan.paths[0]!.path
        const leadKey = pathKey(lead)
        for (const { path, share } of estimated.filter((added) => pathKey(added.path) !== leadKey).slice(0, PAIRED_ADDS)) {
          if (budget <= 0) break
          const trial = simulate([{ path: lead, amountIn: total - share }, { path, amountIn: share }])
          if (trial) pairs.push(trial)
        }
      }
    }
    // The best improving moves of each kind, balanced; the best plan of all kept.
    let roundBest: Plan | undefined
    let roundValue = bestValue
    const weigh = (trial: Plan) => {
      if (value(trial) > roundValue) {
        roundBest = trial
        roundValue = value(trial)
      }
    }
    for (const kind of ['drop', 'swap', 'replace', 'add'] as const) {
      const improving = moves
        .filter((move) => move.kind === kind && value(move.plan) > bestValue)
        .map((move) => move.plan)
        .sort((one, other) => value(other) - value(one))
      for (const leader of improving.slice(0, BALANCED_PER_KIND)) {
        weigh(leader)
        if (leader.paths.length > 1) weigh(polishSplit(leader, gasCostInOutput, memo))
      }
    }
    for (const pair of pairs) weigh(polishSplit(pair, gasCostInOutput, memo))
    if (!roundBest) break
    best = roundBest
    bestValue = roundValue
  }
  return best
}

/**
 * The candidates to add to `plan`, each with the share of the input it is first tried at, the
 * likeliest first. Each path is run alone on the states the plan leaves, at the input over
 * 2^ESTIMATE_HALVINGS and doubled while what it gives above the plan's marginal rate (the output
 * the plan's thickest path gives for a sliver more, per unit) grows: that excess, less the path's
 * gas, estimates what the add pays at its best share (its output is concave in its input, so the
 * excess rises to one peak). A candidate through none of the plan's pools whose excess cannot pay
 * its gas is left out: taking any share from the plan loses at least the margin on it (the plan's
 * output is concave too), so the excess bounds what the add gains. One through the plan's pools
 * meets them where the plan left them, which undervalues it, and is kept while its excess is
 * above none (the replaces try it in a plan path's place). A candidate whose first sliver gives no
 * more than the margin is left out: its excess only falls from there.
 */
function estimateAdds(plan: Plan, candidates: readonly Path[], gasCostInOutput: number, memo?: SwapMemo): { path: Path; share: bigint }[] {
  const total = plan.amountIn
  const after: PoolStates = new Map()
  for (const executed of plan.paths) if (!simulatePath(executed.path, executed.amountIn, after, memo)) return []
  const thickest = plan.paths.reduce((most, executed) => (executed.amountIn > most.amountIn ? executed : most))
  const sliver = total >> BigInt(ESTIMATE_HALVINGS)
  const marginal = sliver > 0n ? simulatePath(thickest.path, sliver, new Map(after), memo) : undefined
  if (!marginal) return []
  const margin = Number(marginal.amountOut) / Number(sliver)
  const ranked = candidates.map((path, order) => {
    let share: bigint | undefined
    let excess = 0
    let gas = 0n
    for (let amount = sliver; amount < total; amount *= 2n) {
      const alone = simulatePath(path, amount, new Map(after), memo)
      const gives = alone ? Number(alone.amountOut) - margin * Number(amount) : -Infinity
      if (!(gives > excess)) break
      share = amount
      excess = gives
      gas = executedPathGas(alone!)
    }
    const pathGas = Number(gas) * gasCostInOutput
    const pays = excess - pathGas
    // The excess is concave and 0 at no input, so at its peak (between the doublings beside the
    // best) it is at most twice the best doubling's.
    if (share === undefined || (!(2 * excess > pathGas) && path.every((hop) => !after.has(hop.pool.key)))) return []
    return [{ path, share, order, pays }]
  })
  return ranked.flat().sort((one, other) => other.pays - one.pays || one.order - other.order)
}

/**
 * The allocations with `share` of `total` taken from them in proportion to what each carries (the
 * rounding from the largest).
 */
function takeShare(allocations: readonly Allocation[], share: bigint, total: bigint): Allocation[] {
  const taken = allocations.map((allocation) => ({ path: allocation.path, amountIn: allocation.amountIn - (allocation.amountIn * share) / total }))
  const left = total - share - taken.reduce((sum, allocation) => sum + allocation.amountIn, 0n)
  const largest = taken.reduce((most, allocation) => (allocation.amountIn > most.amountIn ? allocation : most))
  largest.amountIn += left
  return taken
}

/** Orders amounts from least to most. */
const compareAmounts = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)


/** Whether two paths go through the same tokens in the same order. */
const sameTokens = (one: Path, other: Path) => one.length === other.length && one.every((hop, index) => hop.tokenOut === other[index]!.tokenOut)

/** Whether two paths differ in exactly one pool. */
const sharesAllButOne = (one: Path, other: Path) => one.filter((hop, index) => hop.pool.key !== other[index]!.pool.key).length === 1
