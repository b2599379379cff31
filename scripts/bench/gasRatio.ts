// Bench section `gas`: the gas estimate against the gas really used, on random devnet universes
// of every family (test/gas/gasUniverse.ts): each intent quoted through the RPC source and filled
// from its own transaction. decisions.md §8 bounds the ratio to [1, 1.3].
import { type GasFill, describeRatios, runGasUniverse } from '../../test/gas/gasUniverse.js'

/** Universes the section runs (override with BENCH_GAS_SEEDS=1,2,3). */
const DEFAULT_SEEDS = [11, 22, 33]
/** Intents per universe. */
const INTENTS = 60

/** What the section measured: every fill's ratio, and the line it printed. */
export type GasRatioReport = { fills: GasFill[]; summary: string }

/**
 * Runs the section and prints the ratio distribution per universe and overall.
 *
 * @example
 * const report = await runGasRatioBench() // "gasEstimate / gasUsed over 150 fills: min 1.02, p50 1.11, ..."
 */
export async function runGasRatioBench(): Promise<GasRatioReport> {
  const seeds = process.env.BENCH_GAS_SEEDS ? process.env.BENCH_GAS_SEEDS.split(',').map(Number) : DEFAULT_SEEDS
  console.log(`\nGas estimate vs gas used (${seeds.length} random universes of every family, ${INTENTS} intents each)`)
  const fills: GasFill[] = []
  for (const seed of seeds) {
    const result = await runGasUniverse({ seed, intents: INTENTS })
    fills.push(...result.fills)
    console.log(`  universe ${seed}: ${describeRatios(result.fills)}; ${result.unquoted} unquoted, ${result.reverted.length} reverted`)
  }
  const summary = describeRatios(fills)
  console.log(`  all: ${summary}`)
  return { fills, summary }
}
