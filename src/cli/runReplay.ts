import type { Address } from 'viem'
import { invalidParams } from '../errors/QuoteError.js'
import { WEFT_VERSION } from '../liquidity/live/replayBundle.js'
import { replayQuote } from '../liquidity/live/replayQuote.js'
import type { TokenInfo } from '../chains/types.js'
import { getFeeTiers } from './recordLiquidity.js'
import { formatQuote } from './formatQuote.js'

/** What `weft replay` prints, and its verdict: 0 the same Quote as recorded (or none recorded), 1 another one. */
export type ReplayOutput = { stdout: string; stderr: string | undefined; code: 0 | 1 }

/**
 * `weft replay`: the text of a bundle file, replayed (`replayQuote`), as the CLI prints it: the
 * Quote's summary (or its JSON with `json`), then whether it is byte for byte the recorded one.
 * Throws a 400 QuoteError when the text is not a valid bundle.
 *
 * @example
 * const { stdout, code } = await formatReplay(await readFile('bundle.json', 'utf8'), { json: false })
 */
export async function formatReplay(text: string, { json }: { json: boolean }): Promise<ReplayOutput> {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw invalidParams([{ param: 'bundle', message: `is not JSON (${error instanceof Error ? error.message : String(error)})` }])
  }
  const { quote, bundle, matches, firstDifference } = await replayQuote(data)
  const differs =
    matches === false
      ? `the replayed quote differs from the recorded one at ${firstDifference} (recorded with weft ${bundle.weftVersion}, replayed with ${WEFT_VERSION})`
      : undefined
  if (json) return { stdout: JSON.stringify(quote, null, 2), stderr: differs, code: differs ? 1 : 0 }
  const { chain, liquidity, intent } = bundle
  const tokens: TokenInfo[] = [...chain.tokens, ...liquidity.tokens.map((t) => ({ ...t, address: t.address.toLowerCase() as Address }))]
  const summary = formatQuote(quote, tokens, {
    intent,
    chain,
    feeTiers: getFeeTiers(liquidity, chain),
    ...(liquidity.gasPriceWei !== undefined ? { gasPriceWei: liquidity.gasPriceWei } : {}),
  })
  const head = `replay of a quote on ${chain.name} at block ${liquidity.blockNumber} (${liquidity.pools.length} pool${liquidity.pools.length === 1 ? '' : 's'}), recorded with weft ${bundle.weftVersion}`
  const verdict = matches === undefined ? 'the bundle holds no recorded quote to compare with' : matches ? 'identical to the recorded quote, byte for byte' : differs!
  return { stdout: `${head}\n\n${summary}\n\n${verdict}`, stderr: undefined, code: differs ? 1 : 0 }
}
