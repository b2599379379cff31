// A seeded random market holding every pool family weft prices, on real bytecode (test/devnet):
// Uniswap V2 and V3, PancakeSwap V3, Slipstream, Uniswap V4 (native ETH and ERC-20 pools),
// Aerodrome V2 volatile and stable pools, and 2- and 3-token Balancer V2 weighted pools. Pairs are
// drawn over all seven devnet tokens, so long-tail tokens (LINK, PEPE) pair with each other and
// routes cross non-major tokens; the chain's majors are a random few. Concentrated pools get
// random ranges with gaps (some pools sit in a gap, with no active liquidity), deep and thin
// positions; each family is priced a little apart from the others, so routes split and cross.
// The families soak (test/support/familiesSoak.ts) quotes and executes on it.
import { type Address, type Hex, encodeFunctionData, zeroAddress } from 'viem'
import type { ChainConfig, Snapshot } from '../../src/index.js'
import { createRpcSource, deployExecutor } from '../../src/index.js'
import { type AerodromeDevnetPool, type AerodromePoolSpec, aerodromePoolAbi, deployAerodrome, withAerodrome } from '../devnet/aerodrome.js'
import { testTokenAbi } from '../devnet/abis.js'
import type { Anvil } from '../devnet/anvil.js'
import { rpc, sendDevnetTransaction } from '../devnet/rpc.js'
import { createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from '../devnet/balancerV2.js'
import { type Devnet, type DevnetToken, type DevnetTokenRef, deployDevnet } from '../devnet/deployDevnet.js'
import { type PancakeV3PoolSpec, deployPancakeV3, withPancakeV3 } from '../devnet/pancakeV3.js'
import { type SlipstreamRealPoolSpec, deploySlipstreamReal, withSlipstreamReal } from '../devnet/slipstreamReal.js'
import { type UniswapV4PoolSpec, deployUniswapV4, withUniswapV4 } from '../devnet/uniswapV4.js'
import { getRawPrice, getSqrtPriceX96 } from '../devnet/priceMath.js'
import { DEVNET_TOKENS, type DevnetPoolSpec, type DevnetPositionSpec, type DevnetSymbol } from '../devnet/universe.js'
import { createRandom } from './random.js'

const SYMBOLS: readonly DevnetSymbol[] = DEVNET_TOKENS.map((t) => t.symbol)
const STABLES: readonly DevnetSymbol[] = ['USDC', 'USDT', 'DAI']
/** Tokens the chain may name as majors (fee tokens and connectors by rank). */
const MAJOR_CANDIDATES: readonly DevnetSymbol[] = ['USDC', 'USDT', 'DAI', 'WETH', 'WBTC']
/** How far each family's (and each Balancer pool's) initial prices stray from the devnet's USD prices: ±0.3% to ±8% by seed, so families disagree. */
const PRICE_SPREAD_RANGE = [0.003, 0.08] as const
/** Uniswap V2 and V3 pools start at the devnet's prices; a trade of up to this share of a pool's value then moves some of them (V3 ones through gaps, or drained to their last tick). */
const LARGEST_PRICE_MOVE = 1
/** How far such a trade may move a V3 price at most (a factor either way). */
const PRICE_MOVE_LIMIT = 8
const UNISWAP_V3_FEES = [100, 500, 3000, 10000] as const
const PANCAKE_V3_FEES = [100, 500, 2500, 10000] as const
const SLIPSTREAM_SPACINGS = [1, 10, 50, 100, 200, 2000] as const
/** The chain's treasury: receives the service fee. */
export const FAMILIES_TREASURY = '0x00000000000000000000000000000000000fee0c' as Address
/** Fee and spacing pairs: the standard tiers, and pairs the tiers do not generate (the dex lists those keys). */
const UNISWAP_V4_TIERS = [[100, 1], [500, 10], [3000, 60], [10000, 200], [2500, 50], [100, 10], [3000, 1]] as const
/** Slipstream's and Aerodrome's custom fee that means zero. */
const ZERO_FEE_MARKER = 420
/** V4 protocol fees are at most 1,000 pips each way (0.1%). */
const V4_MAX_PROTOCOL_FEE = 1000

/** One pool of the market, as the soak reports it: family, tokens and the USD value it was seeded with. */
export type FamiliesMarketPool = { family: string; tokens: readonly (DevnetSymbol | 'ETH')[]; usd: number }

/** A deployed random market: the devnet, the chain (executor included), a snapshot of every pool at one block, and per-token depth. */
export type FamiliesMarket = {
  seed: number
  devnet: Devnet
  chain: ChainConfig
  /** Every pool of the market, read once through createRpcSource (all tokens as connectors) at one block. */
  snapshot: Snapshot
  pools: FamiliesMarketPool[]
  /** USD value held on each token's side over all pools (ETH counts as WETH). */
  depthUsd: Record<DevnetSymbol, number>
  majors: DevnetSymbol[]
  /** The tokens the chain config lists (majors and WETH among them); the others are unlisted. */
  listed: DevnetSymbol[]
}

/** The seeded draws the market is made of. */
type Draw = {
  next: () => number
  between: (low: number, high: number) => number
  logUniform: (low: number, high: number) => number
  pick: <T>(items: readonly T[]) => T
  chance: (probability: number) => boolean
}

function createDraw(seed: number): Draw {
  const next = createRandom(seed)
  return {
    next,
    between: (low, high) => low + Math.floor(next() * (high - low + 1)),
    logUniform: (low, high) => low * (high / low) ** next(),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (probability) => next() < probability,
  }
}

/** Every unordered pair of devnet tokens. */
const ALL_PAIRS: readonly (readonly [DevnetSymbol, DevnetSymbol])[] = SYMBOLS.flatMap((a, i) => SYMBOLS.slice(i + 1).map((b) => [a, b] as const))

/**
 * Random concentrated positions priced as multipliers of the initial price: a full-range base
 * some of the time, ranges around the price, and one-sided ranges above or below it that leave
 * gaps. One pool in eight holds only one-sided ranges, so its price sits in a gap (no active
 * liquidity) with liquidity on either side.
 */
function randomPositions(draw: Draw, usdScale: number): DevnetPositionSpec[] {
  const positions: DevnetPositionSpec[] = []
  const inGap = draw.chance(0.125)
  if (!inGap && draw.chance(0.5)) positions.push({ range: 'full', usd: usdScale * draw.logUniform(0.05, 1) })
  const sides = new Set<'around' | 'above' | 'below'>()
  const add = (side: 'around' | 'above' | 'below') => {
    sides.add(side)
    const usd = usdScale * draw.logUniform(0.02, 1)
    const gap = draw.logUniform(0.003, 0.15)
    const width = draw.logUniform(0.01, 0.6)
    if (side === 'around') positions.push({ range: [1 / (1 + draw.logUniform(0.002, 0.5)), 1 + draw.logUniform(0.002, 1)], usd })
    else if (side === 'above') positions.push({ range: [1 + gap, (1 + gap) * (1 + width)], usd })
    else positions.push({ range: [(1 - gap) / (1 + width), 1 - gap], usd })
  }
  for (let k = draw.between(1, 3); k > 0; k--) add(inGap ? draw.pick(['above', 'below'] as const) : draw.pick(['around', 'around', 'above', 'below'] as const))
  // Liquidity on both sides of the price whenever none holds it (the devnets age each pool with a
  // small swap each way, which an empty side cannot fill): the price then sits in a gap.
  if (positions[0]?.range !== 'full' && !sides.has('around')) {
    if (!sides.has('above')) add('above')
    if (!sides.has('below')) add('below')
  }
  return positions
}

const positionsUsd = (positions: readonly DevnetPositionSpec[]) => positions.reduce((sum, p) => sum + p.usd, 0)

/** `count` distinct items of `items`, drawn without replacement. */
function sample<T>(draw: Draw, items: readonly T[], count: number): T[] {
  const pool = [...items]
  const chosen: T[] = []
  while (chosen.length < count && pool.length > 0) chosen.push(pool.splice(Math.floor(draw.next() * pool.length), 1)[0]!)
  return chosen
}

/**
 * Up to `count` specs, each built from a drawn identity (pair, fee tier...) whose key no spec
 * before it has; a repeated key is skipped and still counts. The draws run in the order the
 * loop would make them (identity, then the spec's own draws), so a seed's market stays the same.
 */
function drawDistinct<Identity, Spec>(count: number, drawIdentity: () => Identity, keyOf: (identity: Identity) => string, build: (identity: Identity) => Spec): Spec[] {
  const seen = new Set<string>()
  const specs: Spec[] = []
  for (let drawn = 0; drawn < count; drawn++) {
    const identity = drawIdentity()
    const key = keyOf(identity)
    if (seen.has(key)) continue
    seen.add(key)
    specs.push(build(identity))
  }
  return specs
}

/** The market's entries of concentrated pools: family, tokens, and the USD value of their positions. */
const concentratedPools = (family: string, specs: readonly { pair: readonly (DevnetSymbol | 'ETH')[]; positions: readonly DevnetPositionSpec[] }[]): FamiliesMarketPool[] =>
  specs.map((spec) => ({ family, tokens: spec.pair, usd: positionsUsd(spec.positions) }))

/**
 * The devnet seen with each token's USD price moved by up to ±spread: the family deploy helpers
 * price their pools from `getToken(...).priceUsd`, so each family starts a little apart.
 */
function repriced(devnet: Devnet, draw: Draw, spread: number): Devnet {
  const tokens = Object.fromEntries(
    Object.entries(devnet.tokens).map(([symbol, token]) => [symbol, { ...token, priceUsd: token.priceUsd * (1 + spread * (2 * draw.next() - 1)) }]),
  ) as Record<DevnetSymbol, DevnetToken>
  return { ...devnet, tokens, getToken: (ref: DevnetTokenRef) => tokens[devnet.getToken(ref).symbol] }
}

/**
 * Moves the prices of about half the Uniswap V2 and V3 pools with a trade of up to
 * {@link LARGEST_PRICE_MOVE} of the pool's value, in a random direction. A V3 trade may run
 * through empty ranges and leave the pool in a gap or at its last initialized tick.
 */
async function movePrices(devnet: Devnet, draw: Draw, specs: readonly DevnetPoolSpec[]): Promise<void> {
  for (const spec of specs) {
    if (!draw.chance(0.5)) continue
    const pool = devnet.getPool(spec.pair[0], spec.pair[1], spec.family, spec.family === 'uniswapV3' ? spec.fee : undefined)
    const zeroForOne = draw.chance(0.5)
    const tokenIn = devnet.getToken(pool.tokens[zeroForOne ? 0 : 1])
    const usd = spec.family === 'uniswapV2' ? spec.usd : positionsUsd(spec.positions)
    const whole = (usd * draw.logUniform(0.001, LARGEST_PRICE_MOVE)) / tokenIn.priceUsd
    const amountIn = (BigInt(Math.max(1, Math.round(whole * 1e6))) * 10n ** BigInt(tokenIn.decimals)) / 1_000_000n
    if (spec.family === 'uniswapV2') await devnet.v2Swap(pool, tokenIn.address, amountIn)
    else {
      // At most a factor PRICE_MOVE_LIMIT either way: draining a pool of spacing 1 out to its
      // extreme tick walks thousands of bitmap words, beyond any gas limit.
      const price = getRawPrice(devnet.getToken(pool.tokens[0]), devnet.getToken(pool.tokens[1]))
      const sqrtPriceLimitX96 = getSqrtPriceX96(zeroForOne ? price / PRICE_MOVE_LIMIT : price * PRICE_MOVE_LIMIT)
      await devnet.v3Swap(pool, zeroForOne, amountIn, { sqrtPriceLimitX96 })
    }
  }
}

/**
 * Trades about half the Aerodrome pools with up to {@link LARGEST_PRICE_MOVE} of a side's value, in
 * a random direction, so stable pools leave their balanced first deposit and volatile ones their price.
 */
async function moveAerodromePools(devnet: Devnet, draw: Draw, pools: readonly AerodromeDevnetPool[], specs: readonly AerodromePoolSpec[]): Promise<void> {
  const url = devnet.anvil.rpcUrl
  const deployer = devnet.accounts.deployer
  for (const [index, pool] of pools.entries()) {
    if (!draw.chance(0.5)) continue
    const spec = specs[index]!
    const side = draw.chance(0.5) ? 0 : 1
    const tokenIn = devnet.getToken(pool.tokens[side])
    const sideUsd = spec.wholePerSide !== undefined ? spec.wholePerSide * tokenIn.priceUsd : spec.usdPerSide
    const whole = (sideUsd * draw.logUniform(0.001, LARGEST_PRICE_MOVE)) / tokenIn.priceUsd
    const amountIn = (BigInt(Math.max(1, Math.round(whole * 1e6))) * 10n ** BigInt(tokenIn.decimals)) / 1_000_000n
    const quoted = await rpc<Hex>(url, 'eth_call', [
      { to: pool.address, data: encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'getAmountOut', args: [amountIn, tokenIn.address] }) },
      'latest',
    ])
    const amountOut = BigInt(quoted)
    if (amountOut === 0n) continue
    await sendDevnetTransaction(url, {
      label: `send ${tokenIn.symbol} to Aerodrome ${pool.symbols.join('/')}`,
      from: deployer,
      to: tokenIn.address,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pool.address, amountIn] }),
      gas: 100_000n,
    })
    await sendDevnetTransaction(url, {
      label: `trade Aerodrome ${pool.symbols.join('/')}`,
      from: deployer,
      to: pool.address,
      data: encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'swap', args: [side === 0 ? 0n : amountOut, side === 0 ? amountOut : 0n, deployer, '0x'] }),
      gas: 500_000n,
    })
  }
}

