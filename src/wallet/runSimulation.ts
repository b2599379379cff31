// simulateQuote's implementation, loaded on first use (see simulateQuote.ts for the contract).
import {
  type Address,
  type BlockTag,
  type Client,
  type Hex,
  type StateOverride,
  BaseError,
  decodeFunctionData,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  hexToBigInt,
  isAddress,
  isHex,
  numberToHex,
  size,
  zeroAddress,
} from 'viem'
import { call } from 'viem/actions'
import { QuoteError, invalidParams, unavailable } from '../errors/QuoteError.js'
import { SimulationRevertedError } from '../errors/SimulationRevertedError.js'
import { weftExecutorAbi } from '../executor/artifacts.js'
import type { Quote } from '../quote/types.js'
import { decodeFillRevert } from './decodeFillRevert.js'
import { getBalanceOverride } from './getBalanceOverride.js'

import { RECOMMENDED_GAS_MARGIN_PERCENT, type SimulateQuoteParameters, type SimulateQuoteReturnType } from './simulateQuote.js'

/**
 * Where eth_simulateV1 runs the balance reader (FillProbe's code, by state override): an address
 * with no key and no code ("weft balance reader" in hex-speak), so nothing real is shadowed.
 */
const BALANCE_READER = '0x00000000000000000000000000000000ba1a9ce5' as Address

type Watch = { token: Address; account: Address }

/**
 * Runs the simulation `simulateQuote` describes; throws what it throws, and any other error for
 * simulateQuote to turn into a 503.
 *
 * @example
 * const simulated = await runSimulation({ client, quote, sender })
 */
export async function runSimulation({ client, quote, sender, method = 'auto', assumeBalance = false, blockNumber }: SimulateQuoteParameters): Promise<SimulateQuoteReturnType> {
  const plan = planSimulation(quote, sender)
  const block = blockNumber === undefined ? { blockTag: 'latest' as BlockTag } : { blockNumber }
  const overrides: StateOverride = []
  if (assumeBalance) {
    const given = await getBalanceOverride({ client, token: plan.tokenIn, holder: plan.sender, amount: plan.amountIn, block })
    if (given === null) throw unavailable(`Cannot find the balance slot of ${plan.tokenIn} to give the sender its input`)
    overrides.push(...given)
  }
  if (method !== 'eth_call') {
    try {
      return await simulateWithSimulateV1(client, plan, overrides, block)
    } catch (error) {
      if (method === 'eth_simulateV1' || !isMethodMissing(error)) throw error
    }
  }
  return simulateWithCall(client, plan, overrides, block)
}

type SimulationPlan = {
  sender: Address
  receiver: Address
  tokenIn: Address
  amountIn: bigint
  approval: { token: Address; spender: Address; amount: bigint } | null
  transaction: { to: Address; data: Hex; value: bigint }
  watches: Watch[]
  quote: Quote
}

/** Reads what the simulation needs from the quote, its calldata first (the receiver is in it). */
function planSimulation(quote: Quote, sender: Address): SimulationPlan {
  if (typeof sender !== 'string' || !isAddress(sender, { strict: false })) throw invalidParams([{ param: 'sender', message: 'must be an address' }])
  const transaction = quote?.transaction
  if (!transaction || !isAddress(transaction.to ?? '', { strict: false }) || !isHex(transaction.data) || !/^\d+$/.test(String(transaction.value)))
    throw invalidParams([{ param: 'quote.transaction', message: 'must be { to, data, value } as getQuote returns it' }])
  const notAFill = (cause?: unknown) =>
    new QuoteError({ statusCode: 400, message: 'quote.transaction.data is not a WeftExecutor fill', details: [{ param: 'quote.transaction.data', message: 'must be fill(order) calldata' }], cause })
  let decoded
  try {
    decoded = decodeFunctionData({ abi: weftExecutorAbi, data: transaction.data })
  } catch (error) {
    throw notAFill(error)
  }
  if (decoded.functionName !== 'fill') throw notAFill()
  const [order] = decoded.args
  const from = getAddress(sender)
  const receiver = order.receiver === zeroAddress ? from : getAddress(order.receiver)
  const value = BigInt(transaction.value)
  const approval = quote.approval ? { token: getAddress(quote.approval.token), spender: getAddress(quote.approval.spender), amount: BigInt(quote.approval.amount) } : null
  const watches: Watch[] = [
    { token: order.tokenOut, account: receiver },
    ...(quote.fees ?? []).map((fee) => ({ token: getAddress(fee.token), account: getAddress(fee.recipient) })),
  ]
  return {
    sender: from,
    receiver,
    tokenIn: order.tokenIn,
    amountIn: order.amountIn,
    approval,
    transaction: { to: getAddress(transaction.to), data: transaction.data, value },
    watches,
    quote,
  }
}

