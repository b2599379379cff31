import { type Address, type Hex, isHex } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import { hostError } from '../../errors/QuoteError.js'
import { readDeploylessMulticall } from '../readDeploylessMulticall.js'
import type { ReadPoolsParameters, ReadPoolsResult } from '../types.js'
import { MAX_VAULT_BALANCE } from './pool.js'
import type { BalancerV2PoolState } from './state.js'

const vaultAbi = [
  {
    type: 'function',
    name: 'getPoolTokens',
    stateMutability: 'view',
    inputs: [{ name: 'poolId', type: 'bytes32' }],
    outputs: [
      { name: 'tokens', type: 'address[]' },
      { name: 'balances', type: 'uint256[]' },
      { name: 'lastChangeBlock', type: 'uint256' },
    ],
  },
  {
    type: 'function',
    name: 'getPausedState',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'paused', type: 'bool' },
      { name: 'pauseWindowEndTime', type: 'uint256' },
      { name: 'bufferPeriodEndTime', type: 'uint256' },
    ],
  },
] as const

const weightedPoolAbi = [
  { type: 'function', name: 'getNormalizedWeights', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256[]' }] },
  { type: 'function', name: 'getScalingFactors', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256[]' }] },
  { type: 'function', name: 'getSwapFeePercentage', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'getPoolId', stateMutability: 'view', inputs: [], outputs: [{ type: 'bytes32' }] },
  vaultAbi[1],
] as const

const factoryAbi = [
  { type: 'function', name: 'isPoolFromFactory', stateMutability: 'view', inputs: [{ name: 'pool', type: 'address' }], outputs: [{ type: 'bool' }] },
] as const

/**
 * The pool contract a Balancer V2 pool id names: its first 20 bytes (lowercase).
 * @example getBalancerV2PoolAddress('0x35f823b87ea3c1918992f958b7764b4d37c7329400020000000000000000003e') // '0x35f823b87ea3c1918992f958b7764b4d37c73294'
 */
export function getBalancerV2PoolAddress(poolId: Hex): Address {
  return `0x${poolId.slice(2, 42).toLowerCase()}` as Address
}

type Candidate = { dex: DexConfig; poolId: Hex; pool: Address; factories: readonly Address[] }

// Calls per candidate, in this order; then one isPoolFromFactory per factory.
const POOL_CALLS = 6
/** The most tokens a WeightedPool holds: bounds its array answers for the chunking (a larger pool's chunk is split when refused). */
const MAX_POOL_TOKENS = 8
/** ABI-encoded bytes of one `uint256[]` or `address[]` answer of {@link MAX_POOL_TOKENS} entries: offset, length, entries. */
const ARRAY_ANSWER_BYTES = 32 * (2 + MAX_POOL_TOKENS)
/** getPoolTokens: two arrays and lastChangeBlock (three heads, each array's length and entries). */
const POOL_TOKENS_ANSWER_BYTES = 32 + 2 * ARRAY_ANSWER_BYTES

/**
 * Reads the configured Balancer V2 pools (`DexConfig.pools`) of the given dexes at one block, in
 * deployless multicalls sized to the node's caps: each Vault's pause state, and per pool the Vault's tokens and balances,
 * the pool's weights, scaling factors, swap fee, pause state and id, and whether one of
 * `DexConfig.poolFactories` created it. Pools with fewer than two of `tokens` are left out; pools
 * that cannot be priced (not from a known WeightedPoolFactory, paused, unregistered, malformed
 * answers) are returned as `skipped` with the reason. A node failure throws.
 *
 * @example
 * const { pools, skipped } = await readBalancerV2Pools({ client, chain, blockNumber, tokens, dexes: [balancerDex] })
 */
export async function readBalancerV2Pools({ client, blockNumber, tokens, dexes }: ReadPoolsParameters): Promise<ReadPoolsResult<BalancerV2PoolState>> {
  const candidates: Candidate[] = []
  for (const dex of dexes) {
    const factories = (dex.poolFactories ?? []).map((f) => f.toLowerCase() as Address)
    const seen = new Set<string>()
    for (const id of dex.pools ?? []) {
      if (!isHex(id) || id.length !== 66) throw hostError(`Balancer V2 dex ${dex.id}: pool id ${String(id)} is not 32 bytes of hex`)
      const poolId = id.toLowerCase() as Hex
      if (seen.has(poolId)) continue
      seen.add(poolId)
      candidates.push({ dex, poolId, pool: getBalancerV2PoolAddress(poolId), factories })
    }
  }
  if (candidates.length === 0) return { pools: [], skipped: [] }

  const vaults = [...new Set(dexes.map((d) => d.factory.toLowerCase() as Address))]
  const contracts = [
    ...vaults.map((vault) => ({ address: vault, abi: vaultAbi, functionName: 'getPausedState' as const })),
    ...candidates.flatMap((c) => [
      { address: c.dex.factory, abi: vaultAbi, functionName: 'getPoolTokens' as const, args: [c.poolId] as const, answerBytes: POOL_TOKENS_ANSWER_BYTES },
      { address: c.pool, abi: weightedPoolAbi, functionName: 'getNormalizedWeights' as const, answerBytes: ARRAY_ANSWER_BYTES },
      { address: c.pool, abi: weightedPoolAbi, functionName: 'getScalingFactors' as const, answerBytes: ARRAY_ANSWER_BYTES },
      { address: c.pool, abi: weightedPoolAbi, functionName: 'getSwapFeePercentage' as const },
      { address: c.pool, abi: weightedPoolAbi, functionName: 'getPausedState' as const },
      { address: c.pool, abi: weightedPoolAbi, functionName: 'getPoolId' as const },
      ...c.factories.map((factory) => ({ address: factory, abi: factoryAbi, functionName: 'isPoolFromFactory' as const, args: [c.pool] as const })),
    ]),
  ]
  // ~2.3 kB of answer per pool: one deployless multicall (at most 24,576 bytes of answer) failed as
  // a whole past ~15 pools. readDeploylessMulticall sizes the chunks (in parallel, one block) and
  // throws on a node failure rather than reporting every pool as skipped.
  const results = await readDeploylessMulticall(client, blockNumber, contracts)

  const vaultPaused = new Map<Address, boolean | undefined>()
  vaults.forEach((vault, k) => {
    const r = results[k]!
    vaultPaused.set(vault, r.status === 'success' ? (r.result as readonly [boolean, bigint, bigint])[0] : undefined)
  })

  const wanted = new Set(tokens.map((t) => t.toLowerCase()))
  const pools: BalancerV2PoolState[] = []
  const skipped: { address: string; reason: string }[] = []
  let k = vaults.length
  for (const c of candidates) {
    const answers = results.slice(k, k + POOL_CALLS + c.factories.length)
    k += POOL_CALLS + c.factories.length
    const vault = c.dex.factory.toLowerCase() as Address
    const skip = (reason: string) => skipped.push({ address: c.poolId, reason })

    const paused = vaultPaused.get(vault)
    if (paused !== false) {
      skip(paused ? 'the Balancer Vault is paused' : 'the Balancer Vault did not answer getPausedState')
      continue
    }
    const [poolTokens, weights, scaling, fee, poolPaused, poolId] = answers
    if (poolTokens?.status !== 'success') {
      skip('not registered in the Vault')
      continue
    }
    const [tokenList, balances] = poolTokens.result as readonly [readonly Address[], readonly bigint[], bigint]
    if (tokenList.filter((t) => wanted.has(t.toLowerCase())).length < 2) continue

    const fromFactory = answers.slice(POOL_CALLS).some((r) => r.status === 'success' && r.result === true)
    if (!fromFactory) {
      skip('not a weighted pool from a known WeightedPoolFactory (only those are priced)')
      continue
    }
    if (weights?.status !== 'success' || scaling?.status !== 'success' || fee?.status !== 'success' || poolPaused?.status !== 'success' || poolId?.status !== 'success') {
      skip('the pool did not answer its weighted-pool getters')
      continue
    }
    if ((poolPaused.result as readonly [boolean, bigint, bigint])[0]) {
      skip('the pool is paused')
      continue
    }
    const weightList = weights.result as readonly bigint[]
    const scalingList = scaling.result as readonly bigint[]
    if (
      (poolId.result as Hex).toLowerCase() !== c.poolId ||
      weightList.length !== tokenList.length ||
      scalingList.length !== tokenList.length ||
      balances.some((b) => b > MAX_VAULT_BALANCE)
    ) {
      skip('the pool and the Vault disagree on its id, tokens or balances')
      continue
    }
    pools.push({
      family: 'balancerV2',
      dex: c.dex.id,
      address: vault,
      poolId: c.poolId,
      pool: c.pool,
      tokens: tokenList.map((t) => t.toLowerCase() as Address),
      balances: balances.map(String),
      weights: weightList.map(String),
      scalingFactors: scalingList.map(String),
      swapFeePercentage: String(fee.result as bigint),
    })
  }
  return { pools, skipped }
}
