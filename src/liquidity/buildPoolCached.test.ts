// A snapshot's pools are built once: a second quote on the same source reuses them and gives the
// same quote as a source whose pools are built afresh.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { defaultSnapshot } from '../defaultSnapshot.js'
import { defaultFamilies } from '../protocols/defaultFamilies.js'
import type { PoolFamily } from '../protocols/types.js'
import { uniswapV2Family } from '../protocols/uniswapV2/family.js'
import type { UniswapV2PoolState } from '../protocols/uniswapV2/state.js'
import { getQuote } from '../quote/getQuote.js'
import { buildPoolCached } from './buildPoolCached.js'
import { type Snapshot, createSnapshotSource } from './createSnapshotSource.js'

const WETH: Address = '0x4200000000000000000000000000000000000006'
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const id = '01900000-0000-7000-8000-000000000000'
// One fixed clock: the quotes are compared byte for byte, deadline included (seconds after the clock).
const now = () => 0x01900000_0000
const intent = { chainId: 8453, sellToken: USDC, buyToken: WETH, sellAmount: 250_000n * 10n ** 6n }

/** The default families, each counting its `fromState` calls into `counter`. */
function countingFamilies(counter: { builds: number }): PoolFamily[] {
  return defaultFamilies.map((family) => ({
    ...family,
    id: family.id,
    executorKind: family.executorKind,
    fromState(state, context) {
      counter.builds++
      return family.fromState(state, context)
    },
  }))
}

describe('buildPoolCached', () => {
  it('a second quote on the same snapshot builds no pool, and quotes the same as fresh pools', async () => {
    const counter = { builds: 0 }
    const families = countingFamilies(counter)
    const source = createSnapshotSource(defaultSnapshot)
    const first = await getQuote(intent, source, { id, now, families })
    const afterFirst = counter.builds
    expect(afterFirst).toBeGreaterThan(10)
    const second = await getQuote(intent, source, { id, now, families })
    expect(counter.builds).toBe(afterFirst)
    // Another trade on the same block reuses them too.
    await getQuote({ ...intent, sellToken: WETH, buyToken: USDC, sellAmount: 10n ** 18n }, source, { id, now, families })
    expect(counter.builds).toBe(afterFirst)
    // Fresh state objects (a deep copy of the snapshot) are built afresh and quote the same.
    const fresh = await getQuote(intent, createSnapshotSource(structuredClone(defaultSnapshot) as readonly Snapshot[]), { id, now, families })
    expect(counter.builds).toBe(2 * afterFirst)
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
    expect(JSON.stringify(fresh)).toBe(JSON.stringify(first))
  })

  it('rebuilds for another family, dex or transfer fee, and reuses otherwise (at any block: the live source hands out unchanged states again)', () => {
    const dexIndex = base.dexes.findIndex((d) => d.family === 'uniswapV2')
    const dex = base.dexes[dexIndex]!
    const state: UniswapV2PoolState = {
      family: 'uniswapV2',
      dex: dex.id,
      address: '0x00000000000000000000000000000000000000aa',
      token0: '0x00000000000000000000000000000000000000b1',
      token1: '0x00000000000000000000000000000000000000b2',
      reserve0: '1000000000000',
      reserve1: '2000000000000',
    }
    const counter = { builds: 0 }
    const family: PoolFamily<UniswapV2PoolState> = {
      ...uniswapV2Family,
      fromState(poolState, context) {
        counter.builds++
        return uniswapV2Family.fromState(poolState, context)
      },
    }
    const context = { chain: base, dex, dexIndex }
    const pool = buildPoolCached(family, state, context, 7)
    expect(buildPoolCached(family, state, { ...context }, 7)).toBe(pool)
    expect(counter.builds).toBe(1)
    expect(buildPoolCached(family, state, context, 8)).toBe(pool)
    expect(counter.builds).toBe(1)
    // A transfer fee on one of its tokens changes the pool: rebuilt, and priced with the fee.
    const withFee = buildPoolCached(family, state, { ...context, transferFeeBps: (token: Address) => (token === state.token0 ? 100 : 0) }, 7)
    expect(counter.builds).toBe(2)
    const amount = 10n ** 9n
    expect(withFee.quoteExactIn(state.token0, state.token1, amount)!.amountOut).toBeLessThan(pool.quoteExactIn(state.token0, state.token1, amount)!.amountOut)
    expect(buildPoolCached(family, state, { ...context, transferFeeBps: (token: Address) => (token === state.token0 ? 100 : 0) }, 7)).toBe(withFee)
    expect(counter.builds).toBe(2)
    // A state that fails to build is not cached: it fails each time.
    const broken = { ...state, reserve0: 'not a number' }
    expect(() => buildPoolCached(family, broken, context, 7)).toThrow()
    expect(() => buildPoolCached(family, broken, context, 7)).toThrow()
  })
})
