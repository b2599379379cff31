// Sandwich from inside the fill: the user buys a token whose transfer hook trades a pool that a
// later path of the same fill uses. The hook front-runs that pool when the first path delivers the
// token, and back-runs it when the fill pays the user, so neither a private mempool nor the order's
// single minAmountOut helps (a sandwich of one small path stays inside the whole fill's tolerance).
// The attacker made 3,789 USDC on a 600k USDC fill this way. Now every path carries its own
// minimum (its quoted output less the slippage, from buildFillPaths), so the drained path reverts
// the fill. A real quote (getQuote on the RPC source), the real executor, real Uniswap V2 pairs.
import type { Address, Hex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Quote, createRpcSource, getQuote, uniswapV2Family } from '../../src/index.js'
import { uniswapV2PairAbi } from '../devnet/abis.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type AttackDevnet, type AttackTx, startAttackDevnet } from './support/attackDevnet.js'
import { type OrderPath, armSandwich as armHook, decodeOrder, encodeWithPaths } from './support/sandwich.js'

const E18 = 10n ** 18n
const USDC_UNIT = 10n ** 6n
const SLIPPAGE_BPS = 100

describe('in-fill sandwich: a token hook trading a pool a later path uses', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  let hook: Address
  let sandwich: Address
  const sellAmount = 300_000n * USDC_UNIT

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    hook = await stage.deploy('AttackToken')
    sandwich = await stage.deploy('AttackSandwich')
    // HOOK trades at 1 USDC: directly against USDC, and against WETH at the devnet's WETH/USDC V2 price.
    const usdcWeth = stage.devnet.getPool('USDC', 'WETH', 'uniswapV2')
    const [reserve0, reserve1] = await stage.anvil.publicClient.readContract({ address: usdcWeth.address, abi: uniswapV2PairAbi, functionName: 'getReserves' })
    const [usdcReserve, wethReserve] = usdcWeth.tokens[0] === usdc ? [reserve0, reserve1] : [reserve1, reserve0]
    const hookOnWeth = 1_000_000n
    await stage.createV2Pair(usdc, 2_000_000n * USDC_UNIT, hook, 2_000_000n * E18)
    await stage.createV2Pair(weth, (hookOnWeth * USDC_UNIT * wethReserve) / usdcReserve, hook, hookOnWeth * E18)
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
      { chainId: stage.chain.id, sellToken: usdc, buyToken: hook, sellAmount, slippageBps: SLIPPAGE_BPS },
      createRpcSource({ client: stage.anvil.publicClient, chain: stage.chain }),
      { chains: [stage.chain], families: [uniswapV2Family], maxHops: 2, sender: stage.user },
    )
  const pathsOf = (data: Hex) => decodeOrder(data).paths
  const balanceOf = async (token: Address, holder: Address) => (await stage.readBalances([[token, holder]]))[0]!

  /**
   * Arms HOOK: its first transfer (the first path delivering HOOK) sells `shareBps` of the pool's
   * input reserve into the first pool of the second path, in the direction that path trades it;
   * its third (the fill paying the user) sells back what it bought.
   */
  const armSandwich = (paths: readonly OrderPath[], shareBps: bigint) =>
    armHook(stage, { hook, sandwich, step: paths[1]!.steps[0]!, shareBps, backrunAt: 3n })

  it('the quote splits: a second path trades a pool the first path does not, each path carries its minimum', async () => {
    const q = await quote()
    const paths = pathsOf(q.transaction.data as Hex)
    expect(paths.length).toBeGreaterThanOrEqual(2)
    for (const path of paths) expect(path.minAmountOut).toBeGreaterThan(0n)
    expect(paths.reduce((sum, path) => sum + path.minAmountOut, 0n)).toBeLessThanOrEqual(BigInt(q.amountOut))
  })

  it('control, path minimums removed: the sandwich completes inside the order’s minimum and the searcher profits', async () => {
    const q = await quote()
    const paths = pathsOf(q.transaction.data as Hex)
    const unbounded = encodeWithPaths(q.transaction.data as Hex, paths.map((p) => ({ ...p, minAmountOut: 0n })))
    const { sold, amount } = await armSandwich(paths, 150n)
    const tx: AttackTx = { from: stage.user, to: stage.executor, data: unbounded }
    const received = await stage.readFillResult(tx)
    await stage.sendOk('sandwiched fill', tx)
    const profit = (await balanceOf(sold, sandwich)) - amount
    console.log(
      `in-fill sandwich without path minimums: ${paths.length} paths, searcher profit ${profit} (raw ${sold}), user got ${received} of ${q.amountOut} quoted (minimum ${q.minimumAmountOut})`,
    )
    // The user got less than quoted, still at least the order's minimum: the single bound let it through.
    expect(received).toBeGreaterThanOrEqual(BigInt(q.minimumAmountOut))
    expect(received).toBeLessThan(BigInt(q.amountOut))
    expect(profit).toBeGreaterThan(0n)
  })

  it('the SDK’s calldata: the drained path is below its minimum, PathOutput, nothing moves', async () => {
    const q = await quote()
    const paths = pathsOf(q.transaction.data as Hex)
    const { sold, amount } = await armSandwich(paths, 150n)
    const tx: AttackTx = { from: stage.user, to: stage.executor, data: q.transaction.data as Hex }
    const revert = await stage.getRevert(tx)
    expect(revert?.errorName).toBe('PathOutput')
    const [path, received, minimum] = revert!.args as readonly [bigint, bigint, bigint]
    expect(path).toBe(1n)
    expect(minimum).toBe(paths[1]!.minAmountOut)
    expect(received).toBeLessThan(minimum)

    const before = await stage.readBalances([['USDC', stage.user], [hook, stage.user], [sold, sandwich]])
    expect((await stage.send(tx)).status).toBe('reverted')
    expect(await stage.readBalances([['USDC', stage.user], [hook, stage.user], [sold, sandwich]])).toEqual(before)
    expect(before[2]).toBe(amount)
  })
})
