// Uniswap V3 exactness: the adapter's integer math against the real pool
// bytecode (v3-core 1.0.1 on anvil), by execution. A seeded random walk of raw
// swaps runs on every devnet V3 pool. Before each swap the pool is read at the
// current block; the swap is predicted off-chain and then sent, and the
// prediction must equal the pool's own Swap event to the wei: both deltas, the
// price, the tick and the liquidity. States that do not know a bitmap word the
// swap searched must refuse (undefined) instead of guessing.
import { type Address, type Hex, type PublicClient, decodeFunctionResult, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DexConfig } from '../src/chains/types.js'
import type { PoolContext } from '../src/protocols/types.js'
import { MAX_INT256 } from '../src/protocols/uniswapV3/constants.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import { UniswapV3Pool } from '../src/protocols/uniswapV3/pool.js'
import { readUniswapV3Pools } from '../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState, UniswapV3Tick } from '../src/protocols/uniswapV3/state.js'
import { type SimulateSwapReturnType, simulateSwap } from '../src/protocols/uniswapV3/swap.js'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, getSqrtRatioAtTick } from '../src/protocols/uniswapV3/tickMath.js'
import {
  type Anvil,
  DEVNET_POOLS,
  type Devnet,
  type DevnetPool,
  type DevnetV3SwapResult,
  deployDevnet,
  rpc,
  rpcBatch,
  startAnvil,
  uniswapV3PoolAbi,
} from './devnet/index.js'
import { createRandom } from './support/random.js'

const SEED = 0x7a3f_19c5
const SWAPS_PER_POOL = 20
// Positions added to every pool but the LINK ones before the walk: more initialized ticks to cross.
const EXTRA_POSITIONS = 5
// Steps (bitmap-word searches) a swap may take: each costs a few thousand gas,
// and devnet.v3Swap sends 5M. Longer swaps get a price limit instead.
const MAX_STEPS = 100

/** What a swap leaves behind, as the pool's Swap event reports it. */
type Outcome = Pick<DevnetV3SwapResult, 'amount0' | 'amount1' | 'sqrtPriceX96' | 'tick' | 'liquidity'>

/** Whether a state knows every word a swap searched, judged from where the real swap ended. */
type Coverage = 'inside' | 'beyond' | 'edge'

type SwapInput = {
  zeroForOne: boolean
  amountSpecified: bigint
  sqrtPriceLimitX96: bigint | undefined
  mode: 'dust' | 'sized' | 'limited'
}

type Mismatch = {
  pool: string
  swap: number
  check: string
  block: bigint
  before: { sqrtPriceX96: bigint; tick: number; liquidity: bigint; tickLower: number; tickUpper: number }
  input: SwapInput
  expected: unknown
  actual: unknown
}

let anvil: Anvil
let devnet: Devnet
let v3Dex: DexConfig
let context: PoolContext
const allTicks = new Map<Address, UniswapV3Tick[]>()
const mismatches: Mismatch[] = []
const stats = {
  swaps: 0,
  exactIn: 0,
  exactOut: 0,
  limited: 0,
  dust: 0,
  partialFills: 0,
  quotesChecked: 0,
  initializedTicksCrossed: 0,
  swapsCrossingTicks: 0,
  swapsCrossingWords: 0,
  endedWithoutLiquidity: 0,
  lensBeyond: 0,
  narrowedChecks: 0,
  narrowedRefusals: 0,
  edges: 0,
}
/** Per pool: initialized ticks crossed, and swaps that ended where no liquidity is active. */
const perPool = new Map<string, { ticksCrossed: number; emptyEnds: number }>()
let started = 0

const random = createRandom(SEED)

/** A uniform bigint in [0, bound). */
function randomBelow(bound: bigint): bigint {
  if (bound <= 0n) return 0n
  const bits = BigInt(bound.toString(2).length + 32)
  let value = 0n
  for (let have = 0n; have < bits; have += 32n) value = (value << 32n) | BigInt(Math.floor(random() * 2 ** 32))
  return value % bound
}

