import { type Address, type Hex, encodeAbiParameters, encodeEventTopics, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../../chains/types.js'
import { getSlipstreamPoolAddress } from '../../../protocols/slipstream/address.js'
import type { SlipstreamPoolState } from '../../../protocols/slipstream/state.js'
import type { TrackedPool } from '../trackedPool.js'
import { applySlipstreamLog, slipstreamLiveFamily } from './slipstream.js'

const factory = '0x5e7bb104d84c7cb9b682aac2f3d509f5f406809a' as Address
const dex: DexConfig = { id: 'slipstream', family: 'slipstream', protocol: 'Uniswap V3', fork: 'AeroDromeCL', factory, initCodeHash: `0x${'11'.repeat(32)}`, tickSpacings: [1, 100] }
const chain = { dexes: [dex] } as unknown as ChainConfig
const token0 = '0x1000000000000000000000000000000000000001' as Address
const token1 = '0x2000000000000000000000000000000000000002' as Address
const address = getSlipstreamPoolAddress(dex, token0, token1, 100)
const abi = parseAbi([
  'event PoolCreated(address indexed token0, address indexed token1, int24 indexed tickSpacing, address pool)',
  'event CustomFeeSet(address indexed pool, uint24 indexed fee)',
  'event SwapFeeModuleChanged(address indexed oldFeeModule, address indexed newFeeModule)',
  'event CollectFees(address indexed recipient, uint128 amount0, uint128 amount1)',
])
const created = (tickSpacing: number, pool: Address) => ({
  address: factory,
  topics: encodeEventTopics({ abi, eventName: 'PoolCreated', args: { token0, token1, tickSpacing } }) as [Hex, ...Hex[]],
  data: encodeAbiParameters([{ type: 'address' }], [pool]),
})

describe('slipstreamLiveFamily', () => {
  it('takes the CLFactory PoolCreated only for a configured spacing at the clone’s CREATE2 address', () => {
    expect(slipstreamLiveFamily.discover(created(100, address), dex, 3, chain)).toEqual({
      pool: { address, family: 'slipstream', dex: 'slipstream', token0, token1, tickSpacing: 100, createdAt: 3 },
    })
    expect(slipstreamLiveFamily.discover(created(100, token0), dex, 3, chain)).toEqual({ skipped: 'pool address is not the CREATE2 derivation', address: token0 })
    expect(slipstreamLiveFamily.discover(created(200, address), dex, 3, chain)).toEqual({ skipped: 'tick spacing 200 is not configured', address })
    expect(slipstreamLiveFamily.narrow(dex, { address, family: 'slipstream', dex: 'slipstream', token0, token1, tickSpacing: 100, createdAt: 3 })).toEqual({ ...dex, tickSpacings: [100] })
  })

  it('re-reads the pool a CustomFeeSet names, every pool when its factory changes module, nothing for another factory', () => {
    const module = '0x4000000000000000000000000000000000000004' as Address
    const feeSet = { address: module, topics: encodeEventTopics({ abi, eventName: 'CustomFeeSet', args: { pool: address, fee: 420 } }) as [Hex, ...Hex[]], data: '0x' as Hex }
    expect(slipstreamLiveFamily.poolsChangedBy!(feeSet, dex)).toEqual({ pools: [address], reason: 'Slipstream custom fee set' })
    const changed = encodeEventTopics({ abi, eventName: 'SwapFeeModuleChanged', args: { oldFeeModule: module, newFeeModule: token0 } }) as [Hex, ...Hex[]]
    expect(slipstreamLiveFamily.poolsChangedBy!({ address: factory, topics: changed, data: '0x' }, dex)).toEqual({ pools: 'all', reason: 'Slipstream swap fee module changed' })
    expect(slipstreamLiveFamily.poolsChangedBy!({ address: module, topics: changed, data: '0x' }, dex)).toBeUndefined()
  })

  it("applies CLPool's v3-core events; the gauge's CollectFees changes nothing", () => {
    const state: SlipstreamPoolState = {
      family: 'slipstream', dex: 'slipstream', address, token0, token1, fee: 500, tickSpacing: 100,
      sqrtPriceX96: String(2n ** 96n), tick: 0, liquidity: '1', ticks: [], tickLower: -25600, tickUpper: 25599,
    }
    const record: TrackedPool = { pool: { address, family: 'slipstream', dex: 'slipstream', token0, token1, tickSpacing: 100, createdAt: 1 }, state }
    const collect = { topics: encodeEventTopics({ abi, eventName: 'CollectFees', args: { recipient: token0 } }) as [Hex, ...Hex[]], data: encodeAbiParameters([{ type: 'uint128' }, { type: 'uint128' }], [1n, 2n]) }
    expect(applySlipstreamLog(record, collect)).toEqual({ kind: 'unchanged' })
  })
})
