import { type PublicClient, type Transport, createPublicClient, custom } from 'viem'
import type { Anvil } from '../devnet/index.js'

/** Multicall3's aggregate3 selector: part of every deployless multicall's data (the lenses do not carry it). */
const AGGREGATE3_SELECTOR = '82ad56cb'

/**
 * A client over the anvil node whose `failAt`-th deployless multicall (counted from 1) fails as a
 * node fault would (JSON-RPC internal error, no retries); every other request reaches the node.
 *
 * @example
 * await expect(readUniswapV2Pools({ ...parameters, client: multicallFaultClient(anvil, 2) })).rejects.toThrow(/upstream node unavailable/)
 */
export function multicallFaultClient(anvil: Anvil, failAt: number): PublicClient<Transport, any> {
  let multicalls = 0
  const request = async ({ method, params }: { method: string; params?: unknown }) => {
    const [call] = (params ?? []) as [{ data?: string; input?: string }?]
    const isMulticall = method === 'eth_call' && (call?.data ?? call?.input ?? '').includes(AGGREGATE3_SELECTOR)
    if (isMulticall && ++multicalls === failAt) throw Object.assign(new Error('upstream node unavailable'), { code: -32603 })
    return anvil.publicClient.request({ method, params } as never)
  }
  return createPublicClient({ chain: anvil.chain, transport: custom({ request }, { retryCount: 0 }) }) as PublicClient<Transport, any>
}
