// Deploy your own tokens and Uniswap V2 pools and weft's executor on a local anvil, quote through
// createRpcSource, send each quote's own transaction, and check that every party received exactly
// what the quote said.
//
//   npx anvil --port 8545          # in one terminal (anvil ships in @foundry-rs/anvil)
//   npx tsx examples/devnet.ts     # in another; --rpc <url> for another node
//
// It needs weft, viem, and the contract artifacts of two npm packages: @uniswap/v2-core (the real
// UniswapV2Factory bytecode) and @uniswap/v2-periphery (WETH9 and its ERC-20 test token). Nothing
// from weft's tests. In your own project import from 'weft' instead of '../src/index.js'.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import {
  type Address,
  type Hash,
  type Hex,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  formatUnits,
  http,
  parseAbi,
  parseUnits,
  zeroAddress,
} from 'viem'
import { type ChainConfig, type Quote, type QuoteIntent, UNISWAP_V2_INIT_CODE_HASH, createRpcSource, defineChainConfig, deployExecutor, getQuote } from '../src/index.js'

const { values } = parseArgs({ options: { rpc: { type: 'string', default: 'http://127.0.0.1:8545' } } })
const rpcUrl = values.rpc!

/** Generous fixed gas limits: anvil's own estimate can fall short when a block lands a second later. */
const GAS = { deploy: 6_000_000n, createPair: 4_000_000n, call: 300_000n }
/** Test tokens: the ERC-20 of @uniswap/v2-periphery (18 decimals), minted whole to the deployer. */
const TOKEN_SUPPLY = parseUnits('1000000000', 18)
const FEE_RECIPIENT: Address = '0x000000000000000000000000000000000000fee1'

