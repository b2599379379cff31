// A short live-source soak run (the long one is `npm run soak:live`, every family, not run in CI):
// random activity on real V2/V3 bytecode with reorgs and node faults, compared with a fresh full
// read after every block, through the same runner as the long run (test/support/liveActivitySoak.ts).
// V2/V3 only, to stay under ~20 s: the other families' generators run in their own live tests.
import { describe, expect, it } from 'vitest'
import { runLiveSoak } from '../support/liveActivitySoak.js'

describe('live source soak (short)', () => {
  it('follows 60 blocks of random activity with reorgs and node faults, equal to a fresh read after every block', async () => {
    const report = await runLiveSoak({ blocks: 60, seed: 0x60_b10c, reorgEvery: 12, faultEvery: 15, families: ['uniswapV2', 'uniswapV3'] })
    console.log(`live soak (short): ${JSON.stringify({ ...report, firstMismatches: undefined })}`)
    expect(report.firstMismatches).toEqual([])
    expect(report.mismatches).toBe(0)
    expect(report.staleAnswers).toBe(0)
    expect(report.comparisons).toBeGreaterThanOrEqual(40)
    expect(report.reorgs).toBeGreaterThanOrEqual(3)
    expect(Object.values(report.faults).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2)
    expect(report.failedSyncs).toBeGreaterThan(0)
    expect(report.families).toEqual({ covered: ['uniswapV2', 'uniswapV3'], notCovered: [] })
    expect(report.source.logsApplied).toBeGreaterThan(0)
  }, 60_000)
})
