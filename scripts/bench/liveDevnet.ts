// Shared parts of the live source's benches: many real Uniswap V2 pairs on an anvil devnet, a
// viem client whose transport counts what it sends, the trades the quote benches ask for, and a
// source's answer as a snapshot.
import { performance } from 'node:perf_hooks'
import { type Address, type PublicClient, type Transport, createPublicClient, encodeDeployData, encodeFunctionData, getContractAddress, http, numberToHex } from 'viem'
import type { Snapshot } from '../../src/liquidity/createSnapshotSource.js'
import type { Liquidity } from '../../src/liquidity/types.js'
import { getUniswapV2PairAddress } from '../../src/protocols/uniswapV2/readPools.js'
import type { QuoteIntent } from '../../src/quote/types.js'
import {
  type Anvil,
  DEVNET_GAS,
  type Devnet,
  type DevnetSymbol,
  type DevnetTransaction,
  compileTestContracts,
  rpc,
  rpcBatch,
  testTokenAbi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
} from '../../test/devnet/index.js'

/** Enough block gas for thousands of pair creations (or a swap on every pool) in one block. */
export const LIVE_BENCH_BLOCK_GAS_LIMIT = '20000000000'

/** The trades the live quote benches ask for on the bench devnet, in turn: token sold, token bought, the sale's value in USD. */
const LIVE_BENCH_TRADES: readonly [DevnetSymbol, DevnetSymbol, number][] = [
  ['USDC', 'WETH', 25_000],
  ['WETH', 'WBTC', 5_000],
  ['DAI', 'LINK', 1_000],
  ['USDT', 'PEPE', 10_000],
  ['WBTC', 'USDC', 100_000],
  ['LINK', 'DAI', 500],
]

/**
 * The live quote benches' exact-input intents on `devnet` (one per trade of LIVE_BENCH_TRADES, the
 * sale worth its USD value at the devnet's prices).
 *
 * @example
 * for (const intent of getLiveBenchIntents(devnet)) await getQuote(intent, source, { chains: [devnet.chain] })
 */
export function getLiveBenchIntents(devnet: Devnet): QuoteIntent[] {
  return LIVE_BENCH_TRADES.map(([sell, buy, usd]) => ({
    chainId: devnet.chain.id,
    sellToken: devnet.tokens[sell].address,
    buyToken: devnet.tokens[buy].address,
    sellAmount: BigInt(Math.floor((usd / devnet.tokens[sell].priceUsd) * 10 ** devnet.tokens[sell].decimals)),
  }))
}

/**
 * A source's answer as a snapshot of the same block: its tokens and pools (shared, not copied),
 * and its gas price as a base-10 string when it has one.
 *
 * @example
 * const snapshot = createSnapshotSource(structuredClone(toSnapshot(await live.getLiquidity(request))))
 */
export function toSnapshot(liquidity: Liquidity): Snapshot {
  const { chainId, blockNumber, tokens, pools, gasPriceWei } = liquidity
  return { chainId, blockNumber, tokens, pools, ...(gasPriceWei !== undefined ? { gasPriceWei: gasPriceWei.toString() } : {}) }
}

/** Extra V2 pairs on a devnet: their addresses, the tokens they trade, and what deploying them cost. */
export type ManyV2Pairs = { pairs: { address: Address; token0: Address; token1: Address }[]; tokens: Address[]; transactions: number; blocks: number; deployMs: number }

/**
 * Deploys `count` new Uniswap V2 pairs with reserves on `devnet`'s real UniswapV2Factory: just
 * enough new TestTokens that every pair is a distinct token pair (n tokens give n(n-1)/2 pairs),
 * then for each pair `createPair`, a mint of both tokens to the pair and the pair's `mint`, sent
 * in JSON-RPC batches mined 500 pairs per block (start anvil with `--gas-limit
 * LIVE_BENCH_BLOCK_GAS_LIMIT`), every receipt checked. Every pair address is checked against its CREATE2
 * derivation through the factory's `getPair`. Nothing is cached between runs.
 *
 * @example
 * const { pairs } = await deployManyV2Pairs(anvil, devnet, 1_000)
 */
