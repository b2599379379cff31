// Aerodrome V2 quotes executed: the real Pool and PoolFactory (test/devnet/aerodrome.ts) beside the
// devnet's Uniswap pools; quotes through createRpcSource, each executed from its own transaction on
// an executor whose dex table holds the Aerodrome factory (kind 7). The receiver must get exactly
// amountOut, each fee recipient exactly its fee, and the executor must keep nothing. Modes:
// Aerodrome alone (volatile, stable routes between stablecoins, multi-hop), Aerodrome with Uniswap
// V3 (splits across both), and every family (Slipstream's stand-in included). Native ETH in and out. Gas: gasEstimate / gasUsed of
// Aerodrome-only fills is asserted within [1.0, 1.3].
import { type Address, encodeDeployData, encodeFunctionData, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type Quote, type QuoteIntent, createRpcSource, getQuote } from '../src/index.js'
import { weftExecutorAbi } from '../src/executor/artifacts.js'
import { weftExecutorBytecode } from '../src/executor/executorBytecode.js'
import { getExecutorDexes } from '../src/executor/getExecutorAddress.js'
import { aerodromeV2Family } from '../src/protocols/aerodromeV2/family.js'
import { defaultFamilies } from '../src/protocols/defaultFamilies.js'
import type { PoolFamily } from '../src/protocols/types.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import { type AerodromeDeployment, aerodromePoolAbi, deployAerodrome, withAerodrome } from './devnet/aerodrome.js'
import { deploySlipstreamStandIn, withSlipstreamStandIn } from './devnet/slipstreamStandIn.js'
import { type Anvil, type Devnet, type DevnetSymbol, deployDevnet, rpc, sendDevnetTransaction, startAnvil, testTokenAbi } from './devnet/index.js'
import { executeQuote, expectExactFill } from './support/fill.js'
import { createRandom } from './support/random.js'

const random = createRandom(0xae_e0ec)
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee0a' as Address
const QUOTES = 112
const AERODROME_FORK = 'AeroDrome'
/** Ten days: the chain's clock runs up to a day ahead of the wall clock here. */
const DEADLINE_SECONDS = 864_000

type Mode = 'aerodrome' | 'split' | 'all'
type Case = { sell: DevnetSymbol | 'ETH'; buy: DevnetSymbol | 'ETH'; usd: number; kind: 'exactIn' | 'exactOut'; mode: Mode; fee: boolean }

const STABLES: DevnetSymbol[] = ['USDC', 'USDT', 'DAI']
const VOLATILE_PAIRS: [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH'][] = [
  ['WETH', 'USDC'], ['ETH', 'USDC'], ['WBTC', 'WETH'], ['WBTC', 'ETH'], ['LINK', 'WETH'], ['LINK', 'ETH'], ['WBTC', 'USDC'], ['LINK', 'USDT'], ['DAI', 'WETH'],
]

