// Balancer V2 on a devnet: the real Authorizer, Vault, ProtocolFeePercentagesProvider and
// WeightedPoolFactory bytecode from @balancer-labs/v2-deployments 3.2.0, and weighted pools
// created and seeded through them. Reusable: everything takes the running Devnet and the tokens
// and amounts as parameters, and returns the DexConfig to append to the devnet chain config.
//
// Pool version: the package's newest weighted pool is 20230206-weighted-pool-v3. The factory live
// on Ethereum and Base today is 20230320-weighted-pool-v4, which deploys the same WeightedPool
// creation code (its embedded pool bytecode ends in the same metadata hash, 0x8e9a1a26…5b4772, as
// the v3 WeightedPool artifact) with CREATE2 instead of CREATE: the pools run identical code.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Address,
  type Hex,
  concat,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  maxUint256,
  parseAbi,
  parseEventLogs,
} from 'viem'
import type { DexConfig } from '../../src/chains/types.js'
import type { Devnet, DevnetTokenRef } from './deployDevnet.js'
import { rpc, sendDevnetTransaction } from './rpc.js'

const require = createRequire(import.meta.url)
const TASKS = '@balancer-labs/v2-deployments/dist/tasks'

/** Creation bytecode of a Balancer deployment artifact. */
function readBalancerBytecode(task: string, contract: string): Hex {
  const path = require.resolve(`${TASKS}/${task}/artifact/${contract}.json`)
  return (JSON.parse(readFileSync(path, 'utf8')) as { bytecode: Hex }).bytecode
}

export const balancerVaultAbi = parseAbi([
  'struct SingleSwap { bytes32 poolId; uint8 kind; address assetIn; address assetOut; uint256 amount; bytes userData; }',
  'struct FundManagement { address sender; bool fromInternalBalance; address recipient; bool toInternalBalance; }',
  'struct JoinPoolRequest { address[] assets; uint256[] maxAmountsIn; bytes userData; bool fromInternalBalance; }',
  'function swap(SingleSwap singleSwap, FundManagement funds, uint256 limit, uint256 deadline) payable returns (uint256)',
  'function joinPool(bytes32 poolId, address sender, address recipient, JoinPoolRequest request) payable',
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
  'function getPool(bytes32 poolId) view returns (address, uint8)',
  'function getPausedState() view returns (bool paused, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)',
  'function getActionId(bytes4 selector) view returns (bytes32)',
  'function setPaused(bool paused)',
  'function registerPool(uint8 specialization) returns (bytes32)',
  'function registerTokens(bytes32 poolId, address[] tokens, address[] assetManagers)',
  'function getAuthorizer() view returns (address)',
])

export const balancerWeightedPoolAbi = parseAbi([
  'function getPoolId() view returns (bytes32)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getScalingFactors() view returns (uint256[])',
  'function getSwapFeePercentage() view returns (uint256)',
  'function getPausedState() view returns (bool paused, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)',
  'function getActionId(bytes4 selector) view returns (bytes32)',
  'function pause()',
  'function unpause()',
  'function version() view returns (string)',
])

export const balancerWeightedPoolFactoryAbi = parseAbi([
  'function create(string name, string symbol, address[] tokens, uint256[] normalizedWeights, address[] rateProviders, uint256 swapFeePercentage, address owner) returns (address)',
  'function isPoolFromFactory(address pool) view returns (bool)',
  'event PoolCreated(address indexed pool)',
])

export const balancerAuthorizerAbi = parseAbi(['function grantRole(bytes32 role, address account)'])

const erc20Abi = parseAbi(['function approve(address spender, uint256 amount) returns (bool)'])

/** Generous gas limits (explicit on every devnet transaction, see toolchain.md). */
const GAS = { deploy: 12_000_000n, create: 9_000_000n, join: 1_500_000n, approve: 100_000n, call: 500_000n }

/** The Balancer V2 contracts on a devnet. Addresses lowercase. */
export type BalancerV2Deployment = {
  authorizer: Address
  vault: Address
  protocolFeeProvider: Address
  weightedPoolFactory: Address
  /** The Authorizer's admin (may grant roles, e.g. to pause). */
  admin: Address
}

/** A weighted pool created on the devnet. `tokens` sorted (the pool's order); amounts raw. */
export type BalancerV2DevnetPool = {
  poolId: Hex
  pool: Address
  tokens: Address[]
  weights: bigint[]
  swapFee: bigint
}

const lower = (address: string) => address.toLowerCase() as Address