const require = createRequire(import.meta.url)
function readArtifact(path: string): { bytecode: Hex } {
  const { bytecode } = JSON.parse(readFileSync(require.resolve(path), 'utf8')) as { bytecode: string }
  return { bytecode: (bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`) as Hex }
}
const weth9Abi = parseAbi(['function deposit() payable', 'function withdraw(uint256)'])
const testTokenAbi = parseAbi(['constructor(uint256 totalSupply)'])
const factoryAbi = parseAbi([
  'constructor(address feeToSetter)',
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
])
const pairAbi = parseAbi(['function mint(address to) returns (uint256 liquidity)'])

// The node and two of its unlocked accounts (anvil's, or any devnet's that unlocks some).
const probe = createPublicClient({ transport: http(rpcUrl) })
const chainId = await probe.getChainId()
const viemChain = defineChain({ id: chainId, name: 'Devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } })
const publicClient = createPublicClient({ chain: viemChain, transport: http(rpcUrl), pollingInterval: 10 })
const unlocked = await createWalletClient({ transport: http(rpcUrl) }).getAddresses()
if (unlocked.length < 2) throw new Error(`${rpcUrl} unlocks fewer than two accounts`)
const [deployer, trader] = unlocked as [Address, Address]
const deployerWallet = createWalletClient({ account: deployer, chain: viemChain, transport: http(rpcUrl) })
const traderWallet = createWalletClient({ account: trader, chain: viemChain, transport: http(rpcUrl) })
console.log(`connected to ${rpcUrl} (chain ${chainId})`)
// A quick run on anvil mines every block in the same second, where a V2 pair's first swap skips
// the price-accumulator writes that weft prices (on a chain, a fill's block is always in a later
// second than its quote's): one second per block, as on a chain. Other devnets ignore it.
await probe.request({ method: 'anvil_setBlockTimestampInterval' as 'eth_chainId', params: [1] as never }).catch(() => undefined)

async function mined(hash: Hash) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
  return receipt
}
/** The lowercase address a deployment created. */
async function deployed(hash: Hash): Promise<Address> {
  const { contractAddress } = await mined(hash)
  return contractAddress!.toLowerCase() as Address
}

// 1. Your deployments: WETH9, three tokens, the real UniswapV2Factory, five pairs at these prices.
const started = performance.now()
const weth = await deployed(await deployerWallet.deployContract({ abi: weth9Abi, bytecode: readArtifact('@uniswap/v2-periphery/build/WETH9.json').bytecode, gas: GAS.deploy }))
const tokenBytecode = readArtifact('@uniswap/v2-periphery/build/ERC20.json').bytecode
const deployToken = async () => deployed(await deployerWallet.deployContract({ abi: testTokenAbi, bytecode: tokenBytecode, args: [TOKEN_SUPPLY], gas: GAS.deploy }))
const usd = await deployToken()
const link = await deployToken()
const uni = await deployToken()
const factoryBytecode = readArtifact('@uniswap/v2-core/build/UniswapV2Factory.json').bytecode
const factory = await deployed(await deployerWallet.deployContract({ abi: factoryAbi, bytecode: factoryBytecode, args: [deployer], gas: GAS.deploy }))
await mined(await deployerWallet.writeContract({ address: weth, abi: weth9Abi, functionName: 'deposit', value: parseUnits('3000', 18), gas: GAS.call }))

const symbols: Record<Address, string> = { [weth]: 'WETH', [usd]: 'USD', [link]: 'LINK', [uni]: 'UNI', [zeroAddress]: 'ETH' }
/** Reserves in whole tokens (all 18 decimals): ETH 3000 USD, LINK 15 USD, UNI 8 USD. */
const pools: [Address, number, Address, number][] = [
  [weth, 1_000, usd, 3_000_000],
  [weth, 500, link, 100_000],
  [usd, 1_500_000, link, 100_000],
  [weth, 300, uni, 112_500],
  [link, 20_000, uni, 37_500],
]
for (const [tokenA, reserveA, tokenB, reserveB] of pools) {
  await mined(await deployerWallet.writeContract({ address: factory, abi: factoryAbi, functionName: 'createPair', args: [tokenA, tokenB], gas: GAS.createPair }))
  const pair = await publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'getPair', args: [tokenA, tokenB] })
  // A V2 pair mints liquidity for whatever was sent to it beforehand.
  for (const [token, reserve] of [[tokenA, reserveA], [tokenB, reserveB]] as const)
    await mined(await deployerWallet.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [pair, parseUnits(String(reserve), 18)], gas: GAS.call }))
  await mined(await deployerWallet.writeContract({ address: pair, abi: pairAbi, functionName: 'mint', args: [deployer], gas: GAS.call }))
}
for (const token of [usd, link, uni])
  await mined(await deployerWallet.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [trader, parseUnits('1000000', 18)], gas: GAS.call }))
console.log(`deployed ${pools.length} pairs in ${Math.round(performance.now() - started)} ms`)

// 2. The chain config describing them, and the executor at its deterministic address for it.
const devnet = defineChainConfig({
  id: chainId,
  name: 'Devnet',
  status: 'active',
  nativeSymbol: 'ETH',
  wrappedNative: { address: weth, symbol: 'WETH', decimals: 18 },
  tokens: [
    { address: usd, symbol: 'USD', decimals: 18 },
    { address: link, symbol: 'LINK', decimals: 18 },
    { address: uni, symbol: 'UNI', decimals: 18 },
  ],
  usdStablecoins: [usd], // priceUsd is measured against it
  majorTokens: [usd, weth], // every quote may route through these
  dexes: [{ id: 'uniswapV2', family: 'uniswapV2', protocol: 'Uniswap V2', fork: 'UniswapV2', factory, initCodeHash: UNISWAP_V2_INIT_CODE_HASH, feeBps: 30 }],
  defaultGasPriceWei: 1_000_000_000n,
})
const executor = await deployExecutor({ walletClient: deployerWallet, publicClient, chain: devnet })
const chain: ChainConfig = { ...devnet, executor }
console.log(`executor at ${executor}`)

// 3. Quote through the node (LINK as a connector: UNI/LINK is not a pair of majors), send each
// quote's own transaction, and compare what arrived with what the quote said.
const source = createRpcSource({ client: publicClient, chain, connectors: [link] })

async function balanceOf(token: Address, account: Address): Promise<bigint> {
  if (token === zeroAddress) return publicClient.getBalance({ address: account })
  return publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
}

/** Sends the quote's approval and transaction from the trader; returns what the receiver and each fee recipient got. */
async function fill(quote: Quote, buyToken: Address) {
  const before = await balanceOf(buyToken, trader)
  const feesBefore = await Promise.all(quote.fees.map((fee) => balanceOf(fee.token, fee.recipient)))
  let gasPaid = 0n
  if (quote.approval) {
    const { token, spender, amount } = quote.approval
    const receipt = await mined(await traderWallet.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, BigInt(amount)], gas: GAS.call }))
    gasPaid += receipt.gasUsed * receipt.effectiveGasPrice
  }
  const { to, data, value } = quote.transaction
  // The limit leaves room above weft's estimate; the receipt shows what the fill really used.
  const receipt = await mined(await traderWallet.sendTransaction({ to, data, value: BigInt(value), gas: BigInt(quote.gasEstimate) * 2n }))
  gasPaid += receipt.gasUsed * receipt.effectiveGasPrice
  const after = await balanceOf(buyToken, trader)
  const received = after - before + (buyToken === zeroAddress ? gasPaid : 0n)
  const feesReceived = await Promise.all(quote.fees.map(async (fee, i) => (await balanceOf(fee.token, fee.recipient)) - feesBefore[i]!))
  return { received, feesReceived, gasUsed: receipt.gasUsed }
}

const swaps: (QuoteIntent & { label: string })[] = [
  { label: 'sell 1.5 ETH for USD', chainId, sellToken: zeroAddress, buyToken: usd, sellAmount: parseUnits('1.5', 18) },
  { label: 'sell 250,000 USD for ETH', chainId, sellToken: usd, buyToken: zeroAddress, sellAmount: parseUnits('250000', 18) },
  { label: 'buy 500 LINK with USD', chainId, sellToken: usd, buyToken: link, buyAmount: parseUnits('500', 18) },
  { label: 'sell 2,000 UNI for USD, 30 bps fee', chainId, sellToken: uni, buyToken: usd, sellAmount: parseUnits('2000', 18), feeBps: 30, feeRecipient: FEE_RECIPIENT },
]
for (const { label, ...intent } of swaps) {
  const quote = await getQuote(intent, source, { chains: [chain], sender: trader })
  const outcome = await fill(quote, intent.buyToken)
  const exact = outcome.received === BigInt(quote.amountOut) && outcome.feesReceived.every((fee, i) => fee === BigInt(quote.fees[i]!.amount))
  const path = (swapsOfPath: Quote['route']['swaps'][number]) => [swapsOfPath[0]!.tokenIn, ...swapsOfPath.map((swap) => swap.tokenOut)].map((t) => symbols[t] ?? t).join(' -> ')
  console.log(
    `${label}: quoted ${formatUnits(BigInt(quote.amountOut), 18)}, received ${formatUnits(outcome.received, 18)} ` +
      `over ${quote.route.swaps.map(path).join(' + ')}, gas ${outcome.gasUsed} (estimate ${quote.gasEstimate}) ${exact ? 'EXACT' : 'MISMATCH'}`,
  )
  if (!exact) process.exitCode = 1
}
