import { type Address, type Hex, type PublicClient, type Transport, parseAbi } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { probeTransferFees } from './probeTransferFees.js'
import { tokenSymbolFromBytes } from './sanitizeTokenSymbol.js'
import type { TokenMetadata } from './types.js'

const decimalsAbi = parseAbi(['function decimals() view returns (uint8)'])
// `symbol()` read raw: a `string` return decodes as `bytes` (same encoding), an old-style `bytes32` return as bytes32.
const symbolAsBytesAbi = parseAbi(['function symbol() view returns (bytes)'])
const symbolAsBytes32Abi = parseAbi(['function symbol() view returns (bytes32)'])

/**
 * Metadata of `tokens` at one block: decimals and symbol in one multicall, the fee on transfer
 * measured by the TransferFeeProbe against pools with `partners`, in parallel. A token without
 * `decimals()` gets no entry (quotes cannot describe it); an unmeasurable fee is `null` (the token
 * is then not traded). The symbol is sanitised here, where it enters weft: it is whatever the
 * token's deployer wrote. Node errors propagate. The RPC and live sources both read through it.
 *
 * @example
 * const metadata = await readTokenMetadata(client, chain, [token], [weth], 123n)
 */
export async function readTokenMetadata(
  client: PublicClient<Transport, any>,
  chain: ChainConfig,
  tokens: readonly Address[],
  partners: readonly Address[],
  blockNumber: bigint,
): Promise<TokenMetadata[]> {
  if (tokens.length === 0) return []
  const [results, fees] = await Promise.all([
    client.multicall({
      contracts: tokens.flatMap((address) => [
        { address, abi: decimalsAbi, functionName: 'decimals' as const },
        { address, abi: symbolAsBytesAbi, functionName: 'symbol' as const },
        { address, abi: symbolAsBytes32Abi, functionName: 'symbol' as const },
      ]),
      allowFailure: true,
      blockNumber,
      deployless: true,
      batchSize: 0,
    }),
    probeTransferFees(client, chain, tokens, partners, blockNumber),
  ])
  const metadata: TokenMetadata[] = []
  // Three reads per token, in the order above.
  tokens.forEach((address, i) => {
    const [decimals, symbolBytes, symbolBytes32] = results.slice(3 * i, 3 * i + 3)
    if (decimals?.status !== 'success') return
    const rawSymbol = symbolBytes?.status === 'success' ? symbolBytes.result : symbolBytes32?.status === 'success' ? symbolBytes32.result : '0x'
    metadata.push({ address, decimals: Number(decimals.result), symbol: tokenSymbolFromBytes(rawSymbol as Hex), transferFeeBps: fees[i] ?? null })
  })
  return metadata
}
