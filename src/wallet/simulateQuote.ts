import { type Address, BaseError, type Client } from 'viem'
import { QuoteError, unavailable } from '../errors/QuoteError.js'
import type { Quote } from '../quote/types.js'

/**
 * The recommended gas limit is the simulated gas plus this share (25%): inside the 20–50% the
 * spec's integration notes ask for, enough for the state to move a little (a tick crossed, a
 * first swap in a block writing an oracle slot) between simulation and inclusion.
 *
 * @example
 * const gas = simulated.gasUsed + (simulated.gasUsed * RECOMMENDED_GAS_MARGIN_PERCENT + 99n) / 100n // = simulated.gasLimit
 */
export const RECOMMENDED_GAS_MARGIN_PERCENT = 25n

export type SimulateQuoteParameters = {
  /** A viem client of the quote's chain. */
  client: Client
  /** The quote to check, as getQuote returned it (or parsed from the wire). */
  quote: Quote
  /** The account that will send the approval and the fill. */
  sender: Address
  /**
   * `auto` (default): eth_simulateV1, falling back to eth_call when the node does not have it.
   * Or force one of them.
   */
  method?: 'auto' | 'eth_simulateV1' | 'eth_call'
  /**
   * Give the sender the input through a state override when it holds less (native: its balance;
   * ERC-20: the balance slot, found with eth_createAccessList), so an unfunded sender can be checked.
   * Default false: the simulation runs on the sender's real balance.
   */
  assumeBalance?: boolean
  /** The block to simulate on top of (default: latest). */
  blockNumber?: bigint
}

/** A fee as the simulation paid it. */
export type SimulatedFee = { token: Address; recipient: Address; amount: bigint }

export type SimulateQuoteReturnType = {
  /** Which RPC method ran the simulation. */
  method: 'eth_simulateV1' | 'eth_call'
  /** Who receives the output (the sender when the quote has no receiver). */
  receiver: Address
  /** What the receiver's balance of the buy token (native for 0x0) grows by. */
  amountOut: bigint
  /** Each fee of `quote.fees`, in its order, as its recipient's balance grows by it. */
  fees: SimulatedFee[]
  /** True when `amountOut` and every fee equal the quote's, to the wei. */
  matchesQuote: boolean
  /**
   * Gas of the fill transaction. eth_simulateV1: what the node reports for the call, the
   * receipt's gasUsed. eth_call: intrinsic gas plus the gas measured around the fill inside
   * the call (no refunds counted), so it errs high.
   */
  gasUsed: bigint
  /** `gasUsed` plus RECOMMENDED_GAS_MARGIN_PERCENT, rounded up. */
  gasLimit: bigint
  /** Gas of the approval transaction (eth_simulateV1 only; null without approval or through eth_call). */
  approvalGasUsed: bigint | null
}

/**
 * Simulates a quote's approval and fill together, as `sender` would send them, on the latest
 * state: through `eth_simulateV1` (both calls in one simulated block) where the node has it,
 * otherwise through one `eth_call` that runs the approval and the fill at the sender's address
 * (a code state override). Returns what the receiver gets, each fee, the fill's gas and a
 * recommended gas limit (+25%). A revert throws `SimulationRevertedError` (422) with the decoded
 * executor, pool or token error; a node failure is a 503; a malformed quote or sender a 400.
 *
 * @example
 * const quote = await getQuote(intent, source, { sender })
 * const simulated = await simulateQuote({ client: publicClient, quote, sender })
 * console.log(simulated.amountOut, simulated.gasLimit, simulated.matchesQuote)
 */
export async function simulateQuote(parameters: SimulateQuoteParameters): Promise<SimulateQuoteReturnType> {
  try {
    // Loaded on first use: a page that only quotes never downloads the simulation.
    const { runSimulation } = await import('./runSimulation.js')
    return await runSimulation(parameters)
  } catch (error) {
    if (error instanceof QuoteError) throw error
    // The node refuses the call itself (not a revert): the sender lacks the native value it sends.
    if (isInsufficientFunds(error))
      throw new QuoteError({ statusCode: 422, message: 'The sender cannot pay the fill: insufficient funds for its value', cause: error })
    throw unavailable('The node could not simulate the fill', error)
  }
}

/** The node refused to run the call (not a revert): the sender lacks the native value it sends. */
function isInsufficientFunds(error: unknown): boolean {
  const matches = (e: unknown) => /insufficient funds/i.test(String((e as { details?: unknown }).details ?? (e as { message?: unknown }).message ?? ''))
  return error instanceof BaseError ? error.walk(matches) !== null : false
}
