import { type Address, type Hex, decodeAbiParameters, encodeDeployData, isAddress, zeroAddress } from 'viem'
import type { DexConfig, DexPoolKey } from '../../chains/types.js'
import { hostError } from '../../errors/QuoteError.js'
import { isLensOverflow } from '../isLensOverflow.js'
import type { ReadPoolsParameters, ReadPoolsResult } from '../types.js'
import { getUniswapV3WordRadius } from '../uniswapV3/readPools.js'
import { MAX_TICK, MIN_TICK } from '../uniswapV3/tickMath.js'
import { getDirectionalProtocolFee, isDynamicFee, MAX_LP_FEE } from './fees.js'
import { getUniswapV4PoolId, type UniswapV4PoolKey } from './poolKey.js'
import type { UniswapV4PoolState, UniswapV4Tick } from './state.js'
import { PackedReader } from '../packedReader.js'

type Candidate = {
  dex: DexConfig
  id: Hex
  key: UniswapV4PoolKey
  /** Read slot0 only: a pool weft will not price, to report as skipped when it exists. */
  skipReason: string | undefined
}

const MAX_TICK_SPACING = 32767
const MAX_POOLS_PER_CALL = 64
const HEADER_ONLY = 1n << 32n

// The lens's `fresh` bits: fee growth the pool's next swap writes from zero.
const FRESH_FEE_GROWTH_0 = 1
const FRESH_FEE_GROWTH_1 = 2
const FRESH_ACCRUED_0 = 4
const FRESH_ACCRUED_1 = 8
// The lens's record statuses (contracts/lens/UniswapV4Lens.sol).
const STATUS_UNREADABLE = 1
const STATUS_READ = 3
const STATUS_READ_HEADER = 4

/**
 * The candidate pools of a V4 dex among `tokens` (lowercase, the wrapped
 * native token standing for native): for every pair and every fee / tick
 * spacing pair of `dex.feeTiers`, the key without hooks, plus, when one side
 * is the wrapped native token, the same key with native currency0; then every
 * key of `dex.poolKeys` whose two tokens are among `tokens`. Keys with hooks
 * or a dynamic fee carry the reason they will be skipped. Throws a 500
 * QuoteError on a fee tier or listed key no PoolManager could hold.
 *
 * @example
 * getUniswapV4Candidates(dex, [weth, usdc], weth).map((c) => c.id)
 */
export function getUniswapV4Candidates(
  dex: DexConfig,
  tokens: readonly Address[],
  weth: Address,
): { id: Hex; key: UniswapV4PoolKey; skipReason: string | undefined }[] {
  const wrapped = weth.toLowerCase() as Address
  const byId = new Map<Hex, { id: Hex; key: UniswapV4PoolKey; skipReason: string | undefined }>()
  const add = (key: UniswapV4PoolKey, skipReason: string | undefined) => {
    const id = getUniswapV4PoolId(key)
    if (!byId.has(id)) byId.set(id, { id, key, skipReason })
  }
  const lowered = [...new Set(tokens.map((t) => t.toLowerCase() as Address))].filter((t) => t !== zeroAddress)

  for (const [feeKey, tickSpacing] of Object.entries(dex.feeTiers ?? {})) {
    const fee = Number(feeKey)
    assertKeyShape(dex, fee, tickSpacing, `fee tier ${feeKey}`)
    if (isDynamicFee(fee)) throw hostError(`Invalid chain configuration: uniswapV4 dex ${dex.id} fee tier ${fee} is the dynamic-fee flag`)
    for (let i = 0; i < lowered.length; i++) {
      for (let j = i + 1; j < lowered.length; j++) {
        const a = lowered[i] as Address
        const b = lowered[j] as Address
        const [currency0, currency1] = a < b ? [a, b] : [b, a]
        add({ currency0, currency1, fee, tickSpacing, hooks: zeroAddress }, undefined)
        if (a === wrapped || b === wrapped) {
          add({ currency0: zeroAddress, currency1: a === wrapped ? b : a, fee, tickSpacing, hooks: zeroAddress }, undefined)
        }
      }
    }
  }

  const present = new Set(lowered)
  for (const [n, listed] of (dex.poolKeys ?? []).entries()) {
    const key = parseListedKey(dex, listed, n)
    const token0 = key.currency0 === zeroAddress ? wrapped : key.currency0
    if (!present.has(token0) || !present.has(key.currency1)) continue
    let skipReason: string | undefined
    if (isDynamicFee(key.fee)) skipReason = `Uniswap V4 pool with a dynamic fee set by its hooks ${key.hooks}: the fee is not in its state`
    else if (key.hooks !== zeroAddress) skipReason = `Uniswap V4 pool with hooks ${key.hooks}: their behaviour is unknown to weft`
    else if (token0 === key.currency1) skipReason = 'Uniswap V4 pool of native and wrapped native: not routable'
    add(key, skipReason)
  }
  return [...byId.values()]
}

