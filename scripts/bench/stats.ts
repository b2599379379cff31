// Timing and printing helpers shared by every bench section.
import { performance } from 'node:perf_hooks'

/**
 * The p-th percentile (nearest rank) of a list of samples; NaN when empty.
 *
 * @example
 * percentile([3, 1, 2], 50) // 2
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length) - 1
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!
}

/**
 * Wall times (ms) of `runs` sequential calls.
 *
 * @example
 * const samples = await timeAsync(20, () => getQuote(intent, source))
 */
export async function timeAsync(runs: number, fn: () => unknown | Promise<unknown>): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await fn()
    samples.push(performance.now() - started)
  }
  return samples
}

/**
 * Per-call time (µs) of a fast function: the mean of each batch of `batch`
 * calls, one sample per batch (so the timer's own cost and resolution vanish).
 *
 * @example
 * const perCall = timeBatches(200, 500, () => pool.quoteExactIn(a, b, x))
 */
export function timeBatches(batches: number, batch: number, fn: () => unknown): number[] {
  const samples: number[] = []
  let sink = 0
  for (let b = 0; b < batches; b++) {
    const started = performance.now()
    for (let i = 0; i < batch; i++) if (fn() === undefined) sink++
    samples.push(((performance.now() - started) * 1000) / batch)
  }
  if (sink < 0) console.log(sink)
  return samples
}

/**
 * A duration in ms, printed with a unit that keeps 3 significant digits.
 *
 * @example
 * formatMs(0.0042) // '4.20µs'
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—'
  if (ms < 0.01) return `${(ms * 1000).toFixed(2)}µs`
  if (ms < 10) return `${ms.toFixed(3)}ms`
  if (ms < 1000) return `${ms.toFixed(1)}ms`
  return `${(ms / 1000).toFixed(2)}s`
}

/**
 * p50/p99 of latency samples, compact.
 *
 * @example
 * formatLatency([1, 2, 3]) // '2.000ms/3.000ms'
 */
export function formatLatency(samples: readonly number[]): string {
  if (samples.length === 0) return '—'
  return `${formatMs(percentile(samples, 50))}/${formatMs(percentile(samples, 99))}`
}

/**
 * A difference in basis points with a sign, or a dash.
 *
 * @example
 * formatBp(-0.01234) // '-0.0123'
 */
export function formatBp(bp: number | undefined): string {
  if (bp === undefined || !Number.isFinite(bp)) return '—'
  if (bp === 0) return '0'
  const digits = Math.abs(bp) >= 100 ? 1 : Math.abs(bp) >= 1 ? 3 : 4
  return `${bp > 0 ? '+' : ''}${bp.toFixed(digits)}`
}

/** A fixed-width text table: columns are padded to their widest cell. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[], alignLeft = 1): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i < alignLeft ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}

/** Seconds since `since` (a performance.now() value), for section footers. */
export function elapsedSeconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`
}
