// The warm-up before a latency loop. "Warm" means the JIT has settled, not one quote per trade:
// on the 10-pool hard market, 2,000 quotes after a 200-quote warm-up still saw 424 TurboFan
// compilations and 46 deoptimisations (node --trace-opt --trace-deopt), and the main-thread
// stalls they cause (every ~8 ms, 5-10 ms each, no GC among them) were the whole p99. After
// 6,000 quotes, 14 compilations were left. A host that quotes for a living (a bot, a server, a
// wallet session) runs far past that; the latency targets are about that steady state.
//
// What settles is per trade, not per run: each trade's sizes take their own branches and shapes. At
// a flat 4,000 quotes, the 500 timed quotes that followed still saw 8 TurboFan compilations and 4
// deoptimisations on 10:1 (10 trades, 400 quotes each) and 13-15 and 3-5 on the quick bench's 10:1 +
// 10:2 (20 trades, 200 each; node --trace-opt --trace-deopt, markers around the loop), and the next
// loop in the same process, at 6 hops, saw none. A TurboFan job runs on a second thread: on a 2-core
// machine with one more busy process, it takes the main thread's slice (3-4 ms), which was the
// quick bench's 10-pool p99 of 3-4.4 ms while its 6-hop loop, run next, gave 0.3-1.0 ms. At 600
// quotes per trade (12,000 for 20 trades), 0-3 compilations and no deoptimisation were left.

import { performance } from 'node:perf_hooks'

/** How a class was warmed: quotes run, and whether the time box ended it before the count. */
export type WarmUp = { quotes: number; timeBoxed: boolean }

/**
 * Runs `run` round robin over `items` until `quotes` have run or `seconds` have passed, whichever
 * comes first; every item runs at least once (its pools built before timing).
 *
 * @example
 * const warm = await warmUp(trades, (trade) => quote(trade), 8000, 10)
 */
export async function warmUp<T>(items: readonly T[], run: (item: T) => Promise<unknown>, quotes: number, seconds: number): Promise<WarmUp> {
  const started = performance.now()
  let count = 0
  for (; count < Math.max(quotes, items.length); count++) {
    if (count >= items.length && performance.now() - started > seconds * 1000) return { quotes: count, timeBoxed: true }
    await run(items[count % items.length]!)
  }
  return { quotes: count, timeBoxed: false }
}

/** Warm-up quotes per trade by default (see the top of this file), and the least in all. */
const QUOTES_PER_TRADE = 600
const LEAST_QUOTES = 8000

/**
 * The warm-up asked for by the environment: `<prefix>_WARMUP` quotes (default 600 per trade, at
 * least 8,000), `<prefix>_WARMUP_SECONDS` (default 10).
 *
 * @example
 * const plan = warmUpPlan('LATENCY', trades.length) // { quotes: 8000, seconds: 10 } for 10 trades
 */
export function warmUpPlan(prefix: string, trades: number): { quotes: number; seconds: number } {
  const quotes = process.env[`${prefix}_WARMUP`]
  return { quotes: quotes === undefined ? Math.max(LEAST_QUOTES, QUOTES_PER_TRADE * trades) : Number(quotes), seconds: Number(process.env[`${prefix}_WARMUP_SECONDS`] ?? 10) }
}
