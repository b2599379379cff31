import { type Address, type Hex, encodeAbiParameters, encodeEventTopics, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../../chains/types.js'
import { PANCAKE_V3_FACTORY, PANCAKE_V3_FEE_TIERS, PANCAKE_V3_INIT_CODE_HASH, PANCAKE_V3_POOL_DEPLOYER } from '../../../chains/forks.js'
import { base } from '../../../chains/base.js'
import { ethereum } from '../../../chains/ethereum.js'
import { defineChainConfig } from '../../../chains/registry.js'
import type { PancakeV3PoolState } from '../../../protocols/pancakeV3/state.js'
import { getUniswapV3PoolAddress } from '../../../protocols/uniswapV3/readPools.js'
import { uniswapV3PoolEventsAbi } from '../poolEvents.js'
import type { TrackedPool } from '../trackedPool.js'
import { applyPancakeV3Log, pancakeV3LiveFamily, pancakeV3PoolEventsAbi } from './pancakeV3.js'

const dex: DexConfig = {
  id: 'pancakeV3',
  family: 'pancakeV3',
  protocol: 'Uniswap V3',
  fork: 'PancakeV3',
  factory: PANCAKE_V3_POOL_DEPLOYER,
  initCodeHash: PANCAKE_V3_INIT_CODE_HASH,
  creationEmitter: PANCAKE_V3_FACTORY,
  feeTiers: PANCAKE_V3_FEE_TIERS,
}
const chain = { dexes: [dex] } as unknown as ChainConfig
const token0 = '0x1000000000000000000000000000000000000001' as Address
const token1 = '0x2000000000000000000000000000000000000002' as Address
const poolCreatedAbi = parseAbi(['event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)'])
const created = (fee: number, tickSpacing: number, pool: Address) => ({
  address: PANCAKE_V3_FACTORY,
  topics: encodeEventTopics({ abi: poolCreatedAbi, eventName: 'PoolCreated', args: { token0, token1, fee } }) as [Hex, ...Hex[]],
  data: encodeAbiParameters([{ type: 'int24' }, { type: 'address' }], [tickSpacing, pool]),
})
const address = getUniswapV3PoolAddress(dex, token0, token1, 2500)
const state: PancakeV3PoolState = {
  family: 'pancakeV3', dex: 'pancakeV3', address, token0, token1, fee: 2500, tickSpacing: 50,
  sqrtPriceX96: String(2n ** 96n), tick: 0, liquidity: '1000000', ticks: [], tickLower: -12800, tickUpper: 12799,
}
const record: TrackedPool = { pool: { address, family: 'pancakeV3', dex: 'pancakeV3', token0, token1, fee: 2500, tickSpacing: 50, createdAt: 1 }, state }
const swapWords = (sqrtPriceX96: bigint, liquidity: bigint, tick: number, extra: bigint[]) =>
  encodeAbiParameters(
    [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }, ...extra.map(() => ({ type: 'uint128' }))],
    [10n, -9n, sqrtPriceX96, liquidity, tick, ...extra],
  )
const swapTopics = (abi: typeof pancakeV3PoolEventsAbi | typeof uniswapV3PoolEventsAbi) =>
  encodeEventTopics({ abi, eventName: 'Swap', args: { sender: token0, recipient: token1 } }) as [Hex, ...Hex[]]

