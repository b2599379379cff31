import { type Address, type Hex, encodeAbiParameters, encodeEventTopics, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../../chains/types.js'
import { getAerodromeV2PoolAddress } from '../../../protocols/aerodromeV2/address.js'
import type { AerodromeV2PoolState } from '../../../protocols/aerodromeV2/state.js'
import type { TrackedPool } from '../trackedPool.js'
import { aerodromeV2LiveFamily, aerodromeV2PoolEventsAbi, applyAerodromeV2Log } from './aerodromeV2.js'

const factory = '0x420dd381b31aef6683db6b902084cb0ffece40da' as Address
const dex: DexConfig = { id: 'aerodromeV2', family: 'aerodromeV2', protocol: 'Solidly', fork: 'AeroDrome', factory, initCodeHash: `0x${'22'.repeat(32)}` }
const chain = { dexes: [dex] } as unknown as ChainConfig
const token0 = '0x1000000000000000000000000000000000000001' as Address
const token1 = '0x2000000000000000000000000000000000000002' as Address
const address = getAerodromeV2PoolAddress(dex, token0, token1, true)
const factoryAbi = parseAbi([
  'event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256 allPoolsLength)',
  'event SetCustomFee(address indexed pool, uint256 fee)',
  'event SetPauseState(bool state)',
])
const state: AerodromeV2PoolState = { family: 'aerodromeV2', dex: 'aerodromeV2', address, token0, token1, stable: true, reserve0: '100', reserve1: '200', decimals0: 18, decimals1: 6, feeBps: 5 }
const record: TrackedPool = { pool: { address, family: 'aerodromeV2', dex: 'aerodromeV2', token0, token1, createdAt: 1 }, state, rereadAt: 5_000 }
/** The record with its state changed. */
const withState = (changes: Partial<AerodromeV2PoolState>): TrackedPool => ({ ...record, state: { ...state, ...changes } as AerodromeV2PoolState })
const twoWords = (a: bigint, b: bigint) => encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [a, b])
const sync = (reserve0: bigint, reserve1: bigint) => ({ topics: encodeEventTopics({ abi: aerodromeV2PoolEventsAbi, eventName: 'Sync' }) as [Hex], data: twoWords(reserve0, reserve1) })
const fees = (amount0: bigint, amount1: bigint) => ({ topics: encodeEventTopics({ abi: aerodromeV2PoolEventsAbi, eventName: 'Fees', args: { sender: token0 } }) as [Hex, ...Hex[]], data: twoWords(amount0, amount1) })

describe('aerodromeV2LiveFamily', () => {
  it('takes PoolCreated only at the CREATE2 address of its tokens and curve', () => {
    const log = (stable: boolean, pool: Address) => ({
      address: factory,
      topics: encodeEventTopics({ abi: factoryAbi, eventName: 'PoolCreated', args: { token0, token1, stable } }) as [Hex, ...Hex[]],
      data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [pool, 9n]),
    })
    expect(aerodromeV2LiveFamily.discover(log(true, address), dex, 4, chain)).toEqual({ pool: { ...record.pool, createdAt: 4 } })
    // The volatile pool's announcement with the stable pool's address is a forgery.
    expect(aerodromeV2LiveFamily.discover(log(false, address), dex, 4, chain)).toEqual({ skipped: 'pool address is not the CREATE2 derivation', address })
  })

  it('applies Sync(uint256, uint256) while no observation can be appended, else re-reads', () => {
    expect(applyAerodromeV2Log(record, sync(7n, 8n))).toEqual({ kind: 'next', record: { ...record, state: { ...state, reserve0: '7', reserve1: '8' } } })
    expect(applyAerodromeV2Log(record, sync(0n, 8n))).toEqual({ kind: 'next', record: { pool: record.pool, state: null } })
    expect(applyAerodromeV2Log(withState({ observationDue: true }), sync(7n, 8n))).toMatchObject({ kind: 'reread' })
    expect(applyAerodromeV2Log({ pool: record.pool, state }, sync(7n, 8n))).toMatchObject({ kind: 'reread' })
    expect(applyAerodromeV2Log(withState({ accumulatorsZero: true }), sync(7n, 8n))).toMatchObject({ kind: 'reread' })
    // Uniswap V2's Sync(uint112, uint112) is another topic: not this pool's.
    const v2Sync = { topics: encodeEventTopics({ abi: parseAbi(['event Sync(uint112 reserve0, uint112 reserve1)']), eventName: 'Sync' }) as [Hex], data: twoWords(7n, 8n) }
    expect(applyAerodromeV2Log(record, v2Sync)).toEqual({ kind: 'reread', reason: 'unknown Aerodrome V2 pool event' })
  })

  it('re-reads a Fees log only in a token whose fee index is still zero', () => {
    expect(applyAerodromeV2Log(record, fees(3n, 0n))).toEqual({ kind: 'unchanged' })
    expect(applyAerodromeV2Log(withState({ feesUnaccrued1: true }), fees(3n, 0n))).toEqual({ kind: 'unchanged' })
    expect(applyAerodromeV2Log(withState({ feesUnaccrued0: true }), fees(3n, 0n))).toMatchObject({ kind: 'reread' })
  })

  it("re-reads the pool its factory's SetCustomFee names and every pool on SetPauseState; other emitters change nothing", () => {
    const customFee = { address: factory, topics: encodeEventTopics({ abi: factoryAbi, eventName: 'SetCustomFee', args: { pool: address } }) as [Hex, ...Hex[]], data: encodeAbiParameters([{ type: 'uint256' }], [420n]) }
    expect(aerodromeV2LiveFamily.poolsChangedBy!(customFee, dex)).toEqual({ pools: [address], reason: 'Aerodrome V2 custom fee set' })
    expect(aerodromeV2LiveFamily.poolsChangedBy!({ ...customFee, address: token0 }, dex)).toBeUndefined()
    const pause = { address: factory, topics: encodeEventTopics({ abi: factoryAbi, eventName: 'SetPauseState' }) as [Hex], data: encodeAbiParameters([{ type: 'bool' }], [true]) }
    expect(aerodromeV2LiveFamily.poolsChangedBy!(pause, dex)).toEqual({ pools: 'all', reason: 'Aerodrome V2 factory paused or unpaused' })
  })
})
