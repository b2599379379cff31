import { type Address, zeroAddress } from 'viem'
import { tokensOfPool } from '../tokensOfPool.js'
import type { ReplayBundle } from './replayBundle.js'

/**
 * A bundle keeping only the pools a quote of its intent can use: those whose every token is the
 * sell or buy token, a major token (the router's connectors, which also price gas and USD), a USD
 * stablecoin, the wrapped native token or the native token. A live source tracking thousands of
 * pools then gives a bundle of tens. It is a candidate only: `recordQuote` keeps it when it replays
 * to the same Quote byte for byte, and the whole bundle otherwise.
 *
 * @example
 * const small = trimReplayBundle(bundle)
 * if ((await replayQuote(small)).matches) bundle = small
 */
export function trimReplayBundle(bundle: ReplayBundle): ReplayBundle {
  const lower = (address: string) => address.toLowerCase() as Address
  const { chain, intent } = bundle
  const kept = new Set<Address>(
    [intent.sellToken, intent.buyToken, chain.wrappedNative.address, zeroAddress, ...chain.majorTokens, ...chain.usdStablecoins].map(lower),
  )
  const pools = bundle.liquidity.pools.filter((pool) => tokensOfPool(pool).every((token) => kept.has(token)))
  const used = new Set<Address>([...kept, ...pools.flatMap(tokensOfPool)])
  const tokens = bundle.liquidity.tokens.filter((token) => used.has(lower(token.address)))
  return { ...bundle, liquidity: { ...bundle.liquidity, pools, tokens } }
}