/** `amount * fraction`, floored, for a float fraction (sizes only: never an amount under test). */
function scale(amount: bigint, fraction: number): bigint {
  return (amount * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n
}

const compress = (tick: number, tickSpacing: number) => Math.floor(tick / tickSpacing)

/**
 * Where the known words of [tickLower, tickUpper] end in the swap's
 * direction, and whether the real swap ended before that (`inside`: every
 * word it searched is known), past it (`beyond`: it searched an unknown word)
 * or exactly on it (`edge`: it depends on whether the amount ran out there).
 * A zeroForOne swap searches the word of its current tick, so it only leaves
 * the lowest known word by pushing the price below that word's first tick; a
 * oneForZero swap searches the word of the next compressed tick, so it needs
 * the next word once the price reaches the last tick of the highest one.
 */
function judgeCoverage(zeroForOne: boolean, finalSqrtPriceX96: bigint, tickSpacing: number, tickLower: number, tickUpper: number): Coverage {
  const word = 256 * tickSpacing
  if (zeroForOne) {
    if (tickLower <= MIN_TICK) return 'inside'
    const boundary = getSqrtRatioAtTick(Math.ceil(tickLower / word) * word)
    return finalSqrtPriceX96 > boundary ? 'inside' : finalSqrtPriceX96 < boundary ? 'beyond' : 'edge'
  }
  if (tickUpper >= MAX_TICK) return 'inside'
  const top = (Math.floor((compress(tickUpper, tickSpacing) - 255) / 256) * 256 + 255) * tickSpacing
  const boundary = getSqrtRatioAtTick(top)
  return finalSqrtPriceX96 < boundary ? 'inside' : finalSqrtPriceX96 > boundary ? 'beyond' : 'edge'
}

function pickOutcome(result: Outcome | SimulateSwapReturnType): Outcome {
  const { amount0, amount1, sqrtPriceX96, tick, liquidity } = result
  return { amount0, amount1, sqrtPriceX96, tick, liquidity }
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  return (
    a.amount0 === b.amount0 &&
    a.amount1 === b.amount1 &&
    a.sqrtPriceX96 === b.sqrtPriceX96 &&
    a.tick === b.tick &&
    a.liquidity === b.liquidity
  )
}

const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)

/**
 * Every initialized tick of a pool, read straight from its bitmap (all words
 * from MIN_TICK to MAX_TICK) and its `ticks` mapping, in two JSON-RPC batches.
 * Swaps never initialize or clear a tick, so this holds for the whole walk.
 */
async function readAllTicks(url: string, pool: Address, tickSpacing: number): Promise<UniswapV3Tick[]> {
  const lowest = compress(MIN_TICK, tickSpacing) >> 8
  const highest = compress(MAX_TICK, tickSpacing) >> 8
  const words: number[] = []
  for (let word = lowest; word <= highest; word++) words.push(word)
  const bitmaps = await rpcBatch<Hex[]>(
    url,
    words.map((word) => ({
      method: 'eth_call',
      params: [{ to: pool, data: encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'tickBitmap', args: [word] }) }, 'latest'],
    })),
  )
  const indexes: number[] = []
  for (const [i, bitmap] of bitmaps.entries()) {
    const bits = BigInt(bitmap)
    for (let bit = 0; bit < 256; bit++) {
      if ((bits >> BigInt(bit)) & 1n) indexes.push(((words[i] as number) * 256 + bit) * tickSpacing)
    }
  }
  const infos = await rpcBatch<Hex[]>(
    url,
    indexes.map((index) => ({
      method: 'eth_call',
      params: [{ to: pool, data: encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'ticks', args: [index] }) }, 'latest'],
    })),
  )
  return indexes.map((index, i) => {
    const [, liquidityNet, , , , , , initialized] = decodeFunctionResult({
      abi: uniswapV3PoolAbi,
      functionName: 'ticks',
      data: infos[i] as Hex,
    })
    if (!initialized) throw new Error(`tick ${index} of ${pool} is set in the bitmap but not initialized`)
    return { index, liquidityNet: liquidityNet.toString() }
  })
}