/**
 * Deploys the real Balancer V2 Authorizer (admin: `admin`, default the devnet deployer), Vault
 * (with the devnet's WETH, a 90-day pause window and 30-day buffer, so tests can pause it),
 * ProtocolFeePercentagesProvider and WeightedPoolFactory, from the deployer.
 *
 * @example
 * const balancer = await deployBalancerV2(devnet)
 */
export async function deployBalancerV2(devnet: Devnet, options: { admin?: Address } = {}): Promise<BalancerV2Deployment> {
  const url = devnet.anvil.rpcUrl
  const from = devnet.accounts.deployer
  const admin = lower(options.admin ?? from)
  const deploy = async (label: string, data: Hex): Promise<Address> => {
    const nonce = BigInt(await rpc<Hex>(url, 'eth_getTransactionCount', [from, 'latest']))
    const receipt = await sendDevnetTransaction(url, { label, from, data, gas: GAS.deploy })
    const expected = lower(getContractAddress({ from, nonce }))
    if (!receipt.contractAddress || lower(receipt.contractAddress) !== expected) throw new Error(`${label}: no contract at ${expected}`)
    return expected
  }
  const day = 24n * 3600n
  const authorizer = await deploy(
    'deploy Balancer Authorizer',
    concat([readBalancerBytecode('20210418-authorizer', 'Authorizer'), encodeAbiParameters([{ type: 'address' }], [admin])]),
  )
  const vault = await deploy(
    'deploy Balancer Vault',
    concat([
      readBalancerBytecode('20210418-vault', 'Vault'),
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'address' }, { type: 'uint256' }, { type: 'uint256' }],
        [authorizer, devnet.contracts.weth, 90n * day, 30n * day],
      ),
    ]),
  )
  const protocolFeeProvider = await deploy(
    'deploy Balancer ProtocolFeePercentagesProvider',
    concat([
      readBalancerBytecode('20220725-protocol-fee-percentages-provider', 'ProtocolFeePercentagesProvider'),
      encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }], [vault, 5n * 10n ** 17n, 5n * 10n ** 17n]),
    ]),
  )
  const version = (name: string) => JSON.stringify({ name, version: 3, deployment: '20230206-weighted-pool-v3' })
  const weightedPoolFactory = await deploy(
    'deploy Balancer WeightedPoolFactory',
    concat([
      readBalancerBytecode('20230206-weighted-pool-v3', 'WeightedPoolFactory'),
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'address' }, { type: 'string' }, { type: 'string' }],
        [vault, protocolFeeProvider, version('WeightedPoolFactory'), version('WeightedPool')],
      ),
    ]),
  )
  return { authorizer, vault, protocolFeeProvider, weightedPoolFactory, admin }
}

/**
 * One token of a pool to create: which, its normalized weight (1e18 = 100%), the raw amount to seed,
 * and optionally a rate provider (an IRateProvider whose rate multiplies the token's scaling factor).
 */
export type BalancerV2PoolTokenSpec = { token: DevnetTokenRef; weight: bigint; amount: bigint; rateProvider?: Address }

/**
 * Creates a weighted pool through the real factory (rate providers as the specs give) and seeds it with an INIT
 * join from `from` (default the deployer), minting the amounts to it first. Weights must sum to 1e18.
 *
 * @example
 * const pool = await createBalancerV2WeightedPool(devnet, balancer, [
 *   { token: 'WETH', weight: 5n * 10n ** 17n, amount: 100n * 10n ** 18n },
 *   { token: 'USDC', weight: 5n * 10n ** 17n, amount: 300_000n * 10n ** 6n },
 * ], { swapFee: 3n * 10n ** 15n })
 */
export async function createBalancerV2WeightedPool(
  devnet: Devnet,
  balancer: BalancerV2Deployment,
  specs: readonly BalancerV2PoolTokenSpec[],
  options: { swapFee?: bigint; from?: Address; name?: string } = {},
): Promise<BalancerV2DevnetPool> {
  const url = devnet.anvil.rpcUrl
  const from = options.from ?? devnet.accounts.deployer
  const entries = specs
    .map((spec) => ({ ...spec, address: devnet.getToken(spec.token).address }))
    .sort((a, b) => (a.address < b.address ? -1 : 1))
  const tokens = entries.map((e) => e.address)
  const weights = entries.map((e) => e.weight)
  const swapFee = options.swapFee ?? 3n * 10n ** 15n
  const name = options.name ?? entries.map((e) => devnet.getToken(e.address).symbol).join('-')
  const receipt = await sendDevnetTransaction(url, {
    label: `create Balancer pool ${name}`,
    from,
    to: balancer.weightedPoolFactory,
    data: encodeFunctionData({
      abi: balancerWeightedPoolFactoryAbi,
      functionName: 'create',
      args: [name, `B-${name}`, tokens, weights, entries.map((e) => e.rateProvider ?? ('0x0000000000000000000000000000000000000000' as Address)), swapFee, from],
    }),
    gas: GAS.create,
  })
  const [created] = parseEventLogs({ abi: balancerWeightedPoolFactoryAbi, eventName: 'PoolCreated', logs: receipt.logs })
  if (!created) throw new Error(`create Balancer pool ${name}: no PoolCreated event`)
  const pool = lower(created.args.pool)
  const poolId = decodeFunctionResult({
    abi: balancerWeightedPoolAbi,
    functionName: 'getPoolId',
    data: await rpc<Hex>(url, 'eth_call', [{ to: pool, data: encodeFunctionData({ abi: balancerWeightedPoolAbi, functionName: 'getPoolId' }) }, 'latest']),
  })
  await joinBalancerV2Pool(devnet, balancer, { poolId, tokens }, entries.map((e) => e.amount), { from, init: true })
  return { poolId, pool, tokens, weights, swapFee }
}

