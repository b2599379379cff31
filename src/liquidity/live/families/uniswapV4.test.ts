import { type Address, type Hex, encodeAbiParameters, encodeEventTopics, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../../chains/types.js'
import { DYNAMIC_FEE_FLAG } from '../../../protocols/uniswapV4/fees.js'
import { getUniswapV4PoolId, type UniswapV4PoolKey } from '../../../protocols/uniswapV4/poolKey.js'
import type { UniswapV4PoolState } from '../../../protocols/uniswapV4/state.js'
import type { TrackedPool } from '../trackedPool.js'
import { applyUniswapV4Log, uniswapV4PoolManagerEventsAbi as abi } from './applyUniswapV4Log.js'
import { uniswapV4LiveFamily } from './uniswapV4.js'

const manager = '0x4444000000000000000000000000000000000001' as Address
const weth = '0x0000000000000000000000000000000000000ee1' as Address
const usdc = '0x0000000000000000000000000000000000000cc1' as Address
const dex: DexConfig = { id: 'uniswapV4', family: 'uniswapV4', protocol: 'Uniswap V4', fork: 'UniswapV4', factory: manager, initCodeHash: `0x${'0'.repeat(64)}` }
const chain = { dexes: [dex], wrappedNative: { address: weth } } as unknown as ChainConfig
const key: UniswapV4PoolKey = { currency0: zeroAddress, currency1: usdc, fee: 500, tickSpacing: 10, hooks: zeroAddress }
const id = getUniswapV4PoolId(key)

const initialize = (args: Partial<typeof key> & { id?: Hex } = {}) => {
  const k = { ...key, ...args }
  return {
    address: manager,
    topics: encodeEventTopics({ abi, eventName: 'Initialize', args: { id: args.id ?? getUniswapV4PoolId(k), currency0: k.currency0, currency1: k.currency1 } }) as [Hex, ...Hex[]],
    data: encodeAbiParameters([{ type: 'uint24' }, { type: 'int24' }, { type: 'address' }, { type: 'uint160' }, { type: 'int24' }], [k.fee, k.tickSpacing, k.hooks, 2n ** 96n, 0]),
  }
}
const state: UniswapV4PoolState = {
  family: 'uniswapV4', dex: 'uniswapV4', address: manager, id, currency0: zeroAddress, currency1: usdc, fee: 500, tickSpacing: 10, hooks: zeroAddress,
  sqrtPriceX96: String(2n ** 96n), tick: 100, protocolFee: 0, lpFee: 500, liquidity: '1000',
  ticks: [{ index: 50, liquidityNet: '1000' }, { index: 130, liquidityNet: '-1000' }], tickLower: -2560, tickUpper: 5119,
  freshOutside0: [130], freshOutside1: [130], freshSlots: { feeGrowth0: false, feeGrowth1: true, protocolFees0: false, protocolFees1: false },
}
const record: TrackedPool = {
  pool: { address: manager, id, family: 'uniswapV4', dex: 'uniswapV4', token0: weth, token1: usdc, fee: 500, tickSpacing: 10, createdAt: 1 },
  state,
  liquidityGross: new Map([[50, 1000n], [130, 1000n]]),
}
const topics = (eventName: 'Swap' | 'ModifyLiquidity' | 'Donate' | 'ProtocolFeeUpdated') =>
  encodeEventTopics({ abi, eventName, args: eventName === 'ProtocolFeeUpdated' ? { id } : { id, sender: usdc } } as never) as [Hex, ...Hex[]]
const swap = (amount0: bigint, amount1: bigint, tick: number, liquidity = 1000n, sqrtPriceX96 = 2n ** 96n + BigInt(tick)) => ({
  topics: topics('Swap'),
  data: encodeAbiParameters(
    [{ type: 'int128' }, { type: 'int128' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }, { type: 'uint24' }],
    [amount0, amount1, sqrtPriceX96, liquidity, tick, 500],
  ),
})
const modify = (tickLower: number, tickUpper: number, delta: bigint) => ({
  topics: topics('ModifyLiquidity'),
  data: encodeAbiParameters([{ type: 'int24' }, { type: 'int24' }, { type: 'int256' }, { type: 'bytes32' }], [tickLower, tickUpper, delta, `0x${'0'.repeat(64)}`]),
})
const nextState = (outcome: ReturnType<typeof applyUniswapV4Log>) => (outcome.kind === 'next' ? (outcome.record.state as UniswapV4PoolState) : undefined)

describe('uniswapV4LiveFamily', () => {
  it('discovers hookless static-fee pools by their recomputed id (native named by the wrapped token), and skips the rest', () => {
    expect(uniswapV4LiveFamily.discover(initialize(), dex, 9, chain)).toEqual({ pool: { ...record.pool, createdAt: 9 } })
    expect(uniswapV4LiveFamily.discover(initialize({ id: `0x${'ab'.repeat(32)}` }), dex, 9, chain)).toMatchObject({ skipped: 'V4 pool id is not the hash of its key' })
    expect(uniswapV4LiveFamily.discover(initialize({ hooks: '0x4444000000000000000000000000000000000080' }), dex, 9, chain)).toMatchObject({ skipped: expect.stringMatching(/with hooks/) })
    expect(uniswapV4LiveFamily.discover(initialize({ fee: DYNAMIC_FEE_FLAG, hooks: '0x4444000000000000000000000000000000004000' }), dex, 9, chain)).toMatchObject({ skipped: expect.stringMatching(/dynamic fee/) })
    expect(uniswapV4LiveFamily.discover(initialize({ currency1: weth }), dex, 9, chain)).toMatchObject({ skipped: expect.stringMatching(/native and wrapped native/) })
    // The reader is asked for that one key, native currency0 recovered from the id.
    expect(uniswapV4LiveFamily.narrow(dex, record.pool)).toMatchObject({ feeTiers: {}, poolKeys: [key] })
    expect(uniswapV4LiveFamily.keyOfLog!(swap(-1n, 1n, 0))).toBe(id)
  })

  it('applies a Swap within its word; a crossing only of ticks fresh in both currencies; re-reads the rest', () => {
    // zeroForOne (the swapper pays currency0), no tick crossed.
    expect(nextState(applyUniswapV4Log(record, swap(-5n, 4n, 95)))).toMatchObject({ tick: 95, sqrtPriceX96: String(2n ** 96n + 95n), liquidity: '1000' })
    // Down across 50 (fee growth outside written): unknown after the crossing.
    expect(applyUniswapV4Log(record, swap(-5n, 4n, 49))).toEqual({ kind: 'reread', reason: 'V4 Swap across a tick with fee growth outside' })
    // Up across 130 (fresh in both): stays fresh in currency1 (global still zero), not in currency0. The input's growth is fresh: LP fee 0 only.
    const lpFree = { ...record, state: { ...state, lpFee: 0 } }
    expect(applyUniswapV4Log(record, swap(4n, -5n, 131, 0n))).toEqual({ kind: 'reread', reason: 'V4 Swap that may write a fresh fee growth' })
    // Without a crossing, a price moved in liquidity took a fee: currency1's growth is no longer zero.
    expect(nextState(applyUniswapV4Log(record, swap(4n, -5n, 120)))?.freshSlots).toEqual({ ...state.freshSlots, feeGrowth1: false })
    // Through no liquidity nothing is credited (and nothing paid: the direction is the price's).
    expect(nextState(applyUniswapV4Log(record, swap(0n, 0n, 120, 0n)))?.freshSlots).toEqual(state.freshSlots)
    // A price that did not move in liquidity: a dust swap may still have paid a fee.
    expect(applyUniswapV4Log(record, swap(4n, -5n, 100, 1000n, 2n ** 96n))).toEqual({ kind: 'reread', reason: 'V4 Swap that may write a fresh fee growth' })
    expect(nextState(applyUniswapV4Log(lpFree, swap(4n, -5n, 131, 0n)))).toMatchObject({ tick: 131, liquidity: '0', freshOutside0: [], freshOutside1: [130] })
    // Tick -1 is in bitmap word -1 (compressed -1), the pool's is word 0.
    expect(applyUniswapV4Log(record, swap(-5n, 4n, -1))).toEqual({ kind: 'reread', reason: 'V4 Swap into another bitmap word' })
    expect(applyUniswapV4Log({ ...record, state: { ...state, protocolFee: 100 } as UniswapV4PoolState }, swap(-5n, 4n, 95))).toEqual({ kind: 'reread', reason: 'V4 Swap accruing a protocol fee' })
  })

  it('applies ModifyLiquidity to the ticks (fresh outside as updateTick sets it), Donate, and a protocol fee back to 0', () => {
    const added = nextState(applyUniswapV4Log(record, modify(40, 110, 7n)))!
    expect(added.ticks).toEqual([{ index: 40, liquidityNet: '7' }, { index: 50, liquidityNet: '1000' }, { index: 110, liquidityNet: '-7' }, { index: 130, liquidityNet: '-1000' }])
    expect(added.liquidity).toBe('1007')
    // 40 is at or below the price: outside = global, fresh only where the global growth is (currency1); 110 is above: fresh in both.
    expect([added.freshOutside0, added.freshOutside1]).toEqual([[110, 130], [40, 110, 130]])
    const removed = nextState(applyUniswapV4Log(record, modify(50, 130, -1000n)))!
    expect([removed.ticks, removed.liquidity, removed.freshOutside0]).toEqual([[], '0', []])
    expect(applyUniswapV4Log(record, modify(50, 130, 0n))).toEqual({ kind: 'unchanged' })
    const donate = (amount0: bigint, amount1: bigint) => ({ topics: topics('Donate'), data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [amount0, amount1]) })
    expect(nextState(applyUniswapV4Log(record, donate(0n, 3n)))?.freshSlots).toEqual({ ...state.freshSlots, feeGrowth1: false })
    expect(applyUniswapV4Log(record, donate(3n, 0n))).toEqual({ kind: 'unchanged' })
    const protocolFee = (fee: number) => ({ topics: topics('ProtocolFeeUpdated'), data: encodeAbiParameters([{ type: 'uint24' }], [fee]) })
    expect(applyUniswapV4Log(record, protocolFee(250))).toEqual({ kind: 'reread', reason: 'V4 ProtocolFeeUpdated to a nonzero fee' })
    const cleared = applyUniswapV4Log({ ...record, state: { ...state, protocolFee: 250 } as UniswapV4PoolState, rereadAt: 0 }, protocolFee(0))
    expect(cleared.kind === 'next' && cleared.record.rereadAt).toBe(undefined)
    expect(nextState(cleared)).toMatchObject({ protocolFee: 0, freshSlots: { protocolFees0: false, protocolFees1: false } })
  })
})
