// Slipstream exactness: the slipstream family (src/protocols/slipstream, on the V3 swap math it
// reuses) against the real CLPool and CLFactory (compiled from sphere-mezo-solidity-files with solc
// 0.7.6, test/devnet/slipstreamReal.ts) on anvil, with the pool as the judge. For each random case
// the pool is read with readSlipstreamPools at the current block; its fee must be what the factory
// reports (`getSwapFee`, through the CustomSwapFeeModule for pools with a custom fee, the zero-fee
// marker 420 included); the family's quote (exact in or exact out, either direction, sizes from a
// few wei to most of the pool's balance) must equal, to the wei, the amounts of the Swap the pool
// emits when the same swap is sent. Sent swaps walk the pools through many states and across the
// ticks of overlapping positions. Also checked: each pool sits at getSlipstreamPoolAddress, derived
// with the clone init-code hash of the factory's implementation, and the factory's getPool agrees.
import { type Hex, decodeFunctionResult, encodeFunctionData, parseEventLogs, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../src/chains/types.js'
import { getCloneInitCodeHash, getSlipstreamPoolAddress } from '../src/protocols/slipstream/address.js'
import { slipstreamFamily } from '../src/protocols/slipstream/family.js'
import { readSlipstreamPools } from '../src/protocols/slipstream/readPools.js'
import { MAX_TICK, MIN_TICK, getSqrtRatioAtTick } from '../src/protocols/uniswapV3/tickMath.js'
import { type Anvil, type Devnet, deployDevnet, rpc, sendDevnetTransaction, startAnvil, testTokenAbi, v3LiquidityProviderAbi } from './devnet/index.js'
import { type SlipstreamRealDeployment, clFactoryAbi, clPoolAbi, deploySlipstreamReal, withSlipstreamReal } from './devnet/slipstreamReal.js'
import { createRandom } from './support/random.js'

const random = createRandom(0x5_11b_c1)
const SWAPS_PER_POOL = 64
/** anvil's block gas limit: a refused swap is asked of the pool with all of it. */
const BLOCK_GAS = 30_000_000n
const scale = (amount: bigint, fraction: number) => (amount * BigInt(Math.round(fraction * 1e12))) / 1_000_000_000_000n
const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))

