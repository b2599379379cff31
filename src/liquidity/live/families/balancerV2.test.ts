import { type Address, type Hex, encodeAbiParameters, encodeEventTopics, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../../../chains/types.js'
import type { BalancerV2PoolState } from '../../../protocols/balancerV2/state.js'
import type { TrackedPool } from '../trackedPool.js'
import { applyBalancerV2Log, balancerV2VaultPoolEventsAbi as abi } from './applyBalancerV2Log.js'
import { balancerV2LiveFamily } from './balancerV2.js'

const vault = '0xba12222222228d8ba445958a75a0704d566bf2c8' as Address
const factory = '0x0000000000000000000000000000000000000fac' as Address
const [weth, dai, wbtc] = ['0x0000000000000000000000000000000000000a01', '0x0000000000000000000000000000000000000a02', '0x0000000000000000000000000000000000000a03'] as Address[]
const pool = '0x5c6ee304399dbdb9c8ef030ab642b10820db8f56' as Address
const poolId = `${pool}000100000000000000000007` as Hex
const dex: DexConfig = { id: 'balancerV2', family: 'balancerV2', protocol: 'Balancer V2', fork: 'BalancerV2', factory: vault, initCodeHash: `0x${'0'.repeat(64)}`, poolFactories: [factory] }
const chain = { dexes: [dex] } as unknown as ChainConfig
const state: BalancerV2PoolState = {
  family: 'balancerV2', dex: 'balancerV2', address: vault, poolId, pool, tokens: [weth!, dai!, wbtc!],
  balances: ['1000', '2000', '3000'], weights: ['400000000000000000', '300000000000000000', '300000000000000000'],
  scalingFactors: ['1000000000000000000', '1000000000000000000', '10000000000000000000000000000'], swapFeePercentage: '3000000000000000',
}
const record: TrackedPool = { pool: { address: vault, id: poolId, family: 'balancerV2', dex: 'balancerV2', token0: weth!, token1: dai!, tokens: [weth!, dai!, wbtc!], createdAt: 3 }, state }
const log = (eventName: 'TokensRegistered' | 'Swap' | 'PoolBalanceChanged' | 'PoolBalanceManaged', args: Record<string, unknown>, data: Hex) => ({
  address: vault,
  topics: encodeEventTopics({ abi, eventName, args: { poolId, ...args } } as never) as [Hex, ...Hex[]],
  data,
})
const balancesOf = (outcome: ReturnType<typeof applyBalancerV2Log>) => (outcome.kind === 'next' ? (outcome.record.state as BalancerV2PoolState).balances : outcome)

describe('balancerV2LiveFamily', () => {
  it('discovers a pool from the Vault\'s TokensRegistered and reads it alone by its id', () => {
    const registered = log('TokensRegistered', {}, encodeAbiParameters([{ type: 'address[]' }, { type: 'address[]' }], [[weth!, dai!, wbtc!], [vault, vault, vault]]))
    expect(balancerV2LiveFamily.discover(registered, dex, 3, chain)).toEqual({ pool: record.pool })
    expect(balancerV2LiveFamily.keyOfLog!(registered)).toBe(poolId)
    expect(balancerV2LiveFamily.narrow(dex, record.pool)).toMatchObject({ pools: [poolId], poolFactories: [factory] })
    expect(balancerV2LiveFamily.matches!(state, record.pool)).toBe(true)
  })

  it('books a Swap and a PoolBalanceChanged as the Vault does (protocol fee amounts leave the pool)', () => {
    const swap = log('Swap', { tokenIn: dai, tokenOut: wbtc }, encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [50n, 70n]))
    expect(balancesOf(applyBalancerV2Log(record, swap))).toEqual(['1000', '2050', '2930'])
    const changed = (deltas: bigint[], fees: bigint[]) =>
      log('PoolBalanceChanged', { liquidityProvider: weth }, encodeAbiParameters([{ type: 'address[]' }, { type: 'int256[]' }, { type: 'uint256[]' }], [[weth!, dai!, wbtc!], deltas, fees]))
    expect(balancesOf(applyBalancerV2Log(record, changed([100n, 0n, 10n], [1n, 2n, 0n])))).toEqual(['1099', '1998', '3010'])
    expect(balancesOf(applyBalancerV2Log(record, changed([-100n, -200n, -300n], [1n, 0n, 0n])))).toEqual(['899', '1800', '2700'])
    expect(applyBalancerV2Log(record, changed([-1001n, 0n, 0n], [0n, 0n, 0n]))).toEqual({ kind: 'reread', reason: "Balancer balance out of the Vault's bounds" })
    // A pool the reader does not deliver (paused, or not from a known factory), asset managers: re-read.
    expect(applyBalancerV2Log({ ...record, state: null }, swap)).toMatchObject({ kind: 'reread' })
    const managed = log('PoolBalanceManaged', { assetManager: vault, token: dai }, encodeAbiParameters([{ type: 'int256' }, { type: 'int256' }], [1n, -1n]))
    expect(applyBalancerV2Log(record, managed)).toEqual({ kind: 'reread', reason: 'Balancer PoolBalanceManaged is not applied' })
  })

  it("follows the pool contract's own logs (its swap fee applied, its pause re-read) and re-reads every pool when the Vault pauses", () => {
    expect(balancerV2LiveFamily.ownEmitter!(record.pool)).toBe(pool)
    const own = parseAbi(['event SwapFeePercentageChanged(uint256 swapFeePercentage)', 'event PausedStateChanged(bool paused)', 'event Transfer(address indexed from, address indexed to, uint256 value)'])
    const feeChanged = { address: pool, topics: encodeEventTopics({ abi: own, eventName: 'SwapFeePercentageChanged' }) as [Hex], data: encodeAbiParameters([{ type: 'uint256' }], [10n ** 16n]) }
    expect(applyBalancerV2Log(record, feeChanged)).toEqual({ kind: 'next', record: { ...record, state: { ...state, swapFeePercentage: '10000000000000000' } } })
    expect(applyBalancerV2Log({ ...record, state: null }, feeChanged)).toEqual({ kind: 'unchanged' })
    const paused = { address: pool, topics: encodeEventTopics({ abi: own, eventName: 'PausedStateChanged' }) as [Hex], data: encodeAbiParameters([{ type: 'bool' }], [true]) }
    expect(applyBalancerV2Log(record, paused)).toEqual({ kind: 'reread', reason: 'Balancer pool paused or unpaused' })
    const transfer = { address: pool, topics: encodeEventTopics({ abi: own, eventName: 'Transfer', args: { from: weth, to: dai } }) as [Hex, ...Hex[]], data: encodeAbiParameters([{ type: 'uint256' }], [1n]) }
    expect(applyBalancerV2Log(record, transfer)).toEqual({ kind: 'unchanged' })
    // The Vault's pause concerns every pool; the same event of another contract, none.
    expect(balancerV2LiveFamily.poolsChangedBy!({ ...paused, address: vault }, dex)).toEqual({ pools: 'all', reason: 'Balancer Vault paused or unpaused' })
    expect(balancerV2LiveFamily.poolsChangedBy!(paused, dex)).toBeUndefined()
  })
})
