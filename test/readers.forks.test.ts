// Pool readers on bigger inputs, against the real contracts on anvil (real CLPool/CLFactory,
// Aerodrome Pool/PoolFactory, Uniswap V2 pairs). A deployless multicall answers as the code of the
// contract it "deploys" (at most 24,576 bytes): past it the node refuses the whole call, and the
// readers used to take that for "no pools" (V2, Aerodrome) or "fee() failed" on every pool
// (Slipstream). Here many candidates (12 to 16 tokens, six tick spacings) must read exactly what
// the same pools read from a small list, and a node fault must throw, never read as absence.
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig, DexConfig } from '../src/chains/types.js'
import { PINNED_BLOCK, createPinnedReader } from '../src/liquidity/createPinnedReader.js'
import { readAerodromeV2Pools } from '../src/protocols/aerodromeV2/readPools.js'
import type { ReadPoolsParameters } from '../src/protocols/types.js'
import { readSlipstreamPools } from '../src/protocols/slipstream/readPools.js'
import { readUniswapV2Pools } from '../src/protocols/uniswapV2/readPools.js'
import { readUniswapV3Pools } from '../src/protocols/uniswapV3/readPools.js'
import { type AerodromeDeployment, deployAerodrome } from './devnet/aerodrome.js'
import { type Anvil, type Devnet, deployDevnet, startAnvil } from './devnet/index.js'
import { type SlipstreamRealDeployment, deploySlipstreamReal } from './devnet/slipstreamReal.js'
import { multicallFaultClient } from './support/multicallFaultClient.js'

/** Tokens with no pools (no code either): candidates that only add size, as a long token list does. */
const extraTokens = (count: number) => Array.from({ length: count }, (_, k) => `0x${(0xf00d00 + k).toString(16).padStart(40, '0')}` as Address)
/** Base's Slipstream tick spacings. */
const BASE_TICK_SPACINGS = [1, 10, 50, 100, 200, 2000]
const byAddress = <T extends { address: string }>(list: readonly T[]) => [...list].sort((a, b) => (a.address < b.address ? -1 : 1))