/** slot0's price and tick and the active liquidity, read directly from the pool at `block`. */
async function readSlot(url: string, pool: Address, block: bigint): Promise<{ sqrtPriceX96: bigint; tick: number; liquidity: bigint }> {
  const at = `0x${block.toString(16)}`
  const [slot0, liquidity] = await rpcBatch<[Hex, Hex]>(url, [
    { method: 'eth_call', params: [{ to: pool, data: encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'slot0' }) }, at] },
    { method: 'eth_call', params: [{ to: pool, data: encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'liquidity' }) }, at] },
  ])
  const [sqrtPriceX96, tick] = decodeFunctionResult({ abi: uniswapV3PoolAbi, functionName: 'slot0', data: slot0 })
  return { sqrtPriceX96, tick, liquidity: BigInt(liquidity) }
}

/** How far (in ticks) the walk strays from a pool's initial tick: several words, and the LINK pools' gaps and ends. */
function getSpan(tickSpacing: number): number {
  if (tickSpacing <= 10) return 3 * 256 * tickSpacing
  return tickSpacing === 60 ? 16_000 : 9_000
}

/**
 * A few random positions around the price, so the walk crosses more
 * initialized ticks (some shared by two positions) in both directions and
 * in several words. The LINK pools keep their gaps empty.
 */
async function addPositions(pool: DevnetPool): Promise<void> {
  const tickSpacing = pool.tickSpacing as number
  const block = BigInt(await rpc<Hex>(anvil.rpcUrl, 'eth_blockNumber', []))
  const { tick, liquidity } = await readSlot(anvil.rpcUrl, pool.address, block)
  const span = getSpan(tickSpacing)
  const lowest = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
  const highest = Math.floor(MAX_TICK / tickSpacing) * tickSpacing
  let shared: number | undefined
  for (let i = 0; i < EXTRA_POSITIONS; i++) {
    const start = shared ?? Math.floor((tick + (random() * 2 - 1) * span) / tickSpacing) * tickSpacing
    const width = tickSpacing * (1 + Math.floor(random() * (span / tickSpacing / 2)))
    const tickLower = Math.max(lowest, Math.min(highest - tickSpacing, start))
    const tickUpper = Math.min(highest, tickLower + width)
    await devnet.addV3Liquidity(pool, tickLower, tickUpper, 1n + scale(liquidity, 0.05 + random() * 0.5))
    shared = i === 1 ? tickLower : undefined
  }
}


beforeAll(async () => {
  started = performance.now()
  anvil = await startAnvil()
  devnet = await deployDevnet(anvil)
  const dexIndex = devnet.chain.dexes.findIndex((dex) => dex.family === 'uniswapV3')
  v3Dex = devnet.chain.dexes[dexIndex] as DexConfig
  context = { chain: devnet.chain, dex: v3Dex, dexIndex }
  const pools = devnet.pools.filter((pool) => pool.family === 'uniswapV3')
  for (const pool of pools) if (!pool.symbols.includes('LINK')) await addPositions(pool)
  const lists = await Promise.all(pools.map((pool) => readAllTicks(anvil.rpcUrl, pool.address, pool.tickSpacing as number)))
  for (const [i, pool] of pools.entries()) allTicks.set(pool.address, lists[i] as UniswapV3Tick[])
})

afterAll(async () => {
  console.log(
    `V3 exactness: ${stats.swaps} swaps (${stats.exactIn} exact in, ${stats.exactOut} exact out, ${stats.limited} with a price limit, ` +
      `${stats.dust} dust, ${stats.partialFills} partial fills), ${stats.quotesChecked} family quotes, ` +
      `${stats.initializedTicksCrossed} initialized ticks crossed in ${stats.swapsCrossingTicks} swaps, ` +
      `${stats.swapsCrossingWords} swaps across bitmap words, ${stats.endedWithoutLiquidity} ending in an empty range, ` +
      `${stats.lensBeyond} beyond the read range, ${stats.narrowedChecks} narrowed-state checks (${stats.narrowedRefusals} refusals, ` +
      `${stats.edges} on an edge), mismatches: ${mismatches.length}, ${((performance.now() - started) / 1000).toFixed(1)} s\n` +
      [...perPool].map(([name, t]) => `  ${name}: ${t.ticksCrossed} ticks crossed, ${t.emptyEnds} ends in an empty range`).join('\n'),
  )
  await anvil?.stop()
})

