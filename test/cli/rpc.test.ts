// `weft quote --rpc`: a real node, a devnet that looks like Base (baseDevnet.ts): the pairs
// createPair deploys sit at Base's real CREATE2 addresses and createRpcSource finds them as it
// would on Base.
import { type Address, formatUnits, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { base, getUniswapV2PairAddress, type Quote } from '../../src/index.js'
import { type Anvil, uniswapV2PairAbi, weth9Abi } from '../devnet/index.js'
import { PAIR, RESERVE_USDC, RESERVE_WETH, USDC, WETH, startBaseDevnet, v2 } from './baseDevnet.js'
import { parseRouteTree } from './routeTree.js'
import { runWeft } from './runWeft.js'

let anvil: Anvil
/** A token the chain config does not list (WETH9 deployed normally, so decimals() answers 18), in a pool with USDC. */
let otherToken: Address

beforeAll(async () => {
  ;({ anvil, otherToken } = await startBaseDevnet())
})

afterAll(async () => {
  await anvil?.stop()
})

describe('weft quote --rpc', () => {
  test('quotes the pool the node holds, exactly as the pair computes', async () => {
    const args = ['quote', '--chain', 'base', '--rpc', anvil.rpcUrl, '--sell', 'WETH', '--buy', 'USDC', '--amount', '1.5']
    const json = await runWeft([...args, '--json'])
    expect(json.stderr).toBe('')
    expect(json.code).toBe(0)
    const quote = JSON.parse(json.stdout) as Quote
    const [reserve0, reserve1] = await anvil.publicClient.readContract({ address: PAIR, abi: uniswapV2PairAbi, functionName: 'getReserves' })
    const [reserveIn, reserveOut] = WETH < USDC ? [reserve0, reserve1] : [reserve1, reserve0]
    expect([reserveIn, reserveOut]).toEqual([RESERVE_WETH, RESERVE_USDC])
    // UniswapV2Library.getAmountOut
    const inWithFee = 15n * 10n ** 17n * 997n
    const expected = (inWithFee * reserveOut) / (reserveIn * 1000n + inWithFee)
    expect(quote.amountOut).toBe(expected.toString())
    expect(quote.route.swaps).toEqual([[expect.objectContaining({ address: PAIR, protocol: 'Uniswap V2', fork: 'UniswapV2', tokenIn: WETH, tokenOut: USDC })]])
    expect(quote.blockNumber).toBe(Number(await anvil.publicClient.getBlockNumber()))

    const summary = await runWeft(args)
    expect(summary.code).toBe(0)
    expect(summary.stdout.split('\n')[0]).toBe(`quote on Base from node ${anvil.rpcUrl}`)
    expect(summary.stdout).toMatch(new RegExp(`^buy +${formatUnits(expected, 6).replace('.', '\\.')} USDC `, 'm'))
    const tree = parseRouteTree(summary.stdout)
    expect(tree.branches).toHaveLength(1)
    expect(tree.branches[0]!.swaps).toEqual([
      `   └─ Uniswap V2/UniswapV2  0.30%  ${PAIR.slice(0, 6)}…${PAIR.slice(-4)}  1.5 WETH -> ${formatUnits(expected, 6)} USDC`,
    ])
  })

  test('a token the chain config lacks: --amount reads its decimals from the node', async () => {
    const run = await runWeft(['quote', '--chain', 'base', '--rpc', anvil.rpcUrl, '--sell', otherToken, '--buy', 'USDC', '--amount', '2.5', '--json'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const quote = JSON.parse(run.stdout) as Quote
    expect(quote.amountIn).toBe((25n * 10n ** 17n).toString())
    expect(quote.route.swaps[0]![0]!.address).toBe(getUniswapV2PairAddress(v2, otherToken, USDC))
    // without a node, the decimals of a token no list names are unknown
    const offline = await runWeft(['quote', '--chain', 'base', '--sell', otherToken, '--buy', 'USDC', '--amount', '1'])
    expect(offline.code).toBe(1)
    expect(offline.stderr).toMatch(/^error 400 invalid_request: Invalid request: amount needs the decimals of 0x[0-9a-f]{40}/)
  })

  test('a node of another chain is refused', async () => {
    const run = await runWeft(['quote', '--chain', 'ethereum', '--rpc', anvil.rpcUrl, '--sell', 'WETH', '--buy', 'USDC', '--amount', '1'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'error 400 invalid_request: Invalid request: rpc serves chain 8453, not Ethereum (1)\n  rpc: serves chain 8453, not Ethereum (1)\n',
    )
  })
})

describe('weft quote --rpc --simulate --from', () => {
  test('prints the simulated outcome beside the quote, and it is what the real fill gives', async () => {
    const trader = anvil.accounts[1]!.address
    const args = ['quote', '--chain', 'base', '--rpc', anvil.rpcUrl, '--sell', 'ETH', '--buy', 'USDC', '--amount', '2', '--simulate', '--from', trader]
    const summary = await runWeft(args)
    expect(summary.stderr).toBe('')
    expect(summary.code).toBe(0)
    expect(summary.stdout).toMatch(new RegExp(`^simulated  for ${trader.slice(0, 6)}…${trader.slice(-4)} through eth_simulateV1$`, 'mi'))
    expect(summary.stdout).toMatch(/^receives   [\d.]+ USDC  \(as quoted\)$/m)
    expect(summary.stdout).toMatch(/^gas used   \d+  \(estimate \d+\)  limit \d+ \(\+25%\)$/m)

    const json = await runWeft([...args, '--json'])
    expect(json.code).toBe(0)
    const { quote, simulation } = JSON.parse(json.stdout) as { quote: Quote; simulation: { amountOut: string; gasUsed: string; gasLimit: string; matchesQuote: boolean } }
    expect(simulation.matchesQuote).toBe(true)
    expect(simulation.amountOut).toBe(quote.amountOut)
    // The real fill, from the same account on the same state, at the simulated gas limit.
    const before = await anvil.publicClient.readContract({ address: USDC, abi: weth9Abi, functionName: 'balanceOf', args: [trader] })
    const wallet = anvil.walletClients[1]!
    const hash = await wallet.sendTransaction({ to: quote.transaction.to, data: quote.transaction.data, value: BigInt(quote.transaction.value), gas: BigInt(simulation.gasLimit) })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const after = await anvil.publicClient.readContract({ address: USDC, abi: weth9Abi, functionName: 'balanceOf', args: [trader] })
    expect((after - before).toString()).toBe(simulation.amountOut)
    expect(receipt.gasUsed.toString()).toBe(simulation.gasUsed)
  })

  test('a fill the sender cannot pay prints the quote, then the decoded revert (exit 1)', async () => {
    const poor = '0x00000000000000000000000000000000000b0b00'
    const run = await runWeft(['quote', '--chain', 'base', '--rpc', anvil.rpcUrl, '--sell', 'WETH', '--buy', 'USDC', '--amount', '1', '--simulate', '--from', poor])
    expect(run.code).toBe(1)
    expect(run.stdout.split('\n')[0]).toBe(`quote on Base from node ${anvil.rpcUrl}`)
    expect(run.stderr).toBe(`error 422 unprocessable: The simulated fill reverts: TransferFailed(${getAddress(WETH)})\n`)
  })

  test('--simulate needs --rpc and --from (usage, exit 2); --from must be an address (400)', async () => {
    const quoteArgs = ['quote', '--chain', 'base', '--sell', 'WETH', '--buy', 'USDC', '--amount', '1']
    const noNode = await runWeft([...quoteArgs, '--simulate', '--from', anvil.accounts[1]!.address])
    expect(noNode.code).toBe(2)
    expect(noNode.stderr).toMatch(/^error: --simulate needs --rpc <url>/)
    const noFrom = await runWeft([...quoteArgs, '--rpc', anvil.rpcUrl, '--simulate'])
    expect(noFrom.code).toBe(2)
    expect(noFrom.stderr).toMatch(/^error: --simulate needs --from <address>/)
    const badFrom = await runWeft([...quoteArgs, '--rpc', anvil.rpcUrl, '--simulate', '--from', '0x12'])
    expect(badFrom.code).toBe(1)
    expect(badFrom.stderr).toMatch(/^error 400 invalid_request: Invalid request: from must be an address/)
  })
})
