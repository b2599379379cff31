import { type Address, type Hex, encodeFunctionData, prepareEncodeFunctionData, zeroAddress } from 'viem'
import type { ExecutorStep } from '../protocols/types.js'
import { QuoteError } from '../errors/QuoteError.js'
import { weftExecutorAbi } from './artifacts.js'

/**
 * One path of an order: its input share (0n: all the fill holds of its first token), its steps in
 * order, and the least its last step may deliver (measured by the executor; default 0n, no bound
 * beyond the order's own `minAmountOut`). `buildFillPaths` derives the minimums from a quote's plan.
 */
export type FillPath = { amountIn: bigint; minAmountOut?: bigint; steps: readonly ExecutorStep[] }

/** The executor's `Order`, typed. Addresses lowercase; `null` where the contract takes the zero address. */
export type FillOrder = {
  /** The quote id's 16 bytes. */
  id: Hex
  /** Zero address for native. */
  tokenIn: Address
  /** Zero address for native. */
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
  minAmountOut: bigint
  receiver: Address | null
  /** Unix time (seconds) after which the executor refuses the fill (`Expired`). */
  deadline: bigint
  feeOnOutput: boolean
  /** Fee shares; `rate` in units of 1e-7 (1 bps = 1000). */
  fees: readonly { recipient: Address; rate: bigint }[]
  surplusRecipient: Address | null
  surplusBps: number
  treasury: Address | null
  paths: readonly FillPath[]
}

/**
 * Calldata of `WeftExecutor.fill(order)`.
 *
 * @example
 * const data = buildFillCalldata({ id, tokenIn: usdc, tokenOut: weth, amountIn, amountOut, minAmountOut,
 *   receiver: null, deadline: BigInt(Math.floor(Date.now() / 1000) + 1800), feeOnOutput: false, fees: [],
 *   surplusRecipient: null, surplusBps: 0, treasury: null,
 *   paths: [{ amountIn, minAmountOut, steps: [pool.buildStep(usdc, weth)] }] })
 */
export function buildFillCalldata(order: FillOrder): Hex {
  try {
    return encodeOrder(order)
  } catch (error) {
    throw new QuoteError({ statusCode: 400, message: 'Invalid executor order: it does not fit the fill ABI', cause: error })
  }
}

/**
 * `fill`'s ABI entry and selector, found once: unprepared, viem looks the function up in the ABI and
 * hashes its signature on every call (a tenth of a small quote's time).
 */
let preparedFill: ReturnType<typeof prepareEncodeFunctionData<typeof weftExecutorAbi, 'fill'>> | undefined

function encodeOrder(order: FillOrder): Hex {
  preparedFill ??= prepareEncodeFunctionData({ abi: weftExecutorAbi, functionName: 'fill' })
  return encodeFunctionData({
    ...preparedFill,
    args: [
      {
        id: order.id,
        tokenIn: order.tokenIn,
        tokenOut: order.tokenOut,
        amountIn: order.amountIn,
        amountOut: order.amountOut,
        minAmountOut: order.minAmountOut,
        receiver: order.receiver ?? zeroAddress,
        deadline: order.deadline,
        feeOnOutput: order.feeOnOutput,
        fees: order.fees.map((f) => ({ recipient: f.recipient, rate: Number(f.rate) })),
        surplusRecipient: order.surplusRecipient ?? zeroAddress,
        surplusBps: order.surplusBps,
        treasury: order.treasury ?? zeroAddress,
        paths: order.paths.map((p) => ({
          amountIn: p.amountIn,
          minAmountOut: p.minAmountOut ?? 0n,
          steps: p.steps.map((s) => ({ dex: s.dex, tokenIn: s.tokenIn, tokenOut: s.tokenOut, param: s.param })),
        })),
      },
    ],
  })
}
