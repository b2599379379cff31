// PancakeSwap V3 gas, calibrated on anvil: a Uniswap V3 pool and a PancakeSwap V3 pool with the
// same price and the same positions take the same swaps through weft's executor (from the same
// chain state, restored between the two). The Pancake swap's extra gas over the Uniswap one must
// be covered by PANCAKE_V3_EXTRA_GAS and not over-covered by more than a small margin; the
// Uniswap side is what src/protocols/uniswapV3/gas.ts is fitted to. Both pools are aged first (a
// ~$1 swap each way), as pools on a live chain are.
import type { Address, Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, buildFillCalldata, deployExecutor } from '../src/index.js'
import { PANCAKE_V3_EXTRA_GAS } from '../src/protocols/pancakeV3/gas.js'
import { pancakeV3Family } from '../src/protocols/pancakeV3/family.js'
import { getV3SwapShape, type V3ForkPool } from '../src/protocols/pancakeV3/v3ForkPool.js'
import type { Pool } from '../src/protocols/types.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import type { UniswapV3Pool } from '../src/protocols/uniswapV3/pool.js'
import { type Anvil, type Devnet, type DevnetPositionSpec, deployDevnet, startAnvil, toRawAmount } from './devnet/index.js'
import { type PancakeV3Deployment, deployPancakeV3, withPancakeV3 } from './devnet/pancakeV3.js'

// Thin on purpose: large sizes cross every range edge and walk empty bitmap words.
const POSITIONS: readonly DevnetPositionSpec[] = [
  { range: 'full', usd: 200_000 },
  { range: [0.9, 1.1], usd: 400_000 },
  { range: [0.97, 1.03], usd: 200_000 },
  { range: [0.995, 1.005], usd: 100_000 },
  { range: [0.98, 1.02], usd: 100_000 },
  { range: [0.95, 1.05], usd: 100_000 },
  { range: [0.93, 1.07], usd: 50_000 },
  { range: [0.6, 1.6], usd: 50_000 },
]
// WETH sizes (the USDC side sells the same value).
const WETH_SIZES = [0.001, 0.5, 5, 30, 60, 100, 140, 180, 220]

type Sample = { direction: string; size: number; ticksCrossed: number; extraWords: number; uniswap: bigint; pancake: bigint }

