// PancakeSwap V3 exactness: weft's swap math (the Uniswap V3 simulateSwap the pancakeV3 family
// reuses) against the real PancakeV3Pool bytecode of @pancakeswap/v3-core 1.0.2 on anvil, by
// execution. A seeded random walk of raw swaps runs on every devnet Pancake pool: before each
// swap the pool is read at the current block, the swap is predicted off-chain from a state that
// knows every initialized tick, then sent, and the prediction must equal the pool's own Swap event
// to the wei (both deltas, price, tick, liquidity). The family's pool, built from what
// readPancakeV3Pools read through the lens at the same block, must quote the same amounts whenever
// it quotes at all (it refuses swaps that leave the bitmap words it read).
import { type Address, type Hex, decodeFunctionResult, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../src/chains/types.js'
import { pancakeV3Family } from '../src/protocols/pancakeV3/family.js'
import { readPancakeV3Pools } from '../src/protocols/pancakeV3/readPools.js'
import { V3ForkPool } from '../src/protocols/pancakeV3/v3ForkPool.js'
import { MAX_INT256 } from '../src/protocols/uniswapV3/constants.js'
import type { UniswapV3Tick } from '../src/protocols/uniswapV3/state.js'
import { simulateSwap } from '../src/protocols/uniswapV3/swap.js'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, getSqrtRatioAtTick } from '../src/protocols/uniswapV3/tickMath.js'
import { type Anvil, type Devnet, deployDevnet, rpc, rpcBatch, startAnvil, testTokenAbi } from './devnet/index.js'
import {
  type PancakeDevnetPool,
  type PancakeV3Deployment,
  deployPancakeV3,
  pancakeV3PoolAbi,
  readPancakeSlot,
  withPancakeV3,
} from './devnet/pancakeV3.js'
import { createRandom } from './support/random.js'

const SEED = 0x5a_4c_a4_e3
const SWAPS_PER_POOL = 45
const EXTRA_POSITIONS = 6
// Loop steps (bitmap-word searches) a raw swap may take within its 5M gas.
const MAX_STEPS = 100

type Outcome = { amount0: bigint; amount1: bigint; sqrtPriceX96: bigint; tick: number; liquidity: bigint }

let anvil: Anvil
let devnet: Devnet
let pancake: PancakeV3Deployment
let chain: ChainConfig
const allTicks = new Map<Address, UniswapV3Tick[]>()
const mismatches: string[] = []
const stats = {
  swaps: 0,
  exactIn: 0,
  exactOut: 0,
  limited: 0,
  zeroForOne: 0,
  oneForZero: 0,
  partialFills: 0,
  initializedTicksCrossed: 0,
  swapsCrossingTicks: 0,
  familyQuotes: 0,
  familyRefusals: 0,
}
const random = createRandom(SEED)
const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))

/** `amount * fraction` for a float fraction (sizes only). */
const scale = (amount: bigint, fraction: number) => (amount * BigInt(Math.round(fraction * 1e12))) / 1_000_000_000_000n

/** A sqrt price limit at `move` times the price (below it when the price falls), inside the range. */
function limitAway(sqrtPriceX96: bigint, zeroForOne: boolean, move: number): bigint {
  const limit = BigInt(Math.floor(Number(sqrtPriceX96) * (zeroForOne ? 1 / Math.sqrt(move) : Math.sqrt(move))))
  if (limit <= MIN_SQRT_RATIO) return MIN_SQRT_RATIO + 1n
  if (limit >= MAX_SQRT_RATIO) return MAX_SQRT_RATIO - 1n
  return limit
}

