import { type Address, zeroAddress } from 'viem'
import type { QuoteIntent } from '../../src/index.js'
import type { Devnet } from '../devnet/deployDevnet.js'
import type { DevnetSymbol } from '../devnet/universe.js'

/** A side of a devnet trade: a devnet token by symbol, or native ether. */
export type DevnetSide = DevnetSymbol | 'ETH'

/** A devnet trade of `usd` dollars' worth: exact input of `sell`, or exact output of `buy`. */
export type DevnetTrade = { sell: DevnetSide; buy: DevnetSide; usd: number; kind: 'exactIn' | 'exactOut' }

/**
 * A side's address in an intent: the devnet token's, or the zero address for ether.
 *
 * @example
 * getDevnetSideAddress(devnet, 'ETH') // '0x0000000000000000000000000000000000000000'
 */
export function getDevnetSideAddress(devnet: Devnet, side: DevnetSide): Address {
  return side === 'ETH' ? zeroAddress : devnet.tokens[side].address
}

/**
 * `usd` dollars of a side in raw units at its devnet price (ether at WETH's), rounded down to
 * twelve decimals (a float holds no more) and never below one unit of the twelfth.
 *
 * @example
 * getDevnetUsdAmount(devnet, 'USDC', 1_000) // 1_000_000_000n
 */
export function getDevnetUsdAmount(devnet: Devnet, side: DevnetSide, usd: number): bigint {
  const token = devnet.tokens[side === 'ETH' ? 'WETH' : side]
  const whole = usd / token.priceUsd
  const digits = Math.min(token.decimals, 12)
  return BigInt(Math.max(1, Math.floor(whole * 10 ** digits))) * 10n ** BigInt(token.decimals - digits)
}

/**
 * The intent of a devnet trade as the end-to-end quote tests send it: 50 bps slippage, no price
 * impact limit (100%), and `extra` (a receiver, fees) on top.
 *
 * @example
 * const intent = buildDevnetIntent(devnet, chain.id, { sell: 'ETH', buy: 'USDC', usd: 5_000, kind: 'exactIn' }, { feeBps: 25, feeRecipient })
 */
export function buildDevnetIntent(devnet: Devnet, chainId: number, trade: DevnetTrade, extra: Partial<QuoteIntent> = {}): QuoteIntent {
  const { sell, buy, usd, kind } = trade
  return {
    chainId,
    sellToken: getDevnetSideAddress(devnet, sell),
    buyToken: getDevnetSideAddress(devnet, buy),
    ...(kind === 'exactIn' ? { sellAmount: getDevnetUsdAmount(devnet, sell, usd) } : { buyAmount: getDevnetUsdAmount(devnet, buy, usd) }),
    slippageBps: 50,
    priceImpactLimitBps: 10_000,
    ...extra,
  }
}
