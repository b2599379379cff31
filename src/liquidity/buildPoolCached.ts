import type { Address } from 'viem'
import type { ChainConfig, DexConfig } from '../chains/types.js'
import type { Pool, PoolContext, PoolFamily, PoolStateBase } from '../protocols/types.js'

/** One pool built from one state object, with everything the build depended on. */
type CachedBuild = {
  family: PoolFamily
  chain: ChainConfig
  dex: DexConfig
  dexIndex: number
  blockNumber: number
  /** The transfer fees the pool was built with: its tokens' and any other it asked about. */
  transferFees: readonly (readonly [Address, number])[]
  pool: Pool
}

/**
 * Builds per state object. Keyed weakly by the state itself, so a source that hands out the same
 * state objects for a block (a snapshot does, for ever) has each pool built once, and the builds
 * go away with the states. Pools are immutable (every swap returns a new one), so sharing is safe.
 */
const builds = new WeakMap<object, CachedBuild[]>()

/** Builds kept per state object (different chain configs or families quoting on the same states). */
const MAX_BUILDS_PER_STATE = 4

/**
 * `family.fromState(state, context)`, built once per state object: a second quote on the same
 * liquidity (a snapshot, or any source that returns the same state objects, such as the live
 * source for every pool a block left unchanged) reuses the pool instead of rebuilding it. A build
 * is reused only for the same family, chain, dex and the same transfer fees of the tokens it asked
 * about; anything else builds afresh. The block number is not part of the key: a build depends on
 * the state object alone, so a state handed out again at a later block is the same pool. A build
 * that throws is not cached (it throws again next time).
 *
 * @example
 * const pool = buildPoolCached(uniswapV2Family, state, { chain, dex, dexIndex }, liquidity.blockNumber)
 */
export function buildPoolCached<State extends PoolStateBase>(family: PoolFamily<State>, state: State, context: PoolContext, blockNumber: number): Pool {
  if (typeof state !== 'object' || state === null) return family.fromState(state, context)
  const known = builds.get(state) ?? []
  const feeOf = context.transferFeeBps
  const hit = known.find(
    (build) =>
      build.family === family &&
      build.chain === context.chain &&
      build.dex === context.dex &&
      build.dexIndex === context.dexIndex &&
      build.transferFees.every(([token, fee]) => (feeOf ? feeOf(token) : 0) === fee),
  )
  if (hit) return hit.pool
  // The fees the pool sees are fixed at build time (a pool may ask for them lazily, on every
  // quote), and recorded with the pool's own tokens, so a later fee change rebuilds.
  const fixedFees = new Map<Address, number>()
  const fixedFee = (token: Address): number => {
    let fee = fixedFees.get(token)
    if (fee === undefined) fixedFees.set(token, (fee = feeOf ? feeOf(token) : 0))
    return fee
  }
  const pool = (family as PoolFamily).fromState(state, feeOf ? { ...context, transferFeeBps: fixedFee } : context)
  for (const token of pool.tokens) fixedFee(token)
  const transferFees = [...fixedFees.entries()]
  const build: CachedBuild = { family: family as PoolFamily, chain: context.chain, dex: context.dex, dexIndex: context.dexIndex, blockNumber, transferFees, pool }
  builds.set(state, [build, ...known].slice(0, MAX_BUILDS_PER_STATE))
  return pool
}
