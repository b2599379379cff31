// Exact-output refusals and near-capacity answers, measured (CPU and answers) on hard universes:
// for each planned trade, targets an exact-input route delivered (reachable: 90%, 99.9% and 100% of
// what the route gave at 1x, 3x and 10x the trade's depth) and targets past the most any route
// delivered (1.01x, 1.1x, 2x: out of reach, or barely within it). Two runs' JSON (before and after
// a change) compare answer by answer; an answer above the input whose route delivered its target
// (the `x<multiple>` rows) is an exact output that landed on a worse input.
// Usage: tsx scripts/bench/exactOutRefusals.ts <pools> <seeds a-b> <maxHops> [out.json]
// (REFUSALS_ONLY=1: only the targets past the most delivered.) The `routes` and `optima` columns
// read counters (globalThis.__exoRoutes, __exoOptima) that only a local instrumentation of
// solveExactOut's routes and modelInput's evaluations sets; they read 0 otherwise.
import { writeFileSync } from 'node:fs'
import { createHardUniverse } from './hardMarket.js'
import { findRoute } from '../../src/router/findRoute.js'
import { solveExactOut } from '../../src/quote/solveExactOut.js'
import type { RouteParameters } from '../../src/router/types.js'

const noFees = { routedOf: (amountIn: bigint) => amountIn, netOf: (gross: bigint) => gross }
/** Counters a local instrumentation may set (see above). */
const counters = globalThis as { __exoRoutes?: number; __exoOptima?: number }
const [poolCount, seeds, hops, out] = [Number(process.argv[2] ?? 10), process.argv[3] ?? '1-5', Number(process.argv[4] ?? 4), process.argv[5]]
const [first, last] = seeds.split('-').map(Number) as [number, number]
const cpuMs = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}
type Row = { id: string; kind: 'reach' | 'past'; target: string; amountIn: string | null; net: string | null; ms: number; routes: number; optima: number }
const rows: Row[] = []
for (let seed = first; seed <= (last ?? first); seed++) {
  const universe = createHardUniverse(poolCount, seed)
  universe.trades.forEach((trade, t) => {
    const parameters: RouteParameters = { pools: universe.market.pools.map((p) => p.pool), tokenIn: trade.tokenIn.address, tokenOut: trade.tokenOut.address, connectors: universe.market.chain.majorTokens, maxHops: hops, gasCostInOutput: 0 }
    const targets: { kind: Row['kind']; label: string; target: bigint }[] = []
    let most = 0n
    for (const multiple of [1n, 3n, 10n]) {
      const delivered = findRoute(parameters, trade.depthIn * multiple)?.amountOut ?? 0n
      if (delivered > most) most = delivered
      if (delivered > 0n && !process.env.REFUSALS_ONLY) for (const perMille of [900n, 999n, 1000n]) targets.push({ kind: 'reach', label: `x${multiple} ${perMille}`, target: (delivered * perMille) / 1000n })
    }
    if (most > 0n) for (const perMille of [1010n, 1100n, 2000n]) targets.push({ kind: 'past', label: `most ${perMille}`, target: (most * perMille) / 1000n })
    for (const { kind, label, target } of targets) {
      counters.__exoRoutes = 0
      counters.__exoOptima = 0
      const start = cpuMs()
      const solved = solveExactOut(parameters, target, noFees)
      const ms = cpuMs() - start
      const row: Row = { id: `${poolCount}:${seed} ${trade.label.split(' ')[0]} ${hops}h ${label}`, kind, target: String(target), amountIn: solved ? String(solved.amountIn) : null, net: solved ? String(solved.net) : null, ms, routes: counters.__exoRoutes ?? 0, optima: counters.__exoOptima ?? 0 }
      rows.push(row)
      console.log(`${row.id}: ${row.amountIn ?? '404'} ${row.ms.toFixed(0)} ms ${row.routes} routes ${row.optima} optima`)
    }
  })
}
if (out) writeFileSync(out, JSON.stringify(rows, null, 1))
