import { writeFileSync } from 'node:fs'
import { type Address, zeroAddress } from 'viem'
import { it } from 'vitest'
import { createRpcSource, defaultFamilies, deployExecutor, getQuote, type Pool, type QuoteIntent } from '../../src/index.js'
import { simulateSwap } from '../../src/protocols/uniswapV3/swap.js'
import { intrinsicGas } from '../../src/quote/estimateGas.js'
import { startAnvil } from '../devnet/anvil.js'
import { deployDevnet } from '../devnet/deployDevnet.js'
import type { DevnetSymbol } from '../devnet/universe.js'
import { executeQuote } from '../support/fill.js'

const pairs: [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH'][] = [
  ['ETH', 'USDC'], ['USDC', 'ETH'], ['WETH', 'USDC'], ['USDC', 'WETH'], ['WBTC', 'USDC'], ['USDC', 'WBTC'],
  ['WETH', 'WBTC'], ['DAI', 'USDT'], ['USDT', 'DAI'], ['LINK', 'USDC'], ['USDC', 'LINK'], ['PEPE', 'DAI'],
  ['ETH', 'LINK'], ['LINK', 'ETH'], ['PEPE', 'ETH'], ['ETH', 'WETH'], ['WETH', 'ETH'], ['WBTC', 'LINK'],
]
it('gas data', async () => {
  const anvil = await startAnvil()
  const devnet = await deployDevnet(anvil)
  const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: devnet.chain })
  const chain = { ...devnet.chain, executor, treasury: '0x00000000000000000000000000000000000fee04' as Address }
  const rows: any[] = []
  let i = 0
  for (const [sell, buy] of pairs) for (const usd of [0.05, 40, 3000, 150000, 900000]) for (const kind of ['exactIn', 'exactOut'] as const) for (const variant of [0, 1, 2, 3]) {
    i++
    const cp = await anvil.checkpoint()
    try {
      const addr = (s: DevnetSymbol | 'ETH') => (s === 'ETH' ? zeroAddress : devnet.tokens[s].address)
      const dec = (s: DevnetSymbol | 'ETH') => (s === 'ETH' ? 18 : devnet.tokens[s].decimals)
      const px = (s: DevnetSymbol | 'ETH') => (s === 'ETH' ? 3000 : devnet.tokens[s].priceUsd)
      const raw = (s: DevnetSymbol | 'ETH') => BigInt(Math.max(1, Math.floor((usd / px(s)) * 10 ** Math.min(dec(s), 12)))) * 10n ** BigInt(Math.max(0, dec(s) - 12))
      const trader = devnet.accounts.traders[i % 3]!
      const withFees = variant >= 1
      const receiver = variant >= 2 ? ('0x000000000000000000000000000000000000beef' as Address) : trader
      const intent: QuoteIntent = {
        chainId: chain.id, sellToken: addr(sell), buyToken: addr(buy),
        ...(kind === 'exactIn' ? { sellAmount: raw(sell) } : { buyAmount: raw(buy) }),
        priceImpactLimitBps: 10000,
        ...(variant >= 2 ? { receiver } : {}),
        ...(withFees ? { feeBps: 25, feeRecipient: '0x00000000000000000000000000000000000fee01' as Address, surplusFeeBps: 5000, surplusFeeRecipient: '0x00000000000000000000000000000000000fee03' as Address } : {}),
      }
      const source = createRpcSource({ client: anvil.publicClient, chain })
      const liq = await source.getLiquidity({ chain, tokenIn: intent.sellToken === zeroAddress ? chain.wrappedNative.address : intent.sellToken, tokenOut: intent.buyToken === zeroAddress ? chain.wrappedNative.address : intent.buyToken })
      let quote
      try { quote = await getQuote(intent, source, { chains: [chain] }) } catch { continue }
      const pools = new Map<string, Pool>()
      for (const st of liq.pools) {
        const fam = defaultFamilies.find((f) => f.id === st.family)!
        const di = chain.dexes.findIndex((d) => d.id === st.dex)
        const p = fam.fromState(st as any, { chain, dex: chain.dexes[di]!, dexIndex: di })
        pools.set(p.key, p)
      }
      let v2 = 0, v3 = 0, ticks = 0, words = 0
      const distinct = new Set<string>()
      for (const path of quote.route.swaps) for (const s of path) {
        if (s.protocol === 'Wrapped Native') continue
        distinct.add(s.key)
        const p = pools.get(s.key)! as any
        if (p.family === 'uniswapV2') v2++
        else {
          v3++
          const r = simulateSwap(p, s.tokenIn === p.token0, BigInt(s.amountIn))!
          ticks += r.initializedTicksCrossed
          words += Math.max(0, r.stepsTaken - 1 - r.initializedTicksCrossed)
        }
        const r2 = p.quoteExactIn(s.tokenIn, s.tokenOut, BigInt(s.amountIn))
        pools.set(s.key, r2.next)
      }
      if (variant === 3) {
        const fund = async (token: Address, who: Address) => {
          if (token === zeroAddress) await anvil.walletClients[0]!.sendTransaction({ to: who, value: 1n, gas: 100000n })
          else await devnet.mint(token, who, 1n)
        }
        for (const f of quote.fees) await fund(f.token, f.recipient)
        await fund(intent.buyToken, receiver)
      }
      const out = await executeQuote(devnet, quote, intent.buyToken, trader, receiver)
      rows.push({
        name: `${kind} ${sell}->${buy} ${usd} v${variant}`, status: out.receipt.status, gasUsed: Number(out.receipt.gasUsed), est: quote.gasEstimate,
        calldata: Number(intrinsicGas(quote.transaction.data, 0n)) - 21000, v2, v3, ticks, words, paths: quote.route.swaps.length,
        distinct: distinct.size, fees: quote.fees.length, nativeIn: sell === 'ETH' ? 1 : 0, nativeOut: buy === 'ETH' ? 1 : 0, freshReceiver: variant === 2 ? 1 : 0, feesFresh: variant === 3 ? 0 : quote.fees.length, feesFunded: variant === 3 ? quote.fees.length : 0, feeEth: quote.fees.some((f) => f.token === zeroAddress) ? 1 : 0,
        exact: out.received === BigInt(quote.amountOut),
      })
    } finally { await cp.restore() }
  }
  writeFileSync('.tmp/gasdata.json', JSON.stringify(rows))
  console.log('rows', rows.length, 'inexact', rows.filter((r) => !r.exact).length, 'reverted', rows.filter((r) => r.status !== 'success').length)
  await anvil.stop()
}, 600_000)
