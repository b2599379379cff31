// Re-entrancy through a hooked token: an ERC-20 the attacker issues calls back into the executor
// from its transfer and transferFrom while a fill is in flight, trying to run a second fill (or the
// V3 callback) against the executor's half-finished state, as the ERC-777 hooks did to imBTC's
// Uniswap V1 pool. The token trades on a real V2 pair the executor derives from the devnet's
// factory. Every re-entry is answered Reentrancy (or InvalidCallback) and nothing moves.
import { type Address, type Hex, encodeFunctionData, maxUint256, toFunctionSelector, zeroAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { weftExecutorAbi } from '../../src/index.js'
import { uniswapV2FactoryAbi } from '../devnet/abis.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import {
  type AttackDevnet,
  buildAttackFill,
  buildCallbackCalldata,
  encodeCallbackData,
  startAttackDevnet,
  v2Step,
} from './support/attackDevnet.js'

const FILL_SELECTOR = toFunctionSelector(weftExecutorAbi.find((item) => item.type === 'function' && item.name === 'fill')!)
const CALLBACK_SELECTOR = toFunctionSelector('uniswapV3SwapCallback(int256,int256,bytes)')
const ON_TRANSFER = 1
const ON_TRANSFER_FROM = 2
const BOTH = ON_TRANSFER | ON_TRANSFER_FROM

