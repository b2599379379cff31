// Random devnet universes for the gas model: every family with real bytecode (Uniswap V2 and V3,
// PancakeSwap V3, Uniswap V4 with native ETH pools, Balancer V2 weighted pools, Aerodrome V2
// volatile and stable pools; Slipstream has only a stand-in, not its bytecode), pools of random
// pairs, depths and ranges around one hub pair deep enough for flows of many paths, young pools
// (a V2 pair whose price accumulators are still zero, a Pancake pool never swapped, V3 pools whose
// protocol fee is switched on mid-run), and random intents: dust to whale amounts, exact in and
// out, native on either side, fees paid in native and in tokens to fresh and funded accounts,
// 1 to 4 hops. Every quote is filled from its own transaction, one after another on the same
// chain (no rollback: pools age as a live market's do), and its gas used is set against
// `gasEstimate`. Used by test/gas/gasRatio.e2e.test.ts and `npm run bench -- --only gas`.
import { type Address, type Hex, encodeFunctionData, numberToHex, parseAbi, zeroAddress } from 'viem'
import { type ChainConfig, type Quote, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../../src/index.js'
import { uniswapV2FactoryAbi, uniswapV2PairAbi, testTokenAbi } from '../devnet/abis.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from '../devnet/balancerV2.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { type AerodromePoolSpec, deployAerodrome, withAerodrome } from '../devnet/aerodrome.js'
import { type PancakeV3PoolSpec, deployPancakeV3, withPancakeV3 } from '../devnet/pancakeV3.js'
import { toRawAmount } from '../devnet/priceMath.js'
import { rpc, sendDevnetTransaction } from '../devnet/rpc.js'
import { DEVNET_TOKENS, type DevnetPoolSpec, type DevnetPositionSpec, type DevnetSymbol } from '../devnet/universe.js'
import { type UniswapV4PoolSpec, deployUniswapV4, withUniswapV4 } from '../devnet/uniswapV4.js'
import { intrinsicGas } from '../../src/quote/estimateGas.js'
import { createRandom } from '../support/random.js'
import { executeQuote } from '../support/fill.js'

/** One executed fill: its estimate, its gas used and what the route held. */
export type GasFill = {
  label: string
  gasUsed: number
  gasEstimate: number
  /** gasEstimate / gasUsed. */
  ratio: number
  paths: number
  /** Swaps across all paths. */
  swaps: number
  longestPath: number
  /** `protocol/fork` of every swap. */
  families: string[]
  nativeIn: boolean
  nativeOut: boolean
  /** Fees paid in native ETH. */
  nativeFees: number
  /** The receiver got exactly amountOut and each fee recipient its fee. */
  exact: boolean
  /** Swaps into a young pool: V2 accumulators still zero, or V3/Pancake fee growth of the input still zero. */
  youngSwaps: number
  /** What the receiver and the fee recipients got, against the quote (for a fill that was not exact). */
  outcome: string
  /** Calldata gas of the transaction (intrinsic gas less 21,000). */
  calldataGas: number
  /** Distinct pools the route trades. */
  pools: number
  /** Distinct pools by fork (UniswapV2, UniswapV3, PancakeV3, UniswapV4, BalancerV2). */
  poolsByFork: Record<string, number>
  /** Distinct tokens the route passes through besides the sell and buy tokens. */
  intermediates: number
  /** Fee payments (non-zero fees), and how many of them went to accounts that held nothing of the fee token. */
  feePayments: number
  receiverFresh: boolean
}

/** What one universe gave. */
export type GasUniverseResult = {
  seed: number
  fills: GasFill[]
  /** Intents weft could not quote (no route, or the liquidity could not fill them). */
  unquoted: number
  /** Fills whose transaction reverted. */
  reverted: string[]
  /** Wall time, ms. */
  ms: number
}

/** Options of {@link runGasUniverse}. */
export type GasUniverseOptions = {
  seed: number
  /** Intents to quote and fill (default 40). */
  intents?: number
  /** Told what the run is doing, step by step (for a run that stalls). */
  onProgress?: (step: string) => void
  /** Called with each quote before its fill, and the chain it was made on (for diagnosis). */
  onQuote?: (quote: Quote, context: { label: string; chain: ChainConfig; anvil: Anvil; intent: QuoteIntent }) => Promise<void>
}

const TOKENS = DEVNET_TOKENS.map((t) => t.symbol)
const LONG_TAIL: DevnetSymbol[] = ['LINK', 'PEPE']
/** Standard V4 fee / tick-spacing pairs. */
const V4_TIERS = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
] as const
const V3_FEES = [100, 500, 3000, 10000] as const
const PANCAKE_FEES = [100, 500, 2500, 10000] as const
const E17 = 10n ** 17n
const uniswapV3FeeProtocolAbi = parseAbi(['function setFeeProtocol(uint8 feeProtocol0, uint8 feeProtocol1)'])

