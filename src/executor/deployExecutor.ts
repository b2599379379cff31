import { concat, type Address, type PublicClient, type WalletClient } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { QuoteError } from '../errors/QuoteError.js'
import {
  deterministicDeployer,
  executorSalt,
  getDeterministicExecutorAddress,
  getExecutorAddress,
  getExecutorDeployData,
} from './getExecutorAddress.js'

/** What {@link deployExecutor} needs: clients for the target chain and the config to build for. */
export type DeployExecutorParameters = {
  /** Signs and sends the deployment; needs an account. */
  walletClient: WalletClient
  /** Reads code and receipts; must be connected to the chain `chain` describes (any viem chain, OP-stack ones included). */
  publicClient: PublicClient<import('viem').Transport, any>
  /** The config the executor is built for (wrapped native token, dex table). */
  chain: ChainConfig
  /** Gas limit of the deployment transaction. Default: the node's estimate plus 25%. */
  gas?: bigint
}

/** The executor's address (lowercase). */
export type DeployExecutorReturnType = Address

/**
 * Deploys the executor for `chain` through the deterministic-deployment proxy, so it lands at
 * `getExecutorAddress(chain)`. Idempotent: when code is already there it sends nothing. Code at
 * a CREATE2 address can only come from the init code it commits to, so existing code is the
 * executor built for this config.
 *
 * @example
 * const executor = await deployExecutor({ walletClient, publicClient, chain: devnetChain })
 */
export async function deployExecutor({
  walletClient,
  publicClient,
  chain,
  gas,
}: DeployExecutorParameters): Promise<DeployExecutorReturnType> {
  const address = getExecutorAddress(chain)
  if (await hasCode(publicClient, address)) return address

  const chainId = await publicClient.getChainId()
  if (chainId !== chain.id) fail(`the client is on chain ${chainId}, the config describes chain ${chain.id}`)
  const deterministic = getDeterministicExecutorAddress(chain)
  if (address !== deterministic) {
    fail(`chain.executor ${address} has no code, and only ${deterministic} can be deployed for this config`)
  }
  if (!(await hasCode(publicClient, deterministicDeployer))) {
    fail(`chain ${chainId} has no deterministic-deployment proxy at ${deterministicDeployer}`)
  }
  const account = walletClient.account
  if (!account) fail('the wallet client has no account')

  // The proxy takes the salt followed by the init code and CREATE2s it.
  const data = concat([executorSalt, getExecutorDeployData(chain)])
  const gasLimit = gas ?? ((await publicClient.estimateGas({ account, to: deterministicDeployer, data })) * 5n) / 4n
  const hash = await walletClient.sendTransaction({
    account,
    chain: walletClient.chain ?? null,
    to: deterministicDeployer,
    data,
    gas: gasLimit,
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') fail(`deployment transaction ${hash} reverted`)
  if (!(await hasCode(publicClient, address))) fail(`no code at ${address} after deployment transaction ${hash}`)
  return address
}

async function hasCode(client: PublicClient<import('viem').Transport, any>, address: Address): Promise<boolean> {
  const code = await client.getCode({ address })
  return code !== undefined && code !== '0x'
}

function fail(message: string): never {
  throw new QuoteError({ statusCode: 500, message: `Executor deployment failed: ${message}` })
}