function buildPool(state: UniswapV3PoolState): UniswapV3Pool {
  const pool = uniswapV3Family.fromState(state, context)
  if (!(pool instanceof UniswapV3Pool)) throw new Error('uniswapV3Family.fromState did not build a UniswapV3Pool')
  return pool
}

/** The read state, narrowed to the known range [tickLower, tickUpper] with the ticks it holds. */
function narrowState(full: UniswapV3PoolState, tickLower: number, tickUpper: number): UniswapV3PoolState {
  return { ...full, ticks: full.ticks.filter((t) => t.index >= tickLower && t.index <= tickUpper), tickLower, tickUpper }
}

/**
 * The next swap of the walk. Far from the pool's initial tick it returns
 * there (a huge amount stopped by a limit at home). Otherwise the direction
 * drifts back toward home, exact in or out, and the size is dust, or what
 * moves the price to a target tick (log-uniform distance) scaled by 0.3..1.2,
 * or a huge amount stopped by a price limit anywhere in a target tick, or,
 * now and then, a limited swap that escapes past the words the read state
 * holds (which that state must refuse).
 */
function chooseSwap(full: UniswapV3Pool, read: UniswapV3PoolState, home: number, span: number): SwapInput {
  const offset = full.tick - home
  const returning = Math.abs(offset) > span
  let zeroForOne = returning ? offset > 0 : random() < (offset > 0 ? 0.65 : 0.35)
  if (full.sqrtPriceX96 <= MIN_SQRT_RATIO + 1n) zeroForOne = false
  if (full.sqrtPriceX96 >= MAX_SQRT_RATIO - 2n) zeroForOne = true
  const exactIn = random() < 0.5
  const roll = random()
  const escaping = !returning && roll >= 0.94
  const wordTicks = 256 * full.tickSpacing
  const beyond = 1 + Math.floor(random() * wordTicks)
  // Log-scale distance from 1 tick to the span, leaning toward the far end.
  const distance = Math.max(1, Math.round(Math.exp(Math.sqrt(random()) * Math.log(span))))
  let targetTick = returning
    ? home
    : escaping
      ? zeroForOne
        ? read.tickLower - beyond
        : read.tickUpper + beyond
      : full.tick + (zeroForOne ? -distance : distance)
  targetTick = Math.min(MAX_TICK - 1, Math.max(MIN_TICK + 1, targetTick))
  if (zeroForOne ? targetTick >= full.tick : targetTick <= full.tick) targetTick = full.tick + (zeroForOne ? -1 : 1)
  const targetPrice = getSqrtRatioAtTick(targetTick)
  // Anywhere in the target tick's price interval, not only on a tick.
  const limitPrice = targetPrice + randomBelow(getSqrtRatioAtTick(targetTick + 1) - targetPrice)
  const reach = simulateSwap(full, zeroForOne, MAX_INT256, limitPrice) as SimulateSwapReturnType
  const reachIn = zeroForOne ? reach.amount0 : reach.amount1
  const reachOut = -(zeroForOne ? reach.amount1 : reach.amount0)
  const reachAmount = exactIn ? reachIn : reachOut
  const signed = (amount: bigint) => (exactIn ? amount : -amount)

  let input: SwapInput
  if (returning || escaping) {
    input = { zeroForOne, amountSpecified: signed(reachAmount * 2n + 1n), sqrtPriceLimitX96: limitPrice, mode: 'limited' }
  } else if (roll < 0.15) {
    const amount = 1n + BigInt(Math.floor(random() ** 3 * 1000))
    input = { zeroForOne, amountSpecified: signed(amount), sqrtPriceLimitX96: undefined, mode: 'dust' }
  } else if (roll < 0.35) {
    const amount = random() < 0.5 ? reachAmount * 4n + 1n : 1n + scale(reachAmount, 0.5 + random() * 0.5)
    input = { zeroForOne, amountSpecified: signed(amount), sqrtPriceLimitX96: limitPrice, mode: 'limited' }
  } else {
    input = { zeroForOne, amountSpecified: signed(1n + scale(reachAmount, 0.3 + random() * 0.9)), sqrtPriceLimitX96: undefined, mode: 'sized' }
  }
  const predicted = simulateSwap(full, input.zeroForOne, input.amountSpecified, input.sqrtPriceLimitX96) as SimulateSwapReturnType
  if (predicted.stepsTaken > MAX_STEPS) input = { ...input, sqrtPriceLimitX96: limitPrice, mode: 'limited' }
  return input
}

