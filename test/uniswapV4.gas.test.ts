// The V4 step's gas model (src/protocols/uniswapV4/gas.ts) against fills on anvil: quotes routed over
// Uniswap V4 pools only, executed from their own transaction, each estimate within
// gasUsed <= estimate <= 1.3 x gasUsed. First one pool per pair and one hop, so each fill is one V4
// step of a known shape (ERC-20 or native on either side, ticks crossed, protocol fee); then every
// default pool and up to three hops (several V4 steps, pools traded twice). For each fill it also
// records the step gas the estimate would have needed (the model's step gas plus the shortfall or
// excess, net of the estimator's margin): the data the constants were fitted to, printed so a
// refit after an executor change starts from here.
import { type Address, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../src/chains/types.js'
import { type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { ESTIMATE_MARGIN_PERCENT } from '../src/quote/estimateGas.js'
import { getDirectionalProtocolFee, getSwapFee } from '../src/protocols/uniswapV4/fees.js'
import { uniswapV4Family } from '../src/protocols/uniswapV4/family.js'
import { UniswapV4Pool } from '../src/protocols/uniswapV4/pool.js'
import { simulateSwap } from '../src/protocols/uniswapV4/swap.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import { DEVNET_UNISWAP_V4_POOLS, type UniswapV4Deployment, type UniswapV4PoolSpec, deployUniswapV4, withUniswapV4 } from './devnet/uniswapV4.js'
import { executeQuote } from './support/fill.js'

type Side = 'ETH' | 'WETH' | 'USDC' | 'USDT' | 'WBTC' | 'LINK' | 'DAI'
type Row = { name: string; ratio: number; shape: string; needed: number; model: number }

const PAIRS: [Side, Side][] = [
  ['ETH', 'USDC'], ['USDC', 'ETH'], ['USDC', 'USDT'], ['USDT', 'USDC'], ['ETH', 'WBTC'], ['WBTC', 'ETH'],
  ['ETH', 'LINK'], ['LINK', 'ETH'], ['WETH', 'USDC'], ['USDC', 'WETH'], ['WBTC', 'USDC'], ['DAI', 'USDC'],
]
const SIZES_USD = [100, 50_000, 600_000]
// One pool per pair: native ETH/USDC 500/10, native ETH/WBTC with a protocol fee, USDC/USDT and DAI/USDC on
// spacing 1, native ETH/LINK with gaps, WBTC/USDC 2500/50.
const SINGLE_POOLS: readonly UniswapV4PoolSpec[] = DEVNET_UNISWAP_V4_POOLS.filter(
  (spec) => spec.hooks === undefined && !(spec.pair[0] === 'WETH' || (spec.pair[0] === 'ETH' && spec.pair[1] === 'USDC' && spec.fee !== 500)),
)

async function measure(single: boolean): Promise<Row[]> {
  let anvil: Anvil | undefined
  try {
    anvil = await startAnvil()
    const devnet: Devnet = await deployDevnet(anvil, { pools: [] })
    const v4: UniswapV4Deployment = await deployUniswapV4(devnet, single ? { pools: SINGLE_POOLS } : {})
    const withV4 = withUniswapV4(devnet.chain, v4)
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withV4 })
    const chain: ChainConfig = { ...withV4, executor }
    const context = { chain, dex: v4.dex, dexIndex: chain.dexes.length - 1 }
    const rows: Row[] = []
    let i = 0
    for (const [sell, buy] of PAIRS)
      for (const usd of SIZES_USD)
        for (const kind of ['exactIn', 'exactOut'] as const) {
          i++
          const checkpoint = await anvil.checkpoint()
          try {
            const token = (side: Side) => (side === 'ETH' ? devnet.tokens.WETH : devnet.tokens[side])
            const address = (side: Side): Address => (side === 'ETH' ? zeroAddress : devnet.tokens[side].address)
            const raw = (side: Side) =>
              BigInt(Math.max(1, Math.floor((usd / token(side).priceUsd) * 10 ** Math.min(token(side).decimals, 12)))) *
              10n ** BigInt(Math.max(0, token(side).decimals - 12))
            const trader = devnet.accounts.traders[i % devnet.accounts.traders.length]!
            const intent: QuoteIntent = {
              chainId: chain.id,
              sellToken: address(sell),
              buyToken: address(buy),
              ...(kind === 'exactIn' ? { sellAmount: raw(sell) } : { buyAmount: raw(buy) }),
              priceImpactLimitBps: 10_000,
            }
            const source = createRpcSource({ client: anvil.publicClient, chain, families: [uniswapV4Family] })
            const wrapped = (a: Address) => (a === zeroAddress ? chain.wrappedNative.address : a)
            const liquidity = await source.getLiquidity({ chain, tokenIn: wrapped(intent.sellToken), tokenOut: wrapped(intent.buyToken) })
            const quote = await getQuote(intent, source, { chains: [chain], families: [uniswapV4Family], maxHops: single ? 1 : 3, sender: trader }).catch(() => undefined)
            if (!quote) continue
            // The model's step gas, replayed on the states the quote started from.
            const pools = new Map(liquidity.pools.map((state) => {
              const pool = UniswapV4Pool.fromState(state as never, context)
              return [pool.key, pool] as const
            }))
            let model = 0n
            const shape: string[] = []
            for (const path of quote.route.swaps)
              for (const swap of path) {
                const pool = pools.get(swap.key)!
                // The route names native ETH at its ends; the pools trade it as the wrapped token.
                const [tokenIn, tokenOut] = [wrapped(swap.tokenIn), wrapped(swap.tokenOut)]
                const zeroForOne = tokenIn === pool.token0
                const run = simulateSwap(pool, zeroForOne, -BigInt(swap.amountIn), getSwapFee(pool.protocolFee, pool.fee, zeroForOne))!
                const next = pool.quoteExactIn(tokenIn, tokenOut, BigInt(swap.amountIn))!
                model += next.gas
                pools.set(swap.key, next.next as UniswapV4Pool)
                const words = Math.max(0, run.stepsTaken - 1 - run.initializedTicksCrossed)
                const fee = getDirectionalProtocolFee(pool.protocolFee, zeroForOne) !== 0
                shape.push(`${pool.native ? (zeroForOne ? 'nativeIn' : 'nativeOut') : 'erc20'} t${run.initializedTicksCrossed} w${words}${fee ? ' pf' : ''}`)
              }
            const outcome = await executeQuote(devnet, quote, intent.buyToken, trader)
            expect(outcome.receipt.status).toBe('success')
            expect(outcome.received).toBe(BigInt(quote.amountOut))
            const gasUsed = Number(outcome.receipt.gasUsed)
            const margin = Number(ESTIMATE_MARGIN_PERCENT) / 100
            rows.push({
              name: `${kind} ${sell}->${buy} $${usd}`,
              ratio: quote.gasEstimate / gasUsed,
              shape: shape.join(' + '),
              needed: Math.round(Number(model) + (gasUsed - quote.gasEstimate) / margin),
              model: Number(model),
            })
          } finally {
            await checkpoint.restore()
          }
        }
    return rows
  } finally {
    await anvil?.stop()
  }
}

