// A token outside the chain's list as an intermediate hop: its transfer hook runs code in the middle
// of the fill and could trade the pools of the paths after it. weft's choice (docs/executor.md):
// paths through such tokens run last, when that changes no amount. Here the router splits USDC ->
// WETH between the direct pair and a route through HOOK (an unlisted token whose hook front-runs
// the direct pair): the SDK's calldata runs the HOOK path last, so the hook fires after the direct
// pair was traded and the user gets exactly the quote. The same order with the HOOK path first is
// front-run (and then stopped by the direct path's minimum). A real quote, the real executor.
import type { Address, Hex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Quote, createRpcSource, getQuote, uniswapV2Family } from '../../src/index.js'
import { uniswapV2PairAbi } from '../devnet/abis.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type AttackDevnet, type AttackTx, startAttackDevnet } from './support/attackDevnet.js'
import { type OrderPath, armSandwich, decodeOrder, encodeWithPaths } from './support/sandwich.js'

const E18 = 10n ** 18n
const USDC_UNIT = 10n ** 6n
// The searcher only front-runs here (and unwinds later, outside the fill): the HOOK path makes two
// transfers, both before the direct path when it runs first.
const NEVER = 0n

describe('hooked intermediate: paths through unlisted tokens run last', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  let hook: Address
  let sandwich: Address
  const sellAmount = 200_000n * USDC_UNIT

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    hook = await stage.deploy('AttackToken')
    sandwich = await stage.deploy('AttackSandwich')
    // USDC -> HOOK -> WETH at the devnet's WETH/USDC V2 price, on deep pairs: the router splits
    // between it and the direct pair.
    const usdcWeth = stage.devnet.getPool('USDC', 'WETH', 'uniswapV2')
    const [reserve0, reserve1] = await stage.anvil.publicClient.readContract({ address: usdcWeth.address, abi: uniswapV2PairAbi, functionName: 'getReserves' })
    const [usdcReserve, wethReserve] = usdcWeth.tokens[0] === usdc ? [reserve0, reserve1] : [reserve1, reserve0]
    const depth = 5_000_000n
    await stage.createV2Pair(usdc, depth * USDC_UNIT, hook, depth * E18)
    await stage.createV2Pair(hook, depth * E18, weth, (depth * USDC_UNIT * wethReserve) / usdcReserve)
    await stage.devnet.mint('USDC', stage.user, sellAmount)
    await stage.devnet.approve('USDC', stage.user, stage.executor)
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const quote = (): Promise<Quote> =>
    getQuote(
      { chainId: stage.chain.id, sellToken: usdc, buyToken: weth, sellAmount, slippageBps: 100 },
      createRpcSource({ client: stage.anvil.publicClient, chain: stage.chain, families: [uniswapV2Family], connectors: [hook] }),
      { chains: [stage.chain], families: [uniswapV2Family], maxHops: 2, sender: stage.user },
    )
  const throughHook = (path: OrderPath) => path.steps.some((step) => step.tokenOut.toLowerCase() === hook)

  it('the SDK’s calldata runs the HOOK path last; armed to front-run the direct pair, the hook fires too late: exactly the quote', async () => {
    const q = await quote()
    const data = q.transaction.data as Hex
    const paths = decodeOrder(data).paths
    expect(paths.length).toBeGreaterThanOrEqual(2)
    expect(paths.filter(throughHook)).toHaveLength(1)
    expect(throughHook(paths.at(-1)!)).toBe(true)

    // The router listed it earlier (route.swaps is the plan's order); buildFillPaths moved it.
    const routed = q.route.swaps.findIndex((swaps) => swaps.some((swap) => swap.tokenOut.toLowerCase() === hook))
    expect(routed).toBeGreaterThanOrEqual(0)
    expect(routed).toBeLessThan(q.route.swaps.length - 1)
    const direct = paths.find((path) => !throughHook(path))!
    await armSandwich(stage, { hook, sandwich, step: direct.steps[0]!, shareBps: 200n, backrunAt: NEVER })
    const tx: AttackTx = { from: stage.user, to: stage.executor, data }
    expect(await stage.readFillResult(tx)).toBe(BigInt(q.amountOut))
    await stage.sendOk('fill with the hook armed', tx)
  })

  it('control: the same order with the HOOK path first is front-run, and the direct path’s minimum stops it (PathOutput)', async () => {
    const q = await quote()
    const paths = decodeOrder(q.transaction.data as Hex).paths
    // Paths from the sell token with explicit amounts (the router's "paths" mode) may run in any order.
    for (const path of paths) expect([path.steps[0]!.tokenIn.toLowerCase(), path.amountIn > 0n]).toEqual([usdc, true])
    const hookFirst = [...paths.filter(throughHook), ...paths.filter((path) => !throughHook(path))]
    const direct = hookFirst[1]!
    await armSandwich(stage, { hook, sandwich, step: direct.steps[0]!, shareBps: 200n, backrunAt: NEVER })

    const tx: AttackTx = { from: stage.user, to: stage.executor, data: encodeWithPaths(q.transaction.data as Hex, hookFirst) }
    const revert = await stage.getRevert(tx)
    expect(revert?.errorName).toBe('PathOutput')
    expect(revert!.args[0]).toBe(1n)
  })
})