/** Quote the swap through the family's pool: only for swaps without a price limit. */
function quoteThroughFamily(pool: UniswapV3Pool, input: SwapInput) {
  const [tokenIn, tokenOut] = input.zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0]
  return input.amountSpecified > 0n
    ? pool.quoteExactIn(tokenIn, tokenOut, input.amountSpecified)
    : pool.quoteExactOut(tokenIn, tokenOut, -input.amountSpecified)
}

async function runWalk(spec: DevnetPool): Promise<void> {
  const client = anvil.publicClient as PublicClient
  const name = `${spec.symbols.join('/')} ${spec.fee}`
  const tickSpacing = spec.tickSpacing as number
  const ticks = allTicks.get(spec.address) as UniswapV3Tick[]
  const dex: DexConfig = { ...v3Dex, feeTiers: { [spec.fee]: tickSpacing } }
  const span = getSpan(tickSpacing)
  let home: number | undefined
  let previous: Pick<Outcome, 'sqrtPriceX96' | 'tick' | 'liquidity'> | undefined

  for (let k = 0; k < SWAPS_PER_POOL; k++) {
    const block = BigInt(await rpc<Hex>(anvil.rpcUrl, 'eth_blockNumber', []))
    const states = await readUniswapV3Pools({ client, chain: devnet.chain, blockNumber: block, tokens: [...spec.tokens], dexes: [dex] })
    const read = states.find((state) => state.address === spec.address)
    if (!read) throw new Error(`${name}: readUniswapV3Pools did not return the pool at block ${block}`)
    const before = {
      sqrtPriceX96: BigInt(read.sqrtPriceX96),
      tick: read.tick,
      liquidity: BigInt(read.liquidity),
      tickLower: read.tickLower,
      tickUpper: read.tickUpper,
    }
    home ??= read.tick
    const fullState: UniswapV3PoolState = { ...read, ticks, tickLower: MIN_TICK, tickUpper: MAX_TICK }
    // fromState checks the full state's liquidity against the ticks' liquidityNet.
    const full = buildPool(fullState)
    const lens = buildPool(read)
    const input = chooseSwap(full, read, home, span)
    const record = (check: string, expected: unknown, actual: unknown) =>
      mismatches.push({ pool: name, swap: k, check, block, before, input, expected, actual })

    const readTicks = ticks.filter((t) => t.index >= read.tickLower && t.index <= read.tickUpper)
    if (toJson(read.ticks) !== toJson(readTicks)) record('readUniswapV3Pools ticks vs the bitmap', readTicks, read.ticks)
    if (!previous) previous = await readSlot(anvil.rpcUrl, spec.address, block)
    if (!(before.sqrtPriceX96 === previous.sqrtPriceX96 && before.tick === previous.tick && before.liquidity === previous.liquidity)) {
      record('readUniswapV3Pools state vs the pool (slot0, liquidity, or the last Swap event)', previous, before)
    }

    const fullPrediction = simulateSwap(full, input.zeroForOne, input.amountSpecified, input.sqrtPriceLimitX96)
    const lensPrediction = simulateSwap(lens, input.zeroForOne, input.amountSpecified, input.sqrtPriceLimitX96)
    const event = await devnet.v3Swap(spec, input.zeroForOne, input.amountSpecified, {
      ...(input.sqrtPriceLimitX96 === undefined ? {} : { sqrtPriceLimitX96: input.sqrtPriceLimitX96 }),
    })
    const actual = pickOutcome(event)
    previous = actual

    stats.swaps++
    if (input.amountSpecified > 0n) stats.exactIn++
    else stats.exactOut++
    if (input.sqrtPriceLimitX96 !== undefined) stats.limited++
    if (input.mode === 'dust') stats.dust++
    // The specified side: token0 for exact input selling token0 or exact output buying it.
    const fullyFilled = ((input.amountSpecified > 0n) === input.zeroForOne ? actual.amount0 : actual.amount1) === input.amountSpecified
    if (!fullyFilled) stats.partialFills++
    const tally = perPool.get(name) ?? { ticksCrossed: 0, emptyEnds: 0 }
    perPool.set(name, tally)
    if (actual.liquidity === 0n) {
      stats.endedWithoutLiquidity++
      tally.emptyEnds++
    }
    const wordOf = (tick: number) => compress(tick, tickSpacing) >> 8
    if (wordOf(before.tick) !== wordOf(actual.tick)) stats.swapsCrossingWords++

    // 1. The full state (every initialized tick) predicts every swap.
    if (!fullPrediction) record('simulateSwap on the full state', actual, undefined)
    else {
      if (!sameOutcome(pickOutcome(fullPrediction), actual)) record('simulateSwap on the full state', actual, pickOutcome(fullPrediction))
      stats.initializedTicksCrossed += fullPrediction.initializedTicksCrossed
      tally.ticksCrossed += fullPrediction.initializedTicksCrossed
      if (fullPrediction.initializedTicksCrossed > 0) stats.swapsCrossingTicks++
    }

    // 2. The state as read predicts it exactly when it knows every word the swap searched, and refuses otherwise.
    const lensCoverage = judgeCoverage(input.zeroForOne, actual.sqrtPriceX96, tickSpacing, read.tickLower, read.tickUpper)
    if (lensCoverage === 'beyond') stats.lensBeyond++
    checkPrediction('simulateSwap on the read state', lensCoverage, lensPrediction, actual, record)

    // 3. The family's pool quotes swaps without a limit: exactly when filled in full within the read range.
    if (input.sqrtPriceLimitX96 === undefined) {
      stats.quotesChecked++
      checkQuote('UniswapV3Pool quote on the read state', lens, input, fullyFilled, lensCoverage, actual, record)
    }

    // 4. Narrowed states: just the words the swap spans (must match), and one word short (must refuse).
    const startWord = wordOf(before.tick)
    const known: [number, number][] = []
    if (input.zeroForOne) {
      const top = (startWord * 256 + 255) * tickSpacing
      const endWord = wordOf(actual.tick)
      known.push([endWord * 256 * tickSpacing, top])
      if (endWord + 1 <= startWord) {
        known.push([(endWord + 1) * 256 * tickSpacing, top])
        // A partly known word is an unknown word.
        known.push([(endWord + 1) * 256 * tickSpacing - 1, top])
      }
    } else {
      const bottom = startWord * 256 * tickSpacing
      const endWord = (compress(actual.tick, tickSpacing) + 1) >> 8
      known.push([bottom, (endWord * 256 + 255) * tickSpacing])
      if (endWord - 1 >= startWord) {
        known.push([bottom, ((endWord - 1) * 256 + 255) * tickSpacing])
        known.push([bottom, ((endWord - 1) * 256 + 255) * tickSpacing + 1])
      }
    }
    for (const [tickLower, tickUpper] of known) {
      const narrowed = buildPool(narrowState(fullState, Math.max(MIN_TICK, tickLower), Math.min(MAX_TICK, tickUpper)))
      const coverage = judgeCoverage(input.zeroForOne, actual.sqrtPriceX96, tickSpacing, narrowed.tickLower, narrowed.tickUpper)
      stats.narrowedChecks++
      if (coverage === 'beyond') stats.narrowedRefusals++
      if (coverage === 'edge') stats.edges++
      const label = `[${narrowed.tickLower}, ${narrowed.tickUpper}]`
      const prediction = simulateSwap(narrowed, input.zeroForOne, input.amountSpecified, input.sqrtPriceLimitX96)
      checkPrediction(`simulateSwap on the state narrowed to ${label}`, coverage, prediction, actual, record)
      if (input.sqrtPriceLimitX96 === undefined) {
        checkQuote(`UniswapV3Pool quote on the state narrowed to ${label}`, narrowed, input, fullyFilled, coverage, actual, record)
      }
    }
  }
}

