// Payee = executor: a fee recipient, surplus recipient, referral recipient, treasury or receiver
// equal to the executor strands what it is paid there (the reference server once returned such
// calldata). The SDK refuses a caller's payee with a 422 naming the parameter, a host's (treasury,
// app fee recipient) with a 500, and the executor refuses every such order on-chain.
import { type Address, type Hex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChainConfig,
  type QuoteIntent,
  QuoteError,
  createRpcSource,
  getQuote,
  normalizeIntent,
  parseQuoteParams,
} from '../../src/index.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type AttackDevnet, type AttackTx, buildAttackFill, startAttackDevnet, v2Step } from './support/attackDevnet.js'

const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const EXECUTOR_MESSAGE = 'must not be the executor contract (what it is paid would be stranded there)'

describe('payee = executor: refused by the SDK and by the executor', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  const amountIn = 1_000n * 10n ** 6n

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    await stage.devnet.approve('USDC', stage.user, stage.executor)
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const intent = (extra: Partial<QuoteIntent> = {}): QuoteIntent => ({
    chainId: stage.chain.id,
    sellToken: usdc,
    buyToken: weth,
    sellAmount: amountIn,
    ...extra,
  })
  const quoteError = async (promise: Promise<unknown>): Promise<QuoteError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(QuoteError)
    return error as QuoteError
  }

  describe('the SDK', () => {
    it('getQuote: every payee parameter equal to the executor is a 422 naming it (any letter case)', async () => {
      const executor = stage.executor
      const mixed = executor.toUpperCase().replace('0X', '0x') as Address
      const error = await quoteError(
        getQuote(
          intent({
            receiver: mixed,
            feeBps: 10,
            feeRecipient: executor,
            surplusFeeBps: 5_000,
            surplusFeeRecipient: executor,
            referralFeeBps: 5,
            referralFeeRecipient: executor,
          }),
          createRpcSource({ client: stage.anvil.publicClient, chain: stage.chain }),
          { chains: [stage.chain] },
        ),
      )
      expect(error.statusCode).toBe(422)
      expect(error.details).toEqual([
        { param: 'receiver', message: EXECUTOR_MESSAGE },
        { param: 'feeRecipient', message: EXECUTOR_MESSAGE },
        { param: 'surplusFeeRecipient', message: EXECUTOR_MESSAGE },
        { param: 'referralFeeRecipient', message: EXECUTOR_MESSAGE },
      ])
    })

    it('normalizeIntent and parseQuoteParams (the server) refuse it alike; another address passes', async () => {
      const executor = stage.executor
      const typed = await quoteError(Promise.resolve().then(() => normalizeIntent(intent({ feeBps: 10, feeRecipient: executor }), { chains: [stage.chain] })))
      expect(typed.statusCode).toBe(422)
      expect(typed.details).toEqual([{ param: 'feeRecipient', message: EXECUTOR_MESSAGE }])

      const query = { chainId: String(stage.chain.id), sellToken: usdc, buyToken: weth, sellAmount: String(amountIn), receiver: executor }
      const parsed = await quoteError(Promise.resolve().then(() => parseQuoteParams(query, { chains: [stage.chain] })))
      expect(parsed.statusCode).toBe(422)
      expect(parsed.details).toEqual([{ param: 'receiver', message: EXECUTOR_MESSAGE }])

      expect(normalizeIntent(intent({ feeBps: 10, feeRecipient: FEE_RECIPIENT }), { chains: [stage.chain] }).fee).toEqual({ bps: 10, recipient: FEE_RECIPIENT })
    })

    it('a host whose treasury is the executor gets a 500 (its config, not the caller’s request)', async () => {
      const chain: ChainConfig = { ...stage.chain, treasury: stage.executor }
      const error = await quoteError(
        getQuote(intent(), createRpcSource({ client: stage.anvil.publicClient, chain }), { chains: [chain] }),
      )
      expect(error.statusCode).toBe(500)
      expect(error.message).toMatch(/is the executor/)
    })
  })

  describe('the executor', () => {
    const fromUser = (data: Hex): AttackTx => ({ from: stage.user, to: stage.executor, data })
    /** A real USDC -> WETH swap on the V2 pair, with whatever payees `extra` names. */
    const order = (extra: Parameters<typeof buildAttackFill>[0] extends infer O ? Partial<O> : never) =>
      buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v2Step(stage, usdc, weth)] }], ...extra })

    const expectRefused = async (data: Hex, error: string, args: readonly unknown[]) => {
      const revert = await stage.getRevert(fromUser(data))
      expect(revert?.errorName).toBe(error)
      expect(revert?.args).toEqual(args)
      const everyone = () => stage.readBalances([['USDC', stage.user], ['WETH', stage.user], ['USDC', stage.executor], ['WETH', stage.executor]])
      const before = await everyone()
      expect((await stage.send(fromUser(data))).status).toBe('reverted')
      expect(await everyone()).toEqual(before)
    }

    it('control: the same order with other payees fills', async () => {
      await stage.sendOk(
        'honest fill',
        fromUser(
          order({ feeOnOutput: true, fees: [{ recipient: FEE_RECIPIENT, rate: 10_000n }], surplusRecipient: FEE_RECIPIENT, surplusBps: 100, treasury: FEE_RECIPIENT }),
        ),
      )
      expect(await stage.readBalances([['USDC', stage.executor], ['WETH', stage.executor]])).toEqual([0n, 0n])
    })

    it('a fee recipient (input- or output-side), the surplus recipient, the treasury or the receiver equal to the executor: refused', async () => {
      const executor = stage.executor
      await expectRefused(order({ fees: [{ recipient: FEE_RECIPIENT, rate: 1_000n }, { recipient: executor, rate: 10_000n }] }), 'InvalidPayee', [1])
      await expectRefused(order({ feeOnOutput: true, fees: [{ recipient: executor, rate: 10_000n }] }), 'InvalidPayee', [1])
      // Even a zero-rate share naming the executor: the order is malformed either way.
      await expectRefused(order({ fees: [{ recipient: executor, rate: 0n }] }), 'InvalidPayee', [1])
      await expectRefused(order({ surplusRecipient: executor, surplusBps: 5_000 }), 'InvalidPayee', [2])
      await expectRefused(order({ treasury: executor }), 'InvalidPayee', [3])
      await expectRefused(order({ receiver: executor }), 'InvalidReceiver', [])
    })
  })
})
