import { type Address, type BlockTag, type Client, type Hex, type StateOverride, encodeFunctionData, erc20Abi, numberToHex, parseAbi, zeroAddress } from 'viem'
import { call, createAccessList, getBalance, readContract } from 'viem/actions'

export type GetBalanceOverrideParameters = {
  client: Client
  /** The token to give (address(0): native). */
  token: Address
  holder: Address
  /** What the holder must hold at least. */
  amount: bigint
  block: { blockNumber: bigint } | { blockTag: BlockTag }
}

const balanceOfAbi = parseAbi(['function balanceOf(address) view returns (uint256)'])

/**
 * A state override that makes `holder` hold at least `amount` of `token` (nothing when it already
 * does). Native: the account's balance. ERC-20: the storage slot behind `balanceOf(holder)`, found
 * with `eth_createAccessList` (so proxies and any storage layout work) and checked by reading
 * `balanceOf` through the override; `null` when no slot checks out (a rebasing or computed balance).
 *
 * @example
 * const override = await getBalanceOverride({ client, token: usdc, holder, amount: 10n ** 9n, block: { blockTag: 'latest' } })
 * if (override) await call(client, { account: holder, to: executor, data, stateOverride: override })
 */
export async function getBalanceOverride({ client, token, holder, amount, block }: GetBalanceOverrideParameters): Promise<StateOverride | null> {
  if (token === zeroAddress) {
    const held = await getBalance(client, { address: holder, ...block })
    return held >= amount ? [] : [{ address: holder, balance: amount }]
  }
  const data = encodeFunctionData({ abi: balanceOfAbi, functionName: 'balanceOf', args: [holder] })
  const [held, touched] = await Promise.all([
    readContract(client, { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder], ...block }),
    createAccessList(client, { account: holder, to: token, data, ...block }),
  ])
  if (held >= amount) return []
  const slots = touched.accessList.filter((entry) => entry.address.toLowerCase() === token.toLowerCase()).flatMap((entry) => entry.storageKeys)
  const value = numberToHex(amount, { size: 32 })
  // Every candidate is tried in parallel; the first whose override moves balanceOf to `amount` wins.
  const checks = await Promise.all(
    slots.map(async (slot: Hex) => {
      const override: StateOverride = [{ address: token, stateDiff: [{ slot, value }] }]
      const result = await call(client, { to: token, data, stateOverride: override, ...block }).catch(() => null)
      return result?.data !== undefined && BigInt(result.data) === amount ? override : null
    }),
  )
  return checks.find((override) => override !== null) ?? null
}
