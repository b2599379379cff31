import type { Address } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import { hostError } from '../../errors/QuoteError.js'
import { readDeploylessMulticall } from '../readDeploylessMulticall.js'
import type { ReadPoolsParameters, ReadPoolsResult } from '../types.js'
import { readUniswapV3Pools } from '../uniswapV3/readPools.js'
import { getSlipstreamPoolAddress } from './address.js'
import type { SlipstreamPoolState } from './state.js'

const feeAbi = [
  { type: 'function', name: 'fee', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint24' }] },
] as const

// The CLFactory accepts tick spacings in (0, 16384).
const MAX_TICK_SPACING = 16_383

/**
 * Reads every Slipstream pool among `tokens` on the given dexes (every pair, every tick spacing of
 * `DexConfig.tickSpacings`) at one block. Two reads in parallel: the Uniswap V3 lens reads price,
 * liquidity and ticks (a CLPool answers its getters in the same layout for every word the lens
 * decodes; with the tick spacing where a V3 pool has its fee, the lens's CREATE2 derivation is the
 * Slipstream one, as a positive int24 encodes like a uint24), and deployless multicalls (as many as their size
 * needs, in parallel) read each candidate's `fee()`, which the pool asks its factory for on every
 * swap. A pool whose `fee()` reverts or is out of range is skipped and reported; a node failure
 * throws.
 *
 * @example
 * const { pools, skipped } = await readSlipstreamPools({ client, chain: base, blockNumber, tokens, dexes: [slipstreamDex] })
 */
export async function readSlipstreamPools(parameters: ReadPoolsParameters): Promise<ReadPoolsResult<SlipstreamPoolState>> {
  const { client, blockNumber, tokens, dexes } = parameters
  const asV3: DexConfig[] = dexes.map((dex) => {
    const feeTiers: Record<number, number> = {}
    for (const spacing of dex.tickSpacings ?? []) {
      if (!Number.isInteger(spacing) || spacing < 1 || spacing > MAX_TICK_SPACING) {
        throw hostError(`Invalid chain configuration: slipstream dex ${dex.id} has an invalid tick spacing ${spacing}`)
      }
      feeTiers[spacing] = spacing
    }
    return { ...dex, feeTiers }
  })
  const [states, fees] = await Promise.all([
    readUniswapV3Pools({ ...parameters, dexes: asV3 }),
    readFees(client, blockNumber, tokens, asV3),
  ])
  const pools: SlipstreamPoolState[] = []
  const skipped: ReadPoolsResult['skipped'] = []
  for (const state of states) {
    const fee = fees.get(state.address)
    if (fee === undefined || fee >= 1_000_000) {
      skipped.push({ address: state.address, reason: `slipstream pool: fee() ${fee === undefined ? 'failed' : `returned ${fee}`}` })
      continue
    }
    pools.push({ ...state, family: 'slipstream', fee })
  }
  return { pools, skipped }
}

// Every candidate's fee() at the block, by pool address (calls that revert are absent; a node
// failure throws). Hundreds of candidates (two factories, seven tokens, six spacings) answer more
// than one deployless multicall may: readDeploylessMulticall splits them by size.
async function readFees(
  client: ReadPoolsParameters['client'],
  blockNumber: bigint,
  tokens: ReadPoolsParameters['tokens'],
  dexes: readonly DexConfig[],
): Promise<Map<string, number>> {
  const seen = new Set<string>()
  const addresses: Address[] = []
  for (const dex of dexes) {
    for (const spacing of Object.keys(dex.feeTiers ?? {}).map(Number)) {
      for (let i = 0; i < tokens.length; i++) {
        for (let j = i + 1; j < tokens.length; j++) {
          if (tokens[i] === tokens[j]) continue
          const address = getSlipstreamPoolAddress(dex, tokens[i]!, tokens[j]!, spacing)
          if (seen.has(address)) continue
          seen.add(address)
          addresses.push(address)
        }
      }
    }
  }
  const fees = new Map<string, number>()
  if (addresses.length === 0) return fees
  const results = await readDeploylessMulticall(
    client,
    blockNumber,
    addresses.map((address) => ({ address, abi: feeAbi, functionName: 'fee' })),
  )
  results.forEach((result, i) => {
    if (result.status === 'success') fees.set(addresses[i] as string, Number(result.result))
  })
  return fees
}
