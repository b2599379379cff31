// The live source's benches (issue 13): `npm run bench:live [-- <section>...]`, every section by
// default, each runnable alone:
// - discovery [sizes...]: discovery and initial read of 1k and 10k real V2 pairs (liveDiscovery.ts);
// - blocks: per-block update cost against 1, 10, 100, 1,000 pools changed (liveBlocks.ts);
// - quotes: warm getQuote on the live source vs the RPC source vs a snapshot (liveQuotes.ts);
// - server: the example server on the live source under load, vs RPC and snapshot (liveServer.ts).
// Each section starts its own anvil; nothing is cached across runs. The load average is printed
// before and after each section: the machine is shared, figures move with it.
import { loadavg } from 'node:os'
import { runLiveBlocksBench } from './liveBlocks.js'
import { DISCOVERY_SIZES, runLiveDiscoveryBench } from './liveDiscovery.js'
import { runLiveQuotesBench } from './liveQuotes.js'
import { LIVE_SERVER_VARIANTS, runLiveServerBench } from './liveServer.js'
import { elapsedSeconds } from './stats.js'

const SECTIONS = {
  discovery: (sizes: number[]) => runLiveDiscoveryBench(sizes.length > 0 ? sizes : DISCOVERY_SIZES),
  blocks: () => runLiveBlocksBench(),
  quotes: () => runLiveQuotesBench(),
  server: async () => {
    for (const variant of LIVE_SERVER_VARIANTS) await runLiveServerBench(variant)
  },
} as const
type SectionName = keyof typeof SECTIONS

const isSection = (name: string): name is SectionName => Object.hasOwn(SECTIONS, name)
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ')

/**
 * Runs the named sections (all when none is named); numbers after `discovery` are its sizes.
 *
 * @example
 * await runLiveBench(['blocks'])
 * await runLiveBench(['discovery', '1000'])
 */
export async function runLiveBench(argv: readonly string[]): Promise<void> {
  const chosen: { name: SectionName; numbers: number[] }[] = []
  for (const argument of argv) {
    if (isSection(argument)) chosen.push({ name: argument, numbers: [] })
    else if (/^\d+$/.test(argument) && chosen.at(-1)?.name === 'discovery') chosen.at(-1)!.numbers.push(Number(argument))
    else throw new Error(`bench:live: unknown section ${argument} (sections: ${Object.keys(SECTIONS).join(', ')}; discovery takes pool counts)`)
  }
  const sections = chosen.length > 0 ? chosen : (Object.keys(SECTIONS) as SectionName[]).map((name) => ({ name, numbers: [] }))
  for (const { name, numbers } of sections) {
    const started = performance.now()
    console.log(`\n## live: ${name} (load average ${load()})`)
    await SECTIONS[name](numbers)
    console.log(`  (${elapsedSeconds(started)}, load average ${load()})`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLiveBench(process.argv.slice(2))
