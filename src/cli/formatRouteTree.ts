import type { TokenInfo } from '../chains/types.js'
import type { Quote } from '../quote/types.js'
import {
  createTokenDescriber,
  formatFeeTier,
  formatShare,
  formatSymbol,
  formatTokenAmount,
  getShares,
  shortenHex,
} from './formatParts.js'

export type FormatRouteTreeOptions = {
  /**
   * Fee tier of each pool by pool key or address (lowercase), in hundredths of
   * a bip: a V3 pool's `fee`, a V2 pool's fee bps × 100. Pools not listed show none.
   */
  feeTiers?: ReadonlyMap<string, number>
}

/**
 * The quote's route as a text tree: a header with the route's total amounts,
 * one branch per path with its share of the route's input (shares add up to
 * exactly 100.00%) and its token sequence, and under it one line per swap:
 * protocol/fork, fee tier when known, the pool key shortened, amounts in and
 * out. `tokens` describes tokens the quote's own `tokens` list does not (the
 * wrapped native token of a native trade's hops). No trailing newline.
 *
 * @example
 * formatRouteTree(quote, getTokenBook(base, defaultSnapshot))
 * // route: 1 path, 1.5 WETH -> 4498.968053 USDC
 * // └─ 100.00%  WETH -> USDC
 * //    └─ Uniswap V3/UniswapV3  0.05%  0xb4cb…00e5  1.5 WETH -> 4498.968053 USDC
 */
export function formatRouteTree(quote: Quote, tokens: readonly TokenInfo[] = [], options: FormatRouteTreeOptions = {}): string {
  const describe = createTokenDescriber(quote.tokens, tokens)
  const paths = quote.route.swaps.filter((path) => path.length > 0)
  const first = paths[0]?.[0]
  const last = paths[0]?.at(-1)
  const tokenIn = first?.tokenIn
  const tokenOut = last?.tokenOut
  const amount = (raw: string, token: string | undefined) => (token ? formatTokenAmount(raw, token, describe) : raw)
  const lines = [
    `route: ${paths.length} path${paths.length === 1 ? '' : 's'}, ${amount(quote.route.amountIn, tokenIn)} -> ${amount(quote.route.amountOut, tokenOut)}`,
  ]

  const shares = getShares(paths.map((path) => BigInt(path[0]!.amountIn)))
  const feeOf = (key: string, address: string) => options.feeTiers?.get(key.toLowerCase()) ?? options.feeTiers?.get(address.toLowerCase())
  const venues = paths.map((path) => path.map((s) => `${s.protocol}/${s.fork}`))
  const tiers = paths.map((path) => path.map((s) => feeOf(s.key, s.address)).map((f) => (f === undefined ? '' : formatFeeTier(f))))
  const keys = paths.map((path) => path.map((s) => shortenHex(s.key)))
  const width = (table: string[][]) => Math.max(0, ...table.flat().map((t) => t.length))
  const [venueWidth, tierWidth, keyWidth] = [width(venues), width(tiers), width(keys)]

  paths.forEach((path, p) => {
    const lastPath = p === paths.length - 1
    const hops = [path[0]!.tokenIn, ...path.map((s) => s.tokenOut)].map((t) => formatSymbol(t, describe)).join(' -> ')
    const pathIn = formatTokenAmount(path[0]!.amountIn, path[0]!.tokenIn, describe)
    const pathOut = formatTokenAmount(path.at(-1)!.amountOut, path.at(-1)!.tokenOut, describe)
    lines.push(`${lastPath ? '└─' : '├─'} ${formatShare(shares[p]!).padStart(7)}  ${hops}  (${pathIn} -> ${pathOut})`)
    path.forEach((swap, s) => {
      const columns = [
        venues[p]![s]!.padEnd(venueWidth),
        ...(tierWidth > 0 ? [tiers[p]![s]!.padStart(tierWidth)] : []),
        keys[p]![s]!.padEnd(keyWidth),
        `${formatTokenAmount(swap.amountIn, swap.tokenIn, describe)} -> ${formatTokenAmount(swap.amountOut, swap.tokenOut, describe)}`,
      ]
      lines.push(`${lastPath ? '   ' : '│  '}${s === path.length - 1 ? '└─' : '├─'} ${columns.join('  ')}`)
    })
  })
  return lines.join('\n')
}