/** Every initialized tick of a pool, from its whole bitmap and `ticks` mapping. */
async function readAllTicks(pool: PancakeDevnetPool): Promise<UniswapV3Tick[]> {
  const spacing = pool.tickSpacing
  const words: number[] = []
  for (let word = Math.floor(MIN_TICK / spacing) >> 8; word <= Math.floor(MAX_TICK / spacing) >> 8; word++) words.push(word)
  const call = (data: Hex) => ({ method: 'eth_call', params: [{ to: pool.address, data }, 'latest'] })
  const bitmaps = await rpcBatch<Hex[]>(
    anvil.rpcUrl,
    words.map((word) => call(encodeFunctionData({ abi: pancakeV3PoolAbi, functionName: 'tickBitmap', args: [word] }))),
  )
  const indexes: number[] = []
  bitmaps.forEach((bitmap, i) => {
    const bits = BigInt(bitmap)
    for (let bit = 0; bit < 256; bit++) if ((bits >> BigInt(bit)) & 1n) indexes.push(((words[i] as number) * 256 + bit) * spacing)
  })
  const infos = await rpcBatch<Hex[]>(
    anvil.rpcUrl,
    indexes.map((index) => call(encodeFunctionData({ abi: pancakeV3PoolAbi, functionName: 'ticks', args: [index] }))),
  )
  return indexes.map((index, i) => {
    const [, liquidityNet, , , , , , initialized] = decodeFunctionResult({ abi: pancakeV3PoolAbi, functionName: 'ticks', data: infos[i] as Hex })
    if (!initialized) throw new Error(`tick ${index} is in the bitmap but not initialized`)
    return { index, liquidityNet: liquidityNet.toString() }
  })
}

const balanceOf = async (token: Address, who: Address) =>
  BigInt(
    await rpc<Hex>(anvil.rpcUrl, 'eth_call', [
      { to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'balanceOf', args: [who] }) },
      'latest',
    ]),
  )

/** A few random positions around the price, so the walk crosses more initialized ticks. */
async function addPositions(pool: PancakeDevnetPool): Promise<void> {
  const { tick, liquidity } = await readPancakeSlot(anvil.rpcUrl, pool.address)
  const spacing = pool.tickSpacing
  const span = spacing <= 10 ? 3 * 256 * spacing : 6_000
  for (let i = 0; i < EXTRA_POSITIONS; i++) {
    const start = Math.floor((tick + (random() * 2 - 1) * span) / spacing) * spacing
    const width = spacing * (1 + Math.floor(random() * (span / spacing / 2)))
    await pancake.addLiquidity(pool, start, start + width, 1n + scale(liquidity, 0.05 + random() * 0.5))
  }
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil, { pools: [] })
  pancake = await deployPancakeV3(devnet)
  chain = withPancakeV3(devnet.chain, pancake)
  for (const pool of pancake.pools) await addPositions(pool)
  for (const pool of pancake.pools) allTicks.set(pool.address, await readAllTicks(pool))
})

afterAll(async () => {
  console.log(
    `Pancake V3 exactness: ${stats.swaps} swaps on ${pancake?.pools.length} real PancakeV3Pools (${stats.exactIn} exact in, ` +
      `${stats.exactOut} exact out, ${stats.limited} with a price limit, ${stats.partialFills} partial fills; ` +
      `${stats.zeroForOne} zeroForOne, ${stats.oneForZero} oneForZero), ${stats.initializedTicksCrossed} initialized ticks crossed ` +
      `in ${stats.swapsCrossingTicks} swaps, family quotes checked ${stats.familyQuotes} (refused beyond the read words ${stats.familyRefusals}), ` +
      `mismatches ${mismatches.length}`,
  )
  await anvil?.stop()
})

