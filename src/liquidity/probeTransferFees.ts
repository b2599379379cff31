import { type Address, type PublicClient, decodeFunctionResult, encodeFunctionData } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { afterTransferFee } from '../protocols/transferFee.js'
import { getUniswapV2PairAddress } from '../protocols/uniswapV2/readPools.js'
import { getUniswapV3PoolAddress } from '../protocols/uniswapV3/readPools.js'

/** What the probe measured for a token: [sent, received, sentBack, receivedBack]. */
export type TransferFeeMeasurement = readonly [bigint, bigint, bigint, bigint]

/**
 * The token's fee on transfer in bps, if both measured transfers (a pool paying the probe, the
 * probe paying the pool) fit `floor(amount * bps / 10000)` with one bps figure; null when nothing
 * was measured or the token behaves otherwise (then it is not traded: fail closed).
 *
 * @example
 * inferTransferFee([1000n, 990n, 495n, 491n]) // 100 (DeflatingERC20 burns 1%)
 */
export function inferTransferFee([sent, received, sentBack, receivedBack]: TransferFeeMeasurement): number | null {
  if (sent === 0n || received > sent || receivedBack > sentBack) return null
  const guess = Number(((sent - received) * 10_000n) / sent)
  for (const bps of [guess, guess + 1]) {
    if (bps < 0 || bps >= 10_000) continue
    if (afterTransferFee(sent, bps) === received && afterTransferFee(sentBack, bps) === receivedBack) return bps
  }
  return null
}

/**
 * Measures the transfer fee of `tokens` in one `eth_call` at `blockNumber`: the TransferFeeProbe
 * (contracts/lens) runs as deployless code and flash-borrows each token from its V2 pairs or V3
 * pools with `partners` on the chain's Uniswap-family dexes. Returns bps or null per token.
 */
export async function probeTransferFees(
  // Any viem chain, as createRpcSource takes: an OP-stack client is not a plain PublicClient.
  client: PublicClient<import('viem').Transport, any>,
  chain: ChainConfig,
  tokens: readonly Address[],
  partners: readonly Address[],
  blockNumber: bigint,
): Promise<(number | null)[]> {
  const probes = tokens.map((token) => {
    const others = partners.filter((p) => p !== token)
    const v2Pairs: Address[] = []
    const v3Pools: Address[] = []
    for (const dex of chain.dexes) {
      if (dex.family === 'uniswapV2') for (const other of others) v2Pairs.push(getUniswapV2PairAddress(dex, token, other))
      if (dex.family === 'uniswapV3')
        for (const other of others) for (const fee of Object.keys(dex.feeTiers ?? {})) v3Pools.push(getUniswapV3PoolAddress(dex, token, other, Number(fee)))
    }
    return { token, v2Pairs, v3Pools }
  })
  // Loaded on first use: pages that never read a node never download the probe.
  const { transferFeeProbeAbi, transferFeeProbeBytecode } = await import('../executor/lensArtifacts.js')
  // Deployless code carries its calldata in its init code, which a node caps at 49,152 bytes: with
  // many tokens and partners (the live source at thousands of pools) the probes go out in groups
  // of at most PROBE_ADDRESSES_PER_CALL pool addresses, in parallel.
  const groups: (typeof probes)[] = []
  let groupAddresses = PROBE_ADDRESSES_PER_CALL
  for (const probe of probes) {
    const addresses = probe.v2Pairs.length + probe.v3Pools.length
    if (groupAddresses + addresses > PROBE_ADDRESSES_PER_CALL) {
      groups.push([])
      groupAddresses = 0
    }
    groups[groups.length - 1]!.push(probe)
    groupAddresses += addresses
  }
  const answers = await Promise.all(
    groups.map(async (group) => {
      const { data } = await client.call({
        code: transferFeeProbeBytecode,
        data: encodeFunctionData({ abi: transferFeeProbeAbi, functionName: 'probe', args: [group] }),
        blockNumber,
      })
      if (data === undefined) throw new Error('TransferFeeProbe returned no data')
      return decodeFunctionResult({ abi: transferFeeProbeAbi, functionName: 'probe', data }) as readonly TransferFeeMeasurement[]
    }),
  )
  return answers.flat().map((r) => inferTransferFee(r))
}

/** Pool addresses per probe call: 32 bytes each, so a call's init code stays well under 49,152 bytes. */
const PROBE_ADDRESSES_PER_CALL = 1_000