describe('pancakeV3LiveFamily', () => {
  it('takes PoolCreated from the PancakeV3Factory only for a configured tier at the address derived from the deployer', () => {
    expect(pancakeV3LiveFamily.creationEmitters!(dex)).toEqual([PANCAKE_V3_FACTORY])
    expect(pancakeV3LiveFamily.creationEmitters!({ ...dex, creationEmitter: undefined })).toEqual([])
    expect(pancakeV3LiveFamily.discover(created(2500, 50, address), dex, 7, chain)).toEqual({ pool: { ...record.pool, createdAt: 7 } })
    const forged = '0x3000000000000000000000000000000000000003'
    expect(pancakeV3LiveFamily.discover(created(2500, 50, forged), dex, 7, chain)).toEqual({ skipped: 'pool address is not the CREATE2 derivation', address: forged })
    expect(pancakeV3LiveFamily.discover(created(2500, 60, address), dex, 7, chain)).toMatchObject({ skipped: expect.stringMatching(/not configured/) })
  })

  it('is configured on Base and Ethereum with the PancakeV3Factory as creation emitter; a config must give an address', () => {
    for (const chainConfig of [base, ethereum]) expect(chainConfig.dexes.find((d) => d.family === 'pancakeV3')?.creationEmitter).toBe(PANCAKE_V3_FACTORY)
    const withEmitter = (creationEmitter: string) => defineChainConfig({ ...base, dexes: [{ ...dex, creationEmitter: creationEmitter as Address }] })
    expect(withEmitter('0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865').dexes[0]!.creationEmitter).toBe(PANCAKE_V3_FACTORY)
    expect(() => withEmitter('0x1234')).toThrow(/dexes\[0\]\.creationEmitter must be an address/)
  })

  it("applies Pancake's Swap (seven words, its own topic), not v3-core's, and knows its own events", () => {
    const swap = applyPancakeV3Log(record, { topics: swapTopics(pancakeV3PoolEventsAbi), data: swapWords(2n ** 96n + 5n, 999n, 1, [3n, 0n]) })
    expect(swap).toEqual({ kind: 'next', record: { ...record, state: { ...state, sqrtPriceX96: String(2n ** 96n + 5n), liquidity: '999', tick: 1 } } })
    expect(applyPancakeV3Log(record, { topics: swapTopics(uniswapV3PoolEventsAbi), data: swapWords(2n ** 96n, 1n, 0, []) })).toMatchObject({ kind: 'reread', reason: 'unknown PancakeSwap V3 pool event' })
    // On a fresh pool: a protocol fee taken in the input token means its fee growth left zero and fees are owed.
    const fresh = { ...record, state: { ...state, freshSlots: { feeGrowth0: true, feeGrowth1: true, protocolFees: true } } }
    const paid = applyPancakeV3Log(fresh, { topics: swapTopics(pancakeV3PoolEventsAbi), data: swapWords(2n ** 96n - 5n, 999n, 0, [3n, 0n]) })
    expect(paid).toMatchObject({ kind: 'next', record: { state: { freshSlots: { feeGrowth0: false, feeGrowth1: true, protocolFees: false } } } })
    const last = { ...record, state: { ...state, freshSlots: { feeGrowth0: true, feeGrowth1: false, protocolFees: false } } }
    const done = applyPancakeV3Log(last, { topics: swapTopics(pancakeV3PoolEventsAbi), data: swapWords(2n ** 96n - 5n, 999n, 0, [3n, 0n]) })
    expect(done.kind === 'next' && 'freshSlots' in done.record.state!).toBe(false)
    // None taken: the fee growth may or may not have left zero.
    expect(applyPancakeV3Log(fresh, { topics: swapTopics(pancakeV3PoolEventsAbi), data: swapWords(2n ** 96n - 5n, 999n, 0, [0n, 0n]) })).toMatchObject({ kind: 'reread' })
    const lm = encodeEventTopics({ abi: pancakeV3PoolEventsAbi, eventName: 'SetLmPoolEvent' }) as [Hex]
    expect(applyPancakeV3Log(record, { topics: lm, data: encodeAbiParameters([{ type: 'address' }], [token0]) })).toEqual({ kind: 'unchanged' })
    const feeProtocol = encodeEventTopics({ abi: pancakeV3PoolEventsAbi, eventName: 'SetFeeProtocol' }) as [Hex]
    const data = encodeAbiParameters([{ type: 'uint32' }, { type: 'uint32' }, { type: 'uint32' }, { type: 'uint32' }], [3200, 3200, 0, 0])
    expect(applyPancakeV3Log(record, { topics: feeProtocol, data })).toEqual({ kind: 'reread', reason: 'SetFeeProtocol is not applied' })
  })
})
