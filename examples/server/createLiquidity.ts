import type { Address } from 'viem'
import { createPublicClient, http } from 'viem'
import {
  type ChainConfig,
  type LiquiditySource,
  QuoteError,
  createRpcSource,
  createSnapshotSource,
  resolveChains,
} from '../../src/index.js'
import { defaultSnapshot } from '../../src/defaultSnapshot.js'
import { type LiquidityConfig, configError } from './config.js'

/** The liquidity source of a server and the chain registry it serves. */
export type ServedLiquidity = {
  kind: LiquidityConfig['source']
  source: LiquiditySource
  /**
   * The registry to pass to `parseQuoteParams`, `getQuote` and `listChains`:
   * weft's chains plus the host's, with treasuries applied, and every active
   * chain the source cannot serve marked `planned` (so it is not listed and a
   * quote on it is a 400, instead of a 503 on every request).
   */
  chains: readonly ChainConfig[]
}

/**
 * Builds the liquidity source the configuration asks for: weft's embedded
 * snapshot (default), given snapshots, one `createRpcSource` per chain with
 * an RPC URL, or a custom source.
 *
 * @example
 * const { source, chains } = createLiquidity({ liquidity: { source: 'rpc', rpcUrls: { 8453: url } }, chains: [], treasuries: new Map() })
 */
export function createLiquidity({
  liquidity,
  chains: hostChains,
  treasuries,
}: {
  liquidity: LiquidityConfig
  chains: readonly ChainConfig[]
  treasuries: ReadonlyMap<number, Address>
}): ServedLiquidity {
  const registry = resolveChains({ chains: hostChains }).map((chain) =>
    treasuries.has(chain.id) ? { ...chain, treasury: treasuries.get(chain.id) } : chain,
  )
  for (const id of treasuries.keys())
    if (!registry.some((chain) => chain.id === id)) throw configError(`treasuries[${id}]`, 'names a chain weft does not know')
  const active = (id: number, field: string): ChainConfig => {
    const chain = registry.find((c) => c.id === id)
    if (!chain || chain.status !== 'active') throw configError(field, `names chain ${id}, which is not an active chain`)
    return chain
  }

  let source: LiquiditySource
  let served: Set<number>
  if (liquidity.source === 'snapshot') {
    const snapshots = liquidity.snapshots ?? defaultSnapshot
    source = createSnapshotSource(snapshots)
    served = new Set(snapshots.map((s) => s.chainId))
  } else if (liquidity.source === 'rpc') {
    const sources = new Map<number, LiquiditySource>()
    for (const [id, url] of Object.entries(liquidity.rpcUrls)) {
      const chain = active(Number(id), `liquidity.rpcUrls[${id}]`)
      const client = createPublicClient({ transport: http(url, { timeout: liquidity.timeoutMs ?? 10_000, retryCount: liquidity.retryCount ?? 2 }) })
      sources.set(chain.id, createRpcSource({ client, chain }))
    }
    source = {
      async getLiquidity(request) {
        const chainSource = sources.get(request.chain.id)
        if (!chainSource) throw new QuoteError({ statusCode: 503, message: `No liquidity source for chain ${request.chain.id}` })
        return chainSource.getLiquidity(request)
      },
    }
    served = new Set(sources.keys())
  } else {
    source = liquidity.liquiditySource
    served = new Set(liquidity.chainIds ?? registry.filter((c) => c.status === 'active').map((c) => c.id))
    for (const id of served) active(id, `liquidity.chainIds[${id}]`)
  }

  return {
    kind: liquidity.source,
    source,
    chains: registry.map((chain) => (chain.status === 'active' && !served.has(chain.id) ? { ...chain, status: 'planned' as const } : chain)),
  }
}
