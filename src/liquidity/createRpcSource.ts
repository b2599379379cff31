import { type Address, type PublicClient, zeroAddress } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { QuoteError, guarded, unavailable } from '../errors/QuoteError.js'
import { defaultFamilies } from '../protocols/defaultFamilies.js'
import type { PoolFamily, PoolStateBase, ReadPoolsResult } from '../protocols/types.js'
import { createBoundedCache } from './createBoundedCache.js'
import { probeTransferFees } from './probeTransferFees.js'
import { readTokenMetadata } from './readTokenMetadata.js'
import { tokensOfPool } from './tokensOfPool.js'
import type { AccountToken, Liquidity, LiquiditySource, TokenMetadata } from './types.js'

const balanceOfAbi = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'uint256' }] },
] as const
/** Token metadata kept at most, and for how long (a token's metadata rarely changes; its fee may). */
const METADATA_CACHE_ENTRIES = 10_000
const METADATA_CACHE_TTL_MS = 60 * 60 * 1000

export type CreateRpcSourceParameters = {
  /**
   * A viem PublicClient for the chain (any transport; batching transports cut requests further).
   * Its viem chain may be any, or none: OP-stack chains such as viem's `base` carry formatters that
   * make their client unassignable to a plain `PublicClient`, hence `any` for the chain parameter.
   */
  client: PublicClient<import('viem').Transport, any>
  /** The chain's configuration (built-in or a host's devnet). */
  chain: ChainConfig
  /** Pool families to read (default: `defaultFamilies`, every family weft ships). */
  families?: readonly PoolFamily[]
  /**
   * Tokens that may sit in the middle of a route besides the chain's `majorTokens`. Candidate pools
   * are only the pairs among the sell token, the buy token, the majors and these connectors: a pool
   * between two other tokens is never read, so without a connector a route through a non-major
   * token (say USDC -> AERO -> TOKEN when only AERO/TOKEN has depth) is not found.
   * Each connector adds a pool lookup per dex and fee tier for every other candidate token.
   */
  connectors?: readonly Address[]
}

/**
 * A liquidity source that reads pools straight from a node, with no indexer:
 * candidate pools are the CREATE2 addresses of every pair among the sell
 * token, the buy token and the chain's major tokens, on every dex and fee
 * tier, checked for code and read at ONE block number. One round trip on a
 * cold quote: every read (pools, token metadata, the transfer-fee probe,
 * balances) goes into one eth_call of the PinnedBatchRead lens, which returns
 * the block's number and base fee with them (so one block by construction),
 * beside eth_gasPrice; it needs eth_call state overrides. Token metadata is
 * cached. Any node failure is a 503, never partial state.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { createRpcSource, base } from 'weft'
 * const source = createRpcSource({ client: createPublicClient({ transport: http(url) }), chain: base })
 */
export function createRpcSource(parameters: CreateRpcSourceParameters): LiquiditySource {
  return guarded(() => buildRpcSource(parameters))
}