/** Deterministic random cases: a third stable routes on Aerodrome alone, the rest volatile pairs across the three modes. */
function drawCases(): Case[] {
  const cases: Case[] = []
  for (let i = 0; i < QUOTES; i++) {
    const stable = i % 3 === 0
    let pair: [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH']
    if (stable) {
      const a = STABLES[Math.floor(random() * 3)]!
      pair = [a, STABLES.filter((s) => s !== a)[Math.floor(random() * 2)]!]
    } else pair = VOLATILE_PAIRS[Math.floor(random() * VOLATILE_PAIRS.length)]!
    const [sell, buy] = random() < 0.5 ? pair : [pair[1], pair[0]]
    const modes: Mode[] = ['aerodrome', 'split', 'all']
    cases.push({
      sell,
      buy,
      usd: Math.round(10 ** (1 + random() * 5.3)),
      kind: random() < 0.3 ? 'exactOut' : 'exactIn',
      mode: stable ? (i % 9 === 0 ? 'all' : 'aerodrome') : modes[i % 4 === 2 ? 0 : i % 3]!,
      fee: random() < 0.3,
    })
  }
  return cases
}

describe('Aerodrome V2 quotes executed exactly on the real pools', () => {
  let anvil: Anvil
  let devnet: Devnet
  let aerodrome: AerodromeDeployment
  let chain: ChainConfig
  // Aerodrome V2 is among the default families (listed again, it was read twice).
  const families: readonly PoolFamily[] = defaultFamilies
  const stats = { executed: 0, mismatches: 0, aerodromeSteps: 0, stableRoutes: 0, splitWithV3: 0, withSlipstream: 0, nativeIn: 0, nativeOut: 0, exactOut: 0, withFee: 0, refused: 0, ratios: [] as number[] }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    aerodrome = await deployAerodrome(devnet)
    // Slipstream-keyed pools too (the stand-in of test/devnet/slipstreamStandIn.ts), for splits across all three.
    const slipstream = await deploySlipstreamStandIn(devnet)
    const config = withAerodrome(withSlipstreamStandIn(devnet.chain, slipstream), aerodrome)
    // deployExecutor builds the table from defaultFamilies; this one also names the aerodromeV2 family's kind.
    const receipt = await sendDevnetTransaction(anvil.rpcUrl, {
      label: 'deploy WeftExecutor with the Aerodrome dex',
      from: devnet.accounts.deployer,
      data: encodeDeployData({ abi: weftExecutorAbi, bytecode: weftExecutorBytecode, args: [config.wrappedNative.address, getExecutorDexes(config, families)] }),
      gas: 8_000_000n,
    })
    chain = { ...config, executor: receipt.contractAddress?.toLowerCase() as Address }
    // Time passes between the deposits, the warm-up swaps and the quotes (as on a live chain), so every
    // swap below finds time elapsed since the pool's last update and writes its accumulators.
    const passTime = async () => {
      await rpc(anvil.rpcUrl, 'evm_increaseTime', [60])
      await rpc(anvil.rpcUrl, 'evm_mine', [])
    }
    await passTime()
    // Half the pools trade once each way before the quotes: their accumulators and fee indexes are
    // written (the steady state of a live pool), the other half's first swap writes them fresh.
    for (const pool of aerodrome.pools.filter((_, i) => i % 2 === 0)) {
      for (const tokenIn of pool.tokens) {
        const amountIn = (await devnet.balanceOf(tokenIn, pool.address)) / 1000n
        const amountOut = await anvil.publicClient.readContract({ address: pool.address, abi: aerodromePoolAbi, functionName: 'getAmountOut', args: [amountIn, tokenIn] })
        await devnet.mint(tokenIn, devnet.accounts.deployer, amountIn)
        await sendDevnetTransaction(anvil.rpcUrl, {
          label: 'warm-up transfer',
          from: devnet.accounts.deployer,
          to: tokenIn,
          data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pool.address, amountIn] }),
          gas: 100_000n,
        })
        const zeroForOne = tokenIn === pool.tokens[0]
        await sendDevnetTransaction(anvil.rpcUrl, {
          label: 'warm-up swap',
          from: devnet.accounts.deployer,
          to: pool.address,
          data: encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'swap', args: [zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, devnet.accounts.deployer, '0x'] }),
          gas: 1_000_000n,
        })
      }
    }
    await passTime()
  }, 120_000)

  afterAll(async () => {
    const r = stats.ratios
    console.log(
      `Aerodrome V2 execution: ${stats.executed} quotes executed exactly (${stats.mismatches} mismatches, ${stats.refused} refused as unfillable), ` +
        `${stats.aerodromeSteps} Aerodrome steps, ${stats.stableRoutes} stable routes, ${stats.splitWithV3} splits with Uniswap V3, ${stats.withSlipstream} with Slipstream (stand-in), ` +
        `native in ${stats.nativeIn} / out ${stats.nativeOut}, exact out ${stats.exactOut}, with fee ${stats.withFee}; ` +
        `gasEstimate/gasUsed of ${r.length} Aerodrome-only fills: min ${Math.min(...r).toFixed(3)} max ${Math.max(...r).toFixed(3)}`,
    )
    await anvil?.stop()
  })

  /** Quotes one case through createRpcSource, executes it from its own transaction and checks it exactly. */
  async function fillCase(i: number, c: Case): Promise<void> {
    const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
    const token = (t: DevnetSymbol | 'ETH') => devnet.tokens[t === 'ETH' ? 'WETH' : t]
    const raw = (t: DevnetSymbol | 'ETH') => {
      const { decimals, priceUsd } = token(t)
      return (BigInt(Math.floor((c.usd / priceUsd) * 1e6)) * 10n ** BigInt(decimals)) / 1_000_000n
    }
    const intent: QuoteIntent = {
      chainId: chain.id,
      sellToken: c.sell === 'ETH' ? zeroAddress : token(c.sell).address,
      buyToken: c.buy === 'ETH' ? zeroAddress : token(c.buy).address,
      ...(c.kind === 'exactIn' ? { sellAmount: raw(c.sell) } : { buyAmount: raw(c.buy) }),
      slippageBps: 50,
      priceImpactLimitBps: 10_000,
      ...(c.fee ? { feeBps: 25, feeRecipient: FEE_RECIPIENT } : {}),
    }
    const used = c.mode === 'aerodrome' ? [aerodromeV2Family] : c.mode === 'split' ? [uniswapV3Family, aerodromeV2Family] : families
    const source = createRpcSource({ client: anvil.publicClient, chain, families: used })
    let quote: Quote
    try {
      // The aged quotes move the chain's clock ahead of the wall clock the deadline is counted from.
      quote = await getQuote(intent, source, { chains: [chain], sender: trader, families: used, deadlineSeconds: DEADLINE_SECONDS })
    } catch (error) {
      // Only a trade the pools cannot fill may be refused (Aerodrome alone: no path between the tokens).
      expect(c.mode).toBe('aerodrome')
      expect((error as { statusCode?: number }).statusCode).toBe(404)
      stats.refused++
      return
    }
    const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
    expectExactFill(outcome, quote, stats)
    stats.executed++
    const swaps = quote.route.swaps.flat()
    const onAerodrome = swaps.filter((s) => s.fork === AERODROME_FORK)
    stats.aerodromeSteps += onAerodrome.length
    if (c.mode === 'aerodrome') {
      expect(onAerodrome.length).toBe(swaps.length)
      const ratio = quote.gasEstimate / Number(outcome.receipt.gasUsed)
      stats.ratios.push(ratio)
      expect(ratio).toBeGreaterThanOrEqual(1)
      expect(ratio).toBeLessThanOrEqual(1.3)
    }
    if (STABLES.includes(c.sell as DevnetSymbol) && STABLES.includes(c.buy as DevnetSymbol) && onAerodrome.length > 0) stats.stableRoutes++
    if (onAerodrome.length > 0 && swaps.some((s) => s.fork === 'UniswapV3')) stats.splitWithV3++
    if (onAerodrome.length > 0 && swaps.some((s) => s.fork === 'AeroDromeCL')) stats.withSlipstream++
    if (c.sell === 'ETH') stats.nativeIn++
    if (c.buy === 'ETH') stats.nativeOut++
    if (c.kind === 'exactOut') stats.exactOut++
    if (c.fee) stats.withFee++
  }

  const cases = drawCases()
  it.each(cases.map((c, i) => [i, `${c.mode}: ${c.kind} ${c.sell}->${c.buy} $${c.usd}${c.fee ? ' with fee' : ''}`, c] as const))('quote #%i %s executes exactly', async (i, _name, c) => {
    const checkpoint = await anvil.checkpoint()
    try {
      await fillCase(i, c)
    } finally {
      await checkpoint.restore()
    }
  })

  it('prices dust whose fee rounds down to zero as a fee-free swap (no PoolFees transfer, no fee slot written)', async () => {
    // 10 raw units of a 6-decimal stablecoin: 5 bps of it is 0, so swap() skips _update0/_update1.
    // Young pools (fee indexes zero) were priced as writing their fee slots from zero: up to 1.37x.
    const dust: Case[] = [
      { sell: 'USDC', buy: 'USDT', usd: 0.00001, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'USDT', buy: 'USDC', usd: 0.00001, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'USDC', buy: 'USDT', usd: 0.00001, kind: 'exactOut', mode: 'aerodrome', fee: false },
      { sell: 'USDT', buy: 'USDC', usd: 0.00001, kind: 'exactOut', mode: 'aerodrome', fee: false },
      { sell: 'USDC', buy: 'DAI', usd: 0.00001, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'USDT', buy: 'DAI', usd: 0.00001, kind: 'exactIn', mode: 'aerodrome', fee: false },
    ]
    const before = stats.executed
    for (const [k, c] of dust.entries()) {
      const checkpoint = await anvil.checkpoint()
      try {
        await rpc(anvil.rpcUrl, 'evm_increaseTime', [2])
        await fillCase(k, c)
      } finally {
        await checkpoint.restore()
      }
    }
    expect(stats.executed - before).toBe(dust.length)
  })

  it('quotes more than 30 minutes after the last swap price the observation the swap appends', async () => {
    // Last: the chain's clock moves ahead for good. Each pool's first fill appends an observation, its next one does not.
    await rpc(anvil.rpcUrl, 'evm_increaseTime', [2_000])
    await rpc(anvil.rpcUrl, 'evm_mine', [])
    const aged: Case[] = [
      { sell: 'USDC', buy: 'USDT', usd: 20_000, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'USDT', buy: 'USDC', usd: 5_000, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'WETH', buy: 'USDC', usd: 30_000, kind: 'exactIn', mode: 'aerodrome', fee: true },
      { sell: 'USDC', buy: 'ETH', usd: 10_000, kind: 'exactOut', mode: 'aerodrome', fee: false },
      { sell: 'DAI', buy: 'USDT', usd: 50_000, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'LINK', buy: 'WETH', usd: 8_000, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'WBTC', buy: 'USDC', usd: 100_000, kind: 'exactIn', mode: 'aerodrome', fee: false },
      { sell: 'USDC', buy: 'DAI', usd: 70_000, kind: 'exactIn', mode: 'aerodrome', fee: true },
    ]
    const before = stats.executed
    for (const [k, c] of aged.entries()) await fillCase(k, c)
    expect(stats.executed - before).toBe(aged.length)
  })

  it('executed at least 100 quotes with 0 mismatches, stable routes and splits with Uniswap V3 among them', () => {
    expect(stats.mismatches).toBe(0)
    expect(stats.executed).toBeGreaterThanOrEqual(100)
    expect(stats.stableRoutes).toBeGreaterThanOrEqual(20)
    expect(stats.splitWithV3).toBeGreaterThanOrEqual(10)
    expect(stats.withSlipstream).toBeGreaterThanOrEqual(3)
    expect(Math.min(stats.nativeIn, stats.nativeOut)).toBeGreaterThan(0)
  })
})