/**
 * Adds tokens to a pool through Vault.joinPool: the INIT join for a new pool, else
 * EXACT_TOKENS_IN_FOR_BPT_OUT. Mints the amounts to `from` and approves the Vault for them.
 */
export async function joinBalancerV2Pool(
  devnet: Devnet,
  balancer: BalancerV2Deployment,
  pool: Pick<BalancerV2DevnetPool, 'poolId' | 'tokens'>,
  amounts: readonly bigint[],
  options: { from?: Address; init?: boolean } = {},
): Promise<void> {
  const url = devnet.anvil.rpcUrl
  const from = options.from ?? devnet.accounts.deployer
  for (const [i, token] of pool.tokens.entries()) {
    await devnet.mint(token, from, amounts[i]!)
    await sendDevnetTransaction(url, {
      label: `approve the Balancer Vault for ${token}`,
      from,
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [balancer.vault, maxUint256] }),
      gas: GAS.approve,
    })
  }
  // WeightedPoolUserData: INIT = 0 (amountsIn), EXACT_TOKENS_IN_FOR_BPT_OUT = 1 (amountsIn, minimum BPT).
  const userData = options.init
    ? encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256[]' }], [0n, [...amounts]])
    : encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256[]' }, { type: 'uint256' }], [1n, [...amounts], 0n])
  await sendDevnetTransaction(url, {
    label: `join Balancer pool ${pool.poolId}`,
    from,
    to: balancer.vault,
    data: encodeFunctionData({
      abi: balancerVaultAbi,
      functionName: 'joinPool',
      args: [pool.poolId, from, from, { assets: pool.tokens, maxAmountsIn: [...amounts], userData, fromInternalBalance: false }],
    }),
    gas: GAS.join,
  })
}

/**
 * Lets `account` call `selector` on `target` (the Vault or a pool): grants the target's action id
 * on the Authorizer, from its admin.
 */
export async function grantBalancerV2Action(devnet: Devnet, balancer: BalancerV2Deployment, target: Address, selector: Hex, account: Address): Promise<void> {
  const url = devnet.anvil.rpcUrl
  const data = encodeFunctionData({ abi: balancerVaultAbi, functionName: 'getActionId', args: [selector] })
  const role = decodeFunctionResult({ abi: balancerVaultAbi, functionName: 'getActionId', data: await rpc<Hex>(url, 'eth_call', [{ to: target, data }, 'latest']) })
  await sendDevnetTransaction(url, {
    label: `grant ${selector} on ${target}`,
    from: balancer.admin,
    to: balancer.authorizer,
    data: encodeFunctionData({ abi: balancerAuthorizerAbi, functionName: 'grantRole', args: [role, account] }),
    gas: GAS.call,
  })
}

/**
 * The DexConfig to append to the devnet chain config: kind-5 entry whose `factory` is the Vault,
 * listing the pool ids to read and the factory whose pools are priced.
 *
 * @example
 * const chain = { ...devnet.chain, dexes: [...devnet.chain.dexes, getBalancerV2DexConfig(balancer, pools.map((p) => p.poolId))] }
 */
export function getBalancerV2DexConfig(balancer: BalancerV2Deployment, poolIds: readonly Hex[], id = 'balancerV2'): DexConfig {
  return {
    id,
    family: 'balancerV2',
    protocol: 'Balancer V2',
    fork: 'BalancerV2',
    factory: balancer.vault,
    initCodeHash: `0x${'0'.repeat(64)}`,
    pools: [...poolIds],
    poolFactories: [balancer.weightedPoolFactory],
  }
}