async function simulateWithSimulateV1(
  client: Client,
  plan: SimulationPlan,
  overrides: StateOverride,
  block: { blockTag: BlockTag } | { blockNumber: bigint },
): Promise<SimulateQuoteReturnType> {
  const { fillProbeAbi } = await import('../executor/lensArtifacts.js')
  // Not every node simulates contract creations (anvil needs a `to`): the reader sits at a spare
  // address through a code override instead, and is called from it.
  const readBalances = {
    from: BALANCE_READER,
    to: BALANCE_READER,
    data: encodeFunctionData({ abi: fillProbeAbi, functionName: 'balances', args: [plan.watches] }),
  }
  const approve = plan.approval
    ? [{ from: plan.sender, to: plan.approval.token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [plan.approval.spender, plan.approval.amount] }) }]
    : []
  const fill = { from: plan.sender, to: plan.transaction.to, data: plan.transaction.data, value: numberToHex(plan.transaction.value) }
  const blocks = await client.request({
    method: 'eth_simulateV1',
    params: [
      {
        // An empty block first: the calls then run in a block strictly later than the latest one,
        // as a sent transaction will. (anvil simulates its first block at the latest block's own
        // timestamp, where a pool that traded in that block skips its oracle write: less gas than
        // the real fill, and a gas limit that runs out.)
        blockStateCalls: [
          { calls: [] },
          {
            calls: [readBalances, ...approve, fill, readBalances],
            stateOverrides: toRpcOverrides([...overrides, { address: BALANCE_READER, code: await getFillProbeRuntime(client) }]),
          },
        ],
        validation: false,
      },
      'blockNumber' in block ? numberToHex(block.blockNumber) : block.blockTag,
    ],
  })
  const calls = blocks[1]?.calls ?? []
  const [before, approval, filled, after] = plan.approval ? calls : [calls[0], undefined, calls[1], calls[2]]
  if (!before || !filled || !after || (plan.approval && !approval)) throw unavailable('eth_simulateV1 answered without every call')
  const failed = (result: { status: Hex; returnData: Hex }) => hexToBigInt(result.status) !== 1n
  if (failed(before) || failed(after)) throw unavailable('eth_simulateV1 could not read the balances')
  if (approval && failed(approval)) throw new SimulationRevertedError('approval', decodeFillRevert(approval.returnData))
  if (failed(filled)) throw new SimulationRevertedError('fill', decodeFillRevert(filled.returnData))
  const balancesBefore = decodeFunctionResult({ abi: fillProbeAbi, functionName: 'balances', data: before.returnData })
  const balancesAfter = decodeFunctionResult({ abi: fillProbeAbi, functionName: 'balances', data: after.returnData })
  return outcome(plan, 'eth_simulateV1', balancesBefore, balancesAfter, hexToBigInt(filled.gasUsed), approval ? hexToBigInt(approval.gasUsed) : null)
}

/** FillProbe's runtime code, from one deployless eth_call of its creation code (the same on every EVM). */
let fillProbeRuntime: Promise<Hex> | undefined

async function getFillProbeRuntime(client: Client): Promise<Hex> {
  const { fillProbeBytecode } = await import('../executor/lensArtifacts.js')
  fillProbeRuntime ??= call(client, { data: fillProbeBytecode }).then((result) => {
    if (!result.data || size(result.data) === 0) throw new Error('FillProbe creation returned no code')
    return result.data
  })
  return fillProbeRuntime.catch((error: unknown) => {
    fillProbeRuntime = undefined
    throw error
  })
}

