import { type Address, zeroAddress } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import type { Plan, PlanSegment } from '../router/types.js'
import type { FillPath } from './buildFillCalldata.js'

/** What {@link buildFillPaths} needs besides the plan. */
export type BuildFillPathsOptions = {
  /** The slippage the user accepted, in bps (0 to 10,000): each path's minimum is its quoted output less this. */
  slippageBps: number
  /**
   * The chain: the tokens it lists (`tokens`, `wrappedNative`, `majorTokens`) are the ones paths may
   * pass through anywhere; paths through any other intermediate token run last (see below).
   */
  chain: ChainConfig
  /** The traded tokens (zero address: native): every path touches them, so they never decide the order. */
  sellToken: Address
  buyToken: Address
}

/**
 * The executor's paths for a plan: its segments, each with a minimum output derived from the quote
 * and the slippage, and those through unlisted tokens moved last.
 *
 * - **Per-path minimum**: a segment's quoted output (its last hop's, which is what arrives) times
 *   `(10,000 − slippageBps) / 10,000`, rounded down. The executor measures each path's output and
 *   reverts `PathOutput` below it, so a pool moved during the fill (a token hook trading a pool a
 *   later path uses) can take at most the accepted slippage from that path, not the whole fill's.
 * - **Unlisted intermediates last**: a token the chain does not list may run code on every transfer,
 *   and code that runs during the fill can trade the pools of the paths after it. Segments whose hops
 *   pass through such a token (other than the traded tokens themselves) are scheduled after the
 *   others, as far as the plan allows without changing any amount: a segment never moves past one it
 *   shares a pool with (it would see another state), one that produces or spends its tokens, or,
 *   from the same token, one that spends "all that is held" (amount 0). So every hop runs on the
 *   same states as the router priced, and the quote stays exact.
 *
 * @example
 * const paths = buildFillPaths(plan, { slippageBps: 50, chain, sellToken, buyToken })
 * paths[0].minAmountOut // the first path's quoted output less 0.5% (the allowance rounded down)
 */
export function buildFillPaths(plan: Plan, options: BuildFillPathsOptions): FillPath[] {
  const slippage = BigInt(options.slippageBps)
  return scheduleSegments(plan.segments, options).map((segment) => {
    // The last hop's amountOut is what arrives (a fee on transfer already taken), as the executor measures it.
    const quoted = segment.hops.at(-1)?.amountOut ?? 0n
    return {
      amountIn: segment.amountIn,
      // Rounded like the order's minimumAmountOut (decisions.md §4): the allowance rounds down.
      minAmountOut: quoted - (quoted * slippage) / 10_000n,
      steps: segment.hops.map((hop) => hop.pool.buildStep(hop.tokenIn, hop.tokenOut)),
    }
  })
}

/** A chain's listed tokens, lowercased, with the lists they were made from. */
type Listed = { tokens: ChainConfig['tokens']; count: number; wrapped: Address; majors: readonly Address[]; majorCount: number; set: ReadonlySet<Address> }
const listedByChain = new WeakMap<ChainConfig, Listed>()

/**
 * The tokens the chain lists (its tokens, wrapped native and majors), lowercased: built once per
 * chain config (a chain may list thousands; every quote asks), again when its lists are replaced or change length.
 */
function listedTokens(chain: ChainConfig): ReadonlySet<Address> {
  const known = listedByChain.get(chain)
  const { tokens, majorTokens } = chain
  const wrapped = chain.wrappedNative.address
  if (known && known.tokens === tokens && known.count === tokens.length && known.wrapped === wrapped && known.majors === majorTokens && known.majorCount === majorTokens.length)
    return known.set
  const set = new Set([...tokens.map((token) => token.address), wrapped, ...majorTokens].map((token) => token.toLowerCase() as Address))
  listedByChain.set(chain, { tokens, count: tokens.length, wrapped, majors: majorTokens, majorCount: majorTokens.length, set })
  return set
}

/** List scheduling: the earliest ready segment through listed tokens only, else the earliest ready one. */
function scheduleSegments(segments: readonly PlanSegment[], options: BuildFillPathsOptions): PlanSegment[] {
  const { chain } = options
  const lower = (token: Address) => token.toLowerCase() as Address
  const wrapped = (token: Address) => lower(token === zeroAddress ? chain.wrappedNative.address : token)
  const traded = new Set([wrapped(options.sellToken), wrapped(options.buyToken)])
  const listed = listedTokens(chain)
  const unlisted = segments.map((segment) =>
    segment.hops.some((hop) => [hop.tokenIn, hop.tokenOut].map(lower).some((token) => !traded.has(token) && !listed.has(token))),
  )
  if (!unlisted.includes(true)) return [...segments]
  // predecessors[j]: the earlier segments j must stay behind.
  const predecessors = segments.map((later, j) => segments.slice(0, j).flatMap((earlier, i) => (mustPrecede(earlier, later) ? [i] : [])))
  const scheduled = new Set<number>()
  const order: PlanSegment[] = []
  while (order.length < segments.length) {
    const ready = segments
      .map((_, index) => index)
      .filter((index) => !scheduled.has(index) && predecessors[index]!.every((i) => scheduled.has(i)))
    // The original order is always a valid schedule, so something is ready.
    const next = ready.find((index) => !unlisted[index]) ?? ready[0]!
    scheduled.add(next)
    order.push(segments[next]!)
  }
  return order
}

/** Whether swapping the two would change what either one trades (see buildFillPaths). */
function mustPrecede(earlier: PlanSegment, later: PlanSegment): boolean {
  const poolsOf = (segment: PlanSegment) => new Set(segment.hops.map((hop) => hop.pool.key))
  const laterPools = poolsOf(later)
  if ([...poolsOf(earlier)].some((key) => laterPools.has(key))) return true
  const startOf = (segment: PlanSegment) => segment.hops[0]?.tokenIn
  const endOf = (segment: PlanSegment) => segment.hops.at(-1)?.tokenOut
  if (startOf(later) === endOf(earlier) || startOf(earlier) === endOf(later)) return true
  return startOf(earlier) === startOf(later) && (earlier.amountIn === 0n || later.amountIn === 0n)
}