describe('reentrancy: a malicious ERC-20 re-enters the executor mid-fill', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let weth: Address
  let token: Address
  let pair: Address
  const amountIn = 10n ** 18n

  beforeAll(async () => {
    stage = await startAttackDevnet()
    weth = stage.devnet.tokens.WETH.address
    token = await stage.deploy('AttackToken')
    pair = await stage.createV2Pair(token, 10n ** 24n, weth, 10n ** 21n)
    // The user trades both ways: WETH and the token approved, and some of the token to sell.
    await stage.devnet.approve('WETH', stage.user, stage.executor)
    await stage.fund(token, stage.user, 100n * amountIn)
    await stage.sendOk('approve the token', {
      from: stage.user,
      to: token,
      data: encodeFunctionData({ abi: stage.compiled.AttackToken!.abi, functionName: 'approve', args: [stage.executor, maxUint256] }),
    })
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const buy = () =>
    buildAttackFill({ tokenIn: weth, tokenOut: token, amountIn, paths: [{ amountIn, steps: [v2Step(stage, weth, token)] }] })
  const sell = () =>
    buildAttackFill({ tokenIn: token, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v2Step(stage, token, weth)] }] })

  /** Payloads the token sends the executor: a second fill (a zero wrap; the outer order again, paid to the attacker), or the callback. */
  const reentries = (): { name: string; payload: Hex; answer: 'Reentrancy' | 'InvalidCallback' }[] => [
    { name: 'a zero wrap', payload: buildAttackFill({ tokenIn: zeroAddress, tokenOut: weth, amountIn: 0n, paths: [] }), answer: 'Reentrancy' },
    {
      name: 'the outer order, paid to the attacker',
      payload: buildAttackFill({
        tokenIn: weth,
        tokenOut: token,
        amountIn,
        receiver: stage.attacker,
        paths: [{ amountIn, steps: [v2Step(stage, weth, token)] }],
      }),
      answer: 'Reentrancy',
    },
    {
      name: 'the V3 callback, owed the whole input',
      payload: buildCallbackCalldata(amountIn, amountIn, encodeCallbackData(stage.dexIndex.uniswapV3, weth, stage.devnet.tokens.USDC.address, 500)),
      answer: 'InvalidCallback',
    },
  ]

  const arm = (payload: Hex, hooks: number, bubble: boolean, target: Address = stage.executor) =>
    stage.sendOk('arm the token', {
      from: stage.attacker,
      to: token,
      data: encodeFunctionData({ abi: stage.compiled.AttackToken!.abi, functionName: 'arm', args: [target, payload, hooks, bubble] }),
    })
  const readToken = (functionName: string) =>
    stage.anvil.publicClient.readContract({ address: token, abi: stage.compiled.AttackToken!.abi, functionName })

  const moneyInPlay = () =>
    stage.readBalances([
      ['WETH', stage.user],
      [token, stage.user],
      ['WETH', pair],
      [token, pair],
      ['WETH', stage.executor],
      [token, stage.executor],
      ['ETH', stage.executor],
      ['WETH', token],
      [token, stage.attacker],
      ['WETH', stage.attacker],
    ])

  /** The executor's answers to the calls `from` made into it while `data` was being filled. */
  const answersTo = async (from: Address, data: Hex, sender: Address = stage.user) =>
    (await stage.traceCalls({ from: sender, to: stage.executor, data }))
      .filter(
        (frame) =>
          frame.from === from &&
          frame.to === stage.executor &&
          (frame.input.startsWith(FILL_SELECTOR) || frame.input.startsWith(CALLBACK_SELECTOR)),
      )
      .map((frame) => (frame.reverted ? stage.decodeRevert(frame.output).errorName : 'ok'))

  it('control: unarmed, the fill runs through the pair the executor derives from the real V2 factory', async () => {
    const registered = await stage.anvil.publicClient.readContract({
      address: stage.devnet.contracts.uniswapV2Factory,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [token, weth],
    })
    expect(registered.toLowerCase()).toBe(pair)
    expect(await stage.getCalledAddresses({ from: stage.user, to: stage.executor, data: buy() })).toContain(pair)
    const expected = await stage.readFillResult({ from: stage.user, to: stage.executor, data: buy() })
    const [before] = await stage.readBalances([[token, stage.user]])
    await stage.sendOk('honest buy', { from: stage.user, to: stage.executor, data: buy() })
    const [after] = await stage.readBalances([[token, stage.user]])
    expect(after! - before!).toBe(expected)
    expect(expected).toBeGreaterThan(0n)
  })

  it('buying the token: its transfer (pair -> executor, then executor -> user) re-enters fill and the callback; refused, the fill reverts, nothing moves', async () => {
    for (const { name, payload, answer } of reentries()) {
      await arm(payload, ON_TRANSFER, true)
      const before = await moneyInPlay()
      // The first transfer is the pair paying the executor mid-swap; its refusal reverts the pair's
      // transfer, which the pair reports as its own error.
      expect(await answersTo(token, buy()), name).toEqual([answer])
      expect(await stage.getRevert({ from: stage.user, to: stage.executor, data: buy() })).toMatchObject({
        errorName: 'Error',
        args: ['UniswapV2: TRANSFER_FAILED'],
      })
      expect((await stage.send({ from: stage.user, to: stage.executor, data: buy() })).status).toBe('reverted')
      expect(await moneyInPlay(), name).toEqual(before)
    }
  })

  it('selling the token: its transferFrom (the executor pulling the input) re-enters; refused, the fill reverts TransferFailed, nothing moves', async () => {
    for (const { name, payload, answer } of reentries()) {
      await arm(payload, BOTH, true)
      const before = await moneyInPlay()
      expect(await answersTo(token, sell()), name).toEqual([answer])
      const revert = await stage.getRevert({ from: stage.user, to: stage.executor, data: sell() })
      expect(revert?.errorName).toBe('TransferFailed')
      expect((revert!.args[0] as string).toLowerCase()).toBe(token)
      expect((await stage.send({ from: stage.user, to: stage.executor, data: sell() })).status).toBe('reverted')
      expect(await moneyInPlay(), name).toEqual(before)
    }
  })

  it('when the token swallows the refusals, both fills complete exactly as the honest ones: no double count, nothing kept', async () => {
    for (const [data, hooks, transfers] of [
      [buy, ON_TRANSFER, 2],
      [sell, BOTH, 2],
    ] as const) {
      for (const { name, payload, answer } of reentries()) {
        await checkpoint.restore()
        const honest = await stage.readFillResult({ from: stage.user, to: stage.executor, data: data() })
        const outToken = data === buy ? token : weth
        await arm(payload, hooks, false)
        // Buying: the pair pays the executor, the executor pays the user. Selling: the executor pulls
        // the input, then pays the pair.
        expect(await answersTo(token, data()), name).toEqual(Array(transfers).fill(answer))
        const [before] = await stage.readBalances([[outToken, stage.user]])
        await stage.sendOk(`fill with ${name} swallowed`, { from: stage.user, to: stage.executor, data: data() })
        const [after] = await stage.readBalances([[outToken, stage.user]])
        expect(after! - before!, name).toBe(honest)
        expect(await readToken('attempts')).toBe(BigInt(transfers))
        expect(await readToken('lastOk')).toBe(false)
        expect(
          await stage.readBalances([
            ['WETH', stage.executor],
            [token, stage.executor],
            ['WETH', token],
            [token, stage.attacker],
            ['WETH', stage.attacker],
          ]),
        ).toEqual([0n, 0n, 0n, 0n, 0n])
      }
    }
  })

  it('a receiver paid in ether re-enters fill and the callback from its receive(): refused, EtherTransferFailed, nothing moves', async () => {
    const receiver = await stage.deploy('AttackReceiver')
    const sellForEther = buildAttackFill({
      tokenIn: token,
      tokenOut: zeroAddress,
      amountIn,
      receiver,
      paths: [{ amountIn, steps: [v2Step(stage, token, weth)] }],
    })
    for (const { name, payload, answer } of reentries()) {
      await stage.sendOk('arm the receiver', {
        from: stage.attacker,
        to: receiver,
        data: encodeFunctionData({ abi: stage.compiled.AttackReceiver!.abi, functionName: 'arm', args: [stage.executor, payload] }),
      })
      const before = [...(await moneyInPlay()), ...(await stage.readBalances([['ETH', receiver]]))]
      expect(await answersTo(receiver, sellForEther), name).toEqual([answer])
      const revert = await stage.getRevert({ from: stage.user, to: stage.executor, data: sellForEther })
      expect(revert?.errorName).toBe('EtherTransferFailed')
      expect((revert!.args[0] as string).toLowerCase()).toBe(receiver)
      expect((await stage.send({ from: stage.user, to: stage.executor, data: sellForEther })).status).toBe('reverted')
      expect([...(await moneyInPlay()), ...(await stage.readBalances([['ETH', receiver]]))], name).toEqual(before)
    }
  })
})
