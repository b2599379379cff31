// The live source's long run: `npm run soak:live -- [blocks] [--seed N] [--families a,b] [--trace]`
// (default 1,000 blocks). Random third-party activity on real bytecode (test/devnet), reorgs of
// depth 1–5 and node faults; after every block the live state is compared with a fresh full read.
// Covers every live family the source has (defaultLiveFamilies) for which test/support has an
// activity generator, and names those it does not cover. Exits 1 on any mismatch or stale answer.
import { loadavg } from 'node:os'
import { runLiveSoak } from '../test/support/liveActivitySoak.js'

const DEFAULT_BLOCKS = 1_000

/** `[blocks] [--seed N] [--families a,b] [--trace]` from the command line. */
function parseArguments(argv: readonly string[]): { blocks: number; seed?: number; families?: string[]; trace?: boolean } {
  const parsed: { blocks: number; seed?: number; families?: string[]; trace?: boolean } = { blocks: DEFAULT_BLOCKS }
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    if (argument === '--seed') parsed.seed = Number(argv[++index])
    else if (argument === '--families') parsed.families = argv[++index]!.split(',')
    else if (argument === '--trace') parsed.trace = true
    else if (/^\d+$/.test(argument)) parsed.blocks = Number(argument)
    else throw new Error(`soak:live: unknown argument ${argument} (usage: soak:live [blocks] [--seed N] [--families a,b] [--trace])`)
  }
  if (!Number.isSafeInteger(parsed.blocks) || parsed.blocks < 1) throw new Error('soak:live: blocks must be a positive integer')
  if (parsed.seed !== undefined && !Number.isSafeInteger(parsed.seed)) throw new Error('soak:live: --seed must be an integer')
  return parsed
}

const options = parseArguments(process.argv.slice(2))
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ')
console.log(`soak:live: ${options.blocks} blocks, load average ${load()}`)
const report = await runLiveSoak({ ...options, log: (line) => console.log(line) })
const faults = Object.entries(report.faults).map(([kind, count]) => `${kind} ${count}`).join(', ')
console.log(`
blocks mined          ${report.blocks} (${report.transactions} transactions; seed ${report.seed})
comparisons           ${report.comparisons} with a fresh full read (${report.poolsAtEnd} pools at the end)
mismatches            ${report.mismatches}
reorgs                ${report.reorgs} (${report.reorgBlocksDropped} blocks dropped; the source saw ${report.sourceReorgs}, deepest ${report.deepestReorg})
node faults           ${faults} (${report.failedSyncs} failed syncs, ${report.staleAnswers} stale answers)
families covered      ${report.families.covered.join(', ')}${report.families.notCovered.length > 0 ? `\nNOT covered          ${report.families.notCovered.join(', ')} (a live adapter, no activity generator in test/support/liveActivityFamilies.ts)` : ''}
source                ${report.source.blocksApplied} blocks applied, ${report.source.logsApplied} logs applied, ${report.source.logsUnchanged} unchanged, ${report.source.rereads} pool reads, ${report.source.fullResyncs} full resyncs
re-read reasons       ${JSON.stringify(report.source.rereadReasons)}
JSON-RPC requests     ${report.requests}
time                  ${report.seconds.toFixed(0)} s, load average ${load()}`)
if (report.eventsBeforeFirstMismatch.length > 0) console.log(`events before the first mismatch:\n  ${report.eventsBeforeFirstMismatch.join('\n  ')}`)
for (const mismatch of report.firstMismatches) console.log(`MISMATCH block ${mismatch.block} ${mismatch.pool}\n  live  ${mismatch.live}\n  fresh ${mismatch.fresh}`)
if (report.mismatches > 0 || report.staleAnswers > 0) process.exitCode = 1
