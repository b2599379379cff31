// The liquidity relay (examples/server/liquidityRelay.ts) against copying the whole answer to the
// worker for every quote: both give the same quotes. What each costs is a figure of
// `npm run bench -- workers` (scripts/bench/workerTransfer.ts), not an assertion here.
import { describe, expect, test } from 'vitest'
import { measureWorkerTransfer } from '../../scripts/bench/workerTransfer.js'

describe('quote workers on a live-like source: relay against copy', () => {
  test('same quotes at 48 and 2,000 pools', async () => {
    for (const size of [48, 2_000]) {
      const copy = await measureWorkerTransfer(size, 'copy')
      const relay = await measureWorkerTransfer(size, 'relay')
      const { id: _a, transaction: _b, gasEstimate: _c, ...copied } = copy.quote
      const { id: _d, transaction: _e, gasEstimate: _f, ...relayed } = relay.quote
      expect(relayed).toEqual(copied)
    }
  }, 120_000)
})
