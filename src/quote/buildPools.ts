import type { Address } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { buildPoolCached } from '../liquidity/buildPoolCached.js'
import type { Liquidity, LiquidityReport, TokenMetadata } from '../liquidity/types.js'
import type { Pool, PoolFamily, PoolStateBase } from '../protocols/types.js'
import { type PairIndex, indexPairs } from './prices.js'

/** A quote's pools: the routable ones, the tokens whose fee on transfer is unknown, and the pools by pair. */
export type BuiltPools = { pools: readonly Pool[]; unmeasured: ReadonlySet<Address>; pairs: PairIndex }

/** One build of a source's pool list, with everything it depended on and the pools it set aside. */
type PoolsBuild = {
  chain: ChainConfig
  families: readonly PoolFamily[]
  metadata: ReadonlyMap<Address, TokenMetadata>
  states: readonly PoolStateBase[]
  built: BuiltPools
  skipped: LiquidityReport['skipped']
}

/**
 * The last build per pool list. A snapshot (and the live source while no pool changes) hands out
 * the same list of the same state objects on every quote; the quote then gets the same pools in
 * the same array, and what is keyed by that array downstream (the pair index here, the router's
 * market) is built once too.
 */
const builds = new WeakMap<readonly PoolStateBase[], PoolsBuild>()

/**
 * Pool states to simulatable pools. Skipped (and reported in `liquidity.report.skipped`): states of
 * unknown families or dexes, malformed ones, pools touching a token whose transfer fee is unknown,
 * and pools of families that cannot trade fee-on-transfer tokens touching one. Each pool is built
 * once per state (`buildPoolCached`); the whole list once while the source hands out the same
 * state objects in the same array for the same chain, families and token description
 * (`metadata`, which `describe` reads: see `describeTokens`).
 *
 * @example
 * const metadata = describeTokens(chain, liquidity.tokens)
 * const { pools, unmeasured, pairs } = buildPools(chain, liquidity, defaultFamilies, metadata, (t) => metadata.get(t))
 */
export function buildPools(
  chain: ChainConfig,
  liquidity: Liquidity,
  families: readonly PoolFamily[],
  metadata: ReadonlyMap<Address, TokenMetadata>,
  describe: (token: Address) => TokenMetadata | undefined,
): BuiltPools {
  const states = liquidity.pools
  if (!Array.isArray(states)) return build(chain, states, families, describe, liquidity.blockNumber).built
  const known = builds.get(states)
  if (known && known.chain === chain && known.families === families && known.metadata === metadata && sameStates(known.states, states)) {
    for (const entry of known.skipped) liquidity.report.skipped.push({ ...entry })
    return known.built
  }
  const fresh = build(chain, states, families, describe, liquidity.blockNumber)
  for (const entry of fresh.skipped) liquidity.report.skipped.push({ ...entry })
  builds.set(states, { chain, families, metadata, states: [...states], ...fresh })
  return fresh.built
}

function sameStates(a: readonly PoolStateBase[], b: readonly PoolStateBase[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function build(
  chain: ChainConfig,
  states: readonly PoolStateBase[],
  families: readonly PoolFamily[],
  describe: (token: Address) => TokenMetadata | undefined,
  blockNumber: number,
): { built: BuiltPools; skipped: LiquidityReport['skipped'] } {
  const unmeasured = new Set<Address>()
  const skipped: LiquidityReport['skipped'] = []
  const transferFeeBps = (token: Address) => describe(token)?.transferFeeBps ?? 0
  const byId = new Map(families.map((f) => [f.id, f]))
  const pools: Pool[] = []
  for (const state of states) {
    const family = byId.get(state.family)
    const dexIndex = chain.dexes.findIndex((d) => d.id === state.dex && d.family === state.family)
    if (!family || dexIndex < 0) {
      skipped.push({ address: state.address, reason: family ? `unknown dex ${state.dex}` : `no family ${state.family}` })
      continue
    }
    try {
      const pool = buildPoolCached(family, state, { chain, dex: chain.dexes[dexIndex]!, dexIndex, transferFeeBps }, blockNumber)
      const fees = pool.tokens.map((t) => {
        const meta = describe(t)
        return meta ? meta.transferFeeBps : 0
      })
      if (fees.includes(null)) {
        pool.tokens.forEach((t, i) => fees[i] === null && unmeasured.add(t))
        skipped.push({ address: state.address, reason: 'a token whose fee on transfer could not be determined' })
        continue
      }
      if (!family.transferFees && fees.some((f) => f !== 0)) {
        skipped.push({ address: state.address, reason: `the ${family.id} family cannot trade fee-on-transfer tokens` })
        continue
      }
      pools.push(pool)
    } catch (error) {
      skipped.push({ address: state.address, reason: error instanceof Error ? error.message : 'malformed state' })
    }
  }
  return { built: { pools, unmeasured, pairs: indexPairs(pools) }, skipped }
}
