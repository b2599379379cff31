// readUniswapV3Pools (also the Pancake V3 and Slipstream readers) when the pools have many ticks,
// against real Uniswap V3 pools on anvil. The lens packs every candidate of a chunk (up to 128) into
// one answer capped at 24,576 bytes (returned code): two spacing-1 pools with ~720 initialized
// ticks each around the price take ~27 kB together, and the lens refused the whole chunk
// (ResultTooLarge), so the read failed. Now such a chunk is read in halves at the same block, with
// the same result as each pool read alone.
import { type Address, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DexConfig } from '../src/chains/types.js'
import { PINNED_BLOCK, createPinnedReader } from '../src/liquidity/createPinnedReader.js'
import { readUniswapV3Pools } from '../src/protocols/uniswapV3/readPools.js'
import { type Anvil, type Devnet, type DevnetPool, deployDevnet, sendDevnetTransactions, startAnvil, uniswapV3PoolAbi, v3LiquidityProviderAbi } from './devnet/index.js'

/** Positions per pool, each initializing two new ticks near the price: ~13.7 kB of lens answer per pool. */
const POSITIONS = 360
const LIQUIDITY = 10n ** 12n

describe('readUniswapV3Pools with pools of many ticks (lens answer cap)', () => {
  let anvil: Anvil
  let devnet: Devnet
  let dex: DexConfig
  let crowded: DevnetPool[]
  let tokens: Address[]

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const v3 = devnet.chain.dexes.find((d) => d.family === 'uniswapV3')!
    // Only the fee-100 tier (tick spacing 1): its pools read 32 bitmap words on each side.
    dex = { ...v3, feeTiers: { 100: 1 } }
    crowded = [devnet.getPool('USDC', 'USDT', 'uniswapV3', 100), devnet.getPool('DAI', 'USDC', 'uniswapV3', 100)]
    tokens = [devnet.tokens.USDC.address, devnet.tokens.USDT.address, devnet.tokens.DAI.address]
    for (const pool of crowded) {
      const [, tick] = await anvil.publicClient.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'slot0' })
      await sendDevnetTransactions(
        anvil.rpcUrl,
        Array.from({ length: POSITIONS }, (_, k) => ({
          label: `position ${k} on ${pool.symbols.join('/')}`,
          from: devnet.accounts.deployer,
          to: devnet.contracts.v3LiquidityProvider,
          data: encodeFunctionData({
            abi: v3LiquidityProviderAbi,
            functionName: 'mint',
            args: [pool.address, devnet.accounts.deployer, tick - 1 - 2 * k, tick + 2 + 2 * k, LIQUIDITY],
          }),
          gas: 1_000_000n,
        })),
      )
    }
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  it('a chunk whose ticks pass the cap reads in halves, as each pool alone reads', async () => {
    const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    const read = (candidates: readonly Address[]) => readUniswapV3Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens: candidates, dexes: [dex] })
    const all = await read(tokens)
    const alone = await Promise.all(crowded.map((pool) => read([...pool.tokens])))
    const ticks = all.map((state) => state.ticks.length)
    console.log(`uniswapV3: ${all.length} pools read with ${ticks.join(' + ')} ticks (~${ticks.reduce((a, b) => a + 47 + 19 * b, 0)} bytes of lens answer)`)
    expect(ticks.every((count) => count >= 2 * POSITIONS)).toBe(true)
    const byAddress = (list: typeof all) => [...list].sort((a, b) => (a.address < b.address ? -1 : 1))
    expect(byAddress(all)).toEqual(byAddress(alone.flat()))
    expect(all.map((state) => state.address).sort()).toEqual(crowded.map((pool) => pool.address).sort())

    // Through the pinned one-round-trip reader: the halves go out in one more batch, at the same block.
    const pinned = createPinnedReader(anvil.publicClient)
    const reading = pinned.run((client) => readUniswapV3Pools({ client, chain: devnet.chain, blockNumber: PINNED_BLOCK, tokens, dexes: [dex] }))
    pinned.seal()
    expect(byAddress(await reading)).toEqual(byAddress(all))
    expect(pinned.blockNumber()).toBe(blockNumber)
  })
})