/** Quotes and fills random intents on a fresh random universe; see the file comment. */
export async function runGasUniverse({ seed, intents = 40, onProgress = () => {}, onQuote }: GasUniverseOptions): Promise<GasUniverseResult> {
  const started = performance.now()
  const random = createRandom(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const logUniform = (low: number, high: number) => Math.exp(Math.log(low) + random() * (Math.log(high) - Math.log(low)))
  const priceOf = (symbol: DevnetSymbol | 'ETH') => DEVNET_TOKENS.find((t) => t.symbol === (symbol === 'ETH' ? 'WETH' : symbol))!.priceUsd
  const decimalsOf = (symbol: DevnetSymbol | 'ETH') => DEVNET_TOKENS.find((t) => t.symbol === (symbol === 'ETH' ? 'WETH' : symbol))!.decimals
  const randomPair = (): [DevnetSymbol, DevnetSymbol] => {
    const first = pick(TOKENS)
    let second = pick(TOKENS)
    while (second === first) second = pick(TOKENS)
    return [first, second]
  }
  const positions = (): DevnetPositionSpec[] => {
    const count = 1 + Math.floor(random() * 3)
    return Array.from({ length: count }, (_, index) => {
      const usd = logUniform(30_000, 3_000_000)
      if (index === 0 && random() < 0.6) return { range: 'full' as const, usd }
      const low = 0.5 + random() * 0.49
      const high = 1.01 + random() * 0.99
      // Now and then a one-sided range beside the first (which holds the price): a gap to cross.
      if (index > 0 && random() < 0.25) return { range: random() < 0.5 ? ([high, high * 1.3] as const) : ([low * 0.7, low] as const), usd }
      return { range: [low, high] as const, usd }
    })
  }

  // ---------- the universe ----------
  // A hub pair on every family and tier, so large trades split into many paths.
  const hub = pick<[DevnetSymbol, DevnetSymbol]>([
    ['WETH', 'USDC'],
    ['WETH', 'USDT'],
    ['WBTC', 'WETH'],
    ['WETH', 'DAI'],
  ])
  const v2: DevnetPoolSpec[] = [{ family: 'uniswapV2', pair: hub, usd: logUniform(2e6, 2e7) }]
  const v3: DevnetPoolSpec[] = V3_FEES.map((fee) => ({ family: 'uniswapV3' as const, pair: hub, fee, positions: positions() }))
  const pancake: PancakeV3PoolSpec[] = PANCAKE_FEES.slice(0, 3).map((fee) => ({ pair: hub, fee, positions: positions() }))
  const hubIsEth = hub.includes('WETH')
  const hubOther = hub.find((s) => s !== 'WETH')!
  const v4: UniswapV4PoolSpec[] = hubIsEth
    ? V4_TIERS.slice(1, 3).map(([fee, tickSpacing]) => ({ pair: ['ETH', hubOther] as const, fee, tickSpacing, positions: positions() }))
    : []
  const keyOf = (family: string, pair: readonly string[], fee: number | '') => `${family}:${[...pair].sort().join('/')}:${fee}`
  const taken = new Set<string>([
    ...[...v2, ...v3].map((p) => keyOf(p.family, p.pair, 'fee' in p ? p.fee : '')),
    ...pancake.map((p) => keyOf('pancakeV3', p.pair, p.fee)),
    ...v4.map((p) => keyOf('uniswapV4', p.pair, p.fee)),
  ])
  const add = (key: string) => (taken.has(key) ? false : (taken.add(key), true))
  for (let i = 0; i < 7; i++) {
    const pair = randomPair()
    if (add(keyOf('uniswapV2', pair, ''))) v2.push({ family: 'uniswapV2', pair, usd: logUniform(50_000, 8e6) })
  }
  for (let i = 0; i < 8; i++) {
    const pair = randomPair()
    const fee = pick(V3_FEES)
    if (add(keyOf('uniswapV3', pair, fee))) v3.push({ family: 'uniswapV3', pair, fee, positions: positions() })
  }
  for (let i = 0; i < 4; i++) {
    const pair = randomPair()
    const fee = pick(PANCAKE_FEES)
    if (add(keyOf('pancakeV3', pair, fee))) pancake.push({ pair, fee, positions: positions() })
  }
  for (let i = 0; i < 4; i++) {
    const [first, second] = randomPair()
    // Half the V4 pools hold native ETH (never beside WETH).
    const pair: UniswapV4PoolSpec['pair'] = random() < 0.5 ? ['ETH', first === 'WETH' ? second : first] : [first, second]
    const [fee, tickSpacing] = pick(V4_TIERS)
    if (!add(keyOf('uniswapV4', pair, fee))) continue
    // Some pools owe the protocol a fee from the start.
    const protocolFee = random() < 0.3 ? (Math.floor(random() * 1000) << 12) | Math.floor(random() * 1000) : 0
    v4.push({ pair, fee, tickSpacing, positions: positions(), protocolFee })
  }

  onProgress('start anvil')
  // Aerodrome V2: the hub pair volatile, a stable pair of stablecoins, and random volatile pairs.
  const stables: [DevnetSymbol, DevnetSymbol][] = [
    ['USDC', 'USDT'],
    ['USDC', 'DAI'],
    ['DAI', 'USDT'],
  ]
  const aerodrome: AerodromePoolSpec[] = [
    { pair: hub, stable: false, usdPerSide: logUniform(2e5, 3e6) },
    { pair: pick(stables), stable: true, usdPerSide: logUniform(2e5, 3e6) },
  ]
  add(keyOf('aerodromeV2', hub, ''))
  for (let i = 0; i < 2; i++) {
    const pair = randomPair()
    if (add(keyOf('aerodromeV2', pair, ''))) aerodrome.push({ pair, stable: false, usdPerSide: logUniform(3e4, 1e6), ...(random() < 0.3 ? { customFee: 1 + Math.floor(random() * 60) } : {}) })
  }

  const anvil = await startAnvil()
  try {
    onProgress('deploy the universe')
    const devnet = await deployDevnet(anvil, { pools: [...v2, ...v3], traders: 3 })
    const pancakeDeployment = await deployPancakeV3(devnet, { pools: pancake })
    const v4Deployment = await deployUniswapV4(devnet, { pools: v4 })
    const balancer = await deployBalancerV2(devnet)
    const balancerIds: Hex[] = []
    for (const weights of [[5n, 5n], [8n, 2n], [4n, 3n, 3n]].slice(0, 1 + Math.floor(random() * 3))) {
      const symbols = weights.length === 2 && balancerIds.length === 0 ? hub : [...new Set(Array.from({ length: 6 }, () => pick(TOKENS)))].slice(0, weights.length)
      if (symbols.length < weights.length) continue
      const usd = logUniform(200_000, 5e6)
      const created = await createBalancerV2WeightedPool(
        devnet,
        balancer,
        symbols.map((symbol, index) => ({
          token: symbol,
          weight: weights[index]! * E17,
          amount: toRawAmount((usd * Number(weights[index]!)) / 10 / priceOf(symbol), decimalsOf(symbol)),
        })),
        { swapFee: pick([1n, 3n, 10n]) * 10n ** 15n },
      )
      balancerIds.push(created.poolId)
    }
    const aerodromeDeployment = await deployAerodrome(devnet, { pools: aerodrome })
    const withFamilies = withAerodrome(withPancakeV3(withUniswapV4(devnet.chain, v4Deployment), pancakeDeployment), aerodromeDeployment)
    const configured: ChainConfig = { ...withFamilies, dexes: [...withFamilies.dexes, getBalancerV2DexConfig(balancer, balancerIds)] }
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: configured })
    const chain: ChainConfig = { ...configured, executor }

    // Young pools, made after the devnet aged its own: V2 pairs never swapped nor synced (price
    // accumulators zero), and Pancake pools at raw price 1 (often off the market, so routes use
    // them) that no swap has touched.
    for (let i = 0; i < 3; i++) await createYoungV2Pair(devnet, randomPair(), logUniform(20_000, 2e6))
    for (let i = 0; i < 2; i++) {
      const pair = pick<[DevnetSymbol, DevnetSymbol]>([
        ['USDC', 'USDT'],
        ['DAI', 'LINK'],
        ['WETH', 'LINK'],
        ['DAI', 'WETH'],
      ])
      const fee = pick([500, 2500, 10000])
      if (!add(keyOf('pancakeV3', pair, fee))) continue
      const [a, b] = pair.map((s) => devnet.tokens[s].address) as [Address, Address]
      const liquidity = 10n ** BigInt(decimalsOf(pair[0]) === 6 ? 11 : 21)
      await pancakeDeployment.createPool(a, b, fee, liquidity)
    }

    // The quotes start some seconds after the young pools were made, as on a live chain, where
    // a fill's block is always in a later second than the block its quote read.
    // (A fixed 12 s: drawing it from the seed would change every universe's intents.)
    await rpc(anvil.rpcUrl, 'evm_increaseTime', [12])
    await rpc(anvil.rpcUrl, 'evm_mine', [])

    // ---------- the intents ----------
    const fills: GasFill[] = []
    const reverted: string[] = []
    let unquoted = 0
    const source = createRpcSource({ client: anvil.publicClient, chain })
    // Fee recipients that already hold ETH and a little of every token (their payments cost less).
    const funded = [anvil.accounts[7]!.address, anvil.accounts[8]!.address]
    for (const account of funded) for (const symbol of TOKENS) await devnet.mint(symbol, account, 1n)
    const sides: (DevnetSymbol | 'ETH')[] = [...TOKENS, 'ETH', 'ETH']
    for (let index = 0; index < intents; index++) {
      // Half way: switch on the protocol fee of some Uniswap V3 pools (the first accrual after
      // it writes a fresh slot), and of some V4 pools.
      if (index === Math.floor(intents / 2)) await switchProtocolFees(devnet, v4Deployment, random)
      const whale = random() < 0.2
      // A quarter of the intents pair ETH with a long-tail token: their fees are paid in ETH.
      const nativeFeePair = (): [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH'] => (random() < 0.5 ? ['ETH', pick(LONG_TAIL)] : [pick(LONG_TAIL), 'ETH'])
      const [sell, buy] =
        whale && random() < 0.7 ? (random() < 0.5 ? [hub[0], hub[1]] : [hub[1], hub[0]]) : random() < 0.25 ? nativeFeePair() : [pick(sides), pick(sides)]
      if (sell === buy || (sell === 'ETH' && buy === 'WETH') || (sell === 'WETH' && buy === 'ETH')) {
        if (random() < 0.8) continue
      }
      if (sell === buy) continue
      const usd = whale ? logUniform(2e6, 4e7) : random() < 0.2 ? logUniform(0.001, 1) : logUniform(1, 2e6)
      const exactOut = random() < 0.3
      const symbol = exactOut ? buy : sell
      const amount = BigInt(Math.max(1, Math.floor((usd / priceOf(symbol)) * 10 ** Math.min(decimalsOf(symbol), 12)))) * 10n ** BigInt(Math.max(0, decimalsOf(symbol) - 12))
      const trader = devnet.accounts.traders[index % devnet.accounts.traders.length]!
      const fresh = (tag: number) => `0x${(0xfee0000n + BigInt(seed) * 1000n + BigInt(index * 10 + tag)).toString(16).padStart(40, '0')}` as Address
      const withFee = random() < 0.6
      const receiver = random() < 0.3 ? fresh(0) : trader
      const intent: QuoteIntent = {
        chainId: chain.id,
        sellToken: sell === 'ETH' ? zeroAddress : devnet.tokens[sell].address,
        buyToken: buy === 'ETH' ? zeroAddress : devnet.tokens[buy].address,
        ...(exactOut ? { buyAmount: amount } : { sellAmount: amount }),
        slippageBps: 50,
        priceImpactLimitBps: 10_000,
        ...(receiver !== trader ? { receiver } : {}),
        ...(withFee ? { feeBps: 1 + Math.floor(random() * 100), feeRecipient: random() < 0.5 ? fresh(1) : funded[0]! } : {}),
        ...(withFee && random() < 0.4 ? { referralFeeBps: 1 + Math.floor(random() * 30), referralFeeRecipient: random() < 0.5 ? fresh(2) : funded[1]! } : {}),
      }
      const maxHops = 1 + Math.floor(random() * 4)
      const label = `#${index} ${exactOut ? 'buy' : 'sell'} $${usd.toPrecision(3)} ${sell}->${buy} maxHops ${maxHops}${withFee ? ' fees' : ''}`
      onProgress(`quote ${label}`)
      let quote: Quote
      try {
        quote = await getQuote(intent, source, { chains: [chain], sender: trader, maxHops })
      } catch {
        unquoted++
        continue
      }
      // Each fill in a block of its own, some seconds after the last, as on a live chain (a pool's
      // oracle and accumulators only move when time has passed).
      await rpc(anvil.rpcUrl, 'evm_increaseTime', [2 + Math.floor(random() * 12)])
      const youngSwaps = await countYoungSwaps(devnet, quote)
      if (sell === 'ETH') await rpc(anvil.rpcUrl, 'anvil_setBalance', [trader, numberToHex(BigInt(quote.amountIn) + 10n ** 24n)])
      await onQuote?.(quote, { label, chain, anvil, intent })
      onProgress(`fill ${label}`)
      // A limit well above the estimate: a fill of many paths can use more than the usual 6M.
      const gasLimit = BigInt(Math.max(6_000_000, 2 * quote.gasEstimate))
      const outcome = await withMiningWatchdog(anvil, executeQuote(devnet, quote, intent.buyToken, trader, receiver, gasLimit))
      if (outcome.receipt.status !== 'success') {
        reverted.push(label)
        continue
      }
      const gasUsed = Number(outcome.receipt.gasUsed)
      const swaps = quote.route.swaps.flat()
      fills.push({
        label,
        gasUsed,
        gasEstimate: quote.gasEstimate,
        ratio: quote.gasEstimate / gasUsed,
        paths: quote.route.swaps.length,
        swaps: swaps.length,
        longestPath: Math.max(...quote.route.swaps.map((p) => p.length)),
        families: swaps.map((s) => `${s.protocol}/${s.fork}`),
        nativeIn: sell === 'ETH',
        nativeOut: buy === 'ETH',
        nativeFees: quote.fees.filter((f) => f.token === zeroAddress).length,
        exact: outcome.received === BigInt(quote.amountOut) && outcome.feesReceived.every((f, k) => f === BigInt(quote.fees[k]!.amount)),
        youngSwaps,
        calldataGas: Number(intrinsicGas(quote.transaction.data, 0n)) - 21_000,
        pools: new Set(swaps.map((s) => s.key)).size,
        poolsByFork: countPoolsByFork(swaps),
        intermediates: new Set(swaps.flatMap((s) => [s.tokenIn, s.tokenOut]).filter((t) => t !== intent.sellToken && t !== intent.buyToken)).size,
        feePayments: quote.fees.length,
        receiverFresh: receiver !== trader,
        outcome: `received ${outcome.received} of ${quote.amountOut}, fees ${outcome.feesReceived.join('/')} of ${quote.fees.map((f) => f.amount).join('/')}`,
      })
    }
    return { seed, fills, unquoted, reverted, ms: performance.now() - started }
  } finally {
    await anvil.stop()
  }
}

