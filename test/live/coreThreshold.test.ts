// The live source's `liquidity` tracking policy and its `maxTrackedPools` cap on real Uniswap V2/V3
// bytecode on anvil. A V2 pair with WETH is worth twice its WETH reserve (its other side at the
// pair's own spot price), which the test checks without weft's measure; the PEPE/WETH pair is then
// moved across the threshold by minting and burning its LP: it enters at minValue, stays down to
// minValue × exitRatio (no flapping), leaves below it and re-enters only at minValue. Held pools'
// states must equal a fresh read. The cap keeps the most valuable pools and reports what it
// refused or evicted.
import { type Address, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type LiveSource, type PoolStateBase, createLiveSource, getQuote } from '../../src/index.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { uniswapV3Family } from '../../src/protocols/uniswapV3/family.js'
import { getUniswapV2PairAddress } from '../../src/protocols/uniswapV2/readPools.js'
import { type Anvil, DEVNET_GAS, type Devnet, deployDevnet, sendDevnetTransactions, startAnvil, testTokenAbi, uniswapV2FactoryAbi, uniswapV2PairAbi } from '../devnet/index.js'
import { createRandom } from '../support/random.js'
import { differences, freshRead, mineSwapBlock, tokensOf } from './coreSupport.js'

const MIN_VALUE = 400 // WETH
const EXIT_RATIO = 0.5

let anvil: Anvil
let devnet: Devnet
let chain: ChainConfig
let weth: Address
let pepePair: Address
const random = createRandom(0x7e5)

const families = [uniswapV2Family, uniswapV3Family]
const anchorTokens = () => new Set<string>([...chain.majorTokens, chain.wrappedNative.address].map((t) => t.toLowerCase()))
const isAnchor = (state: PoolStateBase) => tokensOf(state).filter((t) => anchorTokens().has(t)).length >= 2

/** A V2 pair with WETH: twice its WETH reserve, in whole WETH (both sides at the pair's own price). */
const wethPairValue = (pair: UniswapV2PoolState) => (2 * Number(pair.token0 === weth ? BigInt(pair.reserve0) : BigInt(pair.reserve1))) / 1e18

async function pepePairNow(): Promise<UniswapV2PoolState> {
  const pools = await freshRead(anvil.publicClient, devnet, chain, await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
  return pools.find((p) => p.address === pepePair) as UniswapV2PoolState
}

/** Mints or burns the deployer's LP of the PEPE/WETH pair so the pair is worth about `target` WETH. */
async function setPepePairValue(target: number): Promise<void> {
  const pair = await pepePairNow()
  const value = wethPairValue(pair)
  const from = devnet.accounts.deployer
  const [supply, owned] = await Promise.all([
    anvil.publicClient.readContract({ address: pepePair, abi: uniswapV2PairAbi, functionName: 'totalSupply' }),
    anvil.publicClient.readContract({ address: pepePair, abi: uniswapV2PairAbi, functionName: 'balanceOf', args: [from] }),
  ])
  if (target > value) {
    // Both tokens in the pair's proportion, scaled by (target / value - 1).
    const scale = BigInt(Math.round((target / value - 1) * 1e9))
    const amounts = [(BigInt(pair.reserve0) * scale) / 10n ** 9n, (BigInt(pair.reserve1) * scale) / 10n ** 9n]
    await sendDevnetTransactions(anvil.rpcUrl, [
      ...[pair.token0, pair.token1].map((token, i) => ({
        label: 'fund pair',
        from,
        to: token,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pepePair, amounts[i]!] }),
        gas: DEVNET_GAS.transfer,
      })),
      { label: 'v2 mint', from, to: pepePair, data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [from] }), gas: DEVNET_GAS.v2Mint },
    ])
  } else {
    const burn = (supply * BigInt(Math.round((1 - target / value) * 1e9))) / 10n ** 9n
    expect(burn).toBeLessThan(owned)
    await sendDevnetTransactions(anvil.rpcUrl, [
      { label: 'lp to pair', from, to: pepePair, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pepePair, burn] }), gas: DEVNET_GAS.transfer },
      { label: 'v2 burn', from, to: pepePair, data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'burn', args: [from] }), gas: DEVNET_GAS.v2Mint },
    ])
  }
  expect(Math.abs(wethPairValue(await pepePairNow()) - target)).toBeLessThan(target * 0.01)
}

