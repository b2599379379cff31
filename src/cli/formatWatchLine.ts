import type { Quote } from '../quote/types.js'
import { formatAmount } from './amounts.js'
import { type DescribeToken, formatTokenAmount, shortenHex } from './formatParts.js'

/**
 * One block's quote on one line, for `weft quote --watch`: the block, what is sold and bought,
 * the minimum, price impact, the gas estimate, then each path's pools (`+` between paths). The
 * time is how long the quote took (the live source answers from memory).
 *
 * @example
 * formatWatchLine(quote, describe, 1.2)
 * // block 1234  1.5 WETH -> 4477.112 USDC  min 4432.34  impact 0.31 bps  gas 121,000  via 0x1a2b…3c4d  1.2 ms
 */
export function formatWatchLine(quote: Quote, describe: DescribeToken, elapsedMs: number): string {
  const sellToken = quote.route.swaps[0]?.[0]?.tokenIn ?? ''
  const lastSwap = quote.route.swaps[0]?.at(-1)
  const buyToken = lastSwap?.tokenOut ?? ''
  const buyDecimals = describe(buyToken)?.decimals
  const minimum = buyDecimals === undefined ? `${quote.minimumAmountOut} (raw)` : formatAmount(quote.minimumAmountOut, buyDecimals)
  const paths = quote.route.swaps.map((path) => path.map((swap) => shortenHex(swap.key)).join(' > ')).join(' + ')
  return [
    `block ${quote.blockNumber}`,
    `${formatTokenAmount(quote.amountIn, sellToken, describe)} -> ${formatTokenAmount(quote.amountOut, buyToken, describe)}`,
    `min ${minimum}`,
    `impact ${quote.priceImpactBps} bps`,
    `gas ${quote.gasEstimate.toLocaleString('en-US')}`,
    `via ${paths}`,
    `${elapsedMs.toFixed(1)} ms`,
  ].join('  ')
}
