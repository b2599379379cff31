// Allocation per warm getQuote on one hard-market universe, and who allocates: the young
// generation fills at this rate, and each scavenge it triggers (0.5-1 ms) lands on one quote, so
// kB per quote sets how often a 10-pool quote (0.15-0.2 ms) pays a scavenge.
//   npx tsx scripts/bench/allocationProfile.ts [pools=10] [seed=1] [mode=total|sample]
//   total:  kB allocated per quote (v8 GCProfiler: heap used before each GC less after the last),
//           scavenges per 1,000 quotes, their mean pause and what each promotes, CPU per quote.
//   sample: the sampling heap profiler (objects later collected included): kB per quote by
//           function, self and inclusive (ALLOCATION_TOP rows); the profile is written to
//           ALLOCATION_PROFILE (default /tmp/allocation.<pools>.heapprofile) for a closer look.
// Env: ALLOCATION_WARMUP (quotes first, default 3,000: warm code allocates less than cold),
//      ALLOCATION_QUOTES (measured quotes, default 1,000). Same trades and options as
//      routerLatency.ts (each trade at 0.01%-30% of its depth, maxHops 4, chain default gas price).
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { GCProfiler, getHeapStatistics } from 'node:v8'
import { createSnapshotSource } from '../../src/liquidity/createSnapshotSource.js'
import { getQuote } from '../../src/quote/getQuote.js'
import { createHardUniverse } from './hardMarket.js'

/** Trade sizes, as shares of the trade's depth (as routerLatency.ts). */
const SIZES = [1e-4, 1e-3, 1e-2, 0.1, 0.3]
const NOW = () => 1_800_000_000_000
const [poolsText = '10', seedText = '1', mode = 'total'] = process.argv.slice(2)
const pools = Number(poolsText)
const universe = createHardUniverse(pools, Number(seedText))
const source = createSnapshotSource(universe.market.snapshot)
const trades = universe.trades.flatMap((trade) => SIZES.map((share) => ({ trade, amountIn: (trade.depthIn * BigInt(Math.round(share * 1e9))) / 10n ** 9n })))
const quote = (i: number) => {
  const { trade, amountIn } = trades[i % trades.length]!
  return getQuote(
    { chainId: universe.market.chain.id, sellToken: trade.tokenIn.address, buyToken: trade.tokenOut.address, sellAmount: amountIn, priceImpactLimitBps: 10_000 },
    source,
    { chains: [universe.market.chain], maxHops: 4, id: '00000000-0000-7000-8000-000000000000', now: NOW },
  ).catch(() => undefined)
}
const warm = Number(process.env.ALLOCATION_WARMUP ?? 3000)
const count = Number(process.env.ALLOCATION_QUOTES ?? 1000)
for (let i = 0; i < warm; i++) await quote(i)
const kB = (bytes: number) => (bytes / count / 1024).toFixed(1)

if (mode === 'total') {
  const profiler = new GCProfiler()
  const start = getHeapStatistics().used_heap_size
  const cpuBefore = process.cpuUsage()
  profiler.start()
  for (let i = 0; i < count; i++) await quote(i)
  const end = getHeapStatistics().used_heap_size
  const cpu = process.cpuUsage(cpuBefore)
  const { statistics } = profiler.stop()!
  let allocated = 0
  let last = start
  let scavenges = 0
  let pause = 0
  let promoted = 0
  const oldSpace = (heap: (typeof statistics)[number]['beforeGC']) => heap.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0
  for (const gc of statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - last
    last = gc.afterGC.heapStatistics.usedHeapSize
    if (gc.gcType !== 'Scavenge') continue
    scavenges++
    pause += gc.cost
    promoted += oldSpace(gc.afterGC) - oldSpace(gc.beforeGC)
  }
  allocated += end - last
  const each = Math.max(1, scavenges)
  console.log(
    `${pools}:${seedText} ${count} quotes after ${warm}: ${kB(allocated)} kB per quote; ${((scavenges * 1000) / count).toFixed(1)} scavenges per 1,000 quotes ` +
      `(mean pause ${(pause / each / 1000).toFixed(2)} ms, ${(promoted / each / 1024).toFixed(0)} kB promoted each), ${statistics.length - scavenges} other GCs; ` +
      `CPU ${((cpu.user + cpu.system) / 1000 / count).toFixed(3)} ms per quote`,
  )
} else if (mode === 'sample') {
  const session = new Session()
  session.connect()
  await session.post('HeapProfiler.enable')
  // Every 256 bytes on average, objects the scavenges collected included (else only survivors count).
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never)
  for (let i = 0; i < count; i++) await quote(i)
  const { profile } = await session.post('HeapProfiler.stopSampling')
  writeFileSync(process.env.ALLOCATION_PROFILE ?? `/tmp/allocation.${pools}.heapprofile`, JSON.stringify(profile))
  type ProfileNode = { callFrame: { functionName: string; url: string }; selfSize: number; children: ProfileNode[] }
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let total = 0
  // Built-ins (Map, Array.prototype.map, ...) are counted to the function that called them.
  const walk = (node: ProfileNode, stack: string[], owner: string) => {
    const frame = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*\/(src|node_modules)\//, '$1/')}`
    const name = node.callFrame.url ? frame : owner
    const here = stack.includes(name) ? stack : [...stack, name]
    if (node.selfSize > 0) {
      total += node.selfSize
      self.set(name, (self.get(name) ?? 0) + node.selfSize)
      for (const caller of here) inclusive.set(caller, (inclusive.get(caller) ?? 0) + node.selfSize)
    }
    for (const child of node.children) walk(child, here, name)
  }
  walk(profile.head as unknown as ProfileNode, [], '(root)')
  const rows = Number(process.env.ALLOCATION_TOP ?? 30)
  const table = (sizes: Map<string, number>) =>
    [...sizes].sort((a, b) => b[1] - a[1]).slice(0, rows).map(([name, size]) => `${kB(size).padStart(8)} kB  ${name}`).join('\n')
  console.log(`${pools}:${seedText}: ${kB(total)} kB per quote sampled\nself (built-ins counted to their caller):\n${table(self)}\ninclusive:\n${table(inclusive)}`)
} else console.log('modes: total | sample (see the header)')
