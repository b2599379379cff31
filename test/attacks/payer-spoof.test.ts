// Payer spoofing: calldata that names someone else as the payer, so a router that takes `from`
// from its input pulls a victim's approved tokens (the pattern behind the 2022-23 arbitrary
// transferFrom drains of aggregator routers). The executor's order has no payer field: its one
// transferFrom pulls from msg.sender. Here an attacker with no tokens tries orders and raw calldata
// against a victim who approved the executor for everything.
import { type Address, type Hex, concat, decodeFunctionData, encodeAbiParameters, encodeFunctionData, maxUint256, toFunctionSelector } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { weftExecutorAbi } from '../../src/index.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { testTokenAbi } from '../devnet/abis.js'
import { type AttackDevnet, type AttackTx, buildAttackFill, buildOrder, startAttackDevnet, v2Step } from './support/attackDevnet.js'

const lower = (address: string) => address.toLowerCase() as Address
const TRANSFER_FROM = toFunctionSelector('transferFrom(address,address,uint256)')

describe('payer spoof: calldata naming another address as the payer', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  const amountIn = 1_000n * 10n ** 6n

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

  /** USDC -> WETH on the V2 pair, paid to the attacker. */
  const stealOrder = () =>
    buildOrder({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      receiver: stage.attacker,
      paths: [{ amountIn, steps: [v2Step(stage, usdc, weth)] }],
    })
  const stealCalldata = () => buildAttackFill(stealOrder())

  const victimExposure = async () => [
    ...(await stage.readBalances([
      ['USDC', stage.victim],
      ['WETH', stage.victim],
    ])),
    await stage.readAllowance(usdc, stage.victim, stage.executor),
  ]

  /** The `from` of every transferFrom the transaction makes on `token`. */
  const pulledFrom = async (tx: AttackTx, token: Address) =>
    (await stage.traceCalls(tx))
      .filter((frame) => frame.to === token && frame.input.startsWith(TRANSFER_FROM))
      .map((frame) => lower(decodeFunctionData({ abi: testTokenAbi, data: frame.input }).args![0] as string))

  const expectPullFromAttackerOnly = async (data: Hex, error: string | null) => {
    const tx = { from: stage.attacker, to: stage.executor, data }
    const before = await victimExposure()
    expect(await pulledFrom(tx, usdc)).toEqual([stage.attacker])
    const revert = await stage.getRevert(tx)
    if (error === null) expect(revert).toBeNull()
    else {
      expect(revert?.errorName).toBe(error)
      expect(lower(revert!.args[0] as string)).toBe(usdc)
    }
    const receipt = await stage.send(tx)
    expect(receipt.status).toBe(error === null ? 'success' : 'reverted')
    expect(await victimExposure()).toEqual(before)
  }

  describe('(a) an order for a token only the victim approved', () => {
    it('pulls from the attacker (msg.sender), who has none: TransferFailed, the victim is untouched', async () => {
      expect(await stage.readAllowance(usdc, stage.victim, stage.executor)).toBe(maxUint256)
      expect(await stage.readBalances([['USDC', stage.attacker]])).toEqual([0n])
      await expectPullFromAttackerOnly(stealCalldata(), 'TransferFailed')
      expect(await stage.readBalances([['WETH', stage.attacker]])).toEqual([0n])
    })

    it('the attacker holding USDC but no allowance: TransferFailed', async () => {
      await stage.devnet.mint('USDC', stage.attacker, amountIn)
      await expectPullFromAttackerOnly(stealCalldata(), 'TransferFailed')
    })

    it('the attacker with an allowance but no USDC: TransferFailed', async () => {
      await stage.devnet.approve('USDC', stage.attacker, stage.executor)
      await expectPullFromAttackerOnly(stealCalldata(), 'TransferFailed')
    })

    it('control: funded and approved, the attacker pays for their own fill and the victim still pays nothing', async () => {
      await stage.devnet.mint('USDC', stage.attacker, amountIn)
      await stage.devnet.approve('USDC', stage.attacker, stage.executor)
      await expectPullFromAttackerOnly(stealCalldata(), null)
      const [attackerUsdc, attackerWeth] = await stage.readBalances([
        ['USDC', stage.attacker],
        ['WETH', stage.attacker],
      ])
      expect(attackerUsdc).toBe(0n)
      expect(attackerWeth).toBeGreaterThan(0n)
    })
  })

  describe('(b) raw calldata with extra or malformed fields', () => {
    // What a router with a payer field would read: the victim, as a whole word.
    const victimWord = () => encodeAbiParameters([{ type: 'address' }], [stage.victim])

    it('the victim’s address appended after the order is ignored: the pull is still from msg.sender', async () => {
      const data = concat([stealCalldata(), victimWord(), victimWord(), encodeAbiParameters([{ type: 'uint256' }], [amountIn])])
      await expectPullFromAttackerOnly(data, 'TransferFailed')

      await stage.devnet.mint('USDC', stage.attacker, amountIn)
      await stage.devnet.approve('USDC', stage.attacker, stage.executor)
      await expectPullFromAttackerOnly(data, null)
    })

    it('an order with a payer field appended to the struct decodes without it: the pull is still from msg.sender', async () => {
      const data = encodeForgedFill({ ...stealOrder(), payer: stage.victim }, 'last')
      await expectPullFromAttackerOnly(data, 'TransferFailed')

      await stage.devnet.mint('USDC', stage.attacker, amountIn)
      await stage.devnet.approve('USDC', stage.attacker, stage.executor)
      await expectPullFromAttackerOnly(data, null)
    })

    it('an order with a payer field inserted mid-struct shifts every field: it reverts and pulls from no one else', async () => {
      // Shifted by one, the victim's word lands in tokenIn or in tokenOut, and every later field moves
      // too: the fee array's offset becomes the old feeOnOutput (0), pointing at the order's head, so
      // the payee check's first read of it fails the ABI decoder's bounds check and the call reverts
      // with no data, before any balance is read or anything pulled.
      const expected = { afterId: null, afterTokenIn: null } as const
      for (const place of ['afterId', 'afterTokenIn'] as const) {
        const tx = { from: stage.attacker, to: stage.executor, data: encodeForgedFill({ ...stealOrder(), payer: stage.victim }, place) }
        const before = await victimExposure()
        const pulls = (await stage.traceCalls(tx)).filter((frame) => frame.input.startsWith(TRANSFER_FROM))
        for (const pull of pulls) {
          const [from] = decodeFunctionData({ abi: testTokenAbi, data: pull.input }).args as readonly [string]
          expect(lower(from)).toBe(stage.attacker)
        }
        expect((await stage.getRevert(tx))?.errorName, place).toBe(expected[place])
        expect((await stage.send(tx)).status).toBe('reverted')
        expect(await victimExposure()).toEqual(before)
      }
    })

    it('the executor has no entry point that takes a payer: transferFrom, multicall or execute selectors revert', async () => {
      const functions = weftExecutorAbi.filter((item) => item.type === 'function').map((item) => item.name).sort()
      expect(functions).toEqual(['dexes', 'fill', 'pancakeV3SwapCallback', 'uniswapV3SwapCallback', 'unlockCallback', 'weth'])
      const order = weftExecutorAbi.find((item) => item.type === 'function' && item.name === 'fill')!
      const fields = (order.inputs[0] as unknown as { components: readonly { name: string }[] }).components.map((c) => c.name)
      expect(fields).not.toContain('payer')
      expect(fields).not.toContain('from')

      const probes: Hex[] = [
        encodeFunctionData({ abi: testTokenAbi, functionName: 'transferFrom', args: [stage.victim, stage.attacker, amountIn] }),
        encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [stage.attacker, amountIn] }),
        concat([
          toFunctionSelector('execute(address,bytes)'),
          encodeAbiParameters(
            [{ type: 'address' }, { type: 'bytes' }],
            [usdc, encodeFunctionData({ abi: testTokenAbi, functionName: 'transferFrom', args: [stage.victim, stage.attacker, amountIn] })],
          ),
        ]),
        concat([toFunctionSelector('multicall(bytes[])'), encodeAbiParameters([{ type: 'bytes[]' }], [[stealCalldata()]])]),
        concat([toFunctionSelector('sweep(address,address)'), encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [usdc, stage.attacker])]),
      ]
      const before = await victimExposure()
      for (const data of probes) {
        expect(await stage.getRevert({ from: stage.attacker, to: stage.executor, data })).toEqual({ errorName: null, args: [], data: '0x' })
        expect((await stage.send({ from: stage.attacker, to: stage.executor, data })).status).toBe('reverted')
      }
      expect(await victimExposure()).toEqual(before)
    })
  })
})

