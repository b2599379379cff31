import type { Address, Hex } from 'viem'

/** A base-10 integer in a string, in the token's smallest unit. */
export type DecString = string

/** Token of `Quote.tokens` (quote-api.md). */
export type Token = {
  address: Address
  symbol: string
  decimals: number
  transferFeeBps: number
  priceUsd: number | null
}

/** One swap of a path (quote-api.md). */
export type Swap = {
  key: string
  address: Address
  protocol: string
  fork: string
  tokenIn: Address
  tokenOut: Address
  amountIn: DecString
  amountOut: DecString
}

/** The route: paths (each an ordered list of swaps) and its gross amounts. */
export type Route = {
  swaps: Swap[][]
  amountIn: DecString
  amountOut: DecString
}

/** Exact ERC-20 approval the fill needs; `null` for native input. */
export type Approval = {
  token: Address
  amount: DecString
  spender: Address
}

/** The transaction to sign and send. */
export type Transaction = {
  to: Address
  data: Hex
  value: DecString
}

/** A fee known at quote time (integrator, referral or service). */
export type Fee = {
  token: Address
  amount: DecString
  recipient: Address
}

/** A chain of `listChains()`. */
export type Chain = {
  id: number
  name: string
}

/**
 * The Quote, field for field as quote-api.md names it. `JSON.stringify(quote)`
 * is the wire body.
 */
export type Quote = {
  blockNumber: number
  amountIn: DecString
  amountOut: DecString
  minimumAmountOut: DecString
  price: number | null
  priceImpactBps: number
  description: string
  tokens: Token[]
  route: Route
  approval: Approval | null
  transaction: Transaction
  gasEstimate: number
  fees: Fee[]
  id: string
  appId: string | null
}

/**
 * A swap intent, typed. `parseQuoteParams` builds one from query-string
 * values; hosts may also build it directly. Exactly one of `sellAmount` and
 * `buyAmount`. Addresses in any case; the zero address is the native token.
 */
export type QuoteIntent = {
  chainId: number
  sellToken: Address
  buyToken: Address
  sellAmount?: bigint
  buyAmount?: bigint
  /** Default 100. */
  slippageBps?: number
  /** Default 1000. */
  priceImpactLimitBps?: number
  receiver?: Address
  feeBps?: number
  feeRecipient?: Address
  surplusFeeBps?: number
  surplusFeeRecipient?: Address
  referralFeeBps?: number
  referralFeeRecipient?: Address
  /** The caller's `x-app-id`, or null. */
  appId?: string | null
}

/** A fee share of a validated intent. */
export type FeeShareIntent = { bps: number; recipient: Address }

/** A validated intent: lowercase addresses, defaults applied, fee pairs joined. */
export type NormalizedIntent = {
  chainId: number
  sellToken: Address
  buyToken: Address
  kind: 'exactIn' | 'exactOut'
  /** sellAmount for exactIn, buyAmount for exactOut. */
  amount: bigint
  slippageBps: number
  priceImpactLimitBps: number
  receiver: Address | null
  fee: FeeShareIntent | null
  referralFee: FeeShareIntent | null
  surplusFee: FeeShareIntent | null
  appId: string | null
}