describe('the slipstream family against the real CLPool', () => {
  let anvil: Anvil
  let devnet: Devnet
  let slipstream: SlipstreamRealDeployment
  let chain: ChainConfig
  const stats = { swaps: 0, quoted: 0, refused: 0, exactIn: 0, exactOut: 0, zeroForOne: 0, crossing: 0, ticksCrossed: 0, mismatches: [] as unknown[] }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    slipstream = await deploySlipstreamReal(devnet)
    chain = withSlipstreamReal(devnet.chain, slipstream)
  }, 120_000)
  afterAll(async () => {
    console.log(
      `Slipstream on the real CLPool (solc ${slipstream?.solcVersion}): ${stats.swaps} swaps sent, ${stats.quoted} quoted and compared ` +
        `(${stats.exactIn} exact in, ${stats.exactOut} exact out, ${stats.zeroForOne} zeroForOne), ${stats.refused} refused by the model, ` +
        `${stats.crossing} crossing initialized ticks (${stats.ticksCrossed} crossings), mismatches ${stats.mismatches.length}`,
    )
    for (const mismatch of stats.mismatches.slice(0, 5)) console.log(toJson(mismatch))
    await anvil?.stop()
  })

  it('finds every pool at the clone address the real CLFactory deployed it to', async () => {
    const implementation = await anvil.publicClient.readContract({ address: slipstream.factory, abi: clFactoryAbi, functionName: 'poolImplementation' })
    expect(getCloneInitCodeHash(implementation)).toBe(slipstream.dex.initCodeHash)
    for (const pool of slipstream.pools) {
      const deployed = await anvil.publicClient.readContract({
        address: slipstream.factory,
        abi: clFactoryAbi,
        functionName: 'getPool',
        args: [pool.tokens[1], pool.tokens[0], pool.tickSpacing],
      })
      expect(deployed.toLowerCase()).toBe(pool.address)
      // Token order does not matter to the derivation.
      expect(getSlipstreamPoolAddress(slipstream.dex, pool.tokens[1], pool.tokens[0], pool.tickSpacing)).toBe(pool.address)
    }
  })

  it('reads each pool with the swap fee the factory reports (fee module and custom fees)', async () => {
    const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    const tokens = Object.values(devnet.tokens).map((t) => t.address)
    const { pools, skipped } = await readSlipstreamPools({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: [slipstream.dex] })
    expect(skipped).toEqual([])
    expect(pools.map((p) => p.address).sort()).toEqual(slipstream.pools.map((p) => p.address).sort())
    for (const pool of slipstream.pools) {
      const state = pools.find((p) => p.address === pool.address)!
      const factoryFee = await anvil.publicClient.readContract({ address: slipstream.factory, abi: clFactoryAbi, functionName: 'getSwapFee', args: [pool.address] })
      expect([state.tickSpacing, state.fee]).toEqual([pool.tickSpacing, factoryFee])
      // The custom fee module's answer (420 marks a zero fee).
      if (pool.customFee !== undefined) expect(factoryFee).toBe(pool.customFee === 420 ? 0 : pool.customFee)
    }
  })

  it(`quotes ${SWAPS_PER_POOL} random swaps per pool to the wei, tick crossings included`, async () => {
    const dexIndex = chain.dexes.findIndex((d) => d.id === slipstream.dex.id)
    const deployer = devnet.accounts.deployer
    for (const pool of slipstream.pools) {
      const boundaries = [...new Set(pool.positions.flatMap((p) => [p.tickLower, p.tickUpper]))]
      for (let n = 0; n < SWAPS_PER_POOL; n++) {
        const blockNumber = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
        const { pools } = await readSlipstreamPools({ client: anvil.publicClient, chain, blockNumber, tokens: [...pool.tokens], dexes: [slipstream.dex] })
        const state = pools.find((p) => p.address === pool.address)!
        const familyPool = slipstreamFamily.fromState(state, { chain, dex: slipstream.dex, dexIndex })
        const zeroForOne = random() < 0.5
        const exactOut = random() < 0.4
        const [tokenIn, tokenOut] = zeroForOne ? pool.tokens : [pool.tokens[1], pool.tokens[0]]
        const held = await anvil.publicClient.readContract({ address: exactOut ? tokenOut : tokenIn, abi: testTokenAbi, functionName: 'balanceOf', args: [pool.address] })
        // From a few wei to ~90% of what the pool holds (log-uniform, weighted to the large end so
        // many swaps leave the active range and cross initialized ticks).
        const size = random()
        const amount = size < 0.05 ? BigInt(1 + Math.floor(random() * 1000)) : 1n + scale(held, size < 0.35 ? 10 ** (-7 + random() * 4) : 10 ** (-2.5 + random() * 2.45))
        const quote = exactOut ? familyPool.quoteExactOut(tokenIn, tokenOut, amount) : familyPool.quoteExactIn(tokenIn, tokenOut, amount)
        if (!quote) {
          // The model refuses only a swap it cannot price from what it read: one the pool cannot
          // fill either (it reaches the end of the price range and pays or takes less, or walks
          // empty tick words until it runs out of gas), or one that needs ticks beyond the window
          // the reader fetched. Asked with its price limited to that window's edge, the pool must
          // fall short of the amount (or revert).
          stats.refused++
          const edgeTick = zeroForOne ? state.tickLower : state.tickUpper
          const edgeLimit = edgeTick <= MIN_TICK || edgeTick >= MAX_TICK ? 0n : getSqrtRatioAtTick(edgeTick)
          const limitedData = encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'swap', args: [pool.address, deployer, zeroForOne, exactOut ? -amount : amount, edgeLimit] })
          const answer = await rpc<Hex>(anvil.rpcUrl, 'eth_call', [{ from: deployer, to: devnet.contracts.v3LiquidityProvider, data: limitedData, gas: toHex(BLOCK_GAS) }, 'latest']).then(
            (result) => decodeFunctionResult({ abi: v3LiquidityProviderAbi, functionName: 'swap', data: result }),
            () => undefined,
          )
          if (answer) {
            const filled = exactOut ? -(zeroForOne ? answer[1] : answer[0]) : zeroForOne ? answer[0] : answer[1]
            expect(filled).toBeLessThan(amount)
          }
          continue
        }
        const receipt = await sendDevnetTransaction(anvil.rpcUrl, {
          label: `swap on CLPool ${pool.address}`,
          from: deployer,
          to: devnet.contracts.v3LiquidityProvider,
          data: encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'swap', args: [pool.address, deployer, zeroForOne, exactOut ? -amount : amount, 0n] }),
          gas: 5_000_000n,
        })
        expect(receipt.status).toBe('success')
        const [event] = parseEventLogs({ abi: clPoolAbi, eventName: 'Swap', logs: receipt.logs })
        const paid = zeroForOne ? event!.args.amount0 : event!.args.amount1
        const got = -(zeroForOne ? event!.args.amount1 : event!.args.amount0)
        stats.swaps++
        const crossed = boundaries.filter((tick) => (tick > Math.min(state.tick, event!.args.tick) && tick <= Math.max(state.tick, event!.args.tick))).length
        if (crossed > 0) stats.crossing++
        stats.ticksCrossed += crossed
        stats.quoted++
        if (exactOut) stats.exactOut++
        else stats.exactIn++
        if (zeroForOne) stats.zeroForOne++
        if (quote.amountIn !== paid || quote.amountOut !== got) {
          stats.mismatches.push({ pool: pool.address, fee: state.fee, zeroForOne, exactOut, amount, quote: [quote.amountIn, quote.amountOut], pool_: [paid, got] })
        }
      }
    }
    expect(stats.mismatches).toEqual([])
    expect(stats.quoted).toBeGreaterThanOrEqual(300)
    expect(stats.crossing).toBeGreaterThanOrEqual(30)
  }, 300_000)
})