/**
 * Waits for `work`, mining a block whenever it has waited 10 s: anvil now and then leaves a sent
 * transaction pending while several anvils are busy (see `Anvil.checkpoint`), which would stall
 * the receipt wait for good.
 */
async function withMiningWatchdog<T>(anvil: Anvil, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setInterval> | undefined
  try {
    timer = setInterval(() => void anvil.testClient.mine({ blocks: 1 }).catch(() => {}), 10_000)
    return await work
  } finally {
    clearInterval(timer)
  }
}

/** A V2 pair created, funded and minted after the devnet's own aging: its price accumulators are zero. */
async function createYoungV2Pair(devnet: Devnet, pair: [DevnetSymbol, DevnetSymbol], usd: number): Promise<void> {
  const url = devnet.anvil.rpcUrl
  const from = devnet.accounts.deployer
  const factory = devnet.contracts.uniswapV2Factory
  const [a, b] = pair.map((s) => devnet.tokens[s]) as [Devnet['tokens'][DevnetSymbol], Devnet['tokens'][DevnetSymbol]]
  const existing = (await devnet.anvil.publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [a.address, b.address] })).toLowerCase()
  if (existing !== zeroAddress) return
  await sendDevnetTransaction(url, {
    label: `create young pair ${pair.join('/')}`,
    from,
    to: factory,
    data: encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [a.address, b.address] }),
    gas: 4_000_000n,
  })
  const address = (await devnet.anvil.publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [a.address, b.address] })).toLowerCase() as Address
  for (const token of [a, b]) {
    const amount = toRawAmount(usd / 2 / token.priceUsd, token.decimals)
    await devnet.mint(token.address, from, amount)
    await sendDevnetTransaction(url, {
      label: `fund young pair ${pair.join('/')} with ${token.symbol}`,
      from,
      to: token.address,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [address, amount] }),
      gas: 150_000n,
    })
  }
  await sendDevnetTransaction(url, {
    label: `mint young pair ${pair.join('/')}`,
    from,
    to: address,
    data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [from] }),
    gas: 400_000n,
  })
}