function buildRpcSource({ client, chain, families = defaultFamilies, connectors = [] }: CreateRpcSourceParameters): LiquiditySource {
  const metadataCache = createBoundedCache<Address, TokenMetadata | null>({ maxEntries: METADATA_CACHE_ENTRIES, ttlMs: METADATA_CACHE_TTL_MS })
  // Tokens whose fee could not be measured while no pool held them: measured again once one does.
  const unmeasuredWithoutPool = createBoundedCache<Address, true>({ maxEntries: METADATA_CACHE_ENTRIES, ttlMs: METADATA_CACHE_TTL_MS })
  const known = new Map<Address, TokenMetadata>()
  for (const t of [...chain.tokens, chain.wrappedNative]) known.set(t.address, { ...t, transferFeeBps: 0 })

  /**
   * Reads and caches the metadata of tokens not seen before, their fee on transfer measured by the
   * probe (tokens of the chain config are taken as fee-free), through `reader` (the pinned batch).
   */
  const readMetadata = async (tokens: readonly Address[], blockNumber: bigint, reader: typeof client): Promise<number> => {
    const unknown = tokens.filter((t) => !known.has(t) && !metadataCache.has(t))
    if (unknown.length === 0) return 0
    // Fees borrowed from a pool with any other candidate token, in parallel with the metadata reads.
    const described = new Map((await readTokenMetadata(reader, chain, unknown, tokens, blockNumber)).map((meta) => [meta.address, meta]))
    // A token without decimals() is remembered as such (null): quotes cannot describe it.
    for (const address of unknown) metadataCache.set(address, described.get(address) ?? null)
    return 2
  }

  /**
   * A fee that could not be measured because no pool held the token (asked about before its
   * pools existed) is measured again, one more round trip, once a pool read finds one; a fee
   * unmeasurable although pools exist stays unknown until its cache entry expires. Returns the
   * requests it sent (0 or 1).
   */
  const remeasureTransferFees = async (candidates: readonly Address[], pools: readonly PoolStateBase[], blockNumber: bigint): Promise<number> => {
    const pooled = new Set(pools.flatMap(tokensOfPool))
    const again: Address[] = []
    for (const address of candidates) {
      const meta = metadataCache.get(address)
      if (!meta || meta.transferFeeBps !== null) continue
      if (!pooled.has(address)) unmeasuredWithoutPool.set(address, true)
      else if (unmeasuredWithoutPool.has(address)) again.push(address)
    }
    if (again.length === 0) return 0
    const fees = await probeTransferFees(client, chain, again, candidates, blockNumber)
    again.forEach((address, i) => {
      unmeasuredWithoutPool.delete(address)
      const meta = metadataCache.get(address)
      if (meta) metadataCache.set(address, { ...meta, transferFeeBps: fees[i]! })
    })
    return 1
  }

  /** Balances at the pinned block: ERC-20s in one multicall, native with one call each. */
  const readBalances = (accounts: readonly AccountToken[], blockNumber: bigint, reader: typeof client) => {
    const erc20 = accounts.filter((a) => a.token !== zeroAddress)
    const native = accounts.filter((a) => a.token === zeroAddress)
    const result = Promise.all([
      erc20.length === 0
        ? Promise.resolve([])
        : reader.multicall({
            contracts: erc20.map((a) => ({ address: a.token, abi: balanceOfAbi, functionName: 'balanceOf' as const, args: [a.account] as const })),
            allowFailure: true,
            blockNumber,
            deployless: true,
            batchSize: 0,
          }),
      Promise.all(native.map((a) => reader.getBalance({ address: a.account, blockNumber }))),
    ]).then(([tokenResults, nativeResults]) => [
      ...erc20.flatMap((a, i) => {
        const r = tokenResults[i]
        return r && r.status === 'success' ? [{ ...a, balance: r.result as bigint }] : []
      }),
      ...native.map((a, i) => ({ ...a, balance: nativeResults[i]! })),
    ])
    return { result, requests: (erc20.length > 0 ? 1 : 0) + native.length }
  }

  return {
    async getLiquidity({ chain: requested, tokenIn, tokenOut, accounts = [] }): Promise<Liquidity> {
      let requests = 0
      try {
        if (requested?.id !== chain.id) throw unavailable(`This RPC source serves chain ${chain.id}, not ${requested?.id}`)
        // Loaded before any read is issued (on first use: a page quoting on a snapshot never
        // downloads them), so no reader waits on a module while the batch leaves.
        const [{ PINNED_BLOCK, createPinnedReader }] = await Promise.all([import('./createPinnedReader.js'), import('../executor/lensArtifacts.js')])
        const pinned = createPinnedReader(client)
        const blockNumber = PINNED_BLOCK
        const candidates = unique([tokenIn, tokenOut, ...chain.majorTokens, ...connectors.map(lower)]).filter((t) => t !== zeroAddress)
        const reads: Promise<PoolStateBase[] | ReadPoolsResult>[] = []
        // A family listed twice is read once: twice would double its share of the batch's gas and its pools.
        for (const family of families.filter((f, i) => families.findIndex((other) => other.id === f.id) === i)) {
          const dexes = chain.dexes.filter((d) => d.family === family.id)
          if (!family.readPools || dexes.length === 0) continue
          reads.push(pinned.run((reader) => family.readPools!({ client: reader, chain, blockNumber, tokens: candidates, dexes })))
        }
        const balanceReads = pinned.run((reader) => readBalances(accounts, blockNumber, reader).result)
        const metadataReads = pinned.run((reader) => readMetadata(candidates, blockNumber, reader))
        pinned.seal()
        // eth_gasPrice is no state: it leaves with the batch, in the same round trip.
        requests++
        const gasPriceRead = pinned.whenSent().then(() => client.getGasPrice())
        const [found, , gasPrice, balances] = await Promise.all([Promise.all(reads), metadataReads, gasPriceRead, balanceReads])
        requests += pinned.requests()
        const pinnedBlock = pinned.blockNumber()
        if (pinnedBlock === null) throw new Error('The pinned batch never answered')
        const pools = found.flatMap((r) => (Array.isArray(r) ? r : r.pools))
        const skipped = found.flatMap((r) => (Array.isArray(r) ? [] : r.skipped))
        const remeasured = await remeasureTransferFees(candidates, pools, pinnedBlock)
        requests += remeasured
        const tokens: TokenMetadata[] = []
        for (const address of candidates) {
          const meta = known.get(address) ?? metadataCache.get(address)
          if (meta) tokens.push(meta)
        }
        return {
          chainId: chain.id,
          blockNumber: Number(pinnedBlock),
          tokens,
          pools,
          gasPriceWei: gasPrice,
          balances,
          // Batches run one after another (a later one only for a read that needed an earlier answer).
          report: { roundTrips: pinned.batches() + remeasured, requests, skipped },
        }
      } catch (error) {
        if (error instanceof QuoteError) throw error
        throw unavailable('The RPC node could not serve the liquidity state', error)
      }
    },
  }
}

const lower = (a: Address) => a.toLowerCase() as Address
const unique = (list: Address[]) => [...new Set(list.map(lower))]
