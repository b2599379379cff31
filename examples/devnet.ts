// Deploy your own Uniswap V2/V3 pools and weft's executor on a local anvil,
// quote through createRpcSource, execute each quote's own transaction, and
// check that every party received exactly what the quote said.
//
//   npx anvil --port 8545          # in one terminal (anvil ships in @foundry-rs/anvil)
//   npx tsx examples/devnet.ts     # in another; --rpc <url> for another node
//
// The pools are the devnet universe of test/devnet (WETH9, six test tokens, the
// real UniswapV2Factory and UniswapV3Factory bytecode from npm, 24 pools).
import { parseArgs } from 'node:util'
import { type Address, formatUnits, zeroAddress } from 'viem'
import { type ChainConfig, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { connectAnvil } from '../test/devnet/anvil.js'
import { deployDevnet } from '../test/devnet/deployDevnet.js'
import { executeQuote } from '../test/support/fill.js'

const { values } = parseArgs({ options: { rpc: { type: 'string', default: 'http://127.0.0.1:8545' } } })

const anvil = await connectAnvil(values.rpc!)
console.log(`connected to ${anvil.rpcUrl} (chain ${anvil.chainId})`)

// 1. Your deployments: tokens, factories, pools. `devnet.chain` is the weft ChainConfig describing them.
const devnet = await deployDevnet(anvil)
console.log(`deployed ${devnet.pools.length} pools in ${Math.round(devnet.deployMs)} ms`)

// 2. The executor, at its deterministic address for this chain config (CREATE2 through the standard deployer).
const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
const chain: ChainConfig = { ...devnet.chain, executor }
console.log(`executor at ${executor}`)
console.log('chain config:', JSON.stringify(chain, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2))

// 3. Quote through the node and execute each quote's own transaction.
const source = createRpcSource({ client: anvil.publicClient, chain })
const trader = devnet.accounts.traders[0]!
const { tokens } = devnet
const swaps: (QuoteIntent & { label: string })[] = [
  { label: 'sell 1.5 WETH for USDC', chainId: chain.id, sellToken: tokens.WETH.address, buyToken: tokens.USDC.address, sellAmount: 1_500_000_000_000_000_000n },
  { label: 'sell 250,000 USDC for ETH', chainId: chain.id, sellToken: tokens.USDC.address, buyToken: zeroAddress, sellAmount: 250_000_000_000n },
  { label: 'buy 500 LINK with ETH', chainId: chain.id, sellToken: zeroAddress, buyToken: tokens.LINK.address, buyAmount: 500n * 10n ** 18n },
  { label: 'sell 2 WBTC for DAI, 30 bps fee', chainId: chain.id, sellToken: tokens.WBTC.address, buyToken: tokens.DAI.address, sellAmount: 200_000_000n, feeBps: 30, feeRecipient: '0x00000000000000000000000000000000000fee01' as Address },
]
for (const { label, ...intent } of swaps) {
  const quote = await getQuote(intent, source, { chains: [chain], sender: trader })
  const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
  const decimals = quote.tokens.find((t) => t.address === intent.buyToken)?.decimals ?? 18
  const exact = outcome.received === BigInt(quote.amountOut) && outcome.feesReceived.every((f, i) => f === BigInt(quote.fees[i]!.amount))
  console.log(
    `${label}: quoted ${formatUnits(BigInt(quote.amountOut), decimals)}, received ${formatUnits(outcome.received, decimals)} ` +
      `over ${quote.route.swaps.length} path(s), gas ${outcome.receipt.gasUsed} (estimate ${quote.gasEstimate}) ${exact ? 'EXACT' : 'MISMATCH'}`,
  )
  if (!exact) process.exitCode = 1
}
