// Fee-on-transfer tokens on anvil: v2-periphery's DeflatingERC20 (burns 1% of every transfer)
// traded through the real Uniswap V2 pairs. The RPC source measures the fee with its probe; quotes
// that sell, buy or route through the token are executed from their own transaction, and every
// party must get exactly what the quote says.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Address, type Hex, encodeDeployData, encodeFunctionData, erc20Abi, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChainConfig,
  type Quote,
  type QuoteIntent,
  QuoteError,
  createRpcSource,
  defineChainConfig,
  deployExecutor,
  getQuote,
} from '../src/index.js'
import { afterTransferFee } from '../src/protocols/transferFee.js'
import { uniswapV2FactoryAbi, uniswapV2PairAbi } from './devnet/abis.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { getTestContract } from './devnet/compile.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'

const require = createRequire(import.meta.url)
const deflating = JSON.parse(readFileSync(require.resolve('@uniswap/v2-periphery/build/DeflatingERC20.json'), 'utf8')) as {
  abi: readonly unknown[]
  bytecode: string
}
const mintAbi = [{ type: 'function', name: 'mint', stateMutability: 'nonpayable', inputs: [{ type: 'address' }, { type: 'uint256' }], outputs: [] }] as const
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address
const RECEIVER = '0x0000000000000000000000000000000000a11ce2' as Address
const E18 = 10n ** 18n

