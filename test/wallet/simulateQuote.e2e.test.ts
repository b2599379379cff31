// simulateQuote against real fills on one devnet holding every family (Uniswap V2 and V3, PancakeSwap
// V3, Uniswap V4, Balancer V2, Aerodrome V2 volatile and stable pools, and the Slipstream stand-in): the simulation must give what the
// receiver and each fee recipient then really get, to the wei, and the fill's gas, to the gas
// (eth_simulateV1); the eth_call fallback the same amounts and a gas that errs high. Every error
// of the executor's ABI must decode, and as many as can be caused are caused for real.
import { type Address, type Hex, decodeFunctionData, encodeErrorResult, encodeFunctionData, getAddress, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChainConfig,
  type Quote,
  type QuoteIntent,
  QuoteError,
  SimulationRevertedError,
  createRpcSource,
  decodeFillRevert,
  deployExecutor,
  getQuote,
  simulateQuote,
  weftExecutorAbi,
} from '../../src/index.js'
import { deployAerodrome, withAerodrome } from '../devnet/aerodrome.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from '../devnet/balancerV2.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { deployPancakeV3, withPancakeV3 } from '../devnet/pancakeV3.js'
import { deploySlipstreamStandIn, withSlipstreamStandIn } from '../devnet/slipstreamStandIn.js'
import type { DevnetSymbol } from '../devnet/universe.js'
import { deployUniswapV4, withUniswapV4 } from '../devnet/uniswapV4.js'
import { executeQuote } from '../support/fill.js'

const E18 = 10n ** 18n
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee07' as Address
/** An address with nothing: no ETH, no tokens, no approvals. */
const UNFUNDED = '0x00000000000000000000000000000000005e11e5' as Address

