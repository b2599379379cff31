import type { V3ForkGas, V3ForkGaugeGas } from '../pancakeV3/v3ForkPool.js'

/**
 * What a Slipstream pool with a gauge (Base's Voter gives most pools one) costs beyond the same
 * pool without, measured on anvil against the real CLPool with a gauge that stakes half of every
 * position and notifies a reward a second (test/slipstreamGauge.gas.test.ts: fills two seconds
 * after their quotes, differences against the same trades on the same pool without a gauge):
 * ~7.2k more per swap (the Voter's gauge and the unstaked fee per loop step, the gauge's share
 * booked in gaugeFees), ~10.3k more on a swap's first crossing (rewardReserve,
 * rewardGrowthGlobalX128 and lastUpdated brought up to date), ~3.4k more per tick crossed (its
 * reward growth outside rewritten, staked liquidity applied), and 17.1k more for each word written
 * from zero (a tick's reward growth outside, the pool's reward growth: `FRESH_SLOT_GAS`, priced
 * apart from the state's `gauge` lists). `perSwap` keeps ~5k above the devnet: Base's CLFactory
 * asks an unstaked-fee module the devnet has not (one more contract call per loop step).
 *
 * @example
 * // a gauged swap crossing n ticks, w reward words from zero: + perSwap + firstTickCrossed + n * perTickCrossed + w * FRESH_SLOT_GAS
 */
export const SLIPSTREAM_GAUGE_GAS: V3ForkGaugeGas = { perSwap: 12_000n, firstTickCrossed: 11_000n, perTickCrossed: 4_000n }

/**
 * What a Slipstream swap costs in weft's executor beyond the same swap on a Uniswap V3 pool.
 *
 * Calibrated on anvil against the real CLPool and CLFactory (compiled from
 * sphere-mezo-solidity-files with solc 0.7.6, test/devnet/slipstreamReal.ts) through weft's
 * executor, in test/slipstream.real.execute.test.ts: with no extra at all the Uniswap V3 model fell
 * short by 3-7k per pool swap (the factory's `getSwapFee` through the fee module, the voter's
 * unstaked-fee lookup, the gauge-fee bookkeeping) and by up to ~24k on a spacing-1 swap crossing
 * several ticks (staked liquidity and reward growth per crossed tick). `base` keeps ~5k above the
 * measured extra because the devnet's Voter is a stand-in without gauges, a few cold reads cheaper
 * than Base's. Measured gasEstimate/gasUsed on 16 fills: 1.03-1.13. Those fills landed in the
 * second of the pools' last swap, which skips the CLPool's per-second writes (oracle observation,
 * reward-growth update); a fill a block later (as on a chain) costs 3.1-3.9k more per swap, and
 * a random families soak filled a path below its estimate (seed 3008 #12: 473,772 < 477,372).
 * `base` carries those 4k since: 1.02-1.13 with each fill two seconds after its quote.
 *
 * Tick crossings, measured apart in test/v3TickCrossing.gas.test.ts (fills a block apart, on one
 * chain): a crossing that only rewrites its fee-growth-outside words costs ~29k, one that writes
 * both from zero ~61k (Uniswap V3: ~21.5k and ~53k), and a swap's first crossing ~12-14k more
 * once (Uniswap V3: under 1k): the CLPool brings its reward growth up to date. The Uniswap V3
 * model prices a crossing at 25.1k plus 17.1k per word written from zero, so a crossing here adds
 * `perTickCrossed` + `perExtraStep` = 7k and the first `firstTickCrossed` 9k (`base` keeps ~6k
 * above the swap without crossings). A pool with a gauge adds `gauge` (SLIPSTREAM_GAUGE_GAS).
 *
 * @example
 * // gas of a Slipstream swap = estimateSwapGas(crossed, steps) + base + crossed * perTickCrossed + (steps - 1) * perExtraStep
 * //   + (crossed > 0 ? firstTickCrossed : 0)
 */
export const SLIPSTREAM_EXTRA_GAS: V3ForkGas = {
  base: 19_000n,
  perTickCrossed: 5_000n,
  perExtraStep: 2_000n,
  firstTickCrossed: 9_000n,
  gauge: SLIPSTREAM_GAUGE_GAS,
}
