// The garbage collections that land inside a latency loop, and which samples they slowed: a p99
// over 500 samples is the 5th-slowest quote, so five pauses of a millisecond set it. The loops
// print this beside their percentiles, so a tail can be told apart: weft's own work, a GC of weft's
// garbage, or a GC of what the bench itself keeps (the quality section's solves, Tines' graphs).
import { PerformanceObserver, constants } from 'node:perf_hooks'

/** One sample's wall span, in `performance.now()` milliseconds. */
export type Span = { start: number; end: number }

/** GC pauses seen while watching, by kind, and how many of the slowest samples overlapped one. */
export type GcSummary = {
  /** Scavenges (young generation): count, total and longest pause, ms. */
  minor: { count: number; totalMs: number; maxMs: number }
  /** Mark-compacts, incremental marking finalisations and weak callbacks: count, total and longest pause, ms. */
  major: { count: number; totalMs: number; maxMs: number }
  /** Of the slowest 1% of samples (at least 5, at most all), how many overlapped a GC pause. */
  slowWithGc: number
  /** How many samples the slowest 1% is. */
  slowCount: number
}

type Pause = { start: number; end: number; major: boolean }

/**
 * Starts recording GC pauses; `stop(spans)` ends it and summarises them against the samples' spans.
 *
 * @example
 * const watch = watchGc()
 * const spans = [] // push { start, end } per sample
 * const summary = await watch.stop(spans)
 */
export function watchGc(): { stop(spans: readonly Span[]): Promise<GcSummary> } {
  const pauses: Pause[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind
      pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration, major: kind !== constants.NODE_PERFORMANCE_GC_MINOR })
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  return {
    async stop(spans) {
      // Entries are delivered from the event loop, which a loop of resolved awaits never reaches.
      await new Promise((resolve) => setTimeout(resolve, 20))
      observer.disconnect()
      const sum = (list: Pause[]) => ({ count: list.length, totalMs: list.reduce((total, p) => total + p.end - p.start, 0), maxMs: Math.max(0, ...list.map((p) => p.end - p.start)) })
      const slowCount = Math.min(spans.length, Math.max(5, Math.ceil(spans.length / 100)))
      const slowest = [...spans].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, slowCount)
      const slowWithGc = slowest.filter((span) => pauses.some((p) => p.start < span.end && p.end > span.start)).length
      return { minor: sum(pauses.filter((p) => !p.major)), major: sum(pauses.filter((p) => p.major)), slowWithGc, slowCount }
    },
  }
}

/**
 * One line for a summary.
 *
 * @example
 * console.log(formatGc(await watch.stop(spans))) // "GC in the loop: 5 scavenges (max 0.6 ms), 0 major; 2 of the 5 slowest samples overlap one"
 */
export function formatGc(summary: GcSummary): string {
  const { minor, major } = summary
  return `GC in the loop: ${minor.count} scavenges (max ${minor.maxMs.toFixed(2)} ms), ${major.count} major/incremental (total ${major.totalMs.toFixed(2)} ms, max ${major.maxMs.toFixed(2)} ms); ${summary.slowWithGc} of the ${summary.slowCount} slowest samples overlap one`
}