describe('PancakeSwap V3 swaps: weft math vs the real PancakeV3Pool', () => {
  it('the npm pool build hashes to the mainnet init-code hash, and pools sit at their CREATE2 address from the deployer', () => {
    // deployPancakeV3 asserts both; the dex table derives from the deployer, not the factory.
    expect(pancake.dex.factory).toBe(pancake.poolDeployer)
    expect(pancake.poolDeployer).not.toBe(pancake.factory)
    expect(pancake.dex.initCodeHash).toBe('0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2')
  })

  it('a freshly initialized pool charges the default 32% protocol fee, which leaves swap amounts untouched', async () => {
    const { feeProtocol } = await readPancakeSlot(anvil.rpcUrl, pancake.pools[0]!.address)
    // Pancake's slot0 packs feeProtocol as uint32 (token0 in the low 16 bits), unlike Uniswap's uint8.
    expect(feeProtocol).toBeGreaterThan(255)
  })

  it(`${SWAPS_PER_POOL} random swaps per pool equal their prediction to the wei`, async () => {
    const dexIndex = chain.dexes.findIndex((dex) => dex.id === pancake.dex.id)
    const context = { chain, dex: pancake.dex, dexIndex }
    for (const pool of pancake.pools) {
      const ticks = (allTicks.get(pool.address) ?? []).map((t) => Object.freeze({ index: t.index, liquidityNet: BigInt(t.liquidityNet) }))
      for (let n = 0; n < SWAPS_PER_POOL; n++) {
        const block = BigInt(await rpc<Hex>(anvil.rpcUrl, 'eth_blockNumber', []))
        const slot = await readPancakeSlot(anvil.rpcUrl, pool.address, block)
        const zeroForOne = random() < 0.5
        const [tokenIn, tokenOut] = zeroForOne ? pool.tokens : [pool.tokens[1], pool.tokens[0]]
        const mode = random()
        const exactOut = mode < 0.35
        let limited = mode >= 0.85
        // Sizes: log-uniform from a millionth of the pool's balance to half of it.
        const fraction = 10 ** (-6 + random() * 5.7)
        const held = await balanceOf(exactOut ? tokenOut : tokenIn, pool.address)
        let amountSpecified = 1n + scale(held, Math.min(fraction, 0.5))
        if (exactOut) amountSpecified = -amountSpecified
        let sqrtPriceLimitX96: bigint | undefined
        if (limited) {
          // A limit 0.5%-15% away: the swap stops there with input left over.
          sqrtPriceLimitX96 = limitAway(slot.sqrtPriceX96, zeroForOne, 1 + 0.005 + random() * 0.145)
          amountSpecified = MAX_INT256 >> 128n // far more than the pool can take before the limit
        }
        const full = {
          fee: pool.fee,
          tickSpacing: pool.tickSpacing,
          sqrtPriceX96: slot.sqrtPriceX96,
          tick: slot.tick,
          liquidity: slot.liquidity,
          ticks,
          tickLower: MIN_TICK,
          tickUpper: MAX_TICK,
        }
        let predicted = simulateSwap(full, zeroForOne, amountSpecified, sqrtPriceLimitX96)
        // A swap that runs out of liquidity walks every bitmap word to the end of the range, more
        // gas than a transaction has: such a swap gets a price limit 20% away instead.
        if (predicted && predicted.stepsTaken > MAX_STEPS) {
          limited = true
          sqrtPriceLimitX96 = limitAway(slot.sqrtPriceX96, zeroForOne, 1.2)
          predicted = simulateSwap(full, zeroForOne, amountSpecified, sqrtPriceLimitX96)
        }
        if (!predicted) throw new Error('a state that knows every tick must predict')

        // The family's pool from the lens read at this block.
        const states = await readPancakeV3Pools({ client: anvil.publicClient, chain, blockNumber: block, tokens: [...pool.tokens], dexes: [pancake.dex] })
        const state = states.find((s) => s.address === pool.address)
        expect(state, 'the lens reads the pool').toBeDefined()
        const familyPool = pancakeV3Family.fromState(state!, context)
        expect(familyPool).toBeInstanceOf(V3ForkPool)
        const inAmount = zeroForOne ? predicted.amount0 : predicted.amount1
        const outAmount = -(zeroForOne ? predicted.amount1 : predicted.amount0)
        if (!limited && inAmount > 0n && outAmount > 0n) {
          const quote = exactOut
            ? familyPool.quoteExactOut(tokenIn, tokenOut, -amountSpecified)
            : familyPool.quoteExactIn(tokenIn, tokenOut, amountSpecified)
          const filled = exactOut ? outAmount === -amountSpecified : inAmount === amountSpecified
          if (quote) {
            stats.familyQuotes++
            if (!filled || quote.amountIn !== inAmount || quote.amountOut !== outAmount) {
              mismatches.push(`family quote ${pool.address} #${n}: ${toJson({ quote: [quote.amountIn, quote.amountOut], predicted })}`)
            }
          } else if (filled) {
            stats.familyRefusals++
          }
        }

        const actual = await pancake.swap(pool, zeroForOne, amountSpecified, { sqrtPriceLimitX96: sqrtPriceLimitX96 ?? 0n })
        const same =
          actual.amount0 === predicted.amount0 &&
          actual.amount1 === predicted.amount1 &&
          actual.sqrtPriceX96 === predicted.sqrtPriceX96 &&
          actual.tick === predicted.tick &&
          actual.liquidity === predicted.liquidity
        if (!same) {
          mismatches.push(
            `swap ${pool.symbols.join('/')} ${pool.fee} #${n} at ${block}: ${toJson({ zeroForOne, amountSpecified, sqrtPriceLimitX96, predicted, actual: { ...actual, receipt: undefined } })}`,
          )
        }
        stats.swaps++
        if (limited) stats.limited++
        else if (exactOut) stats.exactOut++
        else stats.exactIn++
        if (zeroForOne) stats.zeroForOne++
        else stats.oneForZero++
        if (limited || (exactOut ? outAmount !== -amountSpecified : inAmount !== amountSpecified)) stats.partialFills++
        stats.initializedTicksCrossed += predicted.initializedTicksCrossed
        if (predicted.initializedTicksCrossed > 0) stats.swapsCrossingTicks++
      }
    }
    expect(mismatches, mismatches.slice(0, 5).join('\n')).toEqual([])
    expect(stats.swaps).toBe(SWAPS_PER_POOL * pancake.pools.length)
    // The walk must have exercised what it claims to.
    expect(stats.exactIn).toBeGreaterThan(50)
    expect(stats.exactOut).toBeGreaterThan(50)
    expect(stats.limited).toBeGreaterThan(20)
    expect(stats.swapsCrossingTicks).toBeGreaterThan(30)
    expect(stats.familyQuotes).toBeGreaterThan(100)
  })

  it('a price limit exactly at an initialized tick stops there, as predicted', async () => {
    const pool = pancake.getPool('WETH', 'USDC', 500)
    const slot = await readPancakeSlot(anvil.rpcUrl, pool.address)
    const ticks = (allTicks.get(pool.address) ?? []).map((t) => ({ index: t.index, liquidityNet: BigInt(t.liquidityNet) }))
    const below = ticks.filter((t) => t.index <= slot.tick).at(-1)
    expect(below).toBeDefined()
    const limit = getSqrtRatioAtTick(below!.index)
    const predicted = simulateSwap(
      { fee: pool.fee, tickSpacing: pool.tickSpacing, ...slot, ticks, tickLower: MIN_TICK, tickUpper: MAX_TICK },
      true,
      MAX_INT256 >> 128n,
      limit,
    )
    const actual = await pancake.swap(pool, true, MAX_INT256 >> 128n, { sqrtPriceLimitX96: limit })
    expect(predicted?.sqrtPriceX96).toBe(limit)
    expect([actual.amount0, actual.amount1, actual.sqrtPriceX96, actual.tick, actual.liquidity]).toEqual([
      predicted!.amount0,
      predicted!.amount1,
      predicted!.sqrtPriceX96,
      predicted!.tick,
      predicted!.liquidity,
    ])
  })
})
