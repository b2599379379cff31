// An exact output the doubling search gave up on: the best route's output fell when the input
// doubled (its best path ran out of range: families soak seed 4, WETH -> LINK, 5,035 LINK for 4.9
// WETH, 2,632 for 9.9), which the search took for exhausted pools and answered 404, where 57.3
// WETH buys the 10,016 LINK asked through other paths (quote #13 of the seed's soak).
import { describe, expect, it } from 'vitest'
import { runFamiliesSoak } from './support/familiesSoak.js'

describe('the exact-output doubling search', () => {
  it('goes on past an output that falls (families soak seed 4, quote #13)', async () => {
    const report = await runFamiliesSoak({ seeds: [4], quotesPerSeed: 14 })
    expect(report.unroutedCases.filter((line) => line.startsWith('seed 4 #13 '))).toEqual([])
    expect(report.findings).toEqual([])
  }, 120_000)
})
