// readBalancerV2Pools on a long pool list, against the real Vault and WeightedPool on anvil. Each
// listed pool costs ~1.3 kB of multicall answer (tokens, balances, weights, scaling factors, fee,
// pause state, id, factory check): one deployless multicall (answer capped at 24,576 bytes as
// returned code) failed as a whole past ~15 pools and every pool came back "skipped". Here 24
// pools must read exactly as each pool listed alone reads, and a node fault must throw.
import { type Address, type Hex, createPublicClient, custom, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../src/chains/types.js'
import { PINNED_BLOCK, createPinnedReader } from '../src/liquidity/createPinnedReader.js'
import { readBalancerV2Pools } from '../src/protocols/balancerV2/readPools.js'
import { readDeploylessMulticall } from '../src/protocols/readDeploylessMulticall.js'
import { type BalancerV2Deployment, type BalancerV2DevnetPool, createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from './devnet/balancerV2.js'
import { type Anvil, type Devnet, type DevnetSymbol, deployDevnet, startAnvil } from './devnet/index.js'
import { multicallFaultClient } from './support/multicallFaultClient.js'

const E18 = 10n ** 18n
/** More pools than one deployless multicall could answer for (it failed past ~15). */
const POOL_COUNT = 24
const PAIRS: readonly (readonly [DevnetSymbol, DevnetSymbol])[] = [
  ['WETH', 'USDC'],
  ['WETH', 'DAI'],
  ['USDC', 'DAI'],
  ['WBTC', 'WETH'],
  ['LINK', 'USDT'],
  ['USDT', 'USDC'],
]
/** Raw units of a whole-ish amount of a devnet token, scaled to its decimals. */
const amountOf = (devnet: Devnet, symbol: DevnetSymbol, whole: bigint) => whole * 10n ** BigInt(devnet.tokens[symbol].decimals)

describe('readBalancerV2Pools with many listed pools (deployless multicall size caps)', () => {
  let anvil: Anvil
  let devnet: Devnet
  let balancer: BalancerV2Deployment
  let pools: BalancerV2DevnetPool[]
  let dex: DexConfig
  let chain: ChainConfig
  let blockNumber: bigint

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    balancer = await deployBalancerV2(devnet)
    pools = []
    for (let k = 0; k < POOL_COUNT; k++) {
      const [a, b] = PAIRS[k % PAIRS.length]!
      // Every third pool holds a third token, so answers differ in size; fees and weights differ per pool.
      const third: DevnetSymbol | undefined = k % 3 === 2 ? (['LINK', 'WBTC', 'PEPE'] as const).find((s) => s !== a && s !== b) : undefined
      const weight = (E18 * BigInt(40 + (k % 20))) / 100n
      const specs = third
        ? [
            { token: a, weight: E18 / 2n, amount: amountOf(devnet, a, 1_000n + BigInt(k)) },
            { token: b, weight: (E18 * 3n) / 10n, amount: amountOf(devnet, b, 600n) },
            { token: third, weight: E18 / 5n, amount: amountOf(devnet, third, 400n) },
          ]
        : [
            { token: a, weight, amount: amountOf(devnet, a, 1_000n + BigInt(k)) },
            { token: b, weight: E18 - weight, amount: amountOf(devnet, b, 2_000n) },
          ]
      pools.push(await createBalancerV2WeightedPool(devnet, balancer, specs, { swapFee: BigInt(1 + k) * 10n ** 15n, name: `P${k}` }))
    }
    dex = getBalancerV2DexConfig(balancer, pools.map((p) => p.poolId))
    chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, dex] }
    blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  const tokens = (): Address[] => Object.values(devnet.tokens).map((token) => token.address)
  const read = (poolIds: readonly Hex[], client = anvil.publicClient as Parameters<typeof readBalancerV2Pools>[0]['client']) =>
    readBalancerV2Pools({ client, chain, blockNumber, tokens: tokens(), dexes: [{ ...dex, pools: [...poolIds] }] })

  it(`reads all ${POOL_COUNT} listed pools, each exactly as it reads listed alone`, async () => {
    const all = await read(pools.map((p) => p.poolId))
    const alone = await Promise.all(pools.map((p) => read([p.poolId])))
    console.log(`balancerV2: ${all.pools.length} pools read, ${all.skipped.length} skipped of ${POOL_COUNT} listed`)
    expect(all.skipped).toEqual([])
    expect(alone.flatMap((r) => r.skipped)).toEqual([])
    expect(all.pools).toEqual(alone.flatMap((r) => r.pools))
    expect(all.pools.map((p) => p.poolId)).toEqual(pools.map((p) => p.poolId))
  })

  it('a node fault on one of its multicalls throws instead of reporting pools as skipped', async () => {
    await expect(read(pools.map((p) => p.poolId), multicallFaultClient(anvil, 2))).rejects.toThrow(/upstream node unavailable/)
    await expect(read(pools.slice(0, 2).map((p) => p.poolId), multicallFaultClient(anvil, 1))).rejects.toThrow(/upstream node unavailable/)
  })

  it('through the pinned one-round-trip reader the long list reads the same pools', async () => {
    const pinned = createPinnedReader(anvil.publicClient)
    const reading = pinned.run((client) =>
      readBalancerV2Pools({ client, chain, blockNumber: PINNED_BLOCK, tokens: tokens(), dexes: [dex] }),
    )
    pinned.seal()
    const viaPinned = await reading
    expect(pinned.blockNumber()).toBe(blockNumber)
    expect(viaPinned).toEqual(await read(pools.map((p) => p.poolId)))
  })

  it('a chunk whose answers outgrow their bound (the node refuses its size) is read again in halves', async () => {
    // A pool named with 2,000 characters: name() answers ~2 kB where the calls claim 32 bytes.
    const named = await createBalancerV2WeightedPool(
      devnet,
      balancer,
      [
        { token: 'WETH', weight: E18 / 2n, amount: amountOf(devnet, 'WETH', 10n) },
        { token: 'USDC', weight: E18 / 2n, amount: amountOf(devnet, 'USDC', 30_000n) },
      ],
      { name: 'N'.repeat(2_000) },
    )
    const nameAbi = parseAbi(['function name() view returns (string)'])
    const calls = Array.from({ length: 30 }, () => ({ address: named.pool, abi: nameAbi, functionName: 'name', answerBytes: 32 }))
    const at = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    let sent = 0
    const counting = createPublicClient({
      chain: anvil.chain,
      transport: custom({ request: ({ method, params }) => ((sent += method === 'eth_call' ? 1 : 0), anvil.publicClient.request({ method, params } as never)) }),
    })
    const results = await readDeploylessMulticall(counting as Parameters<typeof readDeploylessMulticall>[0], at, calls)
    expect(results).toEqual(calls.map(() => ({ status: 'success', result: 'N'.repeat(2_000) })))
    // One chunk by the bound (~4.8 kB claimed), ~64 kB in truth: refused, then halves until they fit.
    console.log(`oversized answers: ${sent} eth_calls for 30 calls of ~2 kB each`)
    expect(sent).toBeGreaterThan(3)
  })
})
