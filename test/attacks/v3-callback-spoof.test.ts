// The RouteProcessor2 exploit (SushiSwap, April 2023): the router's uniswapV3SwapCallback trusted
// its caller to be a pool, so an attacker's fake "pool" called it and had the router transferFrom
// every account that had approved it. Here the fake pool, an EOA, and a contract that is called in
// the middle of a real fill all try the same against the real executor, and the victim's tokens
// never move.
import { type Address, type Hex, encodeFunctionData, maxUint256, toFunctionSelector } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import {
  type AttackDevnet,
  buildAttackFill,
  buildCallbackCalldata,
  encodeCallbackData,
  startAttackDevnet,
  v3Step,
} from './support/attackDevnet.js'

const lower = (address: string) => address.toLowerCase() as Address
const CALLBACK_SELECTOR = toFunctionSelector('uniswapV3SwapCallback(int256,int256,bytes)')

describe('v3 callback spoof: the RouteProcessor2 exploit against the real executor', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const victimExposure = async () => [
    ...(await stage.readBalances([
      ['USDC', stage.victim],
      ['WETH', stage.victim],
    ])),
    await stage.readAllowance(usdc, stage.victim, stage.executor),
  ]

  const spoofCalldata = (amount0Delta: bigint, amount1Delta: bigint, data: Hex) =>
    encodeFunctionData({
      abi: stage.compiled.AttackFakePool!.abi,
      functionName: 'spoof',
      args: [stage.executor, amount0Delta, amount1Delta, data],
    })

  it('a fake pool calling the callback cannot make the executor pull the approved victim’s USDC', async () => {
    const fakePool = await stage.deploy('AttackFakePool', [usdc, weth, 500])
    const [victimUsdc] = await stage.readBalances([['USDC', stage.victim]])
    expect(victimUsdc).toBeGreaterThan(0n)
    expect(await stage.readAllowance(usdc, stage.victim, stage.executor)).toBe(maxUint256)
    const before = await victimExposure()

    // The data names the genuine USDC/WETH pools and tiers, each dex of the table and one past it,
    // with the victim's whole balance owed on either side.
    const { uniswapV2, uniswapV3 } = stage.dexIndex
    const claims: [dex: number, tokenIn: Address, tokenOut: Address, fee: number][] = [
      [uniswapV3, usdc, weth, 500],
      [uniswapV3, weth, usdc, 3000],
      [uniswapV3, usdc, weth, 100],
      [uniswapV2, usdc, weth, 0],
      [7, usdc, weth, 500],
      [255, usdc, usdc, 0],
    ]
    // Outside a fill the executor would pay at most 0 anyway: (0, 0) is the claim only the caller
    // check itself refuses.
    const deltas: [bigint, bigint][] = [
      [0n, 0n],
      [victimUsdc!, 0n],
      [0n, victimUsdc!],
      [victimUsdc!, -1n],
      [maxUint256 >> 1n, maxUint256 >> 1n],
    ]
    for (const [dex, tokenIn, tokenOut, fee] of claims) {
      for (const [amount0, amount1] of deltas) {
        const revert = await stage.getRevert({
          from: stage.attacker,
          to: fakePool,
          data: spoofCalldata(amount0, amount1, encodeCallbackData(dex, tokenIn, tokenOut, fee)),
        })
        expect(revert?.errorName, `dex ${dex} ${tokenIn}->${tokenOut} ${fee}`).toBe('InvalidCallback')
        expect(lower(revert!.args[0] as string)).toBe(fakePool)
      }
    }

    // And sent for real: the transaction reverts and nothing moved.
    const receipt = await stage.send({
      from: stage.attacker,
      to: fakePool,
      data: spoofCalldata(victimUsdc!, 0n, encodeCallbackData(uniswapV3, usdc, weth, 500)),
    })
    expect(receipt.status).toBe('reverted')
    expect(await victimExposure()).toEqual(before)
    expect(await stage.readBalances([['USDC', fakePool], ['USDC', stage.attacker]])).toEqual([0n, 0n])
  })

  it('a fake pool cannot claim tokens stranded in the executor either', async () => {
    const stranded = 1_000n * 10n ** 6n
    await stage.devnet.mint('USDC', stage.executor, stranded)
    const fakePool = await stage.deploy('AttackFakePool', [usdc, weth, 500])
    for (const [amount0, amount1] of [
      [stranded, 0n],
      [0n, stranded],
      [1n, 0n],
    ] as const) {
      const data = spoofCalldata(amount0, amount1, encodeCallbackData(stage.dexIndex.uniswapV3, usdc, weth, 500))
      const revert = await stage.getRevert({ from: stage.attacker, to: fakePool, data })
      expect(revert?.errorName).toBe('InvalidCallback')
      expect((await stage.send({ from: stage.attacker, to: fakePool, data })).status).toBe('reverted')
    }
    expect(await stage.readBalances([['USDC', stage.executor], ['USDC', fakePool]])).toEqual([stranded, 0n])
  })

  it('an EOA calling the callback directly is refused', async () => {
    const before = await victimExposure()
    const [victimUsdc] = await stage.readBalances([['USDC', stage.victim]])
    const realPool = stage.devnet.getPool('USDC', 'WETH', 'uniswapV3', 500)
    const [amount0, amount1] = realPool.tokens[0] === usdc ? [victimUsdc!, 0n] : [0n, victimUsdc!]
    const data = buildCallbackCalldata(amount0, amount1, encodeCallbackData(stage.dexIndex.uniswapV3, usdc, weth, 500))

    const revert = await stage.getRevert({ from: stage.attacker, to: stage.executor, data })
    expect(revert?.errorName).toBe('InvalidCallback')
    expect(lower(revert!.args[0] as string)).toBe(stage.attacker)
    // The victim calling it on themselves gets no further, nor does a claim of nothing.
    expect((await stage.getRevert({ from: stage.victim, to: stage.executor, data }))?.errorName).toBe('InvalidCallback')
    const nothing = buildCallbackCalldata(0n, 0n, encodeCallbackData(stage.dexIndex.uniswapV3, usdc, weth, 500))
    expect((await stage.getRevert({ from: stage.attacker, to: stage.executor, data: nothing }))?.errorName).toBe('InvalidCallback')

    const receipt = await stage.send({ from: stage.attacker, to: stage.executor, data })
    expect(receipt.status).toBe('reverted')
    expect(await victimExposure()).toEqual(before)
  })

  describe('a contract called during a real fill (a token whose transfer hook calls the callback)', () => {
    const fee = 3000
    const amountIn = 10n ** 18n
    let token: Address
    let pool: Address

    /** Deploys the hooked token and a real M/WETH V3 pool for it on the devnet's factory. */
    const setUp = async () => {
      token = await stage.deploy('AttackToken')
      pool = await stage.createV3Pool(token, weth, fee, 10n ** 24n)
      await stage.devnet.approve('WETH', stage.user, stage.executor)
    }
    const arm = (data: Hex, bubble: boolean) =>
      stage.sendOk('arm the token', {
        from: stage.attacker,
        to: token,
        data: encodeFunctionData({
          abi: stage.compiled.AttackToken!.abi,
          functionName: 'arm',
          args: [stage.executor, data, 1, bubble],
        }),
      })
    const readToken = (functionName: string) =>
      stage.anvil.publicClient.readContract({ address: token, abi: stage.compiled.AttackToken!.abi, functionName })
    const buyToken = () =>
      buildAttackFill({ tokenIn: weth, tokenOut: token, amountIn, paths: [{ amountIn, steps: [v3Step(stage, weth, token, fee)] }] })
    const moneyInPlay = () =>
      stage.readBalances([
        ['WETH', stage.user],
        [token, stage.user],
        ['WETH', pool],
        [token, pool],
        ['USDC', stage.victim],
        ['WETH', stage.executor],
        [token, stage.executor],
        ['WETH', token],
      ])

    it('control: unarmed, the fill through the real pool succeeds', async () => {
      await setUp()
      const receipt = await stage.sendOk('honest fill', { from: stage.user, to: stage.executor, data: buyToken() })
      expect(receipt.status).toBe('success')
      const [userToken] = await stage.readBalances([[token, stage.user]])
      expect(userToken).toBeGreaterThan(0n)
    })

    /** What the executor answered each callback the token made while `data` was being filled. */
    const callbackAnswers = async (data: Hex) => {
      const frames = await stage.traceCalls({ from: stage.user, to: stage.executor, data })
      return frames
        .filter((frame) => frame.from === token && frame.to === stage.executor && frame.input.startsWith(CALLBACK_SELECTOR))
        .map((frame) => {
          const answer = stage.decodeRevert(frame.output)
          return { reverted: frame.reverted, errorName: answer.errorName, caller: lower(String(answer.args[0])) }
        })
    }

    it('paid out by the pool mid-swap, it calls the callback naming the pool in flight: InvalidCallback, the fill reverts', async () => {
      await setUp()
      const [victimUsdc] = await stage.readBalances([['USDC', stage.victim]])
      // Claims: the in-flight swap's own input, the other side of the pool, the victim's USDC.
      const claims: Hex[] = [
        buildCallbackCalldata(amountIn, amountIn, encodeCallbackData(stage.dexIndex.uniswapV3, weth, token, fee)),
        buildCallbackCalldata(1n, 1n, encodeCallbackData(stage.dexIndex.uniswapV3, token, weth, fee)),
        buildCallbackCalldata(victimUsdc!, victimUsdc!, encodeCallbackData(stage.dexIndex.uniswapV3, usdc, weth, 500)),
      ]
      for (const claim of claims) {
        await arm(claim, true)
        const before = await moneyInPlay()
        // The executor refuses the token; the refusal reverts the pool's transfer, which the pool
        // reports as its own `TF`, and the whole fill.
        expect(await callbackAnswers(buyToken())).toEqual([{ reverted: true, errorName: 'InvalidCallback', caller: token }])
        expect(await stage.getRevert({ from: stage.user, to: stage.executor, data: buyToken() })).toMatchObject({
          errorName: 'Error',
          args: ['TF'],
        })
        const receipt = await stage.send({ from: stage.user, to: stage.executor, data: buyToken() })
        expect(receipt.status).toBe('reverted')
        expect(await moneyInPlay()).toEqual(before)
      }
    })

    it('when the token swallows the refusals, the fill completes exactly as the honest one and the token gains nothing', async () => {
      await setUp()
      const honest = await stage.readFillResult({ from: stage.user, to: stage.executor, data: buyToken() })
      await arm(buildCallbackCalldata(amountIn, amountIn, encodeCallbackData(stage.dexIndex.uniswapV3, weth, token, fee)), false)
      // Twice refused: as the pool pays the executor mid-swap, and as the executor pays the user after it.
      const refused = { reverted: true, errorName: 'InvalidCallback', caller: token }
      expect(await callbackAnswers(buyToken())).toEqual([refused, refused])

      const [before] = await stage.readBalances([[token, stage.user]])
      await stage.sendOk('fill with the swallowed attempts', { from: stage.user, to: stage.executor, data: buyToken() })
      const [after] = await stage.readBalances([[token, stage.user]])
      expect(after! - before!).toBe(honest)
      expect(await readToken('attempts')).toBe(2n)
      expect(await readToken('lastOk')).toBe(false)
      expect(stage.decodeRevert((await readToken('lastReturn')) as Hex).errorName).toBe('InvalidCallback')
      expect(await stage.readBalances([['WETH', token], ['WETH', stage.executor], [token, stage.executor]])).toEqual([0n, 0n, 0n])
    })

    it('paid to the pool from inside the executor’s own callback, it calls the callback again: InvalidCallback', async () => {
      await setUp()
      // The user sells the token: the executor pays it to the pool from uniswapV3SwapCallback, and
      // the hook fires there, while the executor is expecting exactly this pool.
      await stage.fund(token, stage.user, 10n * amountIn)
      await stage.sendOk('approve', {
        from: stage.user,
        to: token,
        data: encodeFunctionData({ abi: stage.compiled.AttackToken!.abi, functionName: 'approve', args: [stage.executor, maxUint256] }),
      })
      await arm(buildCallbackCalldata(amountIn, amountIn, encodeCallbackData(stage.dexIndex.uniswapV3, token, weth, fee)), true)
      const sell = buildAttackFill({
        tokenIn: token,
        tokenOut: weth,
        amountIn,
        paths: [{ amountIn, steps: [v3Step(stage, token, weth, fee)] }],
      })
      const before = await moneyInPlay()
      expect(await callbackAnswers(sell)).toEqual([{ reverted: true, errorName: 'InvalidCallback', caller: token }])
      // The executor's own transfer to the pool failed with it, and says so.
      const revert = await stage.getRevert({ from: stage.user, to: stage.executor, data: sell })
      expect(revert?.errorName).toBe('TransferFailed')
      expect(lower(revert!.args[0] as string)).toBe(token)
      expect((await stage.send({ from: stage.user, to: stage.executor, data: sell })).status).toBe('reverted')
      expect(await moneyInPlay()).toEqual(before)
    })
  })
})
