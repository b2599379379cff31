// Where the page's liquidity comes from: the embedded snapshot (default), or a
// node given as `?rpc=<url>` (a local anvil, a fork) — the chain is the
// registry's chain with the id that node reports.
import { http, type Address, createPublicClient, zeroAddress } from 'viem'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { type ChainConfig, type LiquiditySource, type TokenInfo, createRpcSource, createSnapshotSource, resolveChains } from '../../src/index.js'

/** The liquidity the page quotes on, and the chains and tokens it offers. */
export type PageSource = {
  /** One line for the header: where the numbers come from. */
  label: string
  source: LiquiditySource
  /** Chains to offer, in registry order. */
  chains: readonly ChainConfig[]
  /** Tokens to offer on a chain: native first, then the chain's list, then the snapshot's extras. */
  tokensOf(chain: ChainConfig): TokenInfo[]
}

/**
 * Reads `?rpc=` from the page's query string and returns the matching source.
 * Throws an Error with a message fit for the page when the node is unreachable
 * or reports a chain the registry does not have.
 */
export async function loadSource(query: URLSearchParams): Promise<PageSource> {
  const rpc = query.get('rpc')
  return rpc ? loadRpcSource(rpc) : loadSnapshotSource()
}

function loadSnapshotSource(): PageSource {
  const snapshotTokens = new Map(defaultSnapshot.map((s) => [s.chainId, s.tokens]))
  const chains = resolveChains().filter((c) => c.status === 'active' && snapshotTokens.has(c.id))
  const blocks = defaultSnapshot.map((s) => `${chains.find((c) => c.id === s.chainId)?.name ?? s.chainId} #${s.blockNumber}`)
  return {
    label: `Embedded synthetic snapshot (${blocks.join(', ')}) — invented pool states, not market data.`,
    source: createSnapshotSource(defaultSnapshot),
    chains,
    tokensOf: (chain) => mergeTokens(chain, snapshotTokens.get(chain.id) ?? []),
  }
}

async function loadRpcSource(url: string): Promise<PageSource> {
  const client = createPublicClient({ transport: http(url, { batch: true }) })
  let chainId: number
  try {
    chainId = await client.getChainId()
  } catch (error) {
    throw new Error(`Cannot reach the node at ${url}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
  const chain = resolveChains().find((c) => c.id === chainId && c.status === 'active')
  if (!chain) {
    const known = resolveChains()
      .filter((c) => c.status === 'active')
      .map((c) => `${c.name} (${c.id})`)
      .join(', ')
    throw new Error(`The node at ${url} is chain ${chainId}; this page knows ${known}. Start anvil as a fork of one of them (anvil --fork-url <url>).`)
  }
  return {
    label: `Live pools read from ${url} (${chain.name}, chain ${chain.id}) through createRpcSource.`,
    source: createRpcSource({ client, chain }),
    chains: [chain],
    tokensOf: (c) => mergeTokens(c, []),
  }
}

function mergeTokens(chain: ChainConfig, extra: readonly TokenInfo[]): TokenInfo[] {
  const byAddress = new Map<Address, TokenInfo>()
  const add = (t: TokenInfo) => {
    const address = t.address.toLowerCase() as Address
    if (!byAddress.has(address)) byAddress.set(address, { address, symbol: t.symbol, decimals: t.decimals })
  }
  add({ address: zeroAddress, symbol: chain.nativeSymbol, decimals: 18 })
  for (const t of chain.tokens) add(t)
  add(chain.wrappedNative)
  for (const t of extra) add(t)
  return [...byAddress.values()]
}
