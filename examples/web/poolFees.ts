// The fee tier of each pool a route uses, read from the pool states the liquidity source served
// (the Quote itself names pools, not their fees).
import type { ChainConfig, PoolStateBase } from '../../src/index.js'

/** A fee in hundredths of a bip (Uniswap V3/V4, PancakeSwap V3, Slipstream `fee`) as `0.3%`. */
const fromPips = (pips: number) => `${trim(pips / 10_000)}%`
/** Balancer's 18-decimal swap fee percentage (1e15 = 0.1%). */
const fromWad = (wad: string) => `${trim(Number(BigInt(wad) * 1_000_000n / 10n ** 16n) / 1_000_000)}%`
const trim = (percent: number) => String(Number(percent.toPrecision(4)))

/**
 * Fee labels by the route's swap key (pool address, V4 pool id or Balancer pool id, lowercase).
 * V2-style pairs take the fee of their dex's configuration.
 */
export function getPoolFees(pools: readonly PoolStateBase[], chain: ChainConfig): Map<string, string> {
  const fees = new Map<string, string>()
  for (const pool of pools) {
    const state = pool as PoolStateBase & { fee?: number; id?: string; poolId?: string; swapFeePercentage?: string }
    const key = (state.poolId ?? state.id ?? state.address).toLowerCase()
    if (typeof state.fee === 'number') fees.set(key, fromPips(state.fee))
    else if (typeof state.swapFeePercentage === 'string') fees.set(key, fromWad(state.swapFeePercentage))
    else {
      // The V2 family's default, as the pool adapter applies it.
      const feeBps = chain.dexes.find((d) => d.id === state.dex)?.feeBps ?? (state.family === 'uniswapV2' ? 30 : undefined)
      if (feeBps !== undefined) fees.set(key, `${trim(feeBps / 100)}%`)
    }
  }
  return fees
}
