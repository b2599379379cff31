// A devnet that looks like Base to weft: anvil runs with Base's chain id, the real
// UniswapV2Factory runtime (npm) is placed at Base's Uniswap V2 factory address, and
// WETH9 runtime at Base's WETH and USDC addresses (its deposit() mints), so the pairs
// createPair deploys sit at Base's real CREATE2 addresses and the RPC and live sources
// find them as they would on Base. Used by the CLI's node tests.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { type Address, type Hex, encodeDeployData, encodeFunctionData } from 'viem'
import { base, deployExecutor, getUniswapV2PairAddress } from '../../src/index.js'
import { type Anvil, rpc, sendDevnetTransaction, startAnvil, uniswapV2FactoryAbi, uniswapV2PairAbi, weth9Abi } from '../devnet/index.js'

const require = createRequire(import.meta.url)
const artifact = (path: string) => {
  const json = JSON.parse(readFileSync(require.resolve(path), 'utf8')) as { bytecode: string; evm: { deployedBytecode: { object: string } } }
  const hex = (code: string) => (code.startsWith('0x') ? code : `0x${code}`) as Hex
  return { creation: hex(json.bytecode), runtime: hex(json.evm.deployedBytecode.object) }
}

export const WETH = base.wrappedNative.address
export const USDC = base.tokens.find((t) => t.symbol === 'USDC')!.address
export const v2 = base.dexes.find((d) => d.id === 'uniswapV2')!
export const PAIR = getUniswapV2PairAddress(v2, WETH, USDC)
export const RESERVE_WETH = 1_000n * 10n ** 18n
export const RESERVE_USDC = 3_000_000n * 10n ** 6n

/** The running devnet: anvil, the funded account that built it, and a token Base's config does not list. */
export type BaseDevnet = {
  anvil: Anvil
  from: Address
  /** A token the chain config does not list (WETH9 deployed normally, so decimals() answers 18), in a pool with USDC. */
  otherToken: Address
  /** Sends one transaction from `from` and waits for it (one block each: anvil automines). */
  send: (label: string, to: Address | undefined, data: Hex, value?: bigint) => ReturnType<typeof sendDevnetTransaction>
  /** A third party's swap on the WETH/USDC pair (WETH in): moves its reserves, in a block of its own. */
  swapWethForUsdc: (amountIn: bigint) => Promise<void>
}

/**
 * Starts the devnet: the WETH/USDC pair (1,000 WETH / 3,000,000 USDC), a pair of an unlisted
 * token with USDC, and the executor at Base's deterministic address (fills run for real).
 *
 * @example
 * const { anvil } = await startBaseDevnet()
 */
export async function startBaseDevnet(): Promise<BaseDevnet> {
  const anvil = await startAnvil({ chainId: base.id })
  const from = anvil.accounts[0]!.address
  const weth9 = artifact('@uniswap/v2-periphery/build/WETH9.json')
  await rpc(anvil.rpcUrl, 'anvil_setCode', [v2.factory, artifact('@uniswap/v2-core/build/UniswapV2Factory.json').runtime])
  for (const token of [WETH, USDC]) await rpc(anvil.rpcUrl, 'anvil_setCode', [token, weth9.runtime])

  const send: BaseDevnet['send'] = (label, to, data, value) =>
    sendDevnetTransaction(anvil.rpcUrl, { label, from, ...(to ? { to } : {}), data, ...(value ? { value } : {}), gas: 5_000_000n })
  const fund = async (pair: Address, token: Address, amount: bigint) => {
    await send('deposit', token, encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }), amount)
    await send('transfer', token, encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [pair, amount] }))
  }
  await send('createPair', v2.factory, encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [WETH, USDC] }))
  await fund(PAIR, WETH, RESERVE_WETH)
  await fund(PAIR, USDC, RESERVE_USDC)
  await send('mint', PAIR, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [from] }))
  const deployed = await send('deploy WETH9', undefined, encodeDeployData({ abi: weth9Abi, bytecode: weth9.creation }))
  const otherToken = deployed.contractAddress!.toLowerCase() as Address
  await send('createPair', v2.factory, encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [otherToken, USDC] }))
  const otherPair = getUniswapV2PairAddress(v2, otherToken, USDC)
  await fund(otherPair, otherToken, 500n * 10n ** 18n)
  await fund(otherPair, USDC, 500_000n * 10n ** 6n)
  await send('mint', otherPair, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [from] }))
  await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: base })

  const swapWethForUsdc = async (amountIn: bigint) => {
    // Paid into the pair, then swap() for what the constant product allows (UniswapV2Library.getAmountOut).
    const [reserve0, reserve1] = await anvil.publicClient.readContract({ address: PAIR, abi: uniswapV2PairAbi, functionName: 'getReserves' })
    const wethIsToken0 = WETH < USDC
    const [reserveIn, reserveOut] = wethIsToken0 ? [reserve0, reserve1] : [reserve1, reserve0]
    const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
    await send('deposit', WETH, encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }), amountIn)
    await send('transfer', WETH, encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [PAIR, amountIn] }))
    const [out0, out1] = wethIsToken0 ? [0n, amountOut] : [amountOut, 0n]
    await send('swap', PAIR, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'swap', args: [out0, out1, from, '0x'] }))
  }
  return { anvil, from, otherToken, send, swapWethForUsdc }
}