function checkPrediction(
  check: string,
  coverage: Coverage,
  prediction: SimulateSwapReturnType | undefined,
  actual: Outcome,
  record: (check: string, expected: unknown, actual: unknown) => void,
): void {
  if (coverage === 'beyond') {
    if (prediction !== undefined) record(`${check} (must refuse)`, undefined, pickOutcome(prediction))
    return
  }
  if (prediction === undefined) {
    if (coverage === 'inside') record(check, actual, undefined)
    return
  }
  if (!sameOutcome(pickOutcome(prediction), actual)) record(check, actual, pickOutcome(prediction))
}

function checkQuote(
  check: string,
  pool: UniswapV3Pool,
  input: SwapInput,
  fullyFilled: boolean,
  coverage: Coverage,
  actual: Outcome,
  record: (check: string, expected: unknown, actual: unknown) => void,
): void {
  const quote = quoteThroughFamily(pool, input)
  const got =
    quote === undefined
      ? undefined
      : (() => {
          const next = quote.next as UniswapV3Pool
          return { amountIn: quote.amountIn, amountOut: quote.amountOut, sqrtPriceX96: next.sqrtPriceX96, tick: next.tick, liquidity: next.liquidity }
        })()
  if (!fullyFilled || coverage === 'beyond') {
    if (got !== undefined) record(`${check} (must refuse: ${fullyFilled ? 'beyond the known words' : 'not filled in full'})`, undefined, got)
    return
  }
  const [paid, received] = input.zeroForOne ? [actual.amount0, -actual.amount1] : [actual.amount1, -actual.amount0]
  const expected = { amountIn: paid, amountOut: received, sqrtPriceX96: actual.sqrtPriceX96, tick: actual.tick, liquidity: actual.liquidity }
  if (got === undefined) {
    if (coverage === 'inside') record(check, expected, undefined)
    return
  }
  if (toJson(got) !== toJson(expected)) record(check, expected, got)
}

