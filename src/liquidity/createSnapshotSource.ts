import type { Address } from 'viem'
import { QuoteError, guarded, unavailable } from '../errors/QuoteError.js'
import type { PoolStateBase } from '../protocols/types.js'
import type { AccountToken, Liquidity, LiquidityRequest, LiquiditySource, TokenMetadata } from './types.js'

/**
 * A JSON-serialisable picture of one chain's pools at one block: what
 * `createSnapshotSource` serves. Integers are base-10 strings.
 */
export type Snapshot = {
  chainId: number
  blockNumber: number
  /** Unix seconds of the block, for staleness checks. */
  timestamp?: number
  /** Gas price at the block (wei, base-10). */
  gasPriceWei?: string
  /** Free text: where the snapshot came from (e.g. "synthetic"). */
  label?: string
  tokens: TokenMetadata[]
  pools: PoolStateBase[]
  /**
   * Balances at the block (base-10; the zero address for native), for the gas estimate: a quote
   * asks for its receiver's and fee recipients' (`LiquidityRequest.accounts`), and an account
   * not listed counts as empty (a payment into it priced ~17k higher, never low).
   */
  balances?: { token: Address; account: Address; balance: string }[]
}

export type CreateSnapshotSourceParameters = {
  /** Reject (503) a snapshot older than this many seconds; needs `timestamp`. */
  maxAgeSeconds?: number
  /** Clock in ms (for staleness). */
  now?: () => number
}

/**
 * A liquidity source over fixed snapshots (one per chain): no I/O, so quotes
 * are deterministic. A chain without a snapshot, or a stale one, answers 503.
 * It serves the same state objects on every quote, so each pool is built once
 * and reused by later quotes (see `buildPoolCached`); do not mutate a snapshot
 * after creating its source.
 *
 * @example
 * import { createSnapshotSource, defaultSnapshot } from 'weft'
 * const source = createSnapshotSource(defaultSnapshot)
 */
export function createSnapshotSource(snapshots: Snapshot | readonly Snapshot[], parameters: CreateSnapshotSourceParameters = {}): LiquiditySource {
  return guarded(() => buildSnapshotSource(snapshots, parameters))
}

function buildSnapshotSource(
  snapshots: Snapshot | readonly Snapshot[],
  { maxAgeSeconds, now = Date.now }: CreateSnapshotSourceParameters,
): LiquiditySource {
  const byChain = new Map<number, Snapshot>()
  // Token lists with lowercase addresses, made once per snapshot (not once per quote).
  const tokensByChain = new Map<number, TokenMetadata[]>()
  for (const snapshot of Array.isArray(snapshots) ? (snapshots as readonly Snapshot[]) : [snapshots as Snapshot]) {
    if (!snapshot || !Number.isSafeInteger(snapshot.chainId) || !Array.isArray(snapshot.pools) || !Array.isArray(snapshot.tokens))
      throw new QuoteError({ statusCode: 500, message: 'Invalid snapshot: needs chainId, tokens and pools' })
    byChain.set(snapshot.chainId, snapshot)
    tokensByChain.set(
      snapshot.chainId,
      snapshot.tokens.map((t) => ({ ...t, address: t.address.toLowerCase() as Address })),
    )
  }
  return {
    async getLiquidity(request): Promise<Liquidity> {
      return guarded(() => serve(request.chain, request.accounts ?? []))
    },
  }

  function serve(chain: LiquidityRequest['chain'], accounts: readonly AccountToken[]): Liquidity {
    const snapshot = byChain.get(chain.id)
    if (!snapshot) throw unavailable(`No liquidity snapshot for chain ${chain.id}`)
    if (maxAgeSeconds !== undefined) {
      const age = snapshot.timestamp === undefined ? Infinity : now() / 1000 - snapshot.timestamp
      if (age > maxAgeSeconds) throw unavailable(`Liquidity snapshot for chain ${chain.id} is older than ${maxAgeSeconds} s`)
    }
    return {
      chainId: snapshot.chainId,
      blockNumber: snapshot.blockNumber,
      tokens: tokensByChain.get(chain.id)!,
      // The same state objects on every quote: getQuote builds each pool once (buildPoolCached).
      pools: snapshot.pools,
      ...(snapshot.gasPriceWei !== undefined ? { gasPriceWei: BigInt(snapshot.gasPriceWei) } : {}),
      ...(snapshot.balances !== undefined ? { balances: listedBalances(snapshot.balances, accounts) } : {}),
      report: { roundTrips: 0, requests: 0, skipped: [] },
    }
  }
}

/** The requested accounts' balances a snapshot lists, as the request names them (addresses compared in any case). */
function listedBalances(listed: NonNullable<Snapshot['balances']>, accounts: readonly AccountToken[]): (AccountToken & { balance: bigint })[] {
  const found: (AccountToken & { balance: bigint })[] = []
  for (const wanted of accounts) {
    const entry = listed.find((b) => b.token.toLowerCase() === wanted.token.toLowerCase() && b.account.toLowerCase() === wanted.account.toLowerCase())
    if (entry) found.push({ ...wanted, balance: BigInt(entry.balance) })
  }
  return found
}