/** Distinct pools of each fork among `swaps`. */
function countPoolsByFork(swaps: readonly Quote['route']['swaps'][number][number][]): Record<string, number> {
  const byFork: Record<string, Set<string>> = {}
  for (const swap of swaps) (byFork[swap.fork] ??= new Set()).add(swap.key)
  return Object.fromEntries(Object.entries(byFork).map(([fork, keys]) => [fork, keys.size]))
}

const youngnessAbi = parseAbi([
  'function price0CumulativeLast() view returns (uint256)',
  'function feeGrowthGlobal0X128() view returns (uint256)',
  'function feeGrowthGlobal1X128() view returns (uint256)',
])

/** How many of a quote's swaps trade a young pool (see {@link GasFill.youngSwaps}), read before the fill. */
async function countYoungSwaps(devnet: Devnet, quote: Quote): Promise<number> {
  let young = 0
  for (const swap of quote.route.swaps.flat()) {
    const read = (functionName: 'price0CumulativeLast' | 'feeGrowthGlobal0X128' | 'feeGrowthGlobal1X128') =>
      devnet.anvil.publicClient.readContract({ address: swap.address, abi: youngnessAbi, functionName })
    if (swap.fork === 'UniswapV2') young += (await read('price0CumulativeLast')) === 0n ? 1 : 0
    else if (swap.fork === 'UniswapV3' || swap.fork === 'PancakeV3') {
      const tokenIn = swap.tokenIn === zeroAddress ? devnet.contracts.weth : swap.tokenIn
      const tokenOut = swap.tokenOut === zeroAddress ? devnet.contracts.weth : swap.tokenOut
      young += (await read(tokenIn < tokenOut ? 'feeGrowthGlobal0X128' : 'feeGrowthGlobal1X128')) === 0n ? 1 : 0
    }
  }
  return young
}

