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
import { join } from 'node:path'
import { type LiquidityConfig, type LogEntry, configError } from './config.js'
import { type LiveChain, type LiveChainHealth, followLiveChain } from './followLiveChain.js'

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
  /** The live source's state per chain id (for /healthz); undefined for other sources. */
  health?: () => Record<string, LiveChainHealth>
  /** Stops what follows the chain (live source: writes its last checkpoint). */
  close: () => Promise<void>
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
  log = () => {},
}: {
  liquidity: LiquidityConfig
  chains: readonly ChainConfig[]
  treasuries: ReadonlyMap<number, Address>
  /** Where the live source's events go (synced, failed, checkpoints). */
  log?: (level: LogEntry['level'], msg: string, fields?: Record<string, unknown>) => void
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
  const followed = new Map<number, LiveChain>()
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
  } else if (liquidity.source === 'live') {
    for (const [id, url] of Object.entries(liquidity.rpcUrls)) {
      const chain = active(Number(id), `liquidity.rpcUrls[${id}]`)
      followed.set(
        chain.id,
        followLiveChain({
          chain,
          rpcUrl: url,
          fromBlock: liquidity.fromBlocks?.[id] ?? 0,
          ...(liquidity.tracking ? { tracking: liquidity.tracking } : {}),
          checkpointFile: liquidity.checkpointDir === undefined ? null : join(liquidity.checkpointDir, `live-${chain.id}.json`),
          checkpointEveryBlocks: liquidity.checkpointEveryBlocks ?? 100,
          pollingIntervalMs: liquidity.pollingIntervalMs ?? 1_000,
          ...(liquidity.maxLagBlocks !== undefined ? { maxLagBlocks: liquidity.maxLagBlocks } : {}),
          ...(liquidity.maxAgeMs !== undefined ? { maxAgeMs: liquidity.maxAgeMs } : {}),
          ...(liquidity.timeoutMs !== undefined ? { timeoutMs: liquidity.timeoutMs } : {}),
          ...(liquidity.retryCount !== undefined ? { retryCount: liquidity.retryCount } : {}),
          log,
        }),
      )
    }
    source = {
      async getLiquidity(request) {
        const chainSource = followed.get(request.chain.id)?.source
        if (!chainSource) throw new QuoteError({ statusCode: 503, message: `No liquidity source for chain ${request.chain.id}` })
        return chainSource.getLiquidity(request)
      },
    }
    served = new Set(followed.keys())
  } else {
    source = liquidity.liquiditySource
    served = new Set(liquidity.chainIds ?? registry.filter((c) => c.status === 'active').map((c) => c.id))
    for (const id of served) active(id, `liquidity.chainIds[${id}]`)
  }

  return {
    kind: liquidity.source,
    source,
    chains: registry.map((chain) => (chain.status === 'active' && !served.has(chain.id) ? { ...chain, status: 'planned' as const } : chain)),
    ...(followed.size > 0 ? { health: () => Object.fromEntries([...followed].map(([id, chain]) => [String(id), chain.health()])) } : {}),
    close: async () => {
      await Promise.all([...followed.values()].map((chain) => chain.close()))
    },
  }
}
