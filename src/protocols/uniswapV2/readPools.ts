import { type Address, encodePacked, getCreate2Address, keccak256 } from 'viem'
import type { DexConfig } from '../../chains/types.js'
import { readDeploylessMulticall } from '../readDeploylessMulticall.js'
import type { ReadPoolsParameters } from '../types.js'
import type { UniswapV2PoolState } from './state.js'

const getReservesAbi = [
  {
    type: 'function',
    name: 'getReserves',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'reserve0', type: 'uint112' },
      { name: 'reserve1', type: 'uint112' },
      { name: 'blockTimestampLast', type: 'uint32' },
    ],
  },
  {
    type: 'function',
    name: 'price0CumulativeLast',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const

/**
 * The CREATE2 address of a V2 pair: salt keccak256(token0 ++ token1) from the
 * dex's factory and init-code hash. Tokens in any order.
 *
 * @example
 * getUniswapV2PairAddress(ethereum.dexes[0], weth, usdc)
 */
export function getUniswapV2PairAddress(dex: Pick<DexConfig, 'factory' | 'initCodeHash'>, tokenA: Address, tokenB: Address): Address {
  const [token0, token1] = sortTokens(tokenA, tokenB)
  return getCreate2Address({
    from: dex.factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
    bytecodeHash: dex.initCodeHash,
  }).toLowerCase() as Address
}

/** Two token addresses in the pools' order (numerically ascending), lowercased. */
export function sortTokens(tokenA: Address, tokenB: Address): [Address, Address] {
  const a = tokenA.toLowerCase() as Address
  const b = tokenB.toLowerCase() as Address
  return a < b ? [a, b] : [b, a]
}

/** Calls per candidate pair in the multicall: getReserves, then price0CumulativeLast. */
const READS_PER_PAIR = 2

/**
 * Reads every V2 pair among `tokens` on the given dexes at one block, in
 * deployless multicalls (no Multicall3 needed on the chain) sized to fit the
 * node's caps ({@link readDeploylessMulticall}). A pair without code or
 * without reserves is no candidate; a node failure throws.
 *
 * @example
 * const states = await readUniswapV2Pools({ client, chain, blockNumber, tokens: [weth, usdc, dai], dexes: [uniswapV2Dex] })
 */
export async function readUniswapV2Pools({ client, blockNumber, tokens, dexes }: ReadPoolsParameters): Promise<UniswapV2PoolState[]> {
  const candidates: { dex: DexConfig; address: Address; token0: Address; token1: Address }[] = []
  for (const dex of dexes) {
    for (let i = 0; i < tokens.length; i++) {
      for (let j = i + 1; j < tokens.length; j++) {
        const [token0, token1] = sortTokens(tokens[i]!, tokens[j]!)
        candidates.push({ dex, token0, token1, address: getUniswapV2PairAddress(dex, token0, token1) })
      }
    }
  }
  if (candidates.length === 0) return []
  // Each pair's reserves, then its price accumulator (zero on a pair never swapped: its first swap costs more gas).
  const results = await readDeploylessMulticall(
    client,
    blockNumber,
    candidates.flatMap((c) => [
      { address: c.address, abi: getReservesAbi, functionName: 'getReserves' },
      { address: c.address, abi: getReservesAbi, functionName: 'price0CumulativeLast' },
    ]),
  )
  const states: UniswapV2PoolState[] = []
  candidates.forEach((c, i) => {
    const result = results[READS_PER_PAIR * i]!
    const accumulator = results[READS_PER_PAIR * i + 1]!
    if (result.status !== 'success' || !Array.isArray(result.result)) return
    const answer: unknown = result.result
    const [reserve0, reserve1] = answer as readonly [bigint, bigint, number]
    if (reserve0 === 0n || reserve1 === 0n) return
    states.push({
      family: 'uniswapV2',
      dex: c.dex.id,
      address: c.address,
      token0: c.token0,
      token1: c.token1,
      reserve0: reserve0.toString(),
      reserve1: reserve1.toString(),
      ...(accumulator.status === 'success' && accumulator.result === 0n ? { accumulatorsZero: true } : {}),
    })
  })
  return states
}
