// readUniswapV3Pools (also the Pancake V3 and Slipstream readers) when the pools have many ticks,
// against real Uniswap V3 pools on anvil. The lens packs every candidate of a chunk (up to 128) into
// one answer capped at 24,576 bytes (returned code): two spacing-1 pools with ~720 initialized
// ticks each around the price take ~27 kB together, and the lens refused the whole chunk
// (ResultTooLarge), so the read failed. Now such a chunk is read in halves at the same block, with
// the same result as each pool read alone. The same for readUniswapV4Pools (64 per chunk, 20 bytes
// a tick) on the real PoolManager.
import { type Address, encodeFunctionData, numberToHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DexConfig } from '../src/chains/types.js'
import { PINNED_BLOCK, createPinnedReader } from '../src/liquidity/createPinnedReader.js'
import { readUniswapV3Pools } from '../src/protocols/uniswapV3/readPools.js'
import { readUniswapV4Pools } from '../src/protocols/uniswapV4/readPools.js'
import { type Anvil, type Devnet, type DevnetPool, deployDevnet, rpc, sendDevnetTransactions, startAnvil, uniswapV3PoolAbi, v3LiquidityProviderAbi } from './devnet/index.js'
import { type UniswapV4Deployment, deployUniswapV4, v4TestRouterAbi, withUniswapV4 } from './devnet/uniswapV4.js'

/** Positions per pool, each initializing two new ticks near the price: ~13.7 kB of lens answer per pool. */
const POSITIONS = 360
const LIQUIDITY = 10n ** 12n
/** An eth_call gas cap under what the lens needs for both crowded pools, over what it needs for one. */
const LOW_GAS_CAP = 16_000_000n
/** Two positions' ticks, `k` steps out from the price: new ticks on both sides each time. */
const rangeAt = (tick: number, k: number) => [tick - 1 - 2 * k, tick + 2 + 2 * k] as const

describe('readUniswapV3Pools with pools of many ticks (lens answer cap)', () => {
  let anvil: Anvil
  let devnet: Devnet
  let dex: DexConfig
  let crowded: DevnetPool[]
  let tokens: Address[]
  let v4: UniswapV4Deployment

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
            args: [pool.address, devnet.accounts.deployer, ...rangeAt(tick, k), LIQUIDITY],
          }),
          gas: 1_000_000n,
        })),
      )
    }
    v4 = await deployUniswapV4(devnet, {
      pools: [
        { pair: ['USDC', 'USDT'], fee: 100, tickSpacing: 1, positions: [{ range: [0.99, 1.01], usd: 100_000 }] },
        { pair: ['DAI', 'USDC'], fee: 100, tickSpacing: 1, positions: [{ range: [0.99, 1.01], usd: 100_000 }] },
      ],
    })
    const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    for (const pool of v4.pools) {
      const { pools: [state] } = await readUniswapV4Pools({ client: anvil.publicClient, chain: withUniswapV4(devnet.chain, v4), blockNumber, tokens: [...pool.tokens], dexes: [v4.dex] })
      await sendDevnetTransactions(
        anvil.rpcUrl,
        Array.from({ length: POSITIONS }, (_, k) => ({
          label: `V4 position ${k} on ${pool.symbols.join('/')}`,
          from: devnet.accounts.deployer,
          to: v4.router,
          data: encodeFunctionData({ abi: v4TestRouterAbi, functionName: 'modifyLiquidity', args: [pool.key, ...rangeAt(state!.tick, k), LIQUIDITY, `0x${'0'.repeat(64)}`] }),
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

    // Under a lower eth_call gas cap (the block's gas limit on anvil) the lens runs out of gas on
    // both pools together (GasBudgetExhausted) and reads them one by one, directly and pinned.
    await rpc(anvil.rpcUrl, 'evm_setBlockGasLimit', [numberToHex(LOW_GAS_CAP)])
    try {
      const low = await readUniswapV3Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens, dexes: [dex] })
      expect(byAddress(low)).toEqual(byAddress(all))
      const pinnedLow = createPinnedReader(anvil.publicClient)
      const readingLow = pinnedLow.run((client) => readUniswapV3Pools({ client, chain: devnet.chain, blockNumber: PINNED_BLOCK, tokens, dexes: [dex] }))
      pinnedLow.seal()
      expect(byAddress(await readingLow)).toEqual(byAddress(all))
      console.log(`uniswapV3 under a ${LOW_GAS_CAP} gas cap: pinned reader ${pinnedLow.batches()} batches`)
    } finally {
      await rpc(anvil.rpcUrl, 'evm_setBlockGasLimit', [numberToHex(30_000_000n)])
    }
  })

  it('Uniswap V4: a chunk whose ticks pass the cap reads in halves, as each pool alone reads', async () => {
    const chain = withUniswapV4(devnet.chain, v4)
    const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    const read = (candidates: readonly Address[]) => readUniswapV4Pools({ client: anvil.publicClient, chain, blockNumber, tokens: candidates, dexes: [v4.dex] })
    const all = await read(tokens)
    const alone = await Promise.all(v4.pools.map((pool) => read([...pool.tokens])))
    const ticks = all.pools.map((state) => state.ticks.length)
    console.log(`uniswapV4: ${all.pools.length} pools read with ${ticks.join(' + ')} ticks (~${ticks.reduce((a, b) => a + 53 + 20 * b, 0)} bytes of lens answer)`)
    expect(ticks.every((count) => count >= 2 * POSITIONS)).toBe(true)
    const byId = (list: typeof all.pools) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1))
    expect(byId(all.pools)).toEqual(byId(alone.flatMap((r) => r.pools)))
    expect(all.pools.map((state) => state.id).sort()).toEqual(v4.pools.map((pool) => pool.id).sort())
    expect(all.skipped).toEqual([])
  })
})
