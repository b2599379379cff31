// The latency loops' warm-up scales with the trades they cycle through: a flat 4,000 quotes left
// the quick bench's 20 trades (200 quotes each) on a JIT still compiling and deoptimising inside
// the timed loop, whose 10-pool p99 was then 3-4.4 ms against about 1 ms once settled
// (scripts/bench/warmUp.ts). And the GC watch attributes a loop's slowest samples to the pauses
// that overlap them, so a tail set by GC is told apart from one set by weft's own work.
import { afterEach, describe, expect, it } from 'vitest'
import { watchGc } from '../../scripts/bench/gcWatch.js'
import { warmUp, warmUpPlan } from '../../scripts/bench/warmUp.js'

describe('latency warm-up', () => {
  afterEach(() => {
    delete process.env.TEST_WARMUP
    delete process.env.TEST_WARMUP_SECONDS
  })

  it('runs 600 quotes per trade by default, at least 8,000', () => {
    expect(warmUpPlan('TEST', 10).quotes).toBe(8000)
    expect(warmUpPlan('TEST', 20).quotes).toBe(12_000)
    expect(warmUpPlan('TEST', 25)).toEqual({ quotes: 15_000, seconds: 10 })
  })

  it('takes the count and the time box from the environment', () => {
    process.env.TEST_WARMUP = '0'
    process.env.TEST_WARMUP_SECONDS = '3'
    expect(warmUpPlan('TEST', 20)).toEqual({ quotes: 0, seconds: 3 })
  })

  it('runs every item once even with no warm-up asked', async () => {
    const seen: number[] = []
    const warm = await warmUp([1, 2, 3], async (item) => seen.push(item), 0, 0)
    expect(seen).toEqual([1, 2, 3])
    expect(warm).toEqual({ quotes: 3, timeBoxed: false })
  })
})

describe('GC watch', () => {
  it('counts no slow samples where there are none', async () => {
    const summary = await watchGc().stop([])
    expect(summary.slowCount).toBe(0)
    expect(summary.slowWithGc).toBe(0)
  })

  it('sees a scavenge inside a sample that allocates past the young generation', async () => {
    const watch = watchGc()
    const start = performance.now()
    let kept: number[][] = []
    // 64 MB of short-lived arrays: more than the young generation holds, so scavenges run.
    for (let i = 0; i < 8_000; i++) kept = [new Array<number>(1000).fill(i)]
    const end = performance.now()
    const summary = await watch.stop([{ start, end }])
    expect(kept.length).toBe(1)
    expect(summary.minor.count).toBeGreaterThan(0)
    expect(summary.slowCount).toBe(1)
    expect(summary.slowWithGc).toBe(1)
  })
})
