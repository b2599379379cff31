// Slippage and sandwiching: between quoting and execution a searcher moves the quote's pools. Moved
// against the user past the tolerance, the fill must revert on a path's own minimum, or without
// those on minimumAmountOut (the sandwich gets nothing); moved in the user's favour, the receiver gets exactly the quoted amountOut and the
// surplus is split as the order says, to the unit. A real quote, real pools, the real executor.
import { type Address, type Hex, type TransactionReceipt, decodeFunctionData, encodeFunctionData, parseEventLogs, zeroAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type Quote, type QuoteIntent, createRpcSource, getQuote, weftExecutorAbi } from '../../src/index.js'
import { testTokenAbi, uniswapV2PairAbi, uniswapV3PoolAbi } from '../devnet/abis.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type AttackDevnet, startAttackDevnet } from './support/attackDevnet.js'

const lower = (address: string) => address.toLowerCase() as Address
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const SURPLUS_RECIPIENT = '0x00000000000000000000000000000000000fee03' as Address
const FEE_RATE_DENOMINATOR = 10_000_000n

describe('slippage: pools moved between quoting and executing', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let wbtc: Address
  let weth: Address

  beforeAll(async () => {
    stage = await startAttackDevnet()
    wbtc = stage.devnet.tokens.WBTC.address
    weth = stage.devnet.tokens.WETH.address
    await stage.devnet.approve('WBTC', stage.user, stage.executor)
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  /** 1 WBTC -> WETH with an integrator fee and a 50% surplus share; fees are taken on the WETH side. */
  const quote = (chain: ChainConfig = stage.chain, slippageBps = 50): Promise<Quote> => {
    const intent: QuoteIntent = {
      chainId: chain.id,
      sellToken: wbtc,
      buyToken: weth,
      sellAmount: 10n ** 8n,
      slippageBps,
      feeBps: 25,
      feeRecipient: FEE_RECIPIENT,
      surplusFeeBps: 5_000,
      surplusFeeRecipient: SURPLUS_RECIPIENT,
    }
    return getQuote(intent, createRpcSource({ client: stage.anvil.publicClient, chain }), { chains: [chain] })
  }
  const orderOf = (q: Quote) => {
    const decoded = decodeFunctionData({ abi: weftExecutorAbi, data: q.transaction.data })
    if (decoded.functionName !== 'fill') throw new Error('not a fill')
    return decoded.args[0]
  }

  /**
   * Moves the spot price of every pool the quote routes through by about `bps`, against the user
   * (`against`: the searcher sells what the user sells) or in the user's favour.
   */
  const movePools = async (q: Quote, bps: bigint, direction: 'against' | 'favour') => {
    const moved = new Set<string>()
    for (const swap of q.route.swaps.flat()) {
      const pool = stage.devnet.pools.find((p) => p.address === lower(swap.address))
      if (!pool) throw new Error(`route pool ${swap.address} is not a devnet pool`)
      if (moved.has(pool.address)) continue
      moved.add(pool.address)
      const sold = lower(direction === 'against' ? swap.tokenIn : swap.tokenOut)
      if (pool.family === 'uniswapV3') {
        const [sqrtPriceX96] = await stage.anvil.publicClient.readContract({ address: pool.address, abi: uniswapV3PoolAbi, functionName: 'slot0' })
        const zeroForOne = sold === pool.tokens[0]
        // The price is the square of sqrtPrice: half the move on the root.
        const limit = zeroForOne ? (sqrtPriceX96 * (20_000n - bps)) / 20_000n : (sqrtPriceX96 * (20_000n + bps)) / 20_000n
        await stage.devnet.v3Swap(pool, zeroForOne, 10n ** 30n, { sqrtPriceLimitX96: limit })
      } else {
        const [reserve0, reserve1] = await stage.anvil.publicClient.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' })
        const reserveIn = sold === pool.tokens[0] ? reserve0 : reserve1
        // A constant-product price moves by about twice the share of the reserve sold into it.
        await stage.devnet.v2Swap(pool, sold, (reserveIn * bps) / 20_000n)
      }
    }
    expect(moved.size).toBeGreaterThan(0)
  }

  /** The WETH the pools paid the executor during the fill: the gross output. */
  const grossOf = (receipt: TransactionReceipt) =>
    parseEventLogs({ abi: testTokenAbi, eventName: 'Transfer', logs: receipt.logs })
      .filter((log) => lower(log.address) === weth && lower(log.args.to) === stage.executor)
      .reduce((sum, log) => sum + log.args.value, 0n)

  const parties = () => [stage.user, FEE_RECIPIENT, SURPLUS_RECIPIENT, stage.treasury] as const
  const wethOfParties = () => stage.readBalances(parties().map((p) => ['WETH', p] as const))

  const send = (q: Quote) => ({ from: stage.user, to: q.transaction.to, data: q.transaction.data as Hex, value: BigInt(q.transaction.value) })

  it('moved against the quote past its tolerance: PathOutput on the first path, nothing moves', async () => {
    // A 10 bps tolerance and a 40 bps move: inside every route pool's liquidity (the WETH/USDC
    // 0.01% pool holds only ±1%), so the first path completes its swaps and is refused on its own
    // minimum (the quoted output of that path less the slippage).
    const q = await quote(stage.chain, 10)
    const order = orderOf(q)
    await movePools(q, 40n, 'against')

    const revert = await stage.getRevert(send(q))
    expect(revert?.errorName).toBe('PathOutput')
    const [path, received, required] = revert!.args as readonly [bigint, bigint, bigint]
    expect(path).toBe(0n)
    expect(required).toBe(order.paths[0]!.minAmountOut)
    expect(received).toBeLessThan(required)

    const before = [...(await wethOfParties()), ...(await stage.readBalances([['WBTC', stage.user]]))]
    expect((await stage.send(send(q))).status).toBe('reverted')
    expect([...(await wethOfParties()), ...(await stage.readBalances([['WBTC', stage.user]]))]).toEqual(before)
    expect(await stage.readBalances([['WETH', stage.executor], ['WBTC', stage.executor]])).toEqual([0n, 0n])
  })

  it('moved against the quote past its tolerance, path minimums removed: InsufficientOutput, nothing moves', async () => {
    // The order's own minimum still holds when an order carries no per-path bounds.
    const q = await quote(stage.chain, 10)
    const minimum = BigInt(q.minimumAmountOut)
    const order = orderOf(q)
    const data = encodeFunctionData({
      abi: weftExecutorAbi,
      functionName: 'fill',
      args: [{ ...order, paths: order.paths.map((p) => ({ ...p, minAmountOut: 0n })) }],
    })
    await movePools(q, 40n, 'against')

    const unbounded = { ...send(q), data }
    const revert = await stage.getRevert(unbounded)
    expect(revert?.errorName).toBe('InsufficientOutput')
    const [received, required] = revert!.args as readonly [bigint, bigint]
    expect(required).toBe(minimum)
    expect(received).toBeLessThan(minimum)

    const before = [...(await wethOfParties()), ...(await stage.readBalances([['WBTC', stage.user]]))]
    expect((await stage.send(unbounded)).status).toBe('reverted')
    expect([...(await wethOfParties()), ...(await stage.readBalances([['WBTC', stage.user]]))]).toEqual(before)
  })

  it('moved so far against the quote that a route pool runs out of liquidity: the fill reverts, nothing moves', async () => {
    const q = await quote()
    await movePools(q, 200n, 'against')
    // Today's route crosses the WETH/USDC 0.01% pool, which a 2% move empties: the swap walks its
    // empty tick-spacing-1 ranges toward the executor's extreme price limit until the gas runs out.
    expect(await stage.getRevert(send(q))).not.toBeNull()
    const before = [...(await wethOfParties()), ...(await stage.readBalances([['WBTC', stage.user]]))]
    const receipt = await stage.send(send(q))
    expect(receipt.status).toBe('reverted')
    expect([...(await wethOfParties()), ...(await stage.readBalances([['WBTC', stage.user]]))]).toEqual(before)
    expect(await stage.readBalances([['WETH', stage.executor], ['WBTC', stage.executor]])).toEqual([0n, 0n])
  })

  it('moved against the quote within its tolerance: fills below amountOut, above the minimum, no surplus paid', async () => {
    const q = await quote(stage.chain, 300)
    const order = orderOf(q)
    await movePools(q, 20n, 'against')
    const before = await wethOfParties()
    const receipt = await stage.sendOk('fill', send(q))
    const after = await wethOfParties()
    const [user, fee, surplus, treasury] = after.map((b, i) => b - before[i]!)

    const gross = grossOf(receipt)
    const [integratorRate, serviceRate] = order.fees.map((f) => BigInt(f.rate))
    const net = gross - (gross * integratorRate!) / FEE_RATE_DENOMINATOR - (gross * serviceRate!) / FEE_RATE_DENOMINATOR
    expect(net).toBeLessThan(BigInt(q.amountOut))
    expect(user).toBe(net)
    expect(user).toBeGreaterThanOrEqual(BigInt(q.minimumAmountOut))
    expect(fee).toBe((gross * integratorRate!) / FEE_RATE_DENOMINATOR)
    expect(treasury).toBe((gross * serviceRate!) / FEE_RATE_DENOMINATOR)
    expect(surplus).toBe(0n)
  })

  it('moved in the quote’s favour: the receiver gets exactly amountOut, the surplus is split to the unit', async () => {
    const q = await quote()
    const order = orderOf(q)
    expect(order.feeOnOutput).toBe(true)
    expect(lower(order.surplusRecipient)).toBe(SURPLUS_RECIPIENT)
    expect(lower(order.treasury)).toBe(stage.treasury)
    expect(order.fees.map((f) => lower(f.recipient))).toEqual([FEE_RECIPIENT, stage.treasury])

    await movePools(q, 200n, 'favour')
    const before = await wethOfParties()
    const receipt = await stage.sendOk('fill', send(q))
    const after = await wethOfParties()
    const [user, fee, surplusShare, treasury] = after.map((b, i) => b - before[i]!)

    const gross = grossOf(receipt)
    const [integratorRate, serviceRate] = order.fees.map((f) => BigInt(f.rate))
    const integratorFee = (gross * integratorRate!) / FEE_RATE_DENOMINATOR
    const serviceFee = (gross * serviceRate!) / FEE_RATE_DENOMINATOR
    const net = gross - integratorFee - serviceFee
    const surplus = net - order.amountOut
    const share = (surplus * BigInt(order.surplusBps)) / 10_000n
    expect(surplus).toBeGreaterThan(0n)
    expect(share).toBeGreaterThan(0n)

    expect(user).toBe(order.amountOut)
    expect(user).toBe(BigInt(q.amountOut))
    expect(fee).toBe(integratorFee)
    expect(surplusShare).toBe(share)
    // The treasury is paid twice: its service fee, and the surplus the surplus recipient does not get.
    expect(treasury).toBe(serviceFee + surplus - share)
    expect(user! + fee! + surplusShare! + treasury!).toBe(gross)

    const [fill] = parseEventLogs({ abi: weftExecutorAbi, eventName: 'Fill', logs: receipt.logs })
    expect(fill!.args.amountOut).toBe(order.amountOut)
    expect(fill!.args.surplus).toBe(surplus)
    expect(await stage.readBalances([['WETH', stage.executor], ['WBTC', stage.executor], ['ETH', stage.executor]])).toEqual([0n, 0n, 0n])
  })

  it('moved in the quote’s favour with no treasury: the receiver keeps the surplus less the surplus share', async () => {
    const { treasury: _, ...withoutTreasury } = stage.chain
    const q = await quote(withoutTreasury)
    const order = orderOf(q)
    expect(order.treasury).toBe(zeroAddress)
    expect(order.fees.map((f) => lower(f.recipient))).toEqual([FEE_RECIPIENT])

    await movePools(q, 200n, 'favour')
    const before = await wethOfParties()
    const receipt = await stage.sendOk('fill', send(q))
    const after = await wethOfParties()
    const [user, fee, surplusShare, treasury] = after.map((b, i) => b - before[i]!)

    const gross = grossOf(receipt)
    const integratorFee = (gross * BigInt(order.fees[0]!.rate)) / FEE_RATE_DENOMINATOR
    const net = gross - integratorFee
    const surplus = net - order.amountOut
    const share = (surplus * BigInt(order.surplusBps)) / 10_000n
    expect(surplus).toBeGreaterThan(0n)
    expect(fee).toBe(integratorFee)
    expect(surplusShare).toBe(share)
    expect(user).toBe(net - share)
    expect(treasury).toBe(0n)
  })
})