describe('Uniswap V3 adapter vs the real pool bytecode', () => {
  const specs = DEVNET_POOLS.filter((spec) => spec.family === 'uniswapV3')
  for (const spec of specs) {
    const fee = spec.family === 'uniswapV3' ? spec.fee : 0
    it(`matches ${SWAPS_PER_POOL} random swaps on ${spec.pair.join('/')} ${fee} to the wei`, async () => {
      const pool = devnet.getPool(spec.pair[0], spec.pair[1], 'uniswapV3', fee)
      const before = mismatches.length
      await runWalk(pool)
      const found = mismatches.slice(before)
      if (found.length > 0) console.error(`mismatches on ${spec.pair.join('/')} ${fee}:\n${toJson(found)}`)
      expect(found).toEqual([])
    })
  }

  it('covered what it set out to cover', () => {
    expect(stats.swaps).toBeGreaterThanOrEqual(150)
    expect(stats.exactIn).toBeGreaterThan(40)
    expect(stats.exactOut).toBeGreaterThan(40)
    expect(stats.limited).toBeGreaterThan(20)
    expect(stats.dust).toBeGreaterThan(10)
    expect(stats.partialFills).toBeGreaterThan(5)
    expect(stats.swapsCrossingTicks).toBeGreaterThan(20)
    expect(stats.swapsCrossingWords).toBeGreaterThan(10)
    expect(stats.endedWithoutLiquidity).toBeGreaterThan(3)
    expect(stats.lensBeyond).toBeGreaterThan(10)
    for (const [name, tally] of perPool) expect(tally.ticksCrossed, name).toBeGreaterThan(0)
    // The LINK/USDC walk ends swaps in its empty ranges (the gaps between positions or past them).
    expect(perPool.get('LINK/USDC 10000')?.emptyEnds).toBeGreaterThan(0)
    expect(stats.narrowedRefusals).toBeGreaterThan(20)
    expect(stats.quotesChecked).toBeGreaterThan(80)
    expect(mismatches).toEqual([])
  })
})
