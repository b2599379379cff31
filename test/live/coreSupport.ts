// Shared by the live-source core tests (test/live/core*.test.ts): a fresh read of every devnet pool
// to compare the live state with, bit for bit, and blocks of random swaps on the devnet's pools.
import { type Address, type PublicClient, type Transport, encodeFunctionData } from 'viem'
import { expect } from 'vitest'
import type { ChainConfig, LiveSource, PoolStateBase } from '../../src/index.js'
import { readUniswapV2Pools } from '../../src/protocols/uniswapV2/readPools.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { readUniswapV3Pools } from '../../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/protocols/uniswapV3/tickMath.js'
import { DEVNET_GAS, type Devnet, type DevnetTransaction, rpc, sendDevnetTransactions, testTokenAbi, uniswapV2PairAbi, v3LiquidityProviderAbi } from '../devnet/index.js'

/** JSON with object keys sorted: equal strings mean equal states, field for field. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  )
}

/** Every V2 and V3 pool among the devnet's tokens, read afresh by the families' readers at `blockNumber` through `client`. */
export async function freshRead(client: PublicClient<Transport, any>, devnet: Devnet, chain: ChainConfig, blockNumber: bigint): Promise<PoolStateBase[]> {
  const tokens = Object.values(devnet.tokens).map((t) => t.address)
  const dexes = (family: string) => chain.dexes.filter((d) => d.family === family)
  const [v2, v3] = await Promise.all([
    readUniswapV2Pools({ client, chain, blockNumber, tokens, dexes: dexes('uniswapV2') }),
    readUniswapV3Pools({ client, chain, blockNumber, tokens, dexes: dexes('uniswapV3') }),
  ])
  return [...v2, ...v3]
}

/**
 * The live source's answer against a fresh read at its block (of the pools `keep` accepts): the
 * addresses whose states differ, with both states. Empty when equal, key for key.
 */
export async function differences(
  source: LiveSource,
  client: PublicClient<Transport, any>,
  devnet: Devnet,
  chain: ChainConfig,
  keep: (state: PoolStateBase) => boolean = () => true,
): Promise<string[]> {
  const liquidity = await source.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address })
  expect(liquidity.report.roundTrips).toBe(0)
  const expected = (await freshRead(client, devnet, chain, BigInt(liquidity.blockNumber))).filter(keep)
  const byAddress = (list: readonly PoolStateBase[]) => new Map(list.map((s) => [s.address, canonical(s)]))
  const mine = byAddress(liquidity.pools)
  const theirs = byAddress(expected)
  return [...new Set([...mine.keys(), ...theirs.keys()])].filter((a) => mine.get(a) !== theirs.get(a)).map((a) => `${a}\n live  ${mine.get(a)}\n fresh ${theirs.get(a)}`)
}

/**
 * Mines one block of 1–4 random swaps on the devnet's pools (V2: transfer then swap; V3: through
 * the provider, stopped at a price 0.01%–5% away), one per pool, sent by the deployer.
 */
export async function mineSwapBlock(rpcUrl: string, client: PublicClient<Transport, any>, devnet: Devnet, chain: ChainConfig, random: () => number): Promise<void> {
  const pools = await freshRead(client, devnet, chain, await client.getBlockNumber({ cacheTime: 0 }))
  const txs: DevnetTransaction[] = []
  const used = new Set<string>()
  const count = 1 + Math.floor(random() * 4)
  const from = devnet.accounts.deployer
  for (let k = 0; k < count; k++) {
    const pool = pools[Math.floor(random() * pools.length)]!
    if (used.has(pool.address)) continue
    used.add(pool.address)
    const zeroForOne = random() < 0.5
    if (pool.family === 'uniswapV2') {
      const pair = pool as UniswapV2PoolState
      const [reserveIn, reserveOut] = zeroForOne ? [BigInt(pair.reserve0), BigInt(pair.reserve1)] : [BigInt(pair.reserve1), BigInt(pair.reserve0)]
      const amountIn = (reserveIn * BigInt(1 + Math.floor(random() * 200))) / 10_000n + 1n
      const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
      txs.push(
        { label: 'transfer', from, to: zeroForOne ? pair.token0 : pair.token1, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pair.address, amountIn] }), gas: DEVNET_GAS.transfer },
        {
          label: 'v2 swap',
          from,
          to: pair.address,
          data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'swap', args: [zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, from, '0x'] }),
          gas: DEVNET_GAS.v2Swap,
        },
      )
    } else {
      const v3 = pool as UniswapV3PoolState
      const move = 0.0001 + random() * 0.05
      const sqrtP = Number(v3.sqrtPriceX96) / 2 ** 96
      const liquidity = Number(v3.liquidity)
      if (liquidity <= 0) continue
      const amount = zeroForOne ? (liquidity / sqrtP) * (1 - 1 / Math.sqrt(1 + move)) : liquidity * sqrtP * (Math.sqrt(1 + move) - 1)
      const factor = zeroForOne ? 1 / Math.sqrt(1 + move) : Math.sqrt(1 + move)
      const limit = (BigInt(v3.sqrtPriceX96) * BigInt(Math.round(factor * 1e12))) / 10n ** 12n
      if (limit <= MIN_SQRT_RATIO || limit >= MAX_SQRT_RATIO) continue
      txs.push({
        label: 'v3 swap',
        from,
        to: devnet.contracts.v3LiquidityProvider,
        data: encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'swap', args: [v3.address, from, zeroForOne, BigInt(Math.floor(amount * 2)) + 1000n, limit] }),
        gas: DEVNET_GAS.v3Swap,
      })
    }
  }
  if (txs.length > 0) await sendDevnetTransactions(rpcUrl, txs)
  else await rpc(rpcUrl, 'evm_mine', [])
}

/** The token pair of a state of either family, for tracking filters. */
export const tokensOf = (state: PoolStateBase): [Address, Address] => [(state as UniswapV2PoolState).token0, (state as UniswapV2PoolState).token1]
