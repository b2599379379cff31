// The warm-up before a latency loop. "Warm" means the JIT has settled, not one quote per trade:
// on the 10-pool hard market, 2,000 quotes after a 200-quote warm-up still saw 424 TurboFan
// compilations and 46 deoptimisations (node --trace-opt --trace-deopt), and the main-thread
// stalls they cause (every ~8 ms, 5-10 ms each, no GC among them) were the whole p99. After
// 6,000 quotes, 14 compilations were left. A host that quotes for a living (a bot, a server, a
// wallet session) runs far past that; the latency targets are about that steady state.

import { performance } from 'node:perf_hooks'

/** How a class was warmed: quotes run, and whether the time box ended it before the count. */
export type WarmUp = { quotes: number; timeBoxed: boolean }

/**
 * Runs `run` round robin over `items` until `quotes` have run or `seconds` have passed, whichever
 * comes first; every item runs at least once (its pools built before timing).
 *
 * @example
 * const warm = await warmUp(trades, (trade) => quote(trade), 4000, 10)
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

/** The warm-up asked for by the environment: `<prefix>_WARMUP` quotes (default 4,000), `<prefix>_WARMUP_SECONDS` (default 10). */
export function warmUpPlan(prefix: string): { quotes: number; seconds: number } {
  return { quotes: Number(process.env[`${prefix}_WARMUP`] ?? 4000), seconds: Number(process.env[`${prefix}_WARMUP_SECONDS`] ?? 10) }
}
