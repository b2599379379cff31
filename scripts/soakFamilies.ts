// The families soak: `npm run soak:families -- [seeds] [--from N] [--quotes Q]` (default 10 seeds
// from 1, 24 quotes each). Each seed deploys a random market holding every pool family on a fresh
// anvil (real bytecode), quotes random intents through getQuote (exact-in and exact-out, 0.01%–30%
// of depth, maxHops 4–6, with and without gas, with integrator fees) and executes every quote's own
// transaction from the same state. Prints each inexact quote with its seed and route; exits 1 on any.
import { loadavg } from 'node:os'
import { runFamiliesSoak } from '../test/support/familiesSoak.js'

/** `[seeds] [--from N] [--quotes Q]` from the command line. */
function parseArguments(argv: readonly string[]): { seeds: number[]; quotesPerSeed: number } {
  let count = 10
  let from = 1
  let quotesPerSeed = 24
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    if (argument === '--from') from = Number(argv[++index])
    else if (argument === '--quotes') quotesPerSeed = Number(argv[++index])
    else if (/^\d+$/.test(argument)) count = Number(argument)
    else throw new Error(`soak:families: unknown argument ${argument} (usage: soak:families [seeds] [--from N] [--quotes Q])`)
  }
  for (const [name, value] of [['seeds', count], ['--from', from], ['--quotes', quotesPerSeed]] as const)
    if (!Number.isSafeInteger(value) || value < (name === '--from' ? 0 : 1)) throw new Error(`soak:families: ${name} must be a ${name === '--from' ? 'non-negative' : 'positive'} integer`)
  return { seeds: Array.from({ length: count }, (_, k) => from + k), quotesPerSeed }
}

const options = parseArguments(process.argv.slice(2))
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ')
console.log(`soak:families: seeds ${options.seeds[0]}–${options.seeds.at(-1)}, ${options.quotesPerSeed} quotes each, load average ${load()}`)
const report = await runFamiliesSoak({ ...options, log: (line) => console.log(line) })
// The ratio at each of these fractions of the fills, lowest first.
const RATIO_QUANTILES = [0.01, 0.1, 0.5, 0.9, 0.99] as const
const sortedRatios = [...report.gas.ratios].sort((a, b) => a - b)
const ratioAt = (fraction: number) => sortedRatios[Math.min(sortedRatios.length - 1, Math.floor(fraction * sortedRatios.length))] ?? NaN
const ratioQuantiles = RATIO_QUANTILES.map((fraction) => `p${fraction * 100} ${ratioAt(fraction).toFixed(3)}`).join(', ')
const byKind = new Map<string, number>()
for (const finding of report.findings) byKind.set(finding.kind, (byKind.get(finding.kind) ?? 0) + 1)
console.log(`
quotes                ${report.quotes} (${report.unrouted} answered 404/422: ${JSON.stringify(report.unroutedReasons)})
wrong 404s            ${report.wrong404s.length} (404s where one path of at most maxHops fills: the sell amount exact-in, the buy amount grossed up by fees + 10 bps exact-out)
executed              ${report.executed}
exact                 ${report.exact}
inexact               ${report.findings.length}${byKind.size > 0 ? ` (${[...byKind].map(([kind, count]) => `${kind} ${count}`).join(', ')})` : ''}
flows                 ${report.flows} (${report.multiOutputFlows} trading one multi-token pool into two outputs)
longest path          ${report.longestPath} hops
gas estimate          below gasUsed in ${report.gas.underestimated} fills; gasEstimate / gasUsed ${report.gas.lowestRatio.toFixed(3)}–${report.gas.highestRatio.toFixed(3)} (${ratioQuantiles}; above 1.3 in ${sortedRatios.filter((ratio) => ratio > 1.3).length})
slowest quotes        ${report.slowest.map((slow) => `${slow.ms.toFixed(0)} ms ${slow.label}`).join('\n                      ')}
fills retried         ${report.retried} (the node never mined the first attempt)
swaps by family       ${JSON.stringify(report.swapsByFamily)}
time                  ${report.seconds.toFixed(0)} s, load average ${load()}`)
if (process.env.SOAK_FAMILIES_UNROUTED) console.log(`unrouted:\n  ${report.unroutedCases.join('\n  ')}`)
if (report.findings.length > 0) process.exitCode = 1