/**
 * Reads the Uniswap V4 pools among `tokens` on the given dexes at one block,
 * in one `eth_call` per 64 candidates of the undeployed UniswapV4Lens
 * (contracts/lens), which reads the PoolManager's storage through `extsload`.
 * Candidates come from {@link getUniswapV4Candidates}: pools that are not
 * initialized are dropped; pools with hooks or a dynamic fee that exist are
 * returned in `skipped` with the reason (by pool id), never priced. Each
 * priced state knows the initialized ticks of the bitmap words around its
 * price (as the V3 family reads them). A chunk whose answer the lens refuses
 * as too large (many ticks) is read in halves. Node errors propagate.
 *
 * @example
 * const { pools, skipped } = await readUniswapV4Pools({ client, chain: base, blockNumber, tokens: [weth, usdc], dexes: [v4Dex] })
 */
export async function readUniswapV4Pools({
  client,
  chain,
  blockNumber,
  tokens,
  dexes,
}: ReadPoolsParameters): Promise<ReadPoolsResult<UniswapV4PoolState>> {
  const weth = chain.wrappedNative.address
  const reads: Promise<ReadPoolsResult<UniswapV4PoolState>>[] = []
  for (const dex of dexes) {
    const candidates: Candidate[] = getUniswapV4Candidates(dex, tokens, weth).map((c) => ({ ...c, dex }))
    for (let i = 0; i < candidates.length; i += MAX_POOLS_PER_CALL) {
      reads.push(readChunkOrHalves(client, blockNumber, dex.factory, candidates.slice(i, i + MAX_POOLS_PER_CALL)))
    }
  }
  const results = await Promise.all(reads)
  return { pools: results.flatMap((r) => r.pools), skipped: results.flatMap((r) => r.skipped) }
}

/**
 * A chunk's pools; when the lens refuses it as too big (the pools' ticks take more than the 24,576
 * bytes one answer may, or the call's gas), its two halves in parallel, at the same block. A single
 * pool the lens refuses, or any other failure, throws.
 */
async function readChunkOrHalves(
  client: ReadPoolsParameters['client'],
  blockNumber: bigint,
  manager: Address,
  chunk: Candidate[],
): Promise<ReadPoolsResult<UniswapV4PoolState>> {
  try {
    return await readChunk(client, blockNumber, manager, chunk)
  } catch (error) {
    if (chunk.length < 2 || !isLensOverflow(error)) throw error
    const half = Math.ceil(chunk.length / 2)
    const halves = await Promise.all([chunk.slice(0, half), chunk.slice(half)].map((part) => readChunkOrHalves(client, blockNumber, manager, part)))
    return { pools: halves.flatMap((r) => r.pools), skipped: halves.flatMap((r) => r.skipped) }
  }
}

async function readChunk(
  client: ReadPoolsParameters['client'],
  blockNumber: bigint,
  manager: Address,
  chunk: Candidate[],
): Promise<ReadPoolsResult<UniswapV4PoolState>> {
  const ids = chunk.map((c) => c.id)
  const queries = chunk.map(
    (c) =>
      BigInt(c.key.tickSpacing) |
      (BigInt(getUniswapV3WordRadius(c.key.tickSpacing)) << 24n) |
      (c.skipReason === undefined ? 0n : HEADER_ONLY),
  )
  // Loaded on first use: pages that never read a node never download the lens.
  const { uniswapV4LensAbi, uniswapV4LensBytecode } = await import('../../executor/lensArtifacts.js')
  const { data } = await client.call({
    data: encodeDeployData({
      abi: uniswapV4LensAbi,
      bytecode: uniswapV4LensBytecode,
      args: [manager, ids, queries, chunk.flatMap((c) => [c.key.currency0, c.key.currency1])],
    }),
    blockNumber,
  })
  if (data === undefined) throw new Error('UniswapV4Lens returned no data')
  const [packed] = decodeAbiParameters([{ type: 'bytes' }], data)
  return decodeLensResult(packed, chunk, manager)
}