describe('PancakeSwap V3 step gas vs the same swap on Uniswap V3', () => {
  let anvil: Anvil
  let devnet: Devnet
  let pancake: PancakeV3Deployment
  let chain: ChainConfig
  const samples: Sample[] = []

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil, { pools: [{ family: 'uniswapV3', pair: ['WETH', 'USDC'], fee: 500, positions: POSITIONS }] })
    pancake = await deployPancakeV3(devnet, { pools: [{ pair: ['WETH', 'USDC'], fee: 500, positions: POSITIONS }] })
    const withPancake = withPancakeV3(devnet.chain, pancake)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withPancake })
    chain = { ...withPancake, executor }
    for (const symbol of ['WETH', 'USDC'] as const) await devnet.approve(symbol, devnet.accounts.traders[0]!, executor)
    // deployPancakeV3 ages its pools with a ~$1 swap each way (fee and protocol-fee slots no longer
    // zero, as on a live chain): age the Uniswap pool with the same swaps, so the two pools hold the
    // same state and differ only in their code.
    const uniswapPool = devnet.getPool('WETH', 'USDC', 'uniswapV3', 500)
    for (const [index, zeroForOne] of [[0, true], [1, false]] as const) {
      const token = devnet.getToken(uniswapPool.tokens[index])
      await devnet.v3Swap(uniswapPool, zeroForOne, toRawAmount(1 / token.priceUsd, token.decimals))
    }
  })

  afterAll(async () => {
    const rows = samples.map((s) => {
      const delta = s.pancake - s.uniswap
      return `${s.direction} ${s.size}: crossed ${s.ticksCrossed}, words ${s.extraWords}, uniswap ${s.uniswap}, pancake ${s.pancake}, extra ${delta}`
    })
    console.log(`Pancake V3 step gas (${samples.length} pairs of fills):\n${rows.join('\n')}`)
    await anvil?.stop()
  })

  /** A one-step fill of `amountIn` through `pool`, sent by the trader; its gasUsed. */
  const fill = async (pool: Pool, tokenIn: Address, tokenOut: Address, amountIn: bigint): Promise<bigint> => {
    const trader = devnet.accounts.traders[0]!
    const data = buildFillCalldata({
      id: '0x0000000000000000000000000000ca5e',
      tokenIn,
      tokenOut,
      amountIn,
      amountOut: 0n,
      minAmountOut: 0n,
      receiver: null,
      deadline: 2n ** 40n,
      feeOnOutput: false,
      fees: [],
      surplusRecipient: null,
      surplusBps: 0,
      treasury: null,
      paths: [{ amountIn, steps: [pool.buildStep(tokenIn, tokenOut)] }],
    })
    const wallet = anvil.walletClients.find((w) => w.account.address.toLowerCase() === trader.toLowerCase())!
    const hash = await wallet.sendTransaction({ to: chain.executor!, data: data as Hex, gas: 3_000_000n })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return receipt.gasUsed
  }

  it('covers the measured extra gas of every Pancake swap, within a tight margin', async () => {
    const weth = devnet.tokens.WETH
    const usdc = devnet.tokens.USDC
    const uniswapDexIndex = chain.dexes.findIndex((d) => d.id === 'uniswapV3')
    const pancakeDexIndex = chain.dexes.findIndex((d) => d.id === pancake.dex.id)
    const checkpoint = await anvil.checkpoint()
    for (const size of WETH_SIZES) {
      for (const [tokenIn, tokenOut, amountIn, direction] of [
        [weth.address, usdc.address, BigInt(Math.round(size * 1e6)) * 10n ** 12n, 'WETH->USDC'],
        [usdc.address, weth.address, BigInt(Math.round(size * weth.priceUsd * 1e6)), 'USDC->WETH'],
      ] as const) {
        const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
        const tokens = [weth.address, usdc.address]
        const [uniswapState] = await uniswapV3Family.readPools!({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: [chain.dexes[uniswapDexIndex]!] }) as never[]
        const [pancakeState] = await pancakeV3Family.readPools!({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: [pancake.dex] }) as never[]
        const uniswapPool = uniswapV3Family.fromState(uniswapState!, { chain, dex: chain.dexes[uniswapDexIndex]!, dexIndex: uniswapDexIndex }) as UniswapV3Pool
        const pancakePool = pancakeV3Family.fromState(pancakeState!, { chain, dex: pancake.dex, dexIndex: pancakeDexIndex }) as V3ForkPool
        const uniswapQuote = uniswapPool.quoteExactIn(tokenIn, tokenOut, amountIn)
        const pancakeQuote = pancakePool.quoteExactIn(tokenIn, tokenOut, amountIn)
        // Past the bitmap words the lens read, both refuse alike.
        expect(pancakeQuote === undefined, `${direction} ${size}`).toBe(uniswapQuote === undefined)
        if (uniswapQuote === undefined) continue
        // Same state, same math: the same amounts.
        expect(pancakeQuote!.amountOut).toBe(uniswapQuote!.amountOut)
        const shape = getV3SwapShape(uniswapPool, uniswapQuote!.next as UniswapV3Pool, (uniswapQuote!.next as UniswapV3Pool).loopGas)

        const uniswapGas = await fill(uniswapPool, tokenIn, tokenOut, amountIn)
        await checkpoint.restore()
        const pancakeGas = await fill(pancakePool, tokenIn, tokenOut, amountIn)
        await checkpoint.restore()
        samples.push({ direction, size, ...shape, uniswap: uniswapGas, pancake: pancakeGas })

        const measured = pancakeGas - uniswapGas
        const { base, perTickCrossed, perExtraStep } = PANCAKE_V3_EXTRA_GAS
        const modelled = base + BigInt(shape.ticksCrossed) * perTickCrossed + BigInt(shape.ticksCrossed + shape.extraWords) * perExtraStep
        // The fork's extra is what its quote adds to the Uniswap estimate for the same swap.
        expect(pancakeQuote!.gas - uniswapQuote!.gas).toBe(modelled)
        expect(modelled, `${direction} ${size}: measured extra ${measured}`).toBeGreaterThanOrEqual(measured)
        expect(modelled - measured, `${direction} ${size}: measured extra ${measured}`).toBeLessThanOrEqual(2_500n + 1_500n * BigInt(shape.ticksCrossed))
      }
    }
    expect(samples.length).toBeGreaterThanOrEqual(16)
    expect(samples.some((s) => s.ticksCrossed >= 5 && s.extraWords >= 2)).toBe(true)
  })
})