export async function deployManyV2Pairs(anvil: Anvil, devnet: Devnet, count: number): Promise<ManyV2Pairs> {
  const started = performance.now()
  const deployer = devnet.accounts.deployer
  const { TestToken: testToken } = await compileTestContracts({ files: ['test/contracts/TestToken.sol'] })
  if (!testToken) throw new Error('TestToken did not compile')
  let tokenCount = 2
  while ((tokenCount * (tokenCount - 1)) / 2 < count) tokenCount++
  let nonce = Number(await rpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [deployer, 'pending']))
  const deployments: DevnetTransaction[] = []
  const tokens: Address[] = []
  for (let index = 0; index < tokenCount; index++) {
    tokens.push(getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase() as Address)
    deployments.push({
      label: `deploy bench token ${index}`,
      from: deployer,
      data: encodeDeployData({ abi: testTokenAbi, bytecode: testToken.bytecode, args: [`Bench ${index}`, `B${index}`, 18] }),
      gas: DEVNET_GAS.deployToken,
      nonce: nonce++,
    })
  }
  const transactions: DevnetTransaction[] = [...deployments]
  const dex = devnet.chain.dexes.find((d) => d.family === 'uniswapV2')!
  const pairs: ManyV2Pairs['pairs'] = []
  for (let first = 0; first < tokenCount && pairs.length < count; first++) {
    for (let second = first + 1; second < tokenCount && pairs.length < count; second++) {
      const [token0, token1] = tokens[first]! < tokens[second]! ? [tokens[first]!, tokens[second]!] : [tokens[second]!, tokens[first]!]
      const address = getUniswapV2PairAddress(dex, token0, token1)
      pairs.push({ address, token0, token1 })
      // Reserves vary by pair (1k–100k of each token), so pools differ.
      const reserve = 10n ** 21n * BigInt(1 + (pairs.length % 100))
      const tx = (label: string, to: Address, data: `0x${string}`, gas: bigint): DevnetTransaction => ({ label, from: deployer, to, data, gas, nonce: nonce++ })
      transactions.push(
        tx('createPair', devnet.contracts.uniswapV2Factory, encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [token0, token1] }), DEVNET_GAS.createPair),
        tx('mint token0 to pair', token0, encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [address, reserve] }), DEVNET_GAS.mint),
        tx('mint token1 to pair', token1, encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [address, reserve * 3n] }), DEVNET_GAS.mint),
        tx('pair mint', address, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [deployer] }), DEVNET_GAS.v2Mint),
      )
    }
  }
  const before = Number(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber', []))
  await sendInBlocks(anvil.rpcUrl, deployments, deployments.length)
  await sendInBlocks(anvil.rpcUrl, transactions.slice(deployments.length), PAIRS_PER_BLOCK * TRANSACTIONS_PER_PAIR)
  const after = Number(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber', []))
  // The factory must agree with the CREATE2 derivation, or the reserves went to empty accounts.
  const sample = [pairs[0]!, pairs[Math.floor(pairs.length / 2)]!, pairs[pairs.length - 1]!]
  for (const pair of sample) {
    const registered = await anvil.publicClient.readContract({ address: devnet.contracts.uniswapV2Factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [pair.token0, pair.token1] })
    if (registered.toLowerCase() !== pair.address) throw new Error(`factory has ${registered} for ${pair.token0}/${pair.token1}, CREATE2 gives ${pair.address}`)
  }
  return { pairs, tokens, transactions: transactions.length, blocks: after - before, deployMs: performance.now() - started }
}

const PAIRS_PER_BLOCK = 500
const TRANSACTIONS_PER_PAIR = 4
// Fee caps far above any base fee the bench reaches (only base fee plus tip is charged).
const MAX_FEE_PER_GAS = 1_000_000_000_000n
const PRIORITY_FEE_PER_GAS = 1_000_000_000n

/**
 * Mines `transactions` (explicit nonces) `perBlock` at a time, automine paused, and checks every
 * block's receipts with one `eth_getBlockReceipts` (per-transaction receipts cost anvil time
 * quadratic in a block's size: 40k of them in one block took over 5 minutes).
 */
async function sendInBlocks(url: string, transactions: readonly DevnetTransaction[], perBlock: number): Promise<void> {
  await rpc(url, 'evm_setAutomine', [false])
  try {
    for (let start = 0; start < transactions.length; start += perBlock) {
      const chunk = transactions.slice(start, start + perBlock)
      await rpcBatch(
        url,
        chunk.map((tx) => ({
          method: 'eth_sendTransaction',
          params: [{ from: tx.from, ...(tx.to ? { to: tx.to } : {}), data: tx.data, gas: numberToHex(tx.gas), nonce: numberToHex(tx.nonce!), maxFeePerGas: numberToHex(MAX_FEE_PER_GAS), maxPriorityFeePerGas: numberToHex(PRIORITY_FEE_PER_GAS) }],
        })),
      )
      await rpc(url, 'evm_mine', [])
      const receipts = await rpc<{ status: string }[]>(url, 'eth_getBlockReceipts', ['latest'])
      const failed = receipts.findIndex((receipt) => receipt.status !== '0x1')
      if (receipts.length !== chunk.length || failed >= 0) {
        throw new Error(`bench block: ${receipts.length} of ${chunk.length} transactions mined${failed >= 0 ? `, "${chunk[failed]?.label}" failed` : ''}`)
      }
    }
  } finally {
    await rpc(url, 'evm_setAutomine', [true])
  }
}

/** The part of a JSON-RPC request the counts look at. */
type RpcBody = { method: string; params?: [{ to?: string }?, ...unknown[]] }

/** What a counting client has sent since its last reset. */
export type RequestCounts = { httpRequests: number; rpcCalls: number; byMethod: Record<string, number>; getLogsMs: number }

/**
 * A viem PublicClient over plain `http` (viem's defaults, or JSON-RPC batching) whose fetch counts
 * HTTP requests (round trips to the node), the JSON-RPC calls they carry, per method, and the wall
 * time spent waiting for `eth_getLogs`.
 *
 * @example
 * const { client, counts, reset } = createCountingClient(anvil.rpcUrl)
 * await client.getBlockNumber()
 * counts().httpRequests // 1
 */
export function createCountingClient(rpcUrl: string, options: { batch?: boolean } = {}): { client: PublicClient<Transport, undefined>; counts(): RequestCounts; reset(): void } {
  let current: RequestCounts = { httpRequests: 0, rpcCalls: 0, byMethod: {}, getLogsMs: 0 }
  const fetchFn: typeof fetch = async (input, init) => {
    current.httpRequests++
    let isGetLogs = false
    if (typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as RpcBody | RpcBody[]
      for (const call of Array.isArray(body) ? body : [body]) {
        current.rpcCalls++
        // Calls without a target run code of their own (weft's lenses and probes): told apart from plain calls.
        const method = call.method === 'eth_call' && !call.params?.[0]?.to ? 'eth_call (lens code)' : call.method
        current.byMethod[method] = (current.byMethod[method] ?? 0) + 1
        if (call.method === 'eth_getLogs') isGetLogs = true
      }
    }
    const started = performance.now()
    const response = await fetch(input, init)
    if (isGetLogs) {
      // The body is read here so its transfer counts as part of the wait.
      const text = await response.text()
      current.getLogsMs += performance.now() - started
      return new Response(text, { status: response.status, headers: response.headers })
    }
    return response
  }
  const client = createPublicClient({ transport: http(rpcUrl, { fetchFn, retryCount: 0, ...(options.batch ? { batch: true } : {}) }) })
  return {
    client,
    counts: () => ({ ...current, byMethod: { ...current.byMethod } }),
    reset: () => (current = { httpRequests: 0, rpcCalls: 0, byMethod: {}, getLogsMs: 0 }),
  }
}