describe('fee-on-transfer tokens (DeflatingERC20 on Uniswap V2, 1% burnt per transfer)', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  let dtt: Address
  let solo: Address
  let fft: Address
  let trader: Address
  const executed = { quotes: 0, mismatches: 0 }

  const send = async (from: Address, to: Address | null, data: Hex, value = 0n) => {
    const wallet = anvil.walletClients.find((w) => w.account.address.toLowerCase() === from.toLowerCase())!
    const hash = to === null ? await wallet.sendTransaction({ data, gas: 8_000_000n }) : await wallet.sendTransaction({ to, data, value, gas: 8_000_000n })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`transaction to ${to} reverted`)
    return receipt
  }
  const balance = (token: Address, who: Address) =>
    token === zeroAddress
      ? anvil.publicClient.getBalance({ address: who })
      : anvil.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
  const transfer = (token: Address, from: Address, to: Address, amount: bigint) =>
    send(from, token, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }))

  /** A V2 pair of the devnet factory, seeded by the deployer (a fee-on-transfer side arrives short). */
  const seedPair = async (a: Address, amountA: bigint, b: Address, amountB: bigint) => {
    const deployer = devnet.accounts.deployer
    const factory = devnet.contracts.uniswapV2Factory
    await send(deployer, factory, encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [a, b] }))
    const pair = await anvil.publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [a, b] })
    for (const [token, amount] of [[a, amountA], [b, amountB]] as const) {
      if (token === dtt || token === solo || token === fft) await transfer(token, deployer, pair, amount)
      else await devnet.mint(token, pair, amount)
    }
    await send(deployer, pair, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [deployer] }))
    newPairs.push(pair)
  }
  const newPairs: Address[] = []

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const deployer = devnet.accounts.deployer
    trader = devnet.accounts.traders[0]!
    const deployed = async (data: Hex) => (await send(deployer, null, data)).contractAddress!.toLowerCase() as Address
    dtt = await deployed(encodeDeployData({ abi: deflating.abi, bytecode: `0x${deflating.bytecode.replace(/^0x/, '')}` as Hex, args: [10n ** 30n] }))
    const testToken = await getTestContract('TestToken')
    solo = await deployed(encodeDeployData({ abi: testToken.abi, bytecode: testToken.bytecode, args: ['Solo', 'SOLO', 18] }))
    const fixedFee = await getTestContract('FixedFeeToken')
    fft = await deployed(fixedFee.bytecode)
    await send(deployer, solo, encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [deployer, 10n ** 30n] }))
    await send(deployer, fft, encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [deployer, 10n ** 30n] }))

    const { WETH, USDC } = devnet.tokens
    // DTT at $2: 1,000,000 DTT against 666.67 WETH and against 2,000,000 USDC; SOLO trades only against DTT.
    await seedPair(dtt, 1_000_000n * E18, WETH.address, (2_000_000n * E18) / 3_000n)
    await seedPair(dtt, 1_000_000n * E18, USDC.address, 2_000_000n * 10n ** 6n)
    await seedPair(solo, 500_000n * E18, dtt, 500_000n * E18)
    await seedPair(fft, 1_000_000n * E18, WETH.address, 300n * E18)
    for (const token of [dtt, solo, fft]) await transfer(token, deployer, trader, 100_000n * E18)
    // A pair's first swap in a later block writes its price accumulators for the first time (two
    // fresh storage slots). Pairs that have traded before, like every pair on a real chain, do not:
    // let time pass and sync each new pair once, so fills cost what they would on a live pair.
    await anvil.publicClient.request({ method: 'evm_increaseTime' as never, params: [60] as never })
    for (const pair of newPairs) await send(deployer, pair, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'sync' }))

    const config = defineChainConfig({ ...devnet.chain, majorTokens: [...devnet.chain.majorTokens, dtt] })
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: config })
    chain = { ...config, executor }
  })
  afterAll(async () => {
    console.log(`fee-on-transfer quotes executed: ${executed.quotes}, mismatches: ${executed.mismatches}`)
    await anvil?.stop()
  })

  const quote = (intent: Omit<QuoteIntent, 'chainId'>) =>
    getQuote({ chainId: chain.id, slippageBps: 50, ...intent } as QuoteIntent, createRpcSource({ client: anvil.publicClient, chain }), {
      chains: [chain],
      sender: trader,
    })

  /** Approves exactly, sends the quote's transaction and checks every party to the wei. */
  const fill = async (q: Quote, buy: Address, receiver: Address = trader) => {
    const wallet = anvil.walletClients.find((w) => w.account.address.toLowerCase() === trader.toLowerCase())!
    if (q.approval) await send(trader, q.approval.token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [q.approval.spender, BigInt(q.approval.amount)] }))
    const before = await balance(buy, receiver)
    const feesBefore = await Promise.all(q.fees.map((f) => balance(f.token, f.recipient)))
    const hash = await wallet.sendTransaction({ to: q.transaction.to, data: q.transaction.data as Hex, value: BigInt(q.transaction.value), gas: 3_000_000n })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    let received = (await balance(buy, receiver)) - before
    if (buy === zeroAddress && receiver === trader) received += receipt.gasUsed * receipt.effectiveGasPrice
    // A fee paid in the fee-on-transfer token arrives less the token's own fee.
    const feesReceived = await Promise.all(q.fees.map(async (f, i) => (await balance(f.token, f.recipient)) - feesBefore[i]!))
    const feesExpected = q.fees.map((f) => afterTransferFee(BigInt(f.amount), q.tokens.find((t) => t.address === f.token)?.transferFeeBps ?? 0))
    const exact = received === BigInt(q.amountOut) && feesReceived.every((r, i) => r === feesExpected[i])
    executed.quotes++
    if (!exact) executed.mismatches++
    expect(received).toBe(BigInt(q.amountOut))
    expect(feesReceived).toEqual(feesExpected)
    for (const token of [dtt, solo, devnet.tokens.WETH.address, devnet.tokens.USDC.address]) expect(await balance(token, q.transaction.to)).toBe(0n)
    expect(q.gasEstimate).toBeGreaterThanOrEqual(Number(receipt.gasUsed))
    expect(q.gasEstimate).toBeLessThanOrEqual(1.3 * Number(receipt.gasUsed))
    return receipt
  }

  it('the RPC source measures the fee: DTT is reported at 100 bps in the quote', async () => {
    const q = await quote({ sellToken: dtt, buyToken: devnet.tokens.WETH.address, sellAmount: 1_000n * E18 })
    expect(q.tokens.find((t) => t.address === dtt)?.transferFeeBps).toBe(100)
    expect(q.tokens.find((t) => t.address === devnet.tokens.WETH.address)?.transferFeeBps).toBe(0)
  })

  const cases: [string, () => Omit<QuoteIntent, 'chainId'>][] = [
    ['sell DTT for WETH', () => ({ sellToken: dtt, buyToken: devnet.tokens.WETH.address, sellAmount: 1_000n * E18 })],
    ['sell DTT for ETH', () => ({ sellToken: dtt, buyToken: zeroAddress, sellAmount: 2_500n * E18 })],
    ['sell DTT for USDC with an input-side fee', () => ({ sellToken: dtt, buyToken: devnet.tokens.USDC.address, sellAmount: 5_000n * E18, feeBps: 30, feeRecipient: FEE_RECIPIENT })],
    ['buy DTT with ETH', () => ({ sellToken: zeroAddress, buyToken: dtt, sellAmount: E18 })],
    ['buy DTT with USDC, to another receiver', () => ({ sellToken: devnet.tokens.USDC.address, buyToken: dtt, sellAmount: 3_000n * 10n ** 6n, receiver: RECEIVER })],
    ['buy DTT with WETH, output-side fee', () => ({ sellToken: devnet.tokens.WETH.address, buyToken: dtt, sellAmount: 2n * E18, feeBps: 25, feeRecipient: FEE_RECIPIENT })],
    ['route SOLO through DTT to WETH', () => ({ sellToken: solo, buyToken: devnet.tokens.WETH.address, sellAmount: 3_000n * E18 })],
    ['route WETH through DTT to SOLO', () => ({ sellToken: devnet.tokens.WETH.address, buyToken: solo, sellAmount: E18 })],
    ['exact-out: sell DTT for exactly 1 WETH', () => ({ sellToken: dtt, buyToken: devnet.tokens.WETH.address, buyAmount: E18 })],
    ['exact-out: buy exactly 1,234.5 DTT with USDC', () => ({ sellToken: devnet.tokens.USDC.address, buyToken: dtt, buyAmount: 12_345n * E18 / 10n })],
    ['exact-out: buy exactly 777 SOLO with ETH, through DTT', () => ({ sellToken: zeroAddress, buyToken: solo, buyAmount: 777n * E18 })],
  ]
  it.each(cases)('%s: executed exactly', async (_, intent) => {
    const checkpoint = await anvil.checkpoint()
    try {
      const wanted = intent()
      const q = await quote(wanted)
      if (wanted.buyAmount !== undefined) expect(BigInt(q.amountOut)).toBeGreaterThanOrEqual(wanted.buyAmount)
      if (wanted.sellToken === solo || wanted.buyToken === solo) expect(q.route.swaps.flat().some((s) => s.tokenOut === dtt)).toBe(true)
      await fill(q, wanted.buyToken as Address, wanted.receiver ?? trader)
    } finally {
      await checkpoint.restore()
    }
  })

  it('exact-out delivers at least buyAmount net of the fee, and the least input does: one wei less input falls short', async () => {
    const buyAmount = 4_321n * E18
    const q = await quote({ sellToken: devnet.tokens.USDC.address, buyToken: dtt, buyAmount })
    expect(BigInt(q.amountOut)).toBeGreaterThanOrEqual(buyAmount)
    const less = await quote({ sellToken: devnet.tokens.USDC.address, buyToken: dtt, sellAmount: BigInt(q.amountIn) - 1n })
    expect(BigInt(less.amountOut)).toBeLessThan(buyAmount)
  })

  it('a token whose fee is not a fraction of the amount cannot be measured: refused with 422, never assumed fee-free', async () => {
    const error = await quote({ sellToken: fft, buyToken: devnet.tokens.WETH.address, sellAmount: 1_000n * E18 }).catch((e) => e)
    expect(error).toBeInstanceOf(QuoteError)
    expect(error.statusCode).toBe(422)
    expect(error.details).toEqual([{ param: 'sellToken', message: 'is a token whose fee on transfer could not be determined' }])
  })
})
