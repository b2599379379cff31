// The liquidity relay between the main thread and a quote worker (examples/server/liquidityRelay.ts),
// through a real structured clone: the worker gets back exactly the answer, holds one object per
// state across messages, and is sent only what it does not hold.
import { describe, expect, test } from 'vitest'
import type { Liquidity, PoolStateBase } from '../../src/index.js'
import { createLiquidityReceiver, createLiquiditySender } from '../../examples/server/liquidityRelay.js'

const state = (n: number): PoolStateBase => ({ family: 'uniswapV2', dex: 'uniswapV2', address: `0x${n.toString(16).padStart(40, '0')}` }) as PoolStateBase
const answer = (chainId: number, blockNumber: number, pools: PoolStateBase[]): Liquidity => ({
  chainId,
  blockNumber,
  tokens: [{ address: '0x00000000000000000000000000000000000000aa', symbol: 'A', decimals: 18, transferFeeBps: 0 }],
  pools,
  gasPriceWei: 7n,
  report: { roundTrips: 0, requests: 0, skipped: [] },
})

describe('liquidity relay', () => {
  test('same block: nothing resent; a new block: only the changed states; the worker keeps its objects', () => {
    const sender = createLiquiditySender()
    const receiver = createLiquidityReceiver()
    const cross = (liquidity: Liquidity) => {
      const relayed = sender.encode(liquidity)!
      const message = structuredClone(relayed)
      return { message, decoded: receiver.decode(message) }
    }
    const pools = [state(1), state(2), state(3)]
    const first = cross(answer(1, 10, pools))
    expect(first.decoded).toEqual(answer(1, 10, pools))
    expect('added' in first.message.pools && first.message.pools.added.length).toBe(3)

    const again = cross(answer(1, 10, [...pools]))
    expect(again.message.pools).toEqual({ same: true })
    expect(again.decoded.pools[1]).toBe(first.decoded.pools[1])

    // Block 11: pool 2 replaced, pool 3 gone, pool 4 new.
    const next = [pools[0]!, { ...state(2), reserve0: '5' } as PoolStateBase, state(4)]
    const moved = cross(answer(1, 11, next))
    expect('added' in moved.message.pools && moved.message.pools.added.map(([, item]) => item.address)).toEqual([state(2).address, state(4).address])
    expect(moved.decoded.pools).toEqual(next)
    expect(moved.decoded.pools[0]).toBe(first.decoded.pools[0])
    expect(moved.decoded.blockNumber).toBe(11)

    // Another chain has lists of its own; the first chain's are untouched by it.
    const other = cross(answer(8453, 5, [state(9)]))
    expect(other.decoded.pools).toEqual([state(9)])
    expect(cross(answer(1, 11, [...next])).message.pools).toEqual({ same: true })
  })

  test('an answer that is not lists of objects is not relayed (sent as it is)', () => {
    const sender = createLiquiditySender()
    expect(sender.encode({ ...answer(1, 1, []), pools: null as never })).toBeUndefined()
    expect(sender.encode({ ...answer(1, 1, [3 as never]) })).toBeUndefined()
  })
})