/** Switches on the protocol fee of about half the Uniswap V3 pools (1/4 of the swap fee) and of some V4 pools. */
async function switchProtocolFees(devnet: Devnet, v4: Awaited<ReturnType<typeof deployUniswapV4>>, random: () => number): Promise<void> {
  for (const pool of devnet.pools) {
    if (pool.family !== 'uniswapV3' || random() < 0.5) continue
    await sendDevnetTransaction(devnet.anvil.rpcUrl, {
      label: `switch on the protocol fee of ${pool.address}`,
      from: devnet.accounts.deployer,
      to: pool.address,
      data: encodeFunctionData({ abi: uniswapV3FeeProtocolAbi, functionName: 'setFeeProtocol', args: [4, 4] }),
      gas: 100_000n,
    })
  }
  for (const pool of v4.pools) if (random() < 0.5) await v4.setProtocolFee(pool, (500 << 12) | 500)
}

/** The p-th percentile (0..1) of `values`, nearest rank. */
export function percentileOf(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
}

/** One line: count, min / p50 / p90 / max of the ratios, and how many fell outside [1, 1.3]. */
export function describeRatios(fills: readonly GasFill[]): string {
  const ratios = fills.map((f) => f.ratio)
  if (ratios.length === 0) return 'no fills'
  const under = ratios.filter((r) => r < 1).length
  const over = ratios.filter((r) => r > 1.3).length
  const format = (r: number) => r.toFixed(3)
  return (
    `gasEstimate / gasUsed over ${ratios.length} fills: min ${format(Math.min(...ratios))}, p50 ${format(percentileOf(ratios, 0.5))}, ` +
    `p90 ${format(percentileOf(ratios, 0.9))}, max ${format(Math.max(...ratios))}; ${under} under, ${over} above 1.3`
  )
}
