import type { V3ForkGas } from '../pancakeV3/v3ForkPool.js'

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
 * above the swap without crossings). Not measured: a pool with a gauge (Base's Voter), whose
 * reward growth moves, where a crossing may also write the tick's reward growth outside from zero.
 *
 * @example
 * // gas of a Slipstream swap = estimateSwapGas(crossed, steps) + base + crossed * perTickCrossed + (steps - 1) * perExtraStep
 * //   + (crossed > 0 ? firstTickCrossed : 0)
 */
export const SLIPSTREAM_EXTRA_GAS: V3ForkGas = { base: 19_000n, perTickCrossed: 5_000n, perExtraStep: 2_000n, firstTickCrossed: 9_000n }