/**
 * Deploys a random market for `seed` on a fresh `anvil` (each family's real bytecode), deploys the
 * executor for its chain, and reads every pool once into a snapshot. About 30 pools; a few seconds.
 *
 * @example
 * const anvil = await startAnvil({ args: ['--gas-limit', '100000000'] })
 * const market = await deployFamiliesMarket(anvil, 7)
 * const source = createSnapshotSource(market.snapshot)
 */
export async function deployFamiliesMarket(anvil: Anvil, seed: number): Promise<FamiliesMarket> {
  const draw = createDraw(seed)
  const pools: FamiliesMarketPool[] = []
  // Pools of $20k–$4M, and one in twelve thin ($300–$20k), which large trades drain.
  const usdScale = () => (draw.chance(1 / 12) ? draw.logUniform(300, 20_000) : draw.logUniform(20_000, 4_000_000))

  // Uniswap V2 and V3 come with the devnet itself.
  const v2Specs = sample(draw, ALL_PAIRS, draw.between(3, 7)).map((pair) => ({ family: 'uniswapV2' as const, pair, usd: usdScale() }))
  for (const spec of v2Specs) pools.push({ family: 'uniswapV2', tokens: spec.pair, usd: spec.usd })
  const v3Specs = drawDistinct(
    draw.between(3, 7),
    () => ({ pair: draw.pick(ALL_PAIRS), fee: draw.pick(UNISWAP_V3_FEES) }),
    ({ pair, fee }) => `${pair}:${fee}`,
    ({ pair, fee }) => ({ family: 'uniswapV3' as const, pair, fee, positions: randomPositions(draw, usdScale()) }),
  )
  pools.push(...concentratedPools('uniswapV3', v3Specs))
  const uniswapSpecs: DevnetPoolSpec[] = [...v2Specs, ...v3Specs]
  const devnet = await deployDevnet(anvil, { pools: uniswapSpecs, traders: 2 })
  let chain: ChainConfig = devnet.chain
  const spread = draw.logUniform(...PRICE_SPREAD_RANGE)
  await movePrices(devnet, draw, uniswapSpecs)

  const pancakeSpecs: PancakeV3PoolSpec[] = drawDistinct(
    draw.between(2, 4),
    () => ({ pair: draw.pick(ALL_PAIRS), fee: draw.pick(PANCAKE_V3_FEES) }),
    ({ pair, fee }) => `${pair}:${fee}`,
    ({ pair, fee }) => ({ pair, fee, positions: randomPositions(draw, usdScale()) }),
  )
  pools.push(...concentratedPools('pancakeV3', pancakeSpecs))
  const pancake = await deployPancakeV3(repriced(devnet, draw, spread), { pools: pancakeSpecs })
  chain = withPancakeV3(chain, pancake)

  const slipstreamSpecs: SlipstreamRealPoolSpec[] = drawDistinct(
    draw.between(2, 4),
    () => ({ pair: draw.pick(ALL_PAIRS), tickSpacing: draw.pick(SLIPSTREAM_SPACINGS) }),
    ({ pair, tickSpacing }) => `${pair}:${tickSpacing}`,
    ({ pair, tickSpacing }) => {
      const positions = randomPositions(draw, usdScale())
      // A custom fee one time in three (0.01%–3%, or the zero-fee marker), else the spacing's default.
      const customFee = draw.chance(1 / 3) ? (draw.chance(0.2) ? ZERO_FEE_MARKER : draw.between(100, 30_000)) : undefined
      return { pair, tickSpacing, positions, ...(customFee !== undefined ? { customFee } : {}) }
    },
  )
  pools.push(...concentratedPools('slipstream', slipstreamSpecs))
  const slipstream = await deploySlipstreamReal(repriced(devnet, draw, spread), { pools: slipstreamSpecs })
  chain = withSlipstreamReal(chain, slipstream)

  const v4Specs: UniswapV4PoolSpec[] = drawDistinct(
    draw.between(2, 5),
    () => {
      const [a, b] = draw.pick(ALL_PAIRS)
      // Half the WETH pools trade native ETH instead.
      const pair: readonly [DevnetSymbol | 'ETH', DevnetSymbol] = a === 'WETH' && draw.chance(0.5) ? ['ETH', b] : b === 'WETH' && draw.chance(0.5) ? ['ETH', a] : [a, b]
      const [fee, tickSpacing] = draw.pick(UNISWAP_V4_TIERS)
      return { pair, fee, tickSpacing }
    },
    ({ pair, fee, tickSpacing }) => `${pair}:${fee}:${tickSpacing}`,
    ({ pair, fee, tickSpacing }) => {
      const positions = randomPositions(draw, usdScale())
      // A protocol fee on one pool in three (it adds to the LP fee on V4).
      const protocolFee = draw.chance(1 / 3) ? (draw.between(0, V4_MAX_PROTOCOL_FEE) << 12) | draw.between(0, V4_MAX_PROTOCOL_FEE) : undefined
      return { pair, fee, tickSpacing, positions, ...(protocolFee !== undefined ? { protocolFee } : {}) }
    },
  )
  pools.push(...concentratedPools('uniswapV4', v4Specs))
  const v4 = await deployUniswapV4(repriced(devnet, draw, spread), { pools: v4Specs })
  chain = withUniswapV4(chain, v4)

  const aerodromeSpecs: AerodromePoolSpec[] = drawDistinct(
    draw.between(1, 4),
    () => draw.pick(ALL_PAIRS),
    (pair) => `${pair}`,
    (pair) => {
      const usdPerSide = usdScale() / 2
      const customFee = draw.chance(0.3) ? (draw.chance(0.2) ? ZERO_FEE_MARKER : draw.between(1, 100)) : undefined
      return { pair, stable: false, usdPerSide, ...(customFee !== undefined ? { customFee } : {}) }
    },
  )
  for (const spec of aerodromeSpecs) pools.push({ family: 'aerodromeV2 volatile', tokens: spec.pair, usd: 2 * spec.usdPerSide })
  // Stable pools over the dollar tokens: their first deposit must be equal in 18-decimal units.
  for (const pair of sample(draw, [['USDC', 'USDT'], ['USDC', 'DAI'], ['DAI', 'USDT']] as const, draw.between(0, 2))) {
    const wholePerSide = Math.round(draw.logUniform(20_000, 2_000_000))
    aerodromeSpecs.push({ pair, stable: true, usdPerSide: wholePerSide, wholePerSide, ...(draw.chance(0.3) ? { customFee: draw.between(1, 30) } : {}) })
    pools.push({ family: 'aerodromeV2 stable', tokens: pair, usd: 2 * wholePerSide })
  }
  const aerodrome = await deployAerodrome(repriced(devnet, draw, spread), { pools: aerodromeSpecs })
  await moveAerodromePools(devnet, draw, aerodrome.pools, aerodromeSpecs)
  chain = withAerodrome(chain, aerodrome)

  // Balancer: 2–4 weighted pools, at least one over 3 tokens; tokens overlap the other families' pairs, so paths share them.
  const balancer = await deployBalancerV2(devnet)
  const poolIds: Hex[] = []
  const balancerCount = draw.between(2, 4)
  for (let k = 0; k < balancerCount; k++) {
    const tokenCount = k === 0 || draw.chance(0.5) ? 3 : 2
    const symbols = sample(draw, SYMBOLS, tokenCount)
    // Weights in whole percent, 2% to 96%, summing to 100%; the last takes the rounding.
    const raw = symbols.map(() => draw.logUniform(1, 50))
    const total = raw.reduce((sum, r) => sum + r, 0)
    const percents = raw.map((r) => Math.max(2, Math.floor((100 * r) / total)))
    percents[percents.length - 1] = 100 - percents.slice(0, -1).reduce((sum, p) => sum + p, 0)
    const usd = usdScale()
    // Each Balancer pool is priced apart: its prices follow its balances and weights.
    const balancerPrices = repriced(devnet, draw, spread)
    const specs = symbols.map((symbol, i) => {
      const token = balancerPrices.getToken(symbol)
      const whole = (usd * percents[i]!) / 100 / token.priceUsd
      return { token: symbol, weight: BigInt(percents[i]!) * 10n ** 16n, amount: (BigInt(Math.round(whole * 1e6)) * 10n ** BigInt(token.decimals)) / 1_000_000n }
    })
    const created = await createBalancerV2WeightedPool(balancerPrices, balancer, specs, { swapFee: BigInt(Math.round(draw.logUniform(1e12, 1e17))) })
    poolIds.push(created.poolId)
    pools.push({ family: `balancerV2 ${tokenCount}-token`, tokens: symbols, usd })
  }
  chain = { ...chain, dexes: [...chain.dexes, getBalancerV2DexConfig(balancer, poolIds)] }

  // A random one to three majors: the other tokens are intermediates the router must find by itself.
  const majors = sample(draw, MAJOR_CANDIDATES, draw.between(1, 3))
  const rank = (symbol: DevnetSymbol) => MAJOR_CANDIDATES.indexOf(symbol)
  majors.sort((a, b) => rank(a) - rank(b))
  // The chain lists its majors, WETH and a random part of the rest: a route through an unlisted
  // token has its segments scheduled after the others (buildFillPaths), which must not change a wei.
  const listed = SYMBOLS.filter((symbol) => majors.includes(symbol) || symbol === 'WETH' || draw.chance(0.4))
  // A treasury, so quotes with a surplus fee pay the service fee too.
  chain = {
    ...chain,
    majorTokens: majors.map((symbol) => devnet.tokens[symbol].address),
    tokens: chain.tokens.filter((token) => listed.includes(token.symbol as DevnetSymbol)),
    treasury: FAMILIES_TREASURY,
  }
  const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain })
  chain = { ...chain, executor }

  const allTokens = SYMBOLS.map((symbol) => devnet.tokens[symbol].address)
  const source = createRpcSource({ client: anvil.publicClient, chain, connectors: allTokens })
  // The traders' balances at the snapshot's block (every token and native), as a host's snapshot
  // would carry its users': the gas estimate then prices a payment into a funded balance as such.
  const accounts = devnet.accounts.traders.flatMap((account) => [zeroAddress, ...allTokens].map((token) => ({ token, account })))
  const liquidity = await source.getLiquidity({ chain, tokenIn: devnet.tokens.WETH.address, tokenOut: devnet.tokens.USDC.address, accounts })
  const snapshot: Snapshot = {
    chainId: chain.id,
    blockNumber: liquidity.blockNumber,
    tokens: liquidity.tokens,
    pools: liquidity.pools,
    label: `families market, seed ${seed}`,
    ...(liquidity.gasPriceWei !== undefined ? { gasPriceWei: String(liquidity.gasPriceWei) } : {}),
    balances: (liquidity.balances ?? []).map(({ token, account, balance }) => ({ token, account, balance: String(balance) })),
  }

  const depthUsd = Object.fromEntries(SYMBOLS.map((s) => [s, 0])) as Record<DevnetSymbol, number>
  for (const pool of pools) for (const token of pool.tokens) depthUsd[token === 'ETH' ? 'WETH' : token] += pool.usd / pool.tokens.length
  return { seed, devnet, chain, snapshot, pools, depthUsd, majors, listed }
}
