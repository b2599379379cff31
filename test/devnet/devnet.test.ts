import { type Abi, type AbiFunction, toFunctionSignature } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  testTokenAbi,
  uniswapV2PairAbi,
  uniswapV3PoolAbi,
  v3LiquidityProviderAbi,
} from './abis.js'
import { type Anvil, startAnvil } from './anvil.js'
import { compileTestContracts } from './compile.js'
import { type Devnet, UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V3_INIT_CODE_HASH, deployDevnet } from './deployDevnet.js'

let anvil: Anvil
let devnet: Devnet

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31_337 })
  devnet = await deployDevnet(anvil)
  const v2 = devnet.pools.filter((pool) => pool.family === 'uniswapV2').length
  console.log(
    `devnet deployed in ${devnet.deployMs.toFixed(0)} ms: ${devnet.transactionCount} transactions, ` +
      `${v2} V2 pairs, ${devnet.pools.length - v2} V3 pools`,
  )
})

afterAll(async () => {
  await anvil?.stop()
})

const functionSignatures = (abi: Abi) =>
  abi.filter((item): item is AbiFunction => item.type === 'function').map((item) => toFunctionSignature(item))

describe('devnet', () => {
  it('describes itself as a weft ChainConfig', () => {
    const { chain, tokens } = devnet
    expect(chain.id).toBe(31_337)
    expect(chain.wrappedNative.address).toBe(devnet.contracts.weth)
    expect(chain.majorTokens).toEqual([tokens.USDC.address, tokens.USDT.address, tokens.DAI.address, tokens.WETH.address, tokens.WBTC.address])
    expect(chain.usdStablecoins).toEqual([tokens.USDC.address, tokens.USDT.address, tokens.DAI.address])
    expect(chain.dexes.map((dex) => [dex.id, dex.factory, dex.initCodeHash])).toEqual([
      ['uniswapV2', devnet.contracts.uniswapV2Factory, UNISWAP_V2_INIT_CODE_HASH],
      ['uniswapV3', devnet.contracts.uniswapV3Factory, UNISWAP_V3_INIT_CODE_HASH],
    ])
    for (const token of chain.tokens) expect(token.address).toBe(token.address.toLowerCase())
  })

  it('has the hand-written ABIs of the compiled test contracts', async () => {
    const { TestToken, V3LiquidityProvider } = await compileTestContracts({
      files: ['test/contracts/TestToken.sol', 'test/contracts/V3LiquidityProvider.sol'],
    })
    expect(functionSignatures(testTokenAbi).sort()).toEqual(functionSignatures(TestToken?.abi ?? []).sort())
    expect(functionSignatures(v3LiquidityProviderAbi).sort()).toEqual(
      functionSignatures(V3LiquidityProvider?.abi ?? []).sort(),
    )
  })

  it('gives every pool code and liquidity, with the right tokens and fee', async () => {
    const client = anvil.publicClient
    for (const pool of devnet.pools) {
      const code = await client.getCode({ address: pool.address })
      expect(code && code.length > 2, `${pool.symbols.join('/')} has code`).toBe(true)
      if (pool.family === 'uniswapV2') {
        const [reserve0, reserve1] = await client.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' })
        expect(reserve0).toBeGreaterThan(0n)
        expect(reserve1).toBeGreaterThan(0n)
        const token0 = await client.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'token0' })
        expect(token0.toLowerCase()).toBe(pool.tokens[0])
      } else {
        const [slot0, liquidity, fee, token1] = await Promise.all([
          client.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'slot0' }),
          client.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'liquidity' }),
          client.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'fee' }),
          client.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'token1' }),
        ])
        expect(slot0[0]).toBeGreaterThan(0n)
        expect(liquidity, `${pool.symbols.join('/')} ${pool.fee} active liquidity`).toBeGreaterThan(0n)
        expect(fee).toBe(pool.fee)
        expect(token1.toLowerCase()).toBe(pool.tokens[1])
        expect(pool.positions.length).toBeGreaterThan(0)
      }
    }
  })

  it('prices WETH near 3000 USDC in every WETH/USDC pool', async () => {
    const { tokens } = devnet
    const wethIsToken0 = tokens.WETH.address < tokens.USDC.address
    for (const pool of devnet.pools.filter((p) => p.symbols.includes('WETH') && p.symbols.includes('USDC'))) {
      let rawPrice: number // USDC raw per WETH raw
      if (pool.family === 'uniswapV2') {
        const [r0, r1] = await anvil.publicClient.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' })
        rawPrice = wethIsToken0 ? Number(r1) / Number(r0) : Number(r0) / Number(r1)
      } else {
        const [sqrtPriceX96] = await anvil.publicClient.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'slot0' })
        const price = (Number(sqrtPriceX96) / 2 ** 96) ** 2
        rawPrice = wethIsToken0 ? price : 1 / price
      }
      expect(rawPrice * 10 ** 12).toBeCloseTo(3000, 6)
    }
  })

  it('funds the traders', async () => {
    for (const trader of devnet.accounts.traders) {
      expect(await devnet.balanceOf('USDC', trader)).toBe(10_000_000n * 10n ** 6n)
      expect(await devnet.balanceOf('WETH', trader)).toBe(1_000n * 10n ** 18n)
      expect(await devnet.balanceOf('ETH', trader)).toBeGreaterThan(8_000n * 10n ** 18n)
    }
  })

  it('runs a raw V2 swap', async () => {
    const checkpoint = await anvil.checkpoint()
    const trader = devnet.accounts.traders[0] as `0x${string}`
    const pair = devnet.getPool('WETH', 'USDC', 'uniswapV2')
    const before = await devnet.balanceOf('USDC', trader)
    const { amountOut } = await devnet.v2Swap(pair, 'WETH', 10n ** 18n, { from: trader })
    // 1 WETH at 3000 less 0.3% fee and a little price impact.
    expect(amountOut).toBeGreaterThan(2_985n * 10n ** 6n)
    expect(amountOut).toBeLessThan(2_991n * 10n ** 6n)
    expect(await devnet.balanceOf('USDC', trader)).toBe(before + amountOut)
    await checkpoint.restore()
    expect(await devnet.balanceOf('USDC', trader)).toBe(before)
  })

  it('runs a raw V3 swap that moves the price, and adds liquidity', async () => {
    const checkpoint = await anvil.checkpoint()
    const pool = devnet.getPool('USDC', 'WETH', 'uniswapV3', 500)
    const wethIsToken0 = pool.tokens[0] === devnet.tokens.WETH.address
    const [before] = await anvil.publicClient.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'slot0' })
    // Sell 100 WETH, exact input.
    const swap = await devnet.v3Swap(pool, wethIsToken0, 100n * 10n ** 18n)
    const [wethDelta, usdcDelta] = wethIsToken0 ? [swap.amount0, swap.amount1] : [swap.amount1, swap.amount0]
    expect(wethDelta).toBe(100n * 10n ** 18n)
    expect(-usdcDelta).toBeGreaterThan(295_000n * 10n ** 6n)
    expect(-usdcDelta).toBeLessThan(300_000n * 10n ** 6n)
    expect(swap.sqrtPriceX96).not.toBe(before)

    // A trader pays for its own position once it has approved the provider.
    const trader = devnet.accounts.traders[1] as `0x${string}`
    await devnet.approve('WETH', trader, devnet.contracts.v3LiquidityProvider)
    await devnet.approve('USDC', trader, devnet.contracts.v3LiquidityProvider)
    const spacing = pool.tickSpacing as number
    const tickLower = Math.floor(swap.tick / spacing) * spacing - 10 * spacing
    const added = await devnet.addV3Liquidity(pool, tickLower, tickLower + 20 * spacing, 10n ** 15n, { from: trader })
    expect(added.amount0).toBeGreaterThan(0n)
    expect(added.amount1).toBeGreaterThan(0n)
    await checkpoint.restore()
  })

  it('refuses a callback from anyone but the pool being called', async () => {
    const trader = devnet.accounts.traders[2] as `0x${string}`
    await expect(
      anvil.publicClient.simulateContract({
        account: trader,
        address: devnet.contracts.v3LiquidityProvider,
        abi: v3LiquidityProviderAbi,
        functionName: 'uniswapV3SwapCallback',
        args: [10n ** 18n, 0n, '0x'],
      }),
    ).rejects.toThrow(/UnexpectedCallback/)
  })
})
