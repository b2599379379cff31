// The `liquidity` policy values held pools again every 64 blocks even when their own state did not
// change: a pool's value moves with the majors' prices. On anvil (real Uniswap V2 bytecode), with
// USDC as the value token, the PEPE/WETH pair is worth 2 × its WETH reserve × WETH's price; halving
// WETH's price on the WETH/USDC pair (the anchor it is priced through) takes the PEPE pair below
// minValue × exitRatio without a single log of its own, and it leaves within 64 blocks, not before.
import { encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, createLiveSource } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { type Anvil, DEVNET_GAS, type Devnet, deployDevnet, rpc, sendDevnetTransactions, startAnvil, testTokenAbi, uniswapV2PairAbi } from '../devnet/index.js'
import { freshRead } from './coreSupport.js'

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil, {
    pools: [
      { family: 'uniswapV2', pair: ['WETH', 'USDC'], usd: 400_000 },
      { family: 'uniswapV2', pair: ['PEPE', 'WETH'], usd: 1_000_000 },
    ],
  })
  chain = devnet.chain
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
})

describe('createLiveSource liquidity policy: price drift', () => {
  it('drops a held pool whose value fell with the majors’ prices alone, at the next 64-block revaluation', async () => {
    const usdc = devnet.tokens.USDC.address
    const weth = devnet.tokens.WETH.address
    const pepePair = devnet.getPool('PEPE', 'WETH', 'uniswapV2').address
    const anchor = devnet.getPool('WETH', 'USDC', 'uniswapV2').address
    // Worth $1M at first: held (≥ $800k); leaves below $720k.
    const live = createLiveSource({
      client: anvil.publicClient,
      chain,
      families: [uniswapV2Family],
      fromBlock: 0n,
      tracking: { mode: 'liquidity', minValue: 800_000, valueToken: usdc, exitRatio: 0.9 },
    })
    await live.sync()
    const heldNow = async () => (await live.getLiquidity({ chain, tokenIn: weth, tokenOut: usdc })).pools.map((p) => p.address)
    expect(await heldNow()).toContain(pepePair)

    // Sell WETH into the anchor until WETH's price halves (x' = x·√2, y' = y/√2).
    const pair = (await freshRead(anvil.publicClient, devnet, chain, await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))).find((p) => p.address === anchor) as UniswapV2PoolState
    const wethIs0 = pair.token0 === weth
    const [reserveWeth, reserveUsdc] = wethIs0 ? [BigInt(pair.reserve0), BigInt(pair.reserve1)] : [BigInt(pair.reserve1), BigInt(pair.reserve0)]
    const amountIn = (reserveWeth * 4_200n) / 10_000n
    const amountOut = (amountIn * 997n * reserveUsdc) / (reserveWeth * 1000n + amountIn * 997n)
    const from = devnet.accounts.deployer
    await sendDevnetTransactions(anvil.rpcUrl, [
      { label: 'transfer', from, to: weth, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [anchor, amountIn] }), gas: DEVNET_GAS.transfer },
      {
        label: 'v2 swap',
        from,
        to: anchor,
        data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'swap', args: [wethIs0 ? 0n : amountOut, wethIs0 ? amountOut : 0n, from, '0x'] }),
        gas: DEVNET_GAS.v2Swap,
      },
    ])
    await live.sync()
    // No log of its own: still held until the revaluation comes round.
    expect(await heldNow()).toContain(pepePair)
    expect(live.stats().droppedBelowExit).toBe(0)
    await rpc(anvil.rpcUrl, 'anvil_mine', ['0x40'])
    await live.sync()
    expect(await heldNow()).not.toContain(pepePair)
    expect(await heldNow()).toContain(anchor)
    expect(live.stats().droppedBelowExit).toBe(1)
  }, 60_000)
})
