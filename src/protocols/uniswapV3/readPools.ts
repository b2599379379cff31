import { type Address, type Hex, decodeAbiParameters, encodeAbiParameters, encodeDeployData, getCreate2Address, keccak256 } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import { hostError } from '../../errors/QuoteError.js'
import { isLensOverflow } from '../isLensOverflow.js'
import type { ReadPoolsParameters } from '../types.js'
import type { UniswapV3PoolState, UniswapV3Tick } from './state.js'
import { MAX_TICK, MIN_TICK } from './tickMath.js'
import { PackedReader } from '../packedReader.js'

/**
 * The CREATE2 address of a V3 pool: salt keccak256(abi.encode(token0, token1,
 * uint24 fee)) from the dex's factory (PancakeSwap V3: its pool deployer) and
 * init-code hash. Tokens in any order; the address is lowercase.
 *
 * @example
 * getUniswapV3PoolAddress(ethereum.dexes[1], weth, usdc, 500)
 */
export function getUniswapV3PoolAddress(
  dex: Pick<DexConfig, 'factory' | 'initCodeHash'>,
  tokenA: Address,
  tokenB: Address,
  fee: number,
): Address {
  const [token0, token1] = sortPair(tokenA, tokenB)
  return getCreate2Address({
    from: dex.factory,
    salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, fee])),
    bytecodeHash: dex.initCodeHash,
  }).toLowerCase() as Address
}

/**
 * Bitmap words read on each side of a pool's current word: enough to cover
 * about ±13,900 ticks (a 4x price move) beyond it, at most 32 words (spacing
 * 1: 32, 10: 6, 60 and 200: 1).
 *
 * @example
 * getUniswapV3WordRadius(10) // 6
 */
export function getUniswapV3WordRadius(tickSpacing: number): number {
  return Math.min(MAX_WORD_RADIUS, Math.ceil(TICK_REACH / (256 * tickSpacing)))
}

/**
 * Reads every V3 pool among `tokens` on the given dexes (every pair, every fee
 * tier of `DexConfig.feeTiers`) at one block, in one `eth_call` of the
 * undeployed UniswapV3Lens (contracts/lens): a candidate without code or not
 * yet initialized is dropped; one with no liquidity in range is kept, as it
 * may hold liquidity further out. Each state knows the initialized ticks of
 * the bitmap words around its price ({@link getUniswapV3WordRadius}), and its
 * `tickLower`/`tickUpper` are those words' bounds; `freshOutside0`/`freshOutside1`
 * list the ticks whose fee growth outside is still zero (for the gas of crossing them). A chunk whose answer the
 * lens refuses as too large (many ticks) is read in halves. Node errors propagate.
 *
 * @example
 * const states = await readUniswapV3Pools({ client, chain: base, blockNumber, tokens: [weth, usdc], dexes: [uniswapV3Dex] })
 */
export async function readUniswapV3Pools({ client, blockNumber, tokens, dexes }: ReadPoolsParameters): Promise<UniswapV3PoolState[]> {
  const candidates: Candidate[] = []
  for (const dex of dexes) {
    for (const [feeKey, tickSpacing] of Object.entries(dex.feeTiers ?? {})) {
      const fee = Number(feeKey)
      if (!Number.isInteger(tickSpacing) || tickSpacing < 1 || tickSpacing > MAX_TICK_SPACING) {
        throw hostError(`Invalid chain configuration: uniswapV3 dex ${dex.id} fee tier ${fee} has an invalid tick spacing ${tickSpacing}`)
      }
      for (let i = 0; i < tokens.length; i++) {
        for (let j = i + 1; j < tokens.length; j++) {
          const [token0, token1] = sortPair(tokens[i]!, tokens[j]!)
          if (token0 === token1) continue
          const address = getUniswapV3PoolAddress(dex, token0, token1, fee)
          candidates.push({ dex, address, token0, token1, fee, tickSpacing })
        }
      }
    }
  }
  if (candidates.length === 0) return []

  // Chunks keep each answer under the lens's returned-code limit; they go out in parallel.
  const chunks: Candidate[][] = []
  for (let i = 0; i < candidates.length; i += MAX_POOLS_PER_CALL) chunks.push(candidates.slice(i, i + MAX_POOLS_PER_CALL))
  const lists = await Promise.all(chunks.map((chunk) => readChunkOrHalves(client, blockNumber, chunk)))
  return lists.flat()
}

/**
 * A chunk's states; when the lens refuses it as too big (the pools' ticks take more than the
 * 24,576 bytes one answer may, or the call's gas), its two halves in parallel, at the same block.
 * A single pool the lens refuses, or any other failure, throws.
 */
async function readChunkOrHalves(client: ReadPoolsParameters['client'], blockNumber: bigint, chunk: Candidate[]): Promise<UniswapV3PoolState[]> {
  try {
    return await readChunk(client, blockNumber, chunk)
  } catch (error) {
    if (chunk.length < 2 || !isLensOverflow(error)) throw error
    const half = Math.ceil(chunk.length / 2)
    const halves = await Promise.all([chunk.slice(0, half), chunk.slice(half)].map((part) => readChunkOrHalves(client, blockNumber, part)))
    return halves.flat()
  }
}

type Candidate = {
  dex: DexConfig
  address: Address
  token0: Address
  token1: Address
  fee: number
  tickSpacing: number
}

