// `npm run quote -- --chain base --sell WETH --buy USDC --amount 1.5`
// Prints the Quote JSON (the wire body) for a swap on the embedded default snapshot: no network, no configuration.
// Every quote parameter is also accepted under its spec name (--sellAmount, --slippageBps, --feeBps, ...).
import { parseArgs } from 'node:util'
import BigNumber from 'bignumber.js'
import { type ChainConfig, QuoteError, createSnapshotSource, defaultChains, getQuote, parseQuoteParams } from '../src/index.js'
import { defaultSnapshot } from '../src/defaultSnapshot.js'

const specParams = [
  'chainId', 'sellToken', 'buyToken', 'sellAmount', 'buyAmount', 'slippageBps', 'priceImpactLimitBps', 'receiver',
  'feeBps', 'feeRecipient', 'surplusFeeBps', 'surplusFeeRecipient', 'referralFeeBps', 'referralFeeRecipient',
] as const

const { values: parsed } = parseArgs({
  options: {
    chain: { type: 'string', default: 'base' },
    sell: { type: 'string' },
    buy: { type: 'string' },
    amount: { type: 'string' },
    'buy-amount': { type: 'string' },
    'app-id': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    ...Object.fromEntries(specParams.map((p) => [p, { type: 'string' as const }])),
  },
  strict: true,
})
const values = parsed as typeof parsed & Partial<Record<(typeof specParams)[number], string>>

if (values.help) {
  console.log('usage: npm run quote -- --chain <base|ethereum|id> --sell <symbol|address> --buy <symbol|address> (--amount <human> | --buy-amount <human>) [--slippageBps N ...]')
  process.exit(0)
}

function findChain(name: string): ChainConfig {
  const chain = defaultChains.find((c) => c.name.toLowerCase() === name.toLowerCase() || String(c.id) === name)
  if (!chain) throw new Error(`unknown chain ${name} (known: ${defaultChains.map((c) => c.name).join(', ')})`)
  return chain
}

function resolveToken(chain: ChainConfig, symbolOrAddress: string): { address: string; decimals: number } {
  if (/^0x[0-9a-fA-F]{40}$/.test(symbolOrAddress)) {
    const known = [...chain.tokens].find((t) => t.address === symbolOrAddress.toLowerCase())
    const snap = defaultSnapshot.find((s) => s.chainId === chain.id)?.tokens.find((t) => t.address === symbolOrAddress.toLowerCase())
    return { address: symbolOrAddress, decimals: known?.decimals ?? snap?.decimals ?? 18 }
  }
  if (symbolOrAddress.toUpperCase() === chain.nativeSymbol) return { address: '0x0000000000000000000000000000000000000000', decimals: 18 }
  const snapTokens = defaultSnapshot.find((s) => s.chainId === chain.id)?.tokens ?? []
  const token = [...chain.tokens, ...snapTokens].find((t) => t.symbol.toLowerCase() === symbolOrAddress.toLowerCase())
  if (!token) throw new Error(`unknown token ${symbolOrAddress} on ${chain.name}`)
  return token
}

const toRaw = (human: string, decimals: number) => {
  const raw = new BigNumber(human).shiftedBy(decimals)
  if (!raw.isFinite() || !raw.isInteger()) throw new Error(`amount ${human} has more than ${decimals} decimals`)
  return raw.toFixed(0)
}

async function main() {
  const chain = findChain(values.chain!)
  const params: Record<string, unknown> = { chainId: String(chain.id) }
  for (const p of specParams) if (values[p] !== undefined) params[p] = values[p]
  if (values.sell) params.sellToken = resolveToken(chain, values.sell).address
  if (values.buy) params.buyToken = resolveToken(chain, values.buy).address
  if (values.amount && values.sell) params.sellAmount = toRaw(values.amount, resolveToken(chain, values.sell).decimals)
  if (values['buy-amount'] && values.buy) params.buyAmount = toRaw(values['buy-amount'], resolveToken(chain, values.buy).decimals)
  if (values['app-id']) params['x-app-id'] = values['app-id']
  const intent = parseQuoteParams(params)
  const quote = await getQuote(intent, createSnapshotSource(defaultSnapshot))
  console.log(JSON.stringify(quote, null, 2))
}

main().catch((error) => {
  if (error instanceof QuoteError) console.error(JSON.stringify(error.toJSON(), null, 2))
  else console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
