// Expired fills: a signed fill held back (by a wallet, a relayer, a private mempool) used to execute
// whenever it was finally sent (one ran 30 days later). Every order now carries a deadline, checked
// on-chain against the block's timestamp; getQuote sets it `deadlineSeconds` (default 1800) after
// the quote's clock. This file moves anvil's clock forward, so it runs on its own anvil.
import { type Address, type Hex, decodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Quote, QuoteError, createRpcSource, getQuote, weftExecutorAbi } from '../../src/index.js'
import { rpc } from '../devnet/rpc.js'
import { type AttackDevnet, type AttackTx, buildAttackFill, startAttackDevnet, v2Step } from './support/attackDevnet.js'

describe('expired fills: a fill past its deadline reverts', () => {
  let stage: AttackDevnet
  let usdc: Address
  let weth: Address
  const amountIn = 1_000n * 10n ** 6n

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    await stage.devnet.approve('USDC', stage.user, stage.executor)
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const chainTime = async () => (await stage.anvil.publicClient.getBlock({ blockTag: 'latest' })).timestamp
  /** Moves anvil's clock `seconds` forward and mines a block there. */
  const advance = async (seconds: bigint) => {
    await rpc(stage.anvil.rpcUrl, 'evm_increaseTime', [Number(seconds)])
    await rpc(stage.anvil.rpcUrl, 'evm_mine', [])
  }
  /** A USDC -> WETH quote made at `now` (ms), the chain's clock. */
  const quote = ({ now, deadlineSeconds }: { deadlineSeconds?: number; now: number }): Promise<Quote> =>
    getQuote(
      { chainId: stage.chain.id, sellToken: usdc, buyToken: weth, sellAmount: amountIn },
      createRpcSource({ client: stage.anvil.publicClient, chain: stage.chain }),
      { chains: [stage.chain], now: () => now, ...(deadlineSeconds === undefined ? {} : { deadlineSeconds }) },
    )
  const deadlineOf = (q: Quote) => {
    const { args } = decodeFunctionData({ abi: weftExecutorAbi, data: q.transaction.data as Hex })
    return (args[0] as { deadline: bigint }).deadline
  }
  const send = (data: Hex): AttackTx => ({ from: stage.user, to: stage.executor, data })

  it('getQuote: the deadline is deadlineSeconds after its clock, 1800 by default; a bad option is a 500', async () => {
    const now = Number(await chainTime()) * 1000
    expect(deadlineOf(await quote({ now }))).toBe(BigInt(now / 1000 + 1800))
    expect(deadlineOf(await quote({ now, deadlineSeconds: 60 }))).toBe(BigInt(now / 1000 + 60))
    for (const deadlineSeconds of [0, -1, 1.5, 366 * 24 * 3600]) {
      const error = await quote({ now, deadlineSeconds }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(QuoteError)
      expect((error as QuoteError).statusCode).toBe(500)
    }
  })

  it('a quote held back past its deadline: Expired, nothing moves; a hand-made order held 30 days: Expired', async () => {
    const start = await chainTime()
    const q = await quote({ now: Number(start) * 1000, deadlineSeconds: 120 })
    const held = buildAttackFill({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      deadline: start + 1800n,
      paths: [{ amountIn, steps: [v2Step(stage, usdc, weth)] }],
    })
    // Control: on time, both would fill.
    expect(await stage.getRevert(send(q.transaction.data as Hex))).toBeNull()
    expect(await stage.getRevert(send(held))).toBeNull()

    await advance(121n)
    const late = await stage.getRevert(send(q.transaction.data as Hex))
    expect(late?.errorName).toBe('Expired')
    const [deadline, timestamp] = late!.args as readonly [bigint, bigint]
    expect(deadline).toBe(start + 120n)
    expect(timestamp).toBeGreaterThan(deadline)
    // The held hand-made order is still valid (its own deadline is 30 minutes)...
    expect(await stage.getRevert(send(held))).toBeNull()

    const parties = () => stage.readBalances([['USDC', stage.user], ['WETH', stage.user]])
    const before = await parties()
    expect((await stage.send(send(q.transaction.data as Hex))).status).toBe('reverted')
    expect(await parties()).toEqual(before)

    // ...until it is sent 30 days later.
    await advance(30n * 24n * 3600n)
    expect((await stage.getRevert(send(held)))?.errorName).toBe('Expired')
    expect((await stage.send(send(held))).status).toBe('reverted')
    expect(await parties()).toEqual(before)
  })
})
