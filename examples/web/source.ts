// Where the page's liquidity comes from: the embedded snapshot (default), or a
// node given as `?rpc=<url>` (a local anvil, a fork) — the chain is the
// registry's chain with the id that node reports, or the chain configuration
// at `?config=<url>` (a JSON ChainConfig: your devnet's deployments).
import { http, type Address, type PublicClient, createPublicClient, zeroAddress } from 'viem'
import {
  type ChainConfig,
  type LiquiditySource,
  type PoolStateBase,
  type TokenInfo,
  createRpcSource,
  createSnapshotSource,
  defineChainConfig,
  resolveChains,
} from '../../src/index.js'

/** The liquidity the page quotes on, and the chains and tokens it offers. */
export type PageSource = {
  /** One line for the header: where the numbers come from. */
  label: string
  source: LiquiditySource
  /** Chains to offer, in registry order. */
  chains: readonly ChainConfig[]
  /** Tokens to offer on a chain: native first, then the chain's list, then the snapshot's extras. */
  tokensOf(chain: ChainConfig): TokenInfo[]
  /** The node behind `?rpc=` (simulations go there); null on the snapshot. */
  readClient: PublicClient | null
  /** The pool states of the latest liquidity read (the route's fee tiers come from them). */
  lastPools(): readonly PoolStateBase[]
}

/**
 * Reads `?rpc=` (and `?config=`) from the page's query string and returns the
 * matching source. Throws an Error with a message fit for the page when the
 * node is unreachable or reports a chain the page has no configuration for.
 */
export async function loadSource(query: URLSearchParams): Promise<PageSource> {
  const rpc = query.get('rpc')
  return rpc ? loadRpcSource(rpc, query.get('config')) : loadSnapshotSource()
}

/** Wraps a source to remember the pools of its latest answer. */
function remembering(source: LiquiditySource): Pick<PageSource, 'source' | 'lastPools'> {
  let pools: readonly PoolStateBase[] = []
  return {
    source: {
      getLiquidity: async (request) => {
        const liquidity = await source.getLiquidity(request)
        pools = liquidity.pools
        return liquidity
      },
    },
    lastPools: () => pools,
  }
}

async function loadSnapshotSource(): Promise<PageSource> {
  // Loaded on demand: a page quoting through a node never downloads the snapshot.
  const { defaultSnapshot } = await import('../../src/defaultSnapshot.js')
  const snapshotTokens = new Map(defaultSnapshot.map((s) => [s.chainId, s.tokens]))
  const chains = resolveChains().filter((c) => c.status === 'active' && snapshotTokens.has(c.id))
  const blocks = defaultSnapshot.map((s) => `${chains.find((c) => c.id === s.chainId)?.name ?? s.chainId} #${s.blockNumber}`)
  return {
    label: `Embedded synthetic snapshot (${blocks.join(', ')}) — invented pool states, not market data.`,
    ...remembering(createSnapshotSource(defaultSnapshot)),
    chains,
    tokensOf: (chain) => mergeTokens(chain, snapshotTokens.get(chain.id) ?? []),
    readClient: null,
  }
}

async function loadRpcSource(url: string, configUrl: string | null): Promise<PageSource> {
  const client = createPublicClient({ transport: http(url, { batch: true }), pollingInterval: 250 })
  let chainId: number
  try {
    chainId = await client.getChainId()
  } catch (error) {
    throw new Error(`Cannot reach the node at ${url}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
  const chain = configUrl ? await loadChainConfig(configUrl) : resolveChains().find((c) => c.id === chainId && c.status === 'active')
  if (chain && chain.id !== chainId) throw new Error(`The node at ${url} is chain ${chainId}; the configuration at ${configUrl} describes chain ${chain.id}.`)
  if (!chain) {
    const known = resolveChains()
      .filter((c) => c.status === 'active')
      .map((c) => `${c.name} (${c.id})`)
      .join(', ')
    throw new Error(`The node at ${url} is chain ${chainId}; this page knows ${known}. Start anvil as a fork of one of them (anvil --fork-url <url>), or pass ?config=<url of its ChainConfig JSON>.`)
  }
  return {
    label: `Live pools read from ${url} (${chain.name}, chain ${chain.id}) through createRpcSource.`,
    ...remembering(createRpcSource({ client, chain })),
    chains: [chain],
    tokensOf: (c) => mergeTokens(c, []),
    readClient: client,
  }
}

/** A ChainConfig as JSON (`defaultGasPriceWei` as a decimal string), checked by defineChainConfig. */
async function loadChainConfig(url: string): Promise<ChainConfig> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`Cannot load the chain configuration at ${url}: HTTP ${response.status}`)
  const json = (await response.json()) as Omit<ChainConfig, 'defaultGasPriceWei'> & { defaultGasPriceWei: string }
  try {
    return defineChainConfig({ ...json, defaultGasPriceWei: BigInt(json.defaultGasPriceWei) })
  } catch (error) {
    throw new Error(`The chain configuration at ${url} is not valid: ${error instanceof Error ? error.message : String(error)}`)
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