describe('pool readers with many candidates (deployless multicall size caps)', () => {
  let anvil: Anvil
  let devnet: Devnet
  let slipstream: SlipstreamRealDeployment
  let aerodrome: AerodromeDeployment
  let chain: ChainConfig
  let slipstreamDex: DexConfig
  let v2Dex: DexConfig
  let blockNumber: bigint

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    slipstream = await deploySlipstreamReal(devnet)
    aerodrome = await deployAerodrome(devnet)
    slipstreamDex = { ...slipstream.dex, tickSpacings: BASE_TICK_SPACINGS }
    v2Dex = devnet.chain.dexes.find((dex) => dex.family === 'uniswapV2')!
    chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, slipstreamDex, aerodrome.dex] }
    blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  const devnetTokens = () => Object.values(devnet.tokens).map((token) => token.address)
  const parameters = (dexes: DexConfig[], tokens: readonly Address[], client: ReadPoolsParameters['client'] = anvil.publicClient): ReadPoolsParameters => ({
    client,
    chain,
    blockNumber,
    tokens,
    dexes,
  })

  it('Slipstream: 12 tokens x 6 spacings (396 candidates) read every pool with its fee, as each pair alone does', async () => {
    const tokens = [...devnetTokens(), ...extraTokens(5)]
    const big = await readSlipstreamPools(parameters([slipstreamDex], tokens))
    const alone = await Promise.all(slipstream.pools.map((pool) => readSlipstreamPools(parameters([slipstreamDex], [...pool.tokens]))))
    const expected = byAddress(alone.flatMap((r) => r.pools).filter((p, k, all) => all.findIndex((q) => q.address === p.address) === k))
    console.log(`slipstream: ${big.pools.length} pools, ${big.skipped.length} skipped of 396 candidates (expected ${expected.length} pools)`)
    expect(big.skipped).toEqual([])
    expect(expected.length).toBe(slipstream.pools.length)
    expect(byAddress(big.pools)).toEqual(expected)
  })

  it('Aerodrome V2: 12 tokens (132 candidates) read what each pair alone reads', async () => {
    const tokens = [...devnetTokens(), ...extraTokens(5)]
    const big = await readAerodromeV2Pools(parameters([aerodrome.dex], tokens))
    const alone = await Promise.all(aerodrome.pools.map((pool) => readAerodromeV2Pools(parameters([aerodrome.dex], [...pool.tokens]))))
    const expected = byAddress(alone.flatMap((r) => r.pools).filter((p, k, all) => all.findIndex((q) => q.address === p.address) === k))
    expect(big.skipped).toEqual([])
    expect(expected.length).toBe(aerodrome.pools.length)
    expect(byAddress(big.pools)).toEqual(expected)
  })

  it('Aerodrome V2: a node fault on one of its multicalls throws instead of reading as no pools', async () => {
    const tokens = [...devnetTokens(), ...extraTokens(5)]
    await expect(readAerodromeV2Pools(parameters([aerodrome.dex], tokens, multicallFaultClient(anvil, 2)))).rejects.toThrow(/upstream node unavailable/)
  })

  it('Uniswap V2: 16 tokens (120 candidates) read every pair, as the devnet tokens alone do', async () => {
    const small = await readUniswapV2Pools(parameters([v2Dex], devnetTokens()))
    const big = await readUniswapV2Pools(parameters([v2Dex], [...devnetTokens(), ...extraTokens(9)]))
    console.log(`uniswapV2: ${big.length} pairs from 120 candidates, ${small.length} from 21`)
    expect(small.length).toBe(devnet.pools.filter((pool) => pool.family === 'uniswapV2').length)
    expect(byAddress(big)).toEqual(byAddress(small))
    await expect(readUniswapV2Pools(parameters([v2Dex], devnetTokens(), multicallFaultClient(anvil, 1)))).rejects.toThrow(/upstream node unavailable/)
  })

  it('Slipstream: a node fault on the fee() multicall throws instead of skipping every pool', async () => {
    const tokens = [...devnetTokens(), ...extraTokens(5)]
    await expect(readSlipstreamPools(parameters([slipstreamDex], tokens, multicallFaultClient(anvil, 1)))).rejects.toThrow(/upstream node unavailable/)
  })

  it('through the pinned one-round-trip reader the same many candidates read the same pools', async () => {
    const tokens = [...devnetTokens(), ...extraTokens(9)]
    const pinned = createPinnedReader(anvil.publicClient)
    const atPin = { blockNumber: PINNED_BLOCK }
    const reads = Promise.all([
      pinned.run((client) => readSlipstreamPools({ ...parameters([slipstreamDex], tokens, client), ...atPin })),
      pinned.run((client) => readAerodromeV2Pools({ ...parameters([aerodrome.dex], tokens, client), ...atPin })),
      pinned.run((client) => readUniswapV2Pools({ ...parameters([v2Dex], tokens, client), ...atPin })),
    ])
    pinned.seal()
    const [slip, aero, v2] = await reads
    expect(pinned.blockNumber()).toBe(blockNumber)
    expect(pinned.batches()).toBe(1)
    const direct = await Promise.all([
      readSlipstreamPools(parameters([slipstreamDex], tokens)),
      readAerodromeV2Pools(parameters([aerodrome.dex], tokens)),
      readUniswapV2Pools(parameters([v2Dex], tokens)),
    ])
    expect(byAddress(slip.pools)).toEqual(byAddress(direct[0].pools))
    expect(byAddress(aero.pools)).toEqual(byAddress(direct[1].pools))
    expect(byAddress(v2)).toEqual(byAddress(direct[2]))
  })

  it('the pinned reader reads past one eth_call\'s gas in more batches at the same block (22 tokens, four families)', async () => {
    // ~45M gas of reads (mostly candidates without code): anvil allows an eth_call 30M, geth 50M.
    const tokens = [...devnetTokens(), ...extraTokens(15)]
    const v3Dex = devnet.chain.dexes.find((dex) => dex.family === 'uniswapV3')!
    const pinned = createPinnedReader(anvil.publicClient)
    const atPin = { blockNumber: PINNED_BLOCK }
    const reads = Promise.all([
      pinned.run((client) => readSlipstreamPools({ ...parameters([slipstreamDex], tokens, client), ...atPin })),
      pinned.run((client) => readAerodromeV2Pools({ ...parameters([aerodrome.dex], tokens, client), ...atPin })),
      pinned.run((client) => readUniswapV2Pools({ ...parameters([v2Dex], tokens, client), ...atPin })),
      pinned.run((client) => readUniswapV3Pools({ ...parameters([v3Dex], tokens, client), ...atPin })),
    ])
    pinned.seal()
    const [slip, aero, v2, v3] = await reads
    console.log(`pinned reader, 22 tokens on four families: ${pinned.batches()} batches`)
    expect(pinned.blockNumber()).toBe(blockNumber)
    expect(pinned.batches()).toBeGreaterThan(1)
    expect(byAddress(slip.pools)).toEqual(byAddress((await readSlipstreamPools(parameters([slipstreamDex], tokens))).pools))
    expect(byAddress(aero.pools)).toEqual(byAddress((await readAerodromeV2Pools(parameters([aerodrome.dex], tokens))).pools))
    expect(byAddress(v2)).toEqual(byAddress(await readUniswapV2Pools(parameters([v2Dex], tokens))))
    expect(byAddress(v3)).toEqual(byAddress(await readUniswapV3Pools(parameters([v3Dex], tokens))))
    expect(slip.pools.length + aero.pools.length + v2.length + v3.length).toBeGreaterThan(20)
  })
})
