// readBalancerV2Pools against the real Vault and WeightedPool on anvil: the configured pool ids are
// read in one eth_call (a deployless multicall) at the pinned block, and every pool that cannot be
// priced is reported as skipped with why: an id the Vault does not know, a paused pool, a paused
// Vault. Pools with fewer than two of the candidate tokens are left out, and a malformed id in the
// host's config is a 500.
import { type Hex, createPublicClient, encodeFunctionData, http, toFunctionSelector } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../src/chains/types.js'
import { QuoteError } from '../src/errors/QuoteError.js'
import { balancerV2Family } from '../src/protocols/balancerV2/family.js'
import { readBalancerV2Pools } from '../src/protocols/balancerV2/readPools.js'
import type { AnvilCheckpoint } from './devnet/anvil.js'
import {
  type BalancerV2Deployment,
  type BalancerV2DevnetPool,
  balancerVaultAbi,
  balancerWeightedPoolAbi,
  createBalancerV2WeightedPool,
  deployBalancerV2,
  getBalancerV2DexConfig,
  grantBalancerV2Action,
} from './devnet/balancerV2.js'
import { type Anvil, type Devnet, deployDevnet, sendDevnetTransaction, startAnvil } from './devnet/index.js'

const E18 = 10n ** 18n
const UNKNOWN_ID = `0x${'ab'.repeat(20)}000200000000000000000077` as Hex

describe('readBalancerV2Pools on the real Vault', () => {
  let anvil: Anvil
  let devnet: Devnet
  let balancer: BalancerV2Deployment
  let pools: BalancerV2DevnetPool[]
  let dex: DexConfig
  let chain: ChainConfig
  let checkpoint: AnvilCheckpoint

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    balancer = await deployBalancerV2(devnet)
    pools = [
      await createBalancerV2WeightedPool(devnet, balancer, [
        { token: 'WETH', weight: E18 / 2n, amount: 100n * E18 },
        { token: 'USDC', weight: E18 / 2n, amount: 300_000n * 10n ** 6n },
      ]),
      await createBalancerV2WeightedPool(devnet, balancer, [
        { token: 'DAI', weight: E18 / 2n, amount: 100_000n * E18 },
        { token: 'USDC', weight: (E18 * 3n) / 10n, amount: 60_000n * 10n ** 6n },
        { token: 'LINK', weight: E18 / 5n, amount: 2_666n * E18 },
      ]),
    ]
    dex = getBalancerV2DexConfig(balancer, [...pools.map((p) => p.poolId), UNKNOWN_ID])
    chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, dex] }
    checkpoint = await anvil.checkpoint()
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  const tokens = () => (['WETH', 'USDC', 'DAI', 'LINK'] as const).map((s) => devnet.tokens[s].address)
  const read = async (dexes: DexConfig[] = [dex], candidates = tokens()) =>
    readBalancerV2Pools({ client: anvil.publicClient, chain, blockNumber: await anvil.publicClient.getBlockNumber({ cacheTime: 0 }), tokens: candidates, dexes })

  it('reads every listed pool in one eth_call at the pinned block, exactly as the pools report', async () => {
    const calls: string[] = []
    const client = createPublicClient({
      chain: anvil.chain,
      transport: http(anvil.rpcUrl, {
        onFetchRequest(_request, init) {
          const body = JSON.parse(String(init.body)) as { method: string } | { method: string }[]
          for (const call of Array.isArray(body) ? body : [body]) calls.push(call.method)
        },
      }),
    })
    const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    const { pools: states, skipped } = await readBalancerV2Pools({ client: client as typeof anvil.publicClient, chain, blockNumber, tokens: tokens(), dexes: [dex] })
    expect(calls).toEqual(['eth_call'])
    expect(skipped).toEqual([{ address: UNKNOWN_ID, reason: 'not registered in the Vault' }])
    expect(states.map((s) => s.poolId)).toEqual(pools.map((p) => p.poolId))
    for (const [k, state] of states.entries()) {
      const [vaultTokens, balances] = await anvil.publicClient.readContract({ address: balancer.vault, abi: balancerVaultAbi, functionName: 'getPoolTokens', args: [state.poolId] })
      const weights = await anvil.publicClient.readContract({ address: state.pool, abi: balancerWeightedPoolAbi, functionName: 'getNormalizedWeights' })
      const scaling = await anvil.publicClient.readContract({ address: state.pool, abi: balancerWeightedPoolAbi, functionName: 'getScalingFactors' })
      expect(state).toMatchObject({
        family: 'balancerV2',
        dex: 'balancerV2',
        address: balancer.vault,
        pool: pools[k]!.pool,
        tokens: vaultTokens.map((t) => t.toLowerCase()),
        balances: balances.map(String),
        weights: weights.map(String),
        scalingFactors: scaling.map(String),
        swapFeePercentage: String(pools[k]!.swapFee),
      })
      expect(() => balancerV2Family.fromState(state, { chain, dex, dexIndex: chain.dexes.length - 1 })).not.toThrow()
    }
    // The 6- and 18-decimal scaling factors, as WeightedPool computes them.
    expect(states[0]!.scalingFactors.sort()).toEqual([String(E18), String(10n ** 30n)].sort())
  })

  it('leaves out pools with fewer than two candidate tokens', async () => {
    const { pools: states } = await read([dex], [devnet.tokens.WETH.address, devnet.tokens.DAI.address, devnet.tokens.LINK.address])
    expect(states.map((s) => s.poolId)).toEqual([pools[1]!.poolId])
  })

  it('reports a paused pool and a paused Vault as skipped', async () => {
    try {
      const admin = balancer.admin
      await grantBalancerV2Action(devnet, balancer, pools[0]!.pool, toFunctionSelector('pause()'), admin)
      await sendDevnetTransaction(anvil.rpcUrl, { label: 'pause pool', from: admin, to: pools[0]!.pool, data: encodeFunctionData({ abi: balancerWeightedPoolAbi, functionName: 'pause' }), gas: 300_000n })
      let result = await read()
      expect(result.pools.map((s) => s.poolId)).toEqual([pools[1]!.poolId])
      expect(result.skipped).toContainEqual({ address: pools[0]!.poolId, reason: 'the pool is paused' })

      await grantBalancerV2Action(devnet, balancer, balancer.vault, toFunctionSelector('setPaused(bool)'), admin)
      await sendDevnetTransaction(anvil.rpcUrl, { label: 'pause Vault', from: admin, to: balancer.vault, data: encodeFunctionData({ abi: balancerVaultAbi, functionName: 'setPaused', args: [true] }), gas: 300_000n })
      result = await read()
      expect(result.pools).toEqual([])
      expect(result.skipped.map((s) => s.reason)).toEqual([...new Array(3)].map(() => 'the Balancer Vault is paused'))
    } finally {
      await checkpoint.restore()
    }
  })

  it('treats a malformed pool id in the config as the host’s error (500)', async () => {
    const broken = { ...dex, pools: ['0x1234' as Hex] }
    const error = await read([broken]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(QuoteError)
    expect((error as QuoteError).statusCode).toBe(500)
    expect((await read([{ ...dex, pools: [] }])).pools).toEqual([])
  })
})
