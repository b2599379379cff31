import type { ChainConfig } from '../chains/types.js'
import type { Liquidity, LiquiditySource } from '../liquidity/types.js'

/** A liquidity source that remembers its last answer, so the CLI can show what the quote was made on. */
export type RecordingSource = LiquiditySource & { readonly last: Liquidity | undefined }

/**
 * Wraps `source`, keeping its last answer (pool states, gas price, token
 * metadata) for display. Answers and errors pass through unchanged.
 *
 * @example
 * const source = recordLiquidity(createSnapshotSource(defaultSnapshot))
 * await getQuote(intent, source)
 * getFeeTiers(source.last!, base).get(quote.route.swaps[0][0].key) // 500
 */
export function recordLiquidity(source: LiquiditySource): RecordingSource {
  let last: Liquidity | undefined
  return {
    get last() {
      return last
    },
    async getLiquidity(request) {
      last = await source.getLiquidity(request)
      return last
    },
  }
}

/**
 * Fee tier of each pool of an answer, in hundredths of a bip, by its Swap.key
 * (lowercase): the pool id of a singleton-vault pool (`poolId`, `id`), else its
 * address. The fee is the state's own `fee` (Uniswap V3/V4 and forks), else
 * its `swapFeePercentage` (Balancer: 18 decimals), else its dex's `feeBps` × 100
 * (Uniswap V2 and forks). Pools with none of them are left out.
 *
 * @example
 * getFeeTiers(source.last!, base).get('0xd0b53d9277642d899df5c87a3966a349a798f224') // 500 (0.05%)
 */
export function getFeeTiers(liquidity: Liquidity, chain: ChainConfig): Map<string, number> {
  const tiers = new Map<string, number>()
  for (const state of liquidity.pools) {
    const fields = state as unknown as { fee?: unknown; swapFeePercentage?: unknown; poolId?: unknown; id?: unknown }
    const key = [fields.poolId, fields.id, state.address].find((k): k is string => typeof k === 'string')
    const fee = getFee(fields.fee, fields.swapFeePercentage, chain.dexes.find((d) => d.id === state.dex)?.feeBps)
    if (key !== undefined && fee !== undefined) tiers.set(key.toLowerCase(), fee)
  }
  return tiers
}

function getFee(fee: unknown, swapFeePercentage: unknown, dexFeeBps: number | undefined): number | undefined {
  if (typeof fee === 'number' && Number.isFinite(fee) && fee >= 0) return fee
  if (typeof swapFeePercentage === 'string' && /^[0-9]+$/.test(swapFeePercentage)) return Number(swapFeePercentage) / 1e12
  return dexFeeBps !== undefined ? dexFeeBps * 100 : undefined
}