describe('simulateQuote agrees with the real fill', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  const agreement = { compared: 0, amountsExact: 0, gasExact: 0, callAmountsExact: 0, callGasRatios: [] as number[], families: new Set<string>() }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const pancake = await deployPancakeV3(devnet)
    const v4 = await deployUniswapV4(devnet)
    const balancer = await deployBalancerV2(devnet)
    const slipstream = await deploySlipstreamStandIn(devnet)
    const aerodrome = await deployAerodrome(devnet)
    const wethUsdc = await createBalancerV2WeightedPool(devnet, balancer, [
      { token: 'WETH', weight: 5n * 10n ** 17n, amount: (2_000_000n * E18) / 3_000n },
      { token: 'USDC', weight: 5n * 10n ** 17n, amount: 2_000_000n * 10n ** 6n },
    ], { swapFee: 3n * 10n ** 15n })
    const config = withAerodrome(withSlipstreamStandIn(withPancakeV3(withUniswapV4(devnet.chain, v4), pancake), slipstream), aerodrome)
    const withBalancer = { ...config, dexes: [...config.dexes, getBalancerV2DexConfig(balancer, [wethUsdc.poolId])] }
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withBalancer })
    chain = { ...withBalancer, executor }
  })
  afterAll(async () => {
    console.log(
      `simulateQuote vs real fills: ${agreement.compared} fills; eth_simulateV1 amounts exact ${agreement.amountsExact}/${agreement.compared}, ` +
        `gas exact ${agreement.gasExact}/${agreement.compared}; eth_call amounts exact ${agreement.callAmountsExact}/${agreement.compared}, ` +
        `gas ratio simulated/real ${Math.min(...agreement.callGasRatios).toFixed(4)}–${Math.max(...agreement.callGasRatios).toFixed(4)}; ` +
        `families ${[...agreement.families].sort().join(', ')}`,
    )
    await anvil?.stop()
  })

  const address = (symbol: DevnetSymbol | 'ETH'): Address => (symbol === 'ETH' ? zeroAddress : devnet.tokens[symbol].address)
  const quoteFor = (sell: DevnetSymbol | 'ETH', buy: DevnetSymbol | 'ETH', side: 'sell' | 'buy', amount: bigint, fee: boolean, sender: Address, receiver?: Address) => {
    const intent: QuoteIntent = {
      chainId: chain.id,
      sellToken: address(sell),
      buyToken: address(buy),
      ...(side === 'sell' ? { sellAmount: amount } : { buyAmount: amount }),
      slippageBps: 50,
      priceImpactLimitBps: 10_000,
      ...(receiver ? { receiver } : {}),
      ...(fee ? { feeBps: 20, feeRecipient: FEE_RECIPIENT } : {}),
    }
    return getQuote(intent, createRpcSource({ client: anvil.publicClient, chain }), { chains: [chain], sender })
  }

  const cases: [string, DevnetSymbol | 'ETH', DevnetSymbol | 'ETH', 'sell' | 'buy', bigint, boolean][] = [
    ['sell 300 WETH for USDC', 'WETH', 'USDC', 'sell', 300n * E18, false],
    ['sell 2,000 ETH (native in) for USDC with a fee', 'ETH', 'USDC', 'sell', 2_000n * E18, true],
    ['sell 1.5M USDC for ETH (native out)', 'USDC', 'ETH', 'sell', 1_500_000n * 10n ** 6n, false],
    ['buy exactly 800,000 USDC with WETH', 'WETH', 'USDC', 'buy', 800_000n * 10n ** 6n, false],
    ['buy exactly 400 ETH with USDC, fee on output', 'USDC', 'ETH', 'buy', 400n * E18, true],
    ['sell 40,000 LINK for USDC (multi-hop)', 'LINK', 'USDC', 'sell', 40_000n * E18, false],
    ['sell 5 WETH for USDC (a small trade)', 'WETH', 'USDC', 'sell', 5n * E18, false],
    ['sell 20 ETH for USDC (a small native trade)', 'ETH', 'USDC', 'sell', 20n * E18, false],
    ['sell 30,000 USDC for LINK with a fee', 'USDC', 'LINK', 'sell', 30_000n * 10n ** 6n, true],
    ['sell 500,000 USDC for USDT (stable pools)', 'USDC', 'USDT', 'sell', 500_000n * 10n ** 6n, false],
    ['buy exactly 200,000 DAI with USDT', 'USDT', 'DAI', 'buy', 200_000n * 10n ** 18n, false],
  ]

  it.each(cases)('%s', async (_, sell, buy, side, amount, fee) => {
    const checkpoint = await anvil.checkpoint()
    try {
      // A V2 pair or a V3 pool writes its oracle only in a block later than its last update. anvil
      // mines in wall-clock seconds, so a real fill in the deploy's second would skip that write,
      // where the simulation (always a later block) makes it. Move the clock past the deploy.
      await anvil.testClient.increaseTime({ seconds: 60 })
      await anvil.testClient.mine({ blocks: 1 })
      const trader = devnet.accounts.traders[1]!
      const quote = await quoteFor(sell, buy, side, amount, fee, trader)
      for (const swap of quote.route.swaps.flat()) agreement.families.add(swap.fork)
      // Fund the trader before simulating, so the simulation and the fill start from one state.
      if (quote.approval) {
        const held = await devnet.balanceOf(quote.approval.token, trader)
        if (held < BigInt(quote.approval.amount)) await devnet.mint(quote.approval.token, trader, BigInt(quote.approval.amount) - held)
      }
      const simulated = await simulateQuote({ client: anvil.publicClient, quote, sender: trader })
      const viaCall = await simulateQuote({ client: anvil.publicClient, quote, sender: trader, method: 'eth_call' })
      expect(simulated.method).toBe('eth_simulateV1')
      expect(viaCall.method).toBe('eth_call')

      const outcome = await executeQuote(devnet, quote, address(buy), trader)
      expect(outcome.receipt.status).toBe('success')
      agreement.compared++
      const real = { amountOut: outcome.received, fees: outcome.feesReceived }
      const amountsOf = (s: typeof simulated) => ({ amountOut: s.amountOut, fees: s.fees.map((f) => f.amount) })
      if (JSON.stringify(amountsOf(simulated), bigintJson) === JSON.stringify(real, bigintJson)) agreement.amountsExact++
      if (simulated.gasUsed === outcome.receipt.gasUsed) agreement.gasExact++
      if (JSON.stringify(amountsOf(viaCall), bigintJson) === JSON.stringify(real, bigintJson)) agreement.callAmountsExact++
      agreement.callGasRatios.push(Number(viaCall.gasUsed) / Number(outcome.receipt.gasUsed))

      expect(amountsOf(simulated)).toEqual(real)
      expect(simulated.matchesQuote).toBe(true)
      expect(simulated.gasUsed).toBe(outcome.receipt.gasUsed)
      expect(simulated.gasLimit).toBe((outcome.receipt.gasUsed * 125n + 99n) / 100n)
      expect(simulated.approvalGasUsed === null).toBe(quote.approval === null)
      expect(amountsOf(viaCall)).toEqual(real)
      // The fallback counts no refunds (a transaction gets up to a fifth back): never under, at most 1.3x.
      expect(viaCall.gasUsed).toBeGreaterThanOrEqual(outcome.receipt.gasUsed)
      expect(Number(viaCall.gasUsed)).toBeLessThanOrEqual(1.3 * Number(outcome.receipt.gasUsed))
    } finally {
      await checkpoint.restore()
    }
  })

  it('covered every family and native in and out', () => {
    expect(agreement.compared).toBe(cases.length)
    const seen = [...agreement.families].join(' ')
    for (const fork of ['UniswapV2', 'UniswapV3', 'PancakeV3', 'BalancerV2', 'AeroDromeCL']) expect(seen).toContain(fork)
    expect(seen).toMatch(/AeroDrome(?!CL)/)
    expect(seen).toMatch(/V4/)
  })

  it('checks a sender without balance or allowance (assumeBalance), through both methods', async () => {
    for (const [sell, buy, amount] of [['USDC', 'WETH', 50_000n * 10n ** 6n], ['ETH', 'USDC', 10n * E18]] as const) {
      const quote = await quoteFor(sell, buy, 'sell', amount, false, UNFUNDED)
      for (const method of ['eth_simulateV1', 'eth_call'] as const) {
        const simulated = await simulateQuote({ client: anvil.publicClient, quote, sender: UNFUNDED, method, assumeBalance: true })
        expect(simulated.receiver).toBe(getAddress(UNFUNDED))
        expect(simulated.amountOut).toBe(BigInt(quote.amountOut))
        expect(simulated.matchesQuote).toBe(true)
      }
      // Without the override the same sender cannot pay: the executor's TransferFailed for a token,
      // a 422 for native value the node refuses to send (not a revert, but the sender's own limit).
      const error = await simulateQuote({ client: anvil.publicClient, quote, sender: UNFUNDED }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(QuoteError)
      expect((error as QuoteError).statusCode).toBe(422)
      if (sell === 'USDC') expect((error as SimulationRevertedError).revert.errorName).toBe('TransferFailed')
      else expect((error as QuoteError).message).toMatch(/insufficient funds/)
    }
  })

  it('pays a separate receiver what the quote says', async () => {
    const trader = devnet.accounts.traders[0]!
    const receiver = '0x00000000000000000000000000000000000ece17' as Address
    const quote = await quoteFor('WETH', 'ETH', 'sell', 3n * E18, true, trader, receiver)
    const simulated = await simulateQuote({ client: anvil.publicClient, quote, sender: trader })
    expect(simulated.receiver).toBe(getAddress(receiver))
    expect(simulated.matchesQuote).toBe(true)
  })

  it('decodes every error of the executor ABI', () => {
    const errors = weftExecutorAbi.filter((item) => item.type === 'error')
    expect(errors.length).toBeGreaterThan(10)
    for (const error of errors) {
      const args = error.inputs.map((input) => sampleArgument(input.type))
      const data = encodeErrorResult({ abi: weftExecutorAbi, errorName: error.name, args } as never)
      const revert = decodeFillRevert(data)
      expect(revert.errorName).toBe(error.name)
      expect(revert.source).toBe('executor')
      expect(revert.args.map(String).join().toLowerCase()).toBe(args.map(String).join().toLowerCase())
    }
    expect(decodeFillRevert('0x08c379a0' + '0'.repeat(62) + '20' + '0'.repeat(63) + '3' + '53504c' + '0'.repeat(58) as Hex)).toMatchObject({ errorName: 'Error', args: ['SPL'], source: 'solidity' })
    expect(decodeFillRevert('0xdeadbeef')).toMatchObject({ errorName: null, source: 'unknown' })
  })

  it('causes executor errors for real and reports each decoded', async () => {
    const trader = devnet.accounts.traders[2]!
    const erc20In = await quoteFor('WETH', 'USDC', 'sell', 2n * E18, true, trader)
    const nativeIn = await quoteFor('ETH', 'USDC', 'sell', 2n * E18, false, trader)
    const nativeOut = await quoteFor('USDC', 'ETH', 'sell', 3_000n * 10n ** 6n, false, trader)
    const executor = chain.executor!
    type Order = Record<string, unknown> & { paths: { amountIn: bigint; steps: Record<string, unknown>[] }[] }
    const orderOf = (quote: Quote) => decodeFunctionData({ abi: weftExecutorAbi, data: quote.transaction.data }).args[0] as unknown as Order
    const withOrder = (quote: Quote, edit: (order: Order) => Order, value?: bigint): Quote => ({
      ...quote,
      transaction: {
        ...quote.transaction,
        data: encodeFunctionData({ abi: weftExecutorAbi, functionName: 'fill', args: [edit(structuredClone(orderOf(quote))) as never] }),
        value: String(value ?? BigInt(quote.transaction.value)),
      },
    })
    const triggers: [string, Quote, Address?][] = [
      ['InsufficientOutput', withOrder(erc20In, (o) => ({ ...o, minAmountOut: (o.amountOut as bigint) * 2n }))],
      ['InvalidReceiver', withOrder(erc20In, (o) => ({ ...o, receiver: executor }))],
      ['InvalidValue', withOrder(nativeIn, (o) => o, BigInt(nativeIn.transaction.value) + 1n)],
      ['InvalidFees', withOrder(erc20In, (o) => ({ ...o, fees: [{ recipient: zeroAddress, rate: 1000 }] }))],
      ['InvalidPath', withOrder(erc20In, (o) => ({ ...o, paths: o.paths.map((p, i) => (i === 0 ? { ...p, steps: [] } : p)) }))],
      ['AmountMismatch', withOrder(erc20In, (o) => ({ ...o, paths: o.paths.map((p, i) => (i === 0 ? { ...p, amountIn: p.amountIn - 1n } : p)) }))],
      ['InvalidDex', withOrder(erc20In, (o) => ({ ...o, paths: o.paths.map((p) => ({ ...p, steps: p.steps.map((s) => ({ ...s, dex: 255 })) })) }))],
      ['EtherTransferFailed', withOrder(nativeOut, (o) => ({ ...o, receiver: devnet.tokens.USDC.address }))],
      ['TransferFailed', erc20In, UNFUNDED],
      ['Expired', withOrder(erc20In, (o) => ({ ...o, deadline: 1n }))],
      ['ZeroAmountIn', withOrder(erc20In, (o) => ({ ...o, amountIn: 0n }))],
      ['SameToken', withOrder(erc20In, (o) => ({ ...o, tokenOut: o.tokenIn }))],
      ['NoPaths', withOrder(erc20In, (o) => ({ ...o, paths: [] }))],
      ['InvalidPayee', withOrder(erc20In, (o) => ({ ...o, surplusRecipient: executor }))],
      ['PathOutput', withOrder(erc20In, (o) => ({ ...o, paths: o.paths.map((p) => ({ ...p, minAmountOut: 10n ** 40n })) }))],
    ]
    const declared = new Set<string>(weftExecutorAbi.filter((item) => item.type === 'error').map((item) => item.name))
    const caused: string[] = []
    for (const [name, quote, sender] of triggers) {
      if (!declared.has(name)) continue // an error the executor no longer declares
      const from = sender ?? trader
      if (quote.approval && from === trader) await devnet.mint(quote.approval.token, trader, BigInt(quote.approval.amount))
      for (const method of ['eth_simulateV1', 'eth_call'] as const) {
        const error = await simulateQuote({ client: anvil.publicClient, quote, sender: from, method }).catch((e: unknown) => e)
        expect(error, `${name} through ${method}`).toBeInstanceOf(SimulationRevertedError)
        const reverted = error as SimulationRevertedError
        expect(reverted).toBeInstanceOf(QuoteError)
        expect(reverted.statusCode).toBe(422)
        expect(reverted.call).toBe('fill')
        expect(reverted.revert.errorName, `${method}: ${reverted.message}`).toBe(name)
        expect(reverted.revert.source).toBe('executor')
      }
      caused.push(name)
    }
    console.log(`executor errors caused for real: ${caused.length} of ${declared.size} declared (${caused.join(', ')}); not caused: ${[...declared].filter((n) => !caused.includes(n)).join(', ')}`)
    expect(caused.length).toBeGreaterThanOrEqual(10)
  })

  it('turns bad input and node failures into QuoteError', async () => {
    const trader = devnet.accounts.traders[1]!
    const quote = await quoteFor('WETH', 'USDC', 'sell', E18, false, trader)
    await expect(simulateQuote({ client: anvil.publicClient, quote, sender: 'nope' as Address })).rejects.toMatchObject({ statusCode: 400 })
    await expect(simulateQuote({ client: anvil.publicClient, quote: { ...quote, transaction: { ...quote.transaction, data: '0x1234' } }, sender: trader })).rejects.toMatchObject({ statusCode: 400 })
    const { createPublicClient, http } = await import('viem')
    const dead = createPublicClient({ transport: http('http://127.0.0.1:9', { retryCount: 0 }) })
    await expect(simulateQuote({ client: dead, quote, sender: trader })).rejects.toMatchObject({ statusCode: 503, name: 'QuoteError' })
  })
})

const bigintJson = (_: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)

/** A value of an ABI type that round-trips through encode/decode. */
function sampleArgument(type: string): unknown {
  if (type === 'address') return '0x00000000000000000000000000000000000a11ce'
  if (type === 'bool') return true
  if (type.startsWith('uint') || type.startsWith('int')) return Number(type.replace(/\D/g, '') || 256) > 48 ? 7n : 7
  if (type === 'bytes') return '0x1234'
  if (type.startsWith('bytes')) return `0x${'ab'.repeat(Number(type.slice(5)))}`
  if (type === 'string') return 'why'
  throw new Error(`no sample for ${type}`)
}