/** Decodes the lens's packed records, one per candidate, into priced states and skipped pools. */
function decodeLensResult(packed: Hex, chunk: Candidate[], manager: Address): ReadPoolsResult<UniswapV4PoolState> {
  const reader = new PackedReader(packed, 'UniswapV4Lens')
  const pools: UniswapV4PoolState[] = []
  const skipped: ReadPoolsResult['skipped'] = []
  for (const c of chunk) {
    const status = Number(reader.uint(1))
    if (status === STATUS_UNREADABLE) {
      skipped.push({ address: c.id, reason: 'Uniswap V4 pool whose state could not be read' })
      continue
    }
    if (status !== STATUS_READ && status !== STATUS_READ_HEADER) continue
    const fresh = Number(reader.uint(1))
    const sqrtPriceX96 = reader.uint(20)
    const tick = Number(reader.int(3))
    const protocolFee = Number(reader.uint(3))
    const lpFee = Number(reader.uint(3))
    const liquidity = reader.uint(16)
    if (status === STATUS_READ_HEADER) {
      skipped.push({ address: c.id, reason: c.skipReason ?? 'Uniswap V4 pool not priced' })
      continue
    }
    const wordLower = Number(reader.int(2))
    const wordUpper = Number(reader.int(2))
    const count = Number(reader.uint(2))
    const ticks: UniswapV4Tick[] = []
    // Ticks whose fee growth outside is still zero, per currency (the lens's freshOutside bits).
    const freshOutside: [number[], number[]] = [[], []]
    for (let k = 0; k < count; k++) {
      const index = Number(reader.int(3))
      ticks.push({ index, liquidityNet: reader.int(16).toString() })
      const bits = Number(reader.uint(1))
      if ((bits & 1) !== 0) freshOutside[0].push(index)
      if ((bits & 2) !== 0) freshOutside[1].push(index)
    }
    ticks.sort((a, b) => a.index - b.index)
    const { key } = c
    pools.push({
      family: 'uniswapV4',
      dex: c.dex.id,
      address: manager.toLowerCase() as Address,
      id: c.id,
      currency0: key.currency0,
      currency1: key.currency1,
      fee: key.fee,
      tickSpacing: key.tickSpacing,
      hooks: key.hooks,
      sqrtPriceX96: sqrtPriceX96.toString(),
      tick,
      protocolFee,
      lpFee,
      liquidity: liquidity.toString(),
      ticks,
      tickLower: Math.max(MIN_TICK, wordLower * 256 * key.tickSpacing),
      tickUpper: Math.min(MAX_TICK, (wordUpper * 256 + 255) * key.tickSpacing),
      freshOutside0: freshOutside[0].sort((a, b) => a - b),
      freshOutside1: freshOutside[1].sort((a, b) => a - b),
      freshSlots: {
        feeGrowth0: (fresh & FRESH_FEE_GROWTH_0) !== 0,
        feeGrowth1: (fresh & FRESH_FEE_GROWTH_1) !== 0,
        // The accruals are the PoolManager's, per currency, moved by any pool's swaps and by
        // collections no log reports: they matter (and are said) only where this pool accrues.
        protocolFees0: getDirectionalProtocolFee(protocolFee, true) !== 0 && (fresh & FRESH_ACCRUED_0) !== 0,
        protocolFees1: getDirectionalProtocolFee(protocolFee, false) !== 0 && (fresh & FRESH_ACCRUED_1) !== 0,
      },
    })
  }
  if (!reader.done()) throw new Error('UniswapV4Lens returned more records than it was asked for')
  return { pools, skipped }
}

function assertKeyShape(dex: DexConfig, fee: number, tickSpacing: number, what: string): void {
  if (!Number.isInteger(fee) || fee < 0 || (fee > MAX_LP_FEE && !isDynamicFee(fee))) {
    throw hostError(`Invalid chain configuration: uniswapV4 dex ${dex.id} ${what} has an invalid fee ${fee}`)
  }
  if (!Number.isInteger(tickSpacing) || tickSpacing < 1 || tickSpacing > MAX_TICK_SPACING) {
    throw hostError(`Invalid chain configuration: uniswapV4 dex ${dex.id} ${what} has an invalid tick spacing ${tickSpacing}`)
  }
}

function parseListedKey(dex: DexConfig, listed: DexPoolKey, n: number): UniswapV4PoolKey {
  const what = `poolKeys[${n}]`
  const address = (value: unknown, field: string): Address => {
    if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
      throw hostError(`Invalid chain configuration: uniswapV4 dex ${dex.id} ${what}.${field} is not an address`)
    }
    return value.toLowerCase() as Address
  }
  if (listed === null || typeof listed !== 'object') throw hostError(`Invalid chain configuration: uniswapV4 dex ${dex.id} ${what} is not a pool key`)
  const currency0 = address(listed.currency0, 'currency0')
  const currency1 = address(listed.currency1, 'currency1')
  const hooks = address(listed.hooks, 'hooks')
  if (!(currency0 < currency1)) throw hostError(`Invalid chain configuration: uniswapV4 dex ${dex.id} ${what} currencies are not sorted`)
  assertKeyShape(dex, listed.fee, listed.tickSpacing, what)
  return { currency0, currency1, fee: listed.fee, tickSpacing: listed.tickSpacing, hooks }
}