type ForgedOrder = ReturnType<typeof buildOrder> & { payer: Address }

/**
 * `fill(order)` calldata for an Order with a `payer` field the real struct lacks, at `place`, sent
 * under the real `fill` selector (a struct with another field has another signature).
 */
function encodeForgedFill(order: ForgedOrder, place: 'afterId' | 'afterTokenIn' | 'last'): Hex {
  const fields: { name: string; type: string; components?: readonly { name: string; type: string }[] }[] = [
    { name: 'id', type: 'bytes16' },
    { name: 'tokenIn', type: 'address' },
    { name: 'tokenOut', type: 'address' },
    { name: 'amountIn', type: 'uint256' },
    { name: 'amountOut', type: 'uint256' },
    { name: 'minAmountOut', type: 'uint256' },
    { name: 'receiver', type: 'address' },
    { name: 'deadline', type: 'uint256' },
    { name: 'feeOnOutput', type: 'bool' },
    { name: 'fees', type: 'tuple[]', components: [{ name: 'recipient', type: 'address' }, { name: 'rate', type: 'uint32' }] },
    { name: 'surplusRecipient', type: 'address' },
    { name: 'surplusBps', type: 'uint16' },
    { name: 'treasury', type: 'address' },
    {
      name: 'paths',
      type: 'tuple[]',
      components: [
        { name: 'amountIn', type: 'uint256' },
        { name: 'minAmountOut', type: 'uint256' },
        {
          name: 'steps',
          type: 'tuple[]',
          components: [
            { name: 'dex', type: 'uint8' },
            { name: 'tokenIn', type: 'address' },
            { name: 'tokenOut', type: 'address' },
            { name: 'param', type: 'uint256' },
          ],
        } as unknown as { name: string; type: string },
      ],
    },
  ]
  const at = { afterId: 1, afterTokenIn: 2, last: fields.length }[place]
  fields.splice(at, 0, { name: 'payer', type: 'address' })
  const zero = '0x0000000000000000000000000000000000000000'
  const value = {
    ...order,
    receiver: order.receiver ?? zero,
    surplusRecipient: order.surplusRecipient ?? zero,
    treasury: order.treasury ?? zero,
    fees: order.fees.map((f) => ({ recipient: f.recipient, rate: Number(f.rate) })),
    paths: order.paths.map((p) => ({ amountIn: p.amountIn, minAmountOut: p.minAmountOut ?? 0n, steps: p.steps.map((s) => ({ ...s })) })),
  }
  const encoded = encodeAbiParameters([{ type: 'tuple', components: fields }] as never, [value] as never)
  return concat([toFunctionSelector(weftExecutorAbi.find((item) => item.type === 'function' && item.name === 'fill')!), encoded])
}