/** The addresses the source hands out, and a check that each held state equals a fresh read. */
async function heldExactly(live: LiveSource): Promise<Set<string>> {
  const liquidity = await live.getLiquidity({ chain, tokenIn: weth, tokenOut: devnet.tokens.USDC.address })
  const held = new Set(liquidity.pools.map((p) => p.address))
  expect(await differences(live, anvil.publicClient, devnet, chain, (state) => held.has(state.address))).toEqual([])
  return held
}

beforeAll(async () => {
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  chain = devnet.chain
  weth = devnet.tokens.WETH.address
  pepePair = devnet.getPool('PEPE', 'WETH', 'uniswapV2').address
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
})

describe('createLiveSource: liquidity threshold', () => {
  it('holds the pools worth at least minValue (and every anchor), follows them exactly, and applies the exit ratio as hysteresis', async () => {
    const live = createLiveSource({ client: anvil.publicClient, chain, families, fromBlock: 0n, tracking: { mode: 'liquidity', minValue: MIN_VALUE, exitRatio: EXIT_RATIO } })
    await live.sync()
    const all = await freshRead(anvil.publicClient, devnet, chain, BigInt(live.stats().blockNumber!))
    let held = await heldExactly(live)
    // Every anchor is held; every V2 pair with WETH is held exactly when worth ≥ minValue (its value checked without weft's measure).
    for (const state of all.filter(isAnchor)) expect(held.has(state.address)).toBe(true)
    const wethPairs = all.filter((s): s is UniswapV2PoolState => s.family === 'uniswapV2' && !isAnchor(s) && tokensOf(s).includes(weth))
    expect(wethPairs.length).toBeGreaterThanOrEqual(2)
    for (const pair of wethPairs) expect([pair.address, held.has(pair.address)]).toEqual([pair.address, wethPairValue(pair) >= MIN_VALUE])
    expect(held.has(pepePair)).toBe(false)
    expect(held.size).toBeLessThan(all.length)
    const stats = () => live.stats()
    const before = stats()
    expect(before.belowThreshold).toBeGreaterThan(0)

    // Activity on held pools keeps them exact; the untracked pair's own activity gets it valued again.
    for (let k = 0; k < 5; k++) {
      await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
      await live.sync()
      held = await heldExactly(live)
    }

    // Above minValue: it enters (read and valued at the block of its Mint, in the same block's sync).
    await setPepePairValue(MIN_VALUE * 1.15)
    await live.sync()
    held = await heldExactly(live)
    expect(held.has(pepePair)).toBe(true)
    // Between minValue × exitRatio and minValue: it stays (no flapping around the threshold).
    await setPepePairValue(MIN_VALUE * 0.7)
    await live.sync()
    held = await heldExactly(live)
    expect(held.has(pepePair)).toBe(true)
    expect(stats().droppedBelowExit).toBe(before.droppedBelowExit)
    // Below minValue × exitRatio: it leaves, as a compact record (discovered, not held).
    await setPepePairValue(MIN_VALUE * EXIT_RATIO * 0.8)
    await live.sync()
    held = await heldExactly(live)
    expect(held.has(pepePair)).toBe(false)
    expect(stats().droppedBelowExit).toBe(before.droppedBelowExit + 1)
    expect(stats().discovered).toBe(before.discovered)
    // Back between the two: valued again on its activity, and not taken (it must reach minValue to enter).
    const refused = stats().belowThreshold
    await setPepePairValue(MIN_VALUE * 0.7)
    await live.sync()
    held = await heldExactly(live)
    expect(held.has(pepePair)).toBe(false)
    expect(stats().belowThreshold).toBe(refused + 1)
    expect(stats().evaluationsPending).toBe(0)
    // A pair without a major has no value through the majors: discovered, never read, never held.
    const link = devnet.tokens.LINK.address
    const pepe = devnet.tokens.PEPE.address
    const lonely = getUniswapV2PairAddress(chain.dexes.find((d) => d.family === 'uniswapV2')!, link, pepe)
    const reads = stats().rereads
    const from = devnet.accounts.deployer
    const fund = (token: Address, amount: bigint) => ({
      label: 'fund pair',
      from,
      to: token,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [lonely, amount] }),
      gas: DEVNET_GAS.transfer,
    })
    await sendDevnetTransactions(anvil.rpcUrl, [
      { label: 'createPair', from, to: devnet.contracts.uniswapV2Factory, data: encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [link, pepe] }), gas: DEVNET_GAS.createPair },
      fund(link, 10n ** 24n),
      fund(pepe, 10n ** 30n),
      { label: 'v2 mint', from, to: lonely, data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [from] }), gas: DEVNET_GAS.v2Mint },
    ])
    await live.sync()
    expect(stats().discovered).toBe(before.discovered + 1)
    expect(stats().rereads).toBe(reads)
    expect((await heldExactly(live)).has(lonely)).toBe(false)
    console.log(`liquidity policy: ${JSON.stringify({ ...stats(), skipped: undefined, rereadReasons: undefined })}`)
  }, 60_000)

  it('maxTrackedPools keeps the most valuable pools, counts what it refused or evicted, and quotes on what it holds', async () => {
    const counting = createLiveSource({ client: anvil.publicClient, chain, families, fromBlock: 0n })
    await counting.sync()
    const everything = counting.stats().tracked
    const cap = everything - 4
    const live = createLiveSource({ client: anvil.publicClient, chain, families, fromBlock: 0n, maxTrackedPools: cap })
    await live.sync()
    expect(live.stats().tracked).toBe(cap)
    expect(live.stats().capRefusals).toBe(4)
    const held = await heldExactly(live)
    // Whatever it refused is worth no more than what it kept (anchors aside, which are always kept): checked on the V2 pairs with WETH.
    const all = await freshRead(anvil.publicClient, devnet, chain, BigInt(live.stats().blockNumber!))
    const wethPairs = all.filter((s): s is UniswapV2PoolState => s.family === 'uniswapV2' && !isAnchor(s) && tokensOf(s).includes(weth))
    const keptValues = wethPairs.filter((p) => held.has(p.address)).map(wethPairValue)
    const refusedValues = wethPairs.filter((p) => !held.has(p.address)).map(wethPairValue)
    if (keptValues.length > 0 && refusedValues.length > 0) expect(Math.max(...refusedValues)).toBeLessThanOrEqual(Math.min(...keptValues))
    // It follows blocks at the cap, never over it, and stays exact.
    for (let k = 0; k < 5; k++) {
      await mineSwapBlock(anvil.rpcUrl, anvil.publicClient, devnet, chain, random)
      await live.sync()
      await heldExactly(live)
      expect(live.stats().tracked).toBeLessThanOrEqual(cap)
    }
    const quote = await getQuote(
      { chainId: chain.id, sellToken: weth, buyToken: devnet.tokens.USDC.address, sellAmount: 10n ** 18n, slippageBps: 50 },
      live,
      { chains: [chain] },
    )
    expect(BigInt(quote.amountOut)).toBeGreaterThan(0n)
    console.log(`cap ${cap} of ${everything}: ${JSON.stringify({ ...live.stats(), skipped: undefined, rereadReasons: undefined })}`)
  }, 60_000)
})
