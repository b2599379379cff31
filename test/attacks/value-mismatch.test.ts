// msg.value mismatch: a router that wraps "whatever ether arrived" or ignores msg.value on ERC-20
// input either lets a caller underpay (spending ether someone left in the contract) or strands the
// overpayment where the next caller can sweep it. The executor requires msg.value == amountIn for
// native input and 0 otherwise. Here real quotes are sent with the wrong value.
import { type Address, type Hex, type TransactionReceipt, encodeFunctionData, zeroAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Quote, type QuoteIntent, createRpcSource, getQuote, weftExecutorAbi } from '../../src/index.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type AttackDevnet, startAttackDevnet } from './support/attackDevnet.js'

describe('value mismatch: msg.value that is not the native input', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  const oneEther = 10n ** 18n

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    await stage.devnet.approve('USDC', stage.user, stage.executor)
    await stage.devnet.approve('WETH', stage.user, stage.executor)
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const quote = (sellToken: Address, buyToken: Address, sellAmount: bigint): Promise<Quote> => {
    const intent: QuoteIntent = { chainId: stage.chain.id, sellToken, buyToken, sellAmount, slippageBps: 50 }
    return getQuote(intent, createRpcSource({ client: stage.anvil.publicClient, chain: stage.chain }), { chains: [stage.chain] })
  }

  const gasCost = (receipt: TransactionReceipt) => receipt.gasUsed * receipt.effectiveGasPrice

  const executorHoldings = () =>
    stage.readBalances([
      ['ETH', stage.executor],
      ['WETH', stage.executor],
      ['USDC', stage.executor],
    ])

  /**
   * Sends `data` with `value` from the user: InvalidValue(value) on eth_call, a reverted receipt,
   * the user out of nothing but gas, and the executor's holdings unchanged.
   */
  const expectInvalidValue = async (data: Hex, value: bigint) => {
    const tx = { from: stage.user, to: stage.executor, data, value }
    expect(await stage.getRevert(tx), `value ${value}`).toMatchObject({ errorName: 'InvalidValue', args: [value] })
    const [ethBefore, wethBefore, usdcBefore] = await stage.readBalances([
      ['ETH', stage.user],
      ['WETH', stage.user],
      ['USDC', stage.user],
    ])
    const held = await executorHoldings()
    const receipt = await stage.send(tx)
    expect(receipt.status).toBe('reverted')
    expect(await stage.readBalances([['ETH', stage.user], ['WETH', stage.user], ['USDC', stage.user]])).toEqual([
      ethBefore! - gasCost(receipt),
      wethBefore,
      usdcBefore,
    ])
    expect(await executorHoldings()).toEqual(held)
  }

  it('control: native input with msg.value == amountIn fills, and the executor keeps nothing', async () => {
    const q = await quote(zeroAddress, usdc, oneEther)
    expect(BigInt(q.transaction.value)).toBe(oneEther)
    const [before] = await stage.readBalances([['USDC', stage.user]])
    await stage.sendOk('exact value', { from: stage.user, to: stage.executor, data: q.transaction.data, value: oneEther })
    const [after] = await stage.readBalances([['USDC', stage.user]])
    expect(after! - before!).toBeGreaterThanOrEqual(BigInt(q.minimumAmountOut))
    expect(await executorHoldings()).toEqual([0n, 0n, 0n])
  })

  it('native input with less ether than amountIn: InvalidValue', async () => {
    const q = await quote(zeroAddress, usdc, oneEther)
    for (const value of [oneEther - 1n, oneEther / 2n, 1n, 0n]) await expectInvalidValue(q.transaction.data, value)
    expect(await executorHoldings()).toEqual([0n, 0n, 0n])
  })

  it('ether forced into the executor (selfdestruct, coinbase) cannot make up an underpayment: InvalidValue', async () => {
    const q = await quote(zeroAddress, usdc, oneEther)
    await stage.anvil.testClient.setBalance({ address: stage.executor, value: 5n * oneEther })
    for (const value of [oneEther - 1n, 0n]) await expectInvalidValue(q.transaction.data, value)
    expect(await executorHoldings()).toEqual([5n * oneEther, 0n, 0n])
  })

  it('native input with more ether than amountIn: InvalidValue, the excess is not kept', async () => {
    const q = await quote(zeroAddress, usdc, oneEther)
    for (const value of [oneEther + 1n, 2n * oneEther, 1_000n * oneEther]) await expectInvalidValue(q.transaction.data, value)
    expect(await executorHoldings()).toEqual([0n, 0n, 0n])
  })

  it('ERC-20 input with ether attached: InvalidValue', async () => {
    const q = await quote(usdc, zeroAddress, 3_000n * 10n ** 6n)
    expect(q.transaction.value).toBe('0')
    for (const value of [1n, oneEther]) await expectInvalidValue(q.transaction.data, value)
    const toWeth = await quote(usdc, weth, 3_000n * 10n ** 6n)
    await expectInvalidValue(toWeth.transaction.data, 1n)
    expect(await executorHoldings()).toEqual([0n, 0n, 0n])
  })

  it('wrapping and unwrapping with the wrong value: InvalidValue', async () => {
    const wrap = await quote(zeroAddress, weth, oneEther)
    for (const value of [0n, oneEther - 1n, oneEther + 1n]) await expectInvalidValue(wrap.transaction.data, value)
    const unwrap = await quote(weth, zeroAddress, oneEther)
    for (const value of [1n, oneEther]) await expectInvalidValue(unwrap.transaction.data, value)
    expect(await executorHoldings()).toEqual([0n, 0n, 0n])
  })

  it('ether sent to the executor outside a fill is refused: plain transfer (UnexpectedEther), non-payable entry points', async () => {
    const plain = { from: stage.attacker, to: stage.executor, value: oneEther }
    expect((await stage.getRevert(plain))?.errorName).toBe('UnexpectedEther')
    expect((await stage.send(plain)).status).toBe('reverted')

    const nonPayable: Hex[] = [
      encodeFunctionData({ abi: weftExecutorAbi, functionName: 'uniswapV3SwapCallback', args: [0n, 0n, '0x'] }),
      encodeFunctionData({ abi: weftExecutorAbi, functionName: 'dexes', args: [0n] }),
      encodeFunctionData({ abi: weftExecutorAbi, functionName: 'weth' }),
    ]
    for (const data of nonPayable) {
      const tx = { from: stage.attacker, to: stage.executor, data, value: 1n }
      expect(await stage.getRevert(tx)).not.toBeNull()
      expect((await stage.send(tx)).status).toBe('reverted')
    }
    expect(await executorHoldings()).toEqual([0n, 0n, 0n])
  })
})