const TICK_REACH = 13_900
const MAX_WORD_RADIUS = 32
const MAX_TICK_SPACING = 16_383
const MAX_POOLS_PER_CALL = 128

// The lens's record statuses (contracts/lens/UniswapV3Lens.sol).
const STATUS_READ = 3
// The lens's `fresh` bits: storage the pool's next swap writes from zero.
const FRESH_FEE_GROWTH_0 = 1
const FRESH_FEE_GROWTH_1 = 2
const FRESH_PROTOCOL_FEES = 4
// The pool has a gauge (Slipstream), and its reward growth is still zero.
const GAUGED = 8
const FRESH_REWARD_GROWTH = 16
// A tick's freshOutside bits: its feeGrowthOutside0X128 / feeGrowthOutside1X128 is zero, and (Slipstream) its rewardGrowthOutsideX128.
const FRESH_OUTSIDE_0 = 1
const FRESH_OUTSIDE_1 = 2
const FRESH_REWARD_OUTSIDE = 4

async function readChunk(client: ReadPoolsParameters['client'], blockNumber: bigint, chunk: Candidate[]): Promise<UniswapV3PoolState[]> {
  const queries = chunk.map(
    (c) => BigInt(c.address) | (BigInt(c.tickSpacing) << 160n) | (BigInt(getUniswapV3WordRadius(c.tickSpacing)) << 184n),
  )
  // Loaded on first use: pages that never read a node never download the lens.
  const { uniswapV3LensAbi, uniswapV3LensBytecode } = await import('../../executor/lensArtifacts.js')
  const { data } = await client.call({
    data: encodeDeployData({ abi: uniswapV3LensAbi, bytecode: uniswapV3LensBytecode, args: [queries] }),
    blockNumber,
  })
  if (data === undefined) throw new Error('UniswapV3Lens returned no data')
  const [packed] = decodeAbiParameters([{ type: 'bytes' }], data)
  return decodeLensResult(packed, chunk)
}

/** Decodes the lens's packed records, one per candidate, into the states worth keeping. */
function decodeLensResult(packed: Hex, chunk: Candidate[]): UniswapV3PoolState[] {
  const reader = new PackedReader(packed, 'UniswapV3Lens')
  const states: UniswapV3PoolState[] = []
  for (const c of chunk) {
    const status = Number(reader.uint(1))
    if (status !== STATUS_READ) continue
    const fresh = Number(reader.uint(1))
    const sqrtPriceX96 = reader.uint(20)
    const tick = Number(reader.int(3))
    const liquidity = reader.uint(16)
    const wordLower = Number(reader.int(2))
    const wordUpper = Number(reader.int(2))
    const count = Number(reader.uint(2))
    const ticks: UniswapV3Tick[] = []
    // Ticks whose fee growth outside is still zero, per token (the lens's freshOutside bits).
    const freshOutside: [number[], number[]] = [[], []]
    const freshRewardOutside: number[] = []
    for (let k = 0; k < count; k++) {
      const index = Number(reader.int(3))
      ticks.push({ index, liquidityNet: reader.int(16).toString() })
      const bits = Number(reader.uint(1))
      if ((bits & FRESH_OUTSIDE_0) !== 0) freshOutside[0].push(index)
      if ((bits & FRESH_OUTSIDE_1) !== 0) freshOutside[1].push(index)
      if ((bits & FRESH_REWARD_OUTSIDE) !== 0) freshRewardOutside.push(index)
    }
    // The lens reads words and bits in ascending order; sorting keeps the state's contract even so.
    ticks.sort((a, b) => a.index - b.index)
    states.push({
      family: 'uniswapV3',
      dex: c.dex.id,
      address: c.address,
      token0: c.token0,
      token1: c.token1,
      fee: c.fee,
      tickSpacing: c.tickSpacing,
      sqrtPriceX96: sqrtPriceX96.toString(),
      tick,
      liquidity: liquidity.toString(),
      ticks,
      tickLower: Math.max(MIN_TICK, wordLower * 256 * c.tickSpacing),
      tickUpper: Math.min(MAX_TICK, (wordUpper * 256 + 255) * c.tickSpacing),
      freshOutside0: freshOutside[0].sort((a, b) => a - b),
      freshOutside1: freshOutside[1].sort((a, b) => a - b),
      ...((fresh & GAUGED) !== 0
        ? { gauge: { rewardGrowthFresh: (fresh & FRESH_REWARD_GROWTH) !== 0, freshRewardOutside: freshRewardOutside.sort((a, b) => a - b) } }
        : {}),
      ...(fresh !== 0
        ? {
            freshSlots: {
              feeGrowth0: (fresh & FRESH_FEE_GROWTH_0) !== 0,
              feeGrowth1: (fresh & FRESH_FEE_GROWTH_1) !== 0,
              protocolFees: (fresh & FRESH_PROTOCOL_FEES) !== 0,
            },
          }
        : {}),
    })
  }
  if (!reader.done()) throw new Error('UniswapV3Lens returned more records than it was asked for')
  return states
}

function sortPair(tokenA: Address, tokenB: Address): [Address, Address] {
  const a = tokenA.toLowerCase() as Address
  const b = tokenB.toLowerCase() as Address
  return a < b ? [a, b] : [b, a]
}
