import type { Address } from 'viem'
import type { ModelRoute } from './decompose.js'
import { exactSplit } from './exactSplit.js'
import { fitToPools } from './fitToPools.js'
import { getNetOutput, simulatePlan } from './simulatePlan.js'
import type { SwapMemo } from './swapMemo.js'
import type { Path, Plan, RouteGraph } from './types.js'

/**
 * The split of a model that cannot execute as one flow, made into one that can: the executor runs
 * a flow token by token in one order, so paths that trade two tokens both ways (through different
 * pools, or around a cycle of three or more tokens), or one pool from two tokens, run path by path
 * instead, each path paying the gas of every pool on it, where a flow pays each pool once. The
 * layered models cross tokens so (a token is a node per hop count there), and their gas, counted
 * once per pool, is then far below what their split pays (hard bench 1000:40 H5->H8 30% at 20
 * gwei, 6 hops: the gas-free lead's 49 paths through WBTC <-> WETH, WBTC <-> USDT and
 * USDT <-> USDC, 18.7 million gas path by path, 0.90 bp net below Tines after the gas search;
 * without the paths of the thinnest pair of each cycle, 35 paths ran as a flow at 4.6 million gas,
 * 1.7 bp above Tines). The model's exact split (see exactSplit) without the paths through the
 * thinnest token pair of each cycle (by the input they carry) and those entering a pool from its
 * thinner input token, their input given to the others in proportion (fitted to the pools when
 * that overfills one). Undefined when the model's paths form a flow (checked before any
 * simulation), its split runs as one, or nothing executes.
 *
 * @example
 * const flowable = flowableSplit(graph, model, 10n ** 18n, 2e9, memo) // fewer paths, run as one flow
 */
export function flowableSplit(graph: RouteGraph, model: ModelRoute, amountIn: bigint, gasCostInOutput: number, memo?: SwapMemo): Plan | undefined {
  if (model.paths.length < 2) return undefined
  const modelPaths = model.paths.map((p) => ({ path: p.edges.map((e) => graph.edges[e]!.hop), amountIn: 1n }))
  if (crossingCuts(modelPaths).size === 0) return undefined
  const split = exactSplit(graph, model, amountIn, (plan) => getNetOutput(plan, gasCostInOutput), gasCostInOutput, memo)
  const plan = split?.plan
  if (!plan || plan.mode !== 'paths' || plan.paths.length < 2) return undefined
  const cut = crossingCuts(plan.paths)
  if (cut.size === 0) return undefined
  const kept = plan.paths.filter(({ path }) => !path.some((hop) => cut.has(pairKey(hop.tokenIn, hop.tokenOut)) || cut.has(poolInputKey(hop.pool.key, hop.tokenIn))))
  const carried = kept.reduce((sum, p) => sum + p.amountIn, 0n)
  if (kept.length === 0 || carried <= 0n) return undefined
  // The freed input to the paths kept, in proportion to what they carry (the rounding to the largest).
  const amounts = kept.map((p) => (p.amountIn * plan.amountIn) / carried)
  let largest = 0
  for (let i = 1; i < kept.length; i++) if (kept[i]!.amountIn > kept[largest]!.amountIn) largest = i
  amounts[largest] = amounts[largest]! + plan.amountIn - amounts.reduce((sum, amount) => sum + amount, 0n)
  const paths = kept.map((p) => p.path)
  const simulate = () => simulatePlan(paths.map((path, i) => ({ path, amountIn: amounts[i]! })), { gasCostInOutput, memo })
  return simulate() ?? (fitToPools(paths, amounts, memo) ? simulate() : undefined)
}

/**
 * What keeps these paths from one flow: the thinnest token pair of each token cycle (by the input
 * the paths through it carry), and each pool's input tokens but the one that carries most (as
 * `pool@token`). Empty when they form a flow.
 */
function crossingCuts(paths: readonly { path: Path; amountIn: bigint }[]): Set<string> {
  const pairs = new Map<string, { from: Address; to: Address; carried: bigint }>()
  const poolInputs = new Map<string, Map<Address, bigint>>()
  for (const { path, amountIn } of paths)
    for (const hop of path) {
      const key = pairKey(hop.tokenIn, hop.tokenOut)
      const pair = pairs.get(key)
      if (pair) pair.carried += amountIn
      else pairs.set(key, { from: hop.tokenIn, to: hop.tokenOut, carried: amountIn })
      const inputs = poolInputs.get(hop.pool.key) ?? new Map<Address, bigint>()
      inputs.set(hop.tokenIn, (inputs.get(hop.tokenIn) ?? 0n) + amountIn)
      poolInputs.set(hop.pool.key, inputs)
    }
  const cut = new Set<string>()
  for (const [pool, inputs] of poolInputs) {
    if (inputs.size < 2) continue
    let kept: Address | undefined
    for (const [token, carried] of inputs) if (kept === undefined || carried > inputs.get(kept)!) kept = token
    for (const token of inputs.keys()) if (token !== kept) cut.add(poolInputKey(pool, token))
  }
  for (let cycle = findCycle(pairs); cycle; cycle = findCycle(pairs)) {
    let thinnest = cycle[0]!
    for (const key of cycle) if (pairs.get(key)!.carried < pairs.get(thinnest)!.carried) thinnest = key
    pairs.delete(thinnest)
    cut.add(thinnest)
  }
  return cut
}

/** A pool's input token, as a cut of crossingCuts. */
const poolInputKey = (pool: string, token: Address) => `${pool}@${token}`

/** A token pair's key (input, then output). */
const pairKey = (from: Address, to: Address) => `${from}>${to}`

/** One cycle of the token pairs (as pair keys), or undefined when they form none (depth-first). */
function findCycle(pairs: ReadonlyMap<string, { from: Address; to: Address }>): string[] | undefined {
  const leaving = new Map<Address, string[]>()
  for (const [key, { from }] of pairs) {
    const list = leaving.get(from)
    if (list) list.push(key)
    else leaving.set(from, [key])
  }
  // Tokens on the current trail (true) or done with (false); the trail's pairs in order.
  const onTrail = new Map<Address, boolean>()
  const trail: string[] = []
  const visit = (token: Address): string[] | undefined => {
    onTrail.set(token, true)
    for (const key of leaving.get(token) ?? []) {
      const next = pairs.get(key)!.to
      const seen = onTrail.get(next)
      if (seen === true) return [...trail.slice(trail.findIndex((k) => pairs.get(k)!.from === next)), key]
      if (seen === undefined) {
        trail.push(key)
        const found = visit(next)
        if (found) return found
        trail.pop()
      }
    }
    onTrail.set(token, false)
    return undefined
  }
  for (const token of leaving.keys()) {
    if (onTrail.has(token)) continue
    const found = visit(token)
    if (found) return found
  }
  return undefined
}
