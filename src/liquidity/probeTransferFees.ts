import { type Address, type PublicClient, decodeFunctionResult, encodeFunctionData } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { afterTransferFee } from '../protocols/transferFee.js'
import { getTransferFeeLenders } from './getTransferFeeLenders.js'

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
 * (contracts/lens) runs as deployless code and borrows each token from its pools with `partners`
 * on the chain's dexes, each family through its own flash, swap or unlock entry point
 * (getTransferFeeLenders), until one lends. Returns bps or null per token.
 */
export async function probeTransferFees(
  // Any viem chain, as createRpcSource takes: an OP-stack client is not a plain PublicClient.
  client: PublicClient<import('viem').Transport, any>,
  chain: ChainConfig,
  tokens: readonly Address[],
  partners: readonly Address[],
  blockNumber: bigint,
): Promise<(number | null)[]> {
  const probes = tokens.map((token) => ({ token, lenders: getTransferFeeLenders(chain, token, partners) }))
  // Loaded on first use: pages that never read a node never download the probe.
  const { transferFeeProbeAbi, transferFeeProbeBytecode } = await import('../executor/lensArtifacts.js')
  // Deployless code carries its calldata in its init code, which a node caps at 49,152 bytes: with
  // many tokens and partners (the live source at thousands of pools) the probes go out in groups
  // of at most PROBE_WORDS_PER_CALL calldata words, in parallel.
  const groups: (typeof probes)[] = []
  let groupWords = PROBE_WORDS_PER_CALL
  for (const probe of probes) {
    const words = probe.lenders.length + WORDS_PER_PROBE
    if (groupWords + words > PROBE_WORDS_PER_CALL) {
      groups.push([])
      groupWords = 0
    }
    groups[groups.length - 1]!.push(probe)
    groupWords += words
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

/**
 * Calldata words (32 bytes) per probe call: with the probe's code (about 4.3 kB) a call's init
 * code stays well under 49,152 bytes.
 */
const PROBE_WORDS_PER_CALL = 1_000
/** A probe's words besides its lenders: its offset, its token, its lenders' offset and length. */
const WORDS_PER_PROBE = 4
