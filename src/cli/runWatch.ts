import { type Address, type PublicClient, zeroAddress } from 'viem'
import type { ChainConfig, TokenInfo } from '../chains/types.js'
import { QuoteError } from '../errors/QuoteError.js'
import { createLiveSource } from '../liquidity/live/createLiveSource.js'
import { getQuote } from '../quote/getQuote.js'
import type { QuoteIntent } from '../quote/types.js'
import { createTokenDescriber } from './formatParts.js'
import { formatWatchLine } from './formatWatchLine.js'

/** What `weft quote --watch` needs: the node, the request, and how it is told to stop. */
export type RunWatchParameters = {
  client: PublicClient
  chain: ChainConfig
  intent: QuoteIntent
  /** Tokens known on the chain, for symbols. */
  tokens: readonly TokenInfo[]
  /** First block the live source scans for pool creations. */
  fromBlock: bigint
  /** How often the node is asked for a new block (ms). */
  intervalMs: number
  /** Stop after this many quoted blocks (undefined: until stopped). */
  maxBlocks: number | undefined
  json: boolean
  sender: Address | undefined
  out: (text: string) => void
  err: (text: string) => void
  /** Subscribes to the user's stop (Ctrl-C, end of input); returns the unsubscribe. */
  onStop: (listener: () => void) => () => void
}

/**
 * Follows the chain with a live source tracking the pair's pools (and the chain's major tokens),
 * and quotes again every time it reaches a new block: one line per block (`--json`: one Quote
 * JSON per line). A failed quote or sync is printed for its block and the watch goes on; only a
 * failure before the first block ends it (exit code 1). Resolves to 0 once stopped.
 *
 * @example
 * await runWatch({ client, chain: base, intent, tokens, fromBlock: 0n, intervalMs: 1000, maxBlocks: undefined, json: false, sender: undefined, out: console.log, err: console.error, onStop })
 */
export async function runWatch(parameters: RunWatchParameters): Promise<0 | 1> {
  const { client, chain, intent, tokens, fromBlock, intervalMs, maxBlocks, json, sender, out, err, onStop } = parameters
  const wrapped = (token: Address) => (token === zeroAddress ? chain.wrappedNative.address : (token.toLowerCase() as Address))
  const live = createLiveSource({
    client,
    chain,
    fromBlock,
    // The pair's pools and those between the major tokens: the candidates an RPC-source quote reads.
    tracking: { mode: 'onDemand', tokens: [wrapped(intent.sellToken), wrapped(intent.buyToken)] },
  })
  let stopped = false
  let wake: (() => void) | undefined
  const unsubscribe = onStop(() => {
    stopped = true
    wake?.()
  })
  let quotedBlock: number | undefined
  let quoted = 0
  try {
    while (!stopped && (maxBlocks === undefined || quoted < maxBlocks)) {
      let block: number
      try {
        block = await live.sync()
      } catch (error) {
        const message = error instanceof QuoteError ? `error ${error.statusCode} ${error.code}: ${error.message}` : String(error)
        if (quotedBlock === undefined) {
          err(message)
          return 1
        }
        err(`after block ${quotedBlock}  ${message}`)
        await pause()
        continue
      }
      if (block !== quotedBlock) {
        quotedBlock = block
        quoted++
        const started = performance.now()
        try {
          const quote = await getQuote(intent, live, sender ? { sender } : {})
          const elapsedMs = performance.now() - started
          out(json ? JSON.stringify(quote) : formatWatchLine(quote, createTokenDescriber(quote.tokens, tokens), elapsedMs))
        } catch (error) {
          const failure = error instanceof QuoteError ? error : new QuoteError({ statusCode: 500, message: String(error) })
          err(`block ${block}  error ${failure.statusCode} ${failure.code}: ${failure.message}`)
        }
        continue
      }
      await pause()
    }
    return 0
  } finally {
    unsubscribe()
  }

  /** Waits `intervalMs`, or less when the user stops. */
  function pause(): Promise<void> {
    if (stopped) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(done, intervalMs)
      wake = done
      function done() {
        clearTimeout(timer)
        wake = undefined
        resolve()
      }
    })
  }
}
