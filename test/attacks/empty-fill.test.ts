// Empty fills: an order that swaps nothing (amountIn 0, no paths, or the same token in and out)
// used to complete and emit a Fill event with any id and receiver, so anyone could fake a volume or
// fee record for any integrator. Each is now refused on-chain with its own error, and no Fill event
// is ever emitted for one. A genuine wrap (native in, WETH out, no paths) still fills.
import { type Address, type Hex, zeroAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type AttackDevnet, type AttackTx, buildAttackFill, startAttackDevnet, v2Step } from './support/attackDevnet.js'

describe('empty fills: orders that move nothing are refused', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  const amountIn = 1_000n * 10n ** 6n

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    // The user can pay for every order below: only the executor's checks stop them.
    await stage.devnet.approve('USDC', stage.user, stage.executor)
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const fromUser = (data: Hex, value = 0n): AttackTx => ({ from: stage.user, to: stage.executor, data, value })

  /** eth_call names `error`; the mined transaction reverts, emits nothing and moves nothing. */
  const expectRefused = async (tx: AttackTx, error: string) => {
    expect((await stage.getRevert(tx))?.errorName).toBe(error)
    const parties = () => stage.readBalances([['USDC', stage.user], ['WETH', stage.user], ['USDC', stage.executor], ['WETH', stage.executor]])
    const before = await parties()
    const receipt = await stage.send(tx)
    expect(receipt.status).toBe('reverted')
    expect(receipt.logs).toEqual([])
    expect(await parties()).toEqual(before)
  }

  it('amountIn 0, with or without paths, ERC-20 or native: ZeroAmountIn', async () => {
    await expectRefused(fromUser(buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn: 0n, paths: [] })), 'ZeroAmountIn')
    await expectRefused(
      fromUser(buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn: 0n, paths: [{ amountIn: 0n, steps: [v2Step(stage, usdc, weth)] }] })),
      'ZeroAmountIn',
    )
    // A "wrap" of nothing.
    await expectRefused(fromUser(buildAttackFill({ tokenIn: zeroAddress, tokenOut: weth, amountIn: 0n, paths: [] })), 'ZeroAmountIn')
  })

  it('no paths between two different tokens: NoPaths', async () => {
    await expectRefused(fromUser(buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [] })), 'NoPaths')
    // Native in, an ERC-20 other than WETH out: not a wrap, so it needs paths.
    await expectRefused(fromUser(buildAttackFill({ tokenIn: zeroAddress, tokenOut: usdc, amountIn: 10n ** 15n, paths: [] }), 10n ** 15n), 'NoPaths')
  })

  it('the same token in and out (an ERC-20 round trip, or native to native): SameToken', async () => {
    // Before the check, USDC -> USDC with no paths pulled the input and paid it straight back, with a Fill event.
    await expectRefused(fromUser(buildAttackFill({ tokenIn: usdc, tokenOut: usdc, amountIn, paths: [] })), 'SameToken')
    await expectRefused(fromUser(buildAttackFill({ tokenIn: zeroAddress, tokenOut: zeroAddress, amountIn: 10n ** 15n, paths: [] }), 10n ** 15n), 'SameToken')
    // A round trip through a pool is no better: refused before any pool is touched.
    await expectRefused(
      fromUser(
        buildAttackFill({
          tokenIn: usdc,
          tokenOut: usdc,
          amountIn,
          paths: [{ amountIn, steps: [v2Step(stage, usdc, weth), v2Step(stage, weth, usdc)] }],
        }),
      ),
      'SameToken',
    )
  })

  it('control: a genuine wrap (native in, WETH out, no paths) fills and emits Fill', async () => {
    const amount = 10n ** 15n
    const [before] = await stage.readBalances([['WETH', stage.user]])
    const receipt = await stage.sendOk('wrap', fromUser(buildAttackFill({ tokenIn: zeroAddress, tokenOut: weth, amountIn: amount, paths: [] }), amount))
    expect(receipt.logs.some((log) => log.address.toLowerCase() === stage.executor)).toBe(true)
    const [after] = await stage.readBalances([['WETH', stage.user]])
    expect(after! - before!).toBe(amount)
  })
})