async function simulateWithCall(
  client: Client,
  plan: SimulationPlan,
  overrides: StateOverride,
  block: { blockTag: BlockTag } | { blockNumber: bigint },
): Promise<SimulateQuoteReturnType> {
  const { fillProbeAbi } = await import('../executor/lensArtifacts.js')
  const runtime = await getFillProbeRuntime(client)
  const senderOverride = overrides.find((o) => o.address.toLowerCase() === plan.sender.toLowerCase())
  const stateOverride: StateOverride = [
    ...overrides.filter((o) => o !== senderOverride),
    { ...senderOverride, address: plan.sender, code: runtime },
  ]
  const data = encodeFunctionData({
    abi: fillProbeAbi,
    functionName: 'run',
    args: [
      {
        approveToken: plan.approval?.token ?? zeroAddress,
        approveAmount: plan.approval?.amount ?? 0n,
        target: plan.transaction.to,
        value: plan.transaction.value,
        data: plan.transaction.data,
      },
      plan.watches,
    ],
  })
  const result = await call(client, { account: plan.sender, to: plan.sender, data, stateOverride, ...block })
  const probed = decodeFunctionResult({ abi: fillProbeAbi, functionName: 'run', data: result.data ?? '0x' })
  if (probed.stage === APPROVAL_FAILED) throw new SimulationRevertedError('approval', decodeFillRevert(probed.result))
  if (probed.stage === FILL_REVERTED) throw new SimulationRevertedError('fill', decodeFillRevert(probed.result))
  const gasUsed = getIntrinsicGas(plan.transaction.data) + probed.fillGas
  return outcome(plan, 'eth_call', probed.before, probed.afterwards, gasUsed, null)
}

/** FillProbe's `Outcome.stage` values. */
const APPROVAL_FAILED = 1
const FILL_REVERTED = 2

/** A transaction's base cost and its calldata's (4 gas per zero byte, 16 per other byte). */
function getIntrinsicGas(data: Hex): bigint {
  let gas = 21_000n
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === '00' ? 4n : 16n
  return gas
}

function outcome(
  plan: SimulationPlan,
  method: SimulateQuoteReturnType['method'],
  before: readonly bigint[],
  after: readonly bigint[],
  gasUsed: bigint,
  approvalGasUsed: bigint | null,
): SimulateQuoteReturnType {
  const grew = plan.watches.map((watch, i) => {
    let delta = after[i]! - before[i]!
    // The sender paid the native input out of the same balance (simulations charge no gas).
    if (watch.token === zeroAddress && watch.account === plan.sender) delta += plan.transaction.value
    return delta
  })
  const [amountOut, ...feeAmounts] = grew
  const fees = plan.watches.slice(1).map((watch, i) => ({ token: watch.token, recipient: watch.account, amount: feeAmounts[i]! }))
  const matchesQuote = amountOut === BigInt(plan.quote.amountOut) && fees.every((fee, i) => fee.amount === BigInt(plan.quote.fees[i]!.amount))
  const margin = gasUsed * RECOMMENDED_GAS_MARGIN_PERCENT
  const gasLimit = gasUsed + margin / 100n + (margin % 100n === 0n ? 0n : 1n)
  return { method, receiver: plan.receiver, amountOut: amountOut!, fees, matchesQuote, gasUsed, gasLimit, approvalGasUsed }
}

/** eth_simulateV1 takes state overrides keyed by address, in RPC form. */
function toRpcOverrides(overrides: StateOverride) {
  if (overrides.length === 0) return undefined
  return Object.fromEntries(
    overrides.map((o) => [
      o.address,
      {
        ...(o.balance === undefined ? {} : { balance: numberToHex(o.balance) }),
        ...(o.code === undefined ? {} : { code: o.code }),
        ...(o.stateDiff === undefined ? {} : { stateDiff: Object.fromEntries(o.stateDiff.map((d) => [d.slot, d.value])) }),
      },
    ]),
  )
}

/** The node does not serve eth_simulateV1 (method not found, not supported, disabled). */
function isMethodMissing(error: unknown): boolean {
  const codes = new Set([-32601, -32004])
  const matches = (e: unknown) => {
    const code = (e as { code?: unknown }).code
    const message = (e as { message?: unknown }).message
    return (typeof code === 'number' && codes.has(code)) || (typeof message === 'string' && /method.*(not (found|supported|available|exist))|does not exist|unsupported method/i.test(message))
  }
  if (error instanceof BaseError) return error.walk(matches) !== null
  return error !== null && typeof error === 'object' && matches(error)
}