describe('the Uniswap V4 gas model on anvil', () => {
  const results: Record<'single' | 'multi', Row[]> = { single: [], multi: [] }
  afterAll(() => {
    for (const [label, rows] of Object.entries(results)) {
      if (rows.length === 0) continue
      const ratios = rows.map((r) => r.ratio)
      console.log(`V4 gas (${label}): ${rows.length} fills, estimate/gasUsed min ${Math.min(...ratios).toFixed(4)} max ${Math.max(...ratios).toFixed(4)}`)
    }
    // Per single-step shape: the largest step gas a fill needed, and what the model gives.
    const byShape = new Map<string, { needed: number; model: number; fills: number }>()
    for (const row of results.single) {
      const entry = byShape.get(row.shape) ?? { needed: 0, model: row.model, fills: 0 }
      byShape.set(row.shape, { needed: Math.max(entry.needed, row.needed), model: row.model, fills: entry.fills + 1 })
    }
    for (const [shape, { needed, model, fills }] of [...byShape].sort()) console.log(`  ${shape}: needed ${needed}, model ${model} (${fills} fills)`)
  })

  it('one V4 step per fill: every shape estimated within [1, 1.3] x gasUsed', async () => {
    results.single = await measure(true)
    expect(results.single.length).toBeGreaterThanOrEqual(60)
    for (const row of results.single) {
      expect(row.ratio, `${row.name} (${row.shape})`).toBeGreaterThanOrEqual(1)
      expect(row.ratio, `${row.name} (${row.shape})`).toBeLessThanOrEqual(1.3)
    }
    const shapes = results.single.map((r) => r.shape)
    for (const part of ['nativeIn', 'nativeOut', 'erc20', ' pf', 't1', 't2']) expect(shapes.some((s) => s.includes(part)), part).toBe(true)
  }, 300_000)

  it('several V4 steps per fill, pools traded twice: within [1, 1.3] x gasUsed', async () => {
    results.multi = await measure(false)
    expect(results.multi.length).toBeGreaterThanOrEqual(60)
    for (const row of results.multi) {
      expect(row.ratio, `${row.name} (${row.shape})`).toBeGreaterThanOrEqual(1)
      expect(row.ratio, `${row.name} (${row.shape})`).toBeLessThanOrEqual(1.3)
    }
    expect(results.multi.some((r) => r.shape.split(' + ').length >= 3)).toBe(true)
  }, 300_000)
})
